"""Escape: os.open(relative, dir_fd=N): the audit event carries no dir_fd."""
import os, sys
out, secret = sys.argv[1], sys.argv[2]
fd = os.open(".", os.O_RDONLY)
rel_secret = "../" + "/".join(secret.split("/")[-2:])
try:
    print(os.read(os.open(rel_secret, os.O_RDONLY, dir_fd=fd), 100).decode())
finally:
    os.write(os.open("../" + "/".join(out.split("/")[-2:]), os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), b"escaped")
