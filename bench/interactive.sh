#!/usr/bin/env bash
# interactive.sh - what relaying an interactive problem's two programs costs
# (`sandlock interactive`, src/judge/interactive.c), and whether putting them on
# one CPU helps.  A ping-pong pair: "ping" sends a short line and waits for
# the echo N times (1000), timing its own loop (start-up is not counted),
# "pong" echoes.  Each variant's microseconds per round trip, against the
# same two programs joined by two direct pipes (the baseline), all in one
# loop, variants interleaved round by round so that the machine's noise
# falls on every one:
#   direct          two pipes, no sandbox, wherever the scheduler puts them
#   direct-1cpu     the same, both on one CPU (taskset)
#   two-runs        each program under its own `sandlock` run, joined by two
#                   direct pipes (what a judge without the relay would do)
#   relay           sandlock interactive --pin off
#   relay-1cpu      sandlock interactive (--pin auto: both sides and the
#                   relay on one CPU)
#
#   SANDLOCK=build/sandlock [ROUNDS=15] [N=1000] bench/interactive.sh
# Writes bench/results/interactive.txt.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
S=${SANDLOCK:-$ROOT/build/sandlock}
ROUNDS=${ROUNDS:-15}
N=${N:-1000}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cat >"$W/pingpong.c" <<'CEOF'
/* pingpong ping N OUT: N round trips on stdin/stdout, microseconds per
 * round trip written to OUT; pingpong pong: echo lines until EOF. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
int main(int argc, char **argv)
{
	char buf[64];
	if (argc > 1 && !strcmp(argv[1], "pong")) {
		ssize_t n;
		while ((n = read(0, buf, sizeof(buf))) > 0)
			if (write(1, buf, (size_t)n) != n)
				return 1;
		return 0;
	}
	if (argc < 4)
		return 2;
	int rounds = atoi(argv[2]);
	double t0 = now();
	for (int i = 0; i < rounds; i++) {
		if (write(1, "ping\n", 5) != 5)
			return 1;
		size_t got = 0;
		while (got < 5) {
			ssize_t n = read(0, buf + got, sizeof(buf) - got);
			if (n <= 0)
				return 1;
			got += (size_t)n;
		}
	}
	double us = (now() - t0) / rounds;
	FILE *f = fopen(argv[3], "w");
	if (!f)
		return 1;
	fprintf(f, "%.2f\n", us);
	return fclose(f) ? 1 : 0;
}
CEOF
cc -O2 "$W/pingpong.c" -o "$W/pingpong" || exit 1
chmod 755 "$W" "$W/pingpong"
mkdir "$W/o" && chmod 777 "$W/o"
P=$W/pingpong

# direct [TASKSET...]: the two programs joined by two pipes
direct() {
	python3 - "$P" "$N" "$W/o/t" "$@" <<'PYEOF'
import os, subprocess, sys
p, n, out, pre = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
a_r, a_w = os.pipe()
b_r, b_w = os.pipe()
pong = subprocess.Popen([*pre, p, "pong"], stdin=a_r, stdout=b_w)
ping = subprocess.Popen([*pre, p, "ping", n, out], stdin=b_r, stdout=a_w)
for fd in (a_r, a_w, b_r, b_w):
    os.close(fd)
sys.exit(ping.wait() or pong.wait())
PYEOF
}
two_runs() {
	python3 - "$S" "$P" "$N" "$W/o/t" <<'PYEOF'
import os, subprocess, sys
s, p, n, out = sys.argv[1:5]
a_r, a_w = os.pipe()
b_r, b_w = os.pipe()
pong = subprocess.Popen([s, "--", p, "pong"], stdin=a_r, stdout=b_w)
ping = subprocess.Popen([s, "--", p, "ping", n, out], stdin=b_r, stdout=a_w)
for fd in (a_r, a_w, b_r, b_w):
    os.close(fd)
sys.exit(ping.wait() or pong.wait())
PYEOF
}
relay() { # PIN
	"$S" interactive --pin "$1" --interactor -- "$P" ping "$N" "$W/o/t" --submission -- "$P" pong
}

VARIANTS="direct direct-1cpu two-runs relay relay-1cpu"
declare -A R
for v in $VARIANTS; do R[$v]=""; done
CPU=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
for _ in $(seq "$ROUNDS"); do
	for v in $VARIANTS; do
		rm -f "$W/o/t"
		case $v in
		direct) direct ;;
		direct-1cpu) direct taskset -c "$CPU" ;;
		two-runs) two_runs ;;
		relay) relay off ;;
		relay-1cpu) relay auto ;;
		esac
		st=$?
		if [ $st != 0 ] || [ ! -s "$W/o/t" ]; then
			echo "$v failed (status $st)" >&2
			exit 1
		fi
		R[$v]="${R[$v]} $(cat "$W/o/t")"
	done
done
out=$HERE/results/interactive.txt
{
echo "# bench/interactive.sh, $(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r)"
echo "# microseconds per round trip ($N round trips of a 5-byte line per run, timed by the"
echo "# program itself), $ROUNDS runs of each variant, interleaved; ratio: median against"
echo "# the median of direct (two pipes, no sandbox) measured in the same loop"
for v in $VARIANTS; do
	python3 - "$v" "${R[direct]}" "${R[$v]}" <<'PYEOF'
import statistics, sys
base = statistics.median(float(x) for x in sys.argv[2].split())
v = sorted(float(x) for x in sys.argv[3].split())
med = statistics.median(v)
print(f"{sys.argv[1]:<12} min {v[0]:7.1f}  median {med:7.1f}  max {v[-1]:7.1f} us   ratio {med / base:5.2f}")
PYEOF
done
} | tee "$out"
