#!/usr/bin/env bash
# cpus.sh - what --cpus auto does to the spread of a fixed workload's times
# when runs go side by side (issue 30).  The workload is a fixed number of
# loop iterations over a 4 MB array (work, not a time budget: contention for
# caches and migrations show in its CPU time, queueing in its wall time).
# PAR runs are started together, ROUNDS times, with and without
# --cpus auto, the two interleaved round by round so that the machine's
# noise falls on both; each run's cpu_ms and wall_ms come from its report.
# Spread: (max - min) / median within a round, then the median over rounds;
# and the coefficient of variation over all runs.
#
#   SANDLOCK=build/sandlock [ROUNDS=10] [PARS="2 4"] [ITER=1000] bench/cpus.sh
# Writes bench/results/cpus.txt.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
S=${SANDLOCK:-$ROOT/build/sandlock}
ROUNDS=${ROUNDS:-10}
PARS=${PARS:-"2 4"}
ITER=${ITER:-1000}
W=$(mktemp -d)
chmod 755 "$W" # the program runs as another uid under root
trap 'rm -rf "$W"' EXIT
cat >"$W/spin.c" <<'CEOF'
/* work N: N passes over a 4 MB array, a fixed amount of work */
#include <stdlib.h>
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;
	size_t len = 4u << 20;
	volatile unsigned char *a = malloc(len);
	unsigned long x = 0;
	for (int p = 0; p < n; p++)
		for (size_t i = 0; i < len; i += 16)
			x += a[i] += (unsigned char)(i + p);
	return (int)(x & 1) * 0;
}
CEOF
cc -O1 -o "$W/spin" "$W/spin.c" || exit 1

round() { # MODE PAR R
	local mode=$1 par=$2 r=$3 i
	local flags=()
	[ "$mode" = auto ] && flags=(--cpus auto)
	for i in $(seq 1 "$par"); do
		"$S" "${flags[@]}" --report "$W/$mode-$par-$r-$i.json" -- "$W/spin" "$ITER" &
	done
	wait
}
for par in $PARS; do
	for r in $(seq 1 "$ROUNDS"); do
		round none "$par" "$r"
		round auto "$par" "$r"
	done
done

/usr/bin/python3 - "$W" "$ROUNDS" "$PARS" "$ITER" <<'PYEOF' >"$HERE/results/cpus.txt"
import glob, json, os, statistics, sys
w, rounds, pars, it = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4]
print("# bench/cpus.sh: a fixed workload (%s passes over 4 MB), PAR runs side by side," % it)
print("# %d rounds, with and without --cpus auto, interleaved; times from each run's report" % rounds)
print("# host: nproc %d, %s, load before %s" % (os.cpu_count(), os.uname().release,
                                                open("/proc/loadavg").read().split()[0]))
print("# spread = (max - min) / median within a round, median over rounds; cv = stdev / mean over all runs")
print("par  mode  runs  cpu_ms_median  cpu_spread  cpu_cv  wall_ms_median  wall_spread  wall_cv  unpinned")
for par in pars:
    for mode in ("none", "auto"):
        cpu_all, wall_all, cs, ws, unpinned = [], [], [], [], 0
        for r in range(1, rounds + 1):
            cpu, wall = [], []
            for f in glob.glob(f"{w}/{mode}-{par}-{r}-*.json"):
                d = json.load(open(f))
                if d.get("verdict") != "ok":
                    continue
                cpu.append(d["cpu_ms"]); wall.append(d["wall_us"] / 1000)
                unpinned += "cpus (" in (d.get("missing") or "")
            if len(cpu) < 2:
                continue
            cpu_all += cpu; wall_all += wall
            cs.append((max(cpu) - min(cpu)) / max(statistics.median(cpu), 1))
            ws.append((max(wall) - min(wall)) / max(statistics.median(wall), 1))
        cv = lambda v: statistics.pstdev(v) / statistics.mean(v) if v else 0
        print("%3s  %-4s  %4d  %13.1f  %10.3f  %6.3f  %14.1f  %11.3f  %7.3f  %8d" % (
            par, mode, len(cpu_all), statistics.median(cpu_all) if cpu_all else 0,
            statistics.median(cs) if cs else 0, cv(cpu_all),
            statistics.median(wall_all) if wall_all else 0, statistics.median(ws) if ws else 0,
            cv(wall_all), unpinned))
PYEOF
cat "$HERE/results/cpus.txt"
