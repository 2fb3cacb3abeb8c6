# honest: py_read_input
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: blob
# evidence: reads its own source and its 5 MB input file (CWD/blob, relative path) and prints their sha256; the runner recomputes the blob's
# ok-if: out_has "input-ok $(sha256sum < "$CWD/blob" | cut -d' ' -f1)" && out_has "self $(sha256sum < "$CWD/py_read_input.py" | cut -d' ' -f1)"
import hashlib, os
with open("blob", "rb") as f:
    data = f.read()
me = open(os.path.abspath(__file__), "rb").read()
print("self", hashlib.sha256(me).hexdigest())
print("input-ok", hashlib.sha256(data).hexdigest())
