# honest: py_bigfile
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# evidence: writes a 10 MB (10^7 bytes, just under the default --fsize 10 MiB) output file CWD/big.out in 100-byte lines, re-reads it and prints its sha256; the runner checks the size and hashes the file itself
# ok-if: [ "$(fsize "$CWD/big.out")" = 10000000 ] && out_has "bigfile-ok $(sha256sum <"$CWD/big.out" | cut -d' ' -f1)"
import hashlib

with open("big.out", "w") as f:
    for i in range(100000):
        f.write(f"{i:010d} " + "x" * 88 + "\n")
h = hashlib.sha256()
with open("big.out", "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
print("bigfile-ok", h.hexdigest())
