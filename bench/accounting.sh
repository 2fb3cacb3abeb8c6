#!/usr/bin/env bash
# accounting.sh - what whole-run accounting (src/lib/accounting.c) gets right and
# what it costs, measured here:
#   - how far past --cpu a run of 8 processes gets before it is stopped,
#     and a single process under a fraction of a second;
#   - how much a run of 6 processes holds when stopped at --mem;
#   - the supervisor's own CPU per second of a CPU-bound run;
#   - what a stream of shared anonymous mappings (each shown to the
#     supervisor) costs the supervisor, and the program;
#   - start-up of /bin/true with --cpu and --mem (accounting on) against
#     --cpu 0 --mem 0 (off), and against BASELINE if given (a sandlock
#     binary without whole-run accounting, e.g. built from the commit
#     before it), interleaved in one loop so that the machine's noise
#     falls on both.
#
#   SANDLOCK=build/sandlock [BASELINE=old/sandlock] [ROUNDS=20] bench/accounting.sh
# Writes bench/results/accounting.txt.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
S=${SANDLOCK:-$ROOT/build/sandlock}
ROUNDS=${ROUNDS:-20}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -O1 "$ROOT/tests/progs/tree.c" -o "$W/tree" && cc -O1 "$ROOT/tests/progs/busy.c" -o "$W/busy" || exit 1
cat >"$W/maps.c" <<'CEOF'
#include <stdlib.h>
#include <sys/mman.h>
int main(int argc, char **argv)
{
	for (int i = 0, n = atoi(argv[1]); i < n; i++)
		if (mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			return 1;
	return 0;
}
CEOF
cc -O1 "$W/maps.c" -o "$W/maps" || exit 1
mkdir "$W/d"
chmod 755 "$W"
chmod 777 "$W/d"
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
stats() { # label values...: min median max
	python3 - "$@" <<'PYEOF'
import statistics, sys
v = sorted(float(x) for x in sys.argv[2:])
print(f"{sys.argv[1]}: min {v[0]:.0f}  median {statistics.median(v):.0f}  max {v[-1]:.0f}  (n={len(v)})")
PYEOF
}
out=$HERE/results/accounting.txt
{
echo "# bench/accounting.sh, $(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r)"
echo "# SANDLOCK=$(basename "$S") ROUNDS=$ROUNDS"
over=() sup=()
for _ in $(seq "$ROUNDS"); do
	rm -f "$W"/d/*
	"$S" --report "$W/r.json" --cpu 1 --nproc 20 -- "$W/tree" cpu 8 800 "$W/d" >/dev/null
	over+=($(( $(field "$W/r.json" cpu_ms) - 1000 )))
done
stats "ms of CPU past --cpu 1, 8 processes on every CPU" "${over[@]}"
over=()
for _ in $(seq "$ROUNDS"); do
	"$S" --report "$W/r.json" --cpu 0.3 -- "$W/busy" 3000 >/dev/null
	over+=($(( $(field "$W/r.json" cpu_ms) - 300 )))
done
stats "ms of CPU past --cpu 0.3, one process" "${over[@]}"
held=()
for _ in $(seq "$ROUNDS"); do
	rm -f "$W"/d/*
	"$S" --report "$W/r.json" --mem 256 --nproc 20 -- "$W/tree" mem 6 150 "$W/d" >/dev/null
	held+=($(( $(field "$W/r.json" peak_kb) / 1024 )))
done
stats "MB held when stopped at --mem 256, 6 processes of 150 MB" "${held[@]}"
for _ in $(seq 5); do
	"$S" --report "$W/r.json" -- "$W/busy" 2000 >/dev/null
	sup+=("$(field "$W/r.json" supervisor_cpu_ms)")
done
stats "supervisor CPU ms per 2 s CPU-bound run" "${sup[@]}"
sup=() prog=()
for _ in $(seq 5); do
	"$S" --no-fork --report "$W/r.json" -- "$W/maps" 20000 >/dev/null
	sup+=("$(field "$W/r.json" supervisor_cpu_ms)")
	prog+=("$(field "$W/r.json" cpu_ms)")
done
stats "supervisor CPU ms for 20,000 shared 4 KB mappings kept" "${sup[@]}"
stats "run's CPU ms for them (its own and the supervisor's, charged)" "${prog[@]}"
# start-up: accounting on (the defaults) against off, and the baseline
python3 - "$S" "$((ROUNDS * 20))" "${BASELINE:-}" <<'PYEOF'
import statistics, subprocess, sys, time
s, n, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
arms = {"on": [s, "--", "/bin/true"], "off": [s, "--cpu", "0", "--mem", "0", "--", "/bin/true"]}
if base:
    arms["baseline"] = [base, "--", "/bin/true"]
t = {k: [] for k in arms}
for i in range(n):
    for k in (list(arms) if i % 2 else list(arms)[::-1]):
        t0 = time.perf_counter()
        subprocess.run(arms[k], check=True)
        t[k].append(time.perf_counter() - t0)
m = {k: statistics.median(v) * 1e6 for k, v in t.items()}
print(f"start-up of /bin/true, median of {n}: accounting on {m['on']:.0f} us, off {m['off']:.0f} us, "
      f"ratio {m['on'] / m['off']:.3f}")
if base:
    print(f"  baseline {m['baseline']:.0f} us, ratio {m['on'] / m['baseline']:.3f}")
PYEOF
} | tee "$out"
