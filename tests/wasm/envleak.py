"""A student's program hunting the platform's credentials (tests/wasm.py,
the environment without --clean-env): argv[1] is the secrets' known
prefix (never their values); with argv[2] == "walk", every file it can
list is read too (the guest's whole tree; not the host's, where the
bare run proves the environment alone).  Prints HIT and what follows the
prefix wherever it is found, the variables' names, and DONE."""
import os
import sys

prefix = sys.argv[1].encode()
hits = []


def look(where, data):
    i = data.find(prefix)
    while i >= 0:
        hits.append((where, data[i:i + 80]))
        i = data.find(prefix, i + 1)


for k, v in os.environ.items():
    look("os.environ " + k, (k + "=" + v).encode())
for p in ("/proc/self/environ", "/proc/1/environ"):
    try:
        with open(p, "rb") as f:
            look(p, f.read())
    except OSError as e:
        print("unreadable", p, type(e).__name__)
files = 0
if sys.argv[2:] == ["walk"]:
    # its tree ("/") and the standard library's, given at its own path
    for top in ("/", os.path.dirname(os.path.dirname(os.__file__))):
        for root, dirs, names in os.walk(top):
            for n in names:
                try:
                    with open(os.path.join(root, n), "rb") as f:
                        look(os.path.join(root, n), f.read())
                    files += 1
                except OSError:
                    pass
print("NAMES", " ".join(sorted(os.environ)))
print("FILES", files)
for where, data in hits:
    print("HIT", where, data)
print("DONE")
