"""Escape: plain open() of a file outside the allowed directories."""
import sys
out, secret = sys.argv[1], sys.argv[2]
try:
    print(open(secret).read())
finally:
    with open(out, "w") as f:
        f.write("escaped")
