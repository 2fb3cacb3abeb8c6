"""Escape: '..' through the allowed directory, and a symlink placed in it."""
import os, sys
out, secret = sys.argv[1], sys.argv[2]
rel = os.path.relpath(secret, os.getcwd())          # ../outside/secret
for p in (os.getcwd() + "/" + rel, rel):
    try:
        print(open(p).read())
    except OSError as e:
        print("refused", type(e).__name__)
os.symlink(os.path.dirname(out), "outlink")
with open("outlink/" + os.path.basename(out), "w") as f:
    f.write("escaped")
