#!/bin/bash
# What the watch on a run's places on a tmpfs costs (src/lib/stored.c): a
# program writing its scratch in a loop of 4 KiB pwrites, in a 64 MiB tmpfs
# /tmp of our own (a mount namespace: root), bare and under the seed line
# (its TMPDIR, its working directory, is then a watched place), rounds
# alternating; the ratio is sandboxed over bare, in the same loop.
#   bench/scratch_writes.sh SANDLOCK [ROUNDS]   (root; results: stdout)
set -eu
S=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") N=${2:-5}
[ "$(id -u)" = 0 ] || { echo "scratch_writes.sh: needs root (a tmpfs of its own)" >&2; exit 125; }
PROG='import os, time
fd = os.open(os.path.join(os.environ.get("TMPDIR", "."), "x"), os.O_CREAT | os.O_WRONLY, 0o600)
b = b"q" * 4096
t = time.perf_counter()
for i in range(200000):
    os.pwrite(fd, b, 0)
print("%.0f" % (200000 / (time.perf_counter() - t)))'
exec unshare -m --propagation private /bin/bash -c '
set -eu
mount -t tmpfs -o size=64m,mode=1777 sl-bench-tmp /tmp
mkdir -m 777 /tmp/w && cd /tmp/w
printf "%s\n" "$2" >w.py && chmod 644 w.py
echo "round bare_writes_per_s seed_writes_per_s ratio supervisor_cpu_ms"
for i in $(seq "$3"); do
	bare=$(TMPDIR=/tmp/w /usr/bin/python3 w.py); rm -f x
	seed=$("$1" --no-fork --no-network --clean-env --cpu 20 --mem 256 --report /dev/shm/sl-bench-r.json \
		-- /usr/bin/python3 w.py)
	sup=$(grep -o "\"supervisor_cpu_ms\":[0-9.]*" /dev/shm/sl-bench-r.json | cut -d: -f2)
	echo "$i $bare $seed $(awk -v a="$seed" -v b="$bare" "BEGIN { printf \"%.2f\", a / b }") $sup"
done
rm -f /dev/shm/sl-bench-r.json' bash "$S" "$PROG" "$N"
