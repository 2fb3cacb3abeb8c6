# honest: py_tempdir
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# variant: isolate_tmp | --no-fork --no-network --clean-env --cpu 5 --mem 256 --isolate-tmp | isolate-tmp
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock --isolate-tmp | landlock+isolate-tmp
# evidence: tempfile.TemporaryDirectory (in $TMPDIR) holds 20 files and a subdirectory, renamed, listed, re-read and removed with it; mkstemp and a SpooledTemporaryFile too; the result goes to CWD/result.txt, which the runner reads
# ok-if: grep -qx "tempdir-ok 20 files 3880 bytes" "$CWD/result.txt" && out_has "tempdir-ok"
import os
import shutil
import tempfile

with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "sub"))
    for i in range(20):
        with open(os.path.join(d, "sub", f"f{i}.tmp"), "w") as f:
            f.write("x" * (i * 20 + 4))
    for i in range(20):
        os.rename(os.path.join(d, "sub", f"f{i}.tmp"), os.path.join(d, "sub", f"f{i}.txt"))
    names = sorted(os.listdir(os.path.join(d, "sub")))
    total = sum(len(open(os.path.join(d, "sub", n)).read()) for n in names)
    shutil.copytree(os.path.join(d, "sub"), os.path.join(d, "copy"))
    shutil.rmtree(os.path.join(d, "copy"))
gone = not os.path.exists(d)
fd, p = tempfile.mkstemp(suffix=".dat")
os.write(fd, b"abc")
os.close(fd)
os.unlink(p)
with tempfile.SpooledTemporaryFile(max_size=10) as s:
    s.write(b"y" * 100)
    s.seek(0)
    assert len(s.read()) == 100
with open("result.txt", "w") as r:
    r.write(f"tempdir-ok {len(names)} files {total} bytes\n" if gone else "tempdir not removed\n")
print("tempdir-ok" if gone else "tempdir-bad", tempfile.gettempdir() != "")
