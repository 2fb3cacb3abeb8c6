# honest: py_read_input
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# setup: blob
# evidence: a submission reads its own input file (CWD/blob, 5 MB) by relative path, in 64 KB chunks and with one read(); prints its size and sha256, which the runner compares with the file
# ok-if: out_has "input-ok 5242880 $(sha256sum <"$CWD/blob" | cut -d' ' -f1)"
import hashlib
import os

h = hashlib.sha256()
with open("blob", "rb") as f:
    for chunk in iter(lambda: f.read(65536), b""):
        h.update(chunk)
with open(os.path.join(os.getcwd(), "blob"), "rb") as f:
    data = f.read()
assert hashlib.sha256(data).hexdigest() == h.hexdigest()
print("input-ok", len(data), h.hexdigest())
