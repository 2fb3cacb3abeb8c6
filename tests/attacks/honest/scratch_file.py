# honest: scratch_file
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: writes, re-reads and removes a scratch file in the working directory and one in TMPDIR
# ok-if: out_has "scratch-ok"
import os, tempfile
with open("scratch.txt", "w") as f:
    f.write("hello\n")
assert open("scratch.txt").read() == "hello\n"
os.remove("scratch.txt")
with tempfile.NamedTemporaryFile("w+") as t:
    t.write("tmp")
    t.flush()
    t.seek(0)
    assert t.read() == "tmp"
print("scratch-ok")
