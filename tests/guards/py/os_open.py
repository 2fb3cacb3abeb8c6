"""Escape: os.open / os.read / os.write."""
import os, sys
out, secret = sys.argv[1], sys.argv[2]
try:
    print(os.read(os.open(secret, os.O_RDONLY), 100).decode())
finally:
    os.write(os.open(out, os.O_WRONLY | os.O_CREAT, 0o644), b"escaped")
