# honest: py_tmpdir_file
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --isolate-tmp --no-fork --no-network --clean-env --cpu 5 --mem 256 | isolate-tmp
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256 | landlock
# variant: landlock | --landlock --isolate-tmp --no-fork --no-network --clean-env --cpu 5 --mem 256 | landlock+isolate-tmp
# evidence: writes 1 MB scratch data to $TMPDIR (whatever the sandbox sets), reads it back and deletes it; prints tmpdir-ok with the digest
# ok-if: out_has "tmpdir-ok 1048576"
import hashlib, os
d = os.environ.get("TMPDIR") or "/tmp"
p = os.path.join(d, "scratch-%d.bin" % os.getpid())
blob = bytes(range(256)) * 4096
with open(p, "wb") as f:
    f.write(blob)
with open(p, "rb") as f:
    back = f.read()
os.unlink(p)
assert back == blob
print("tmpdir-ok", len(back), hashlib.md5(back).hexdigest())
