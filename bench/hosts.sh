#!/usr/bin/env bash
# hosts.sh - what a default container costs the sandbox: start-up of the
# seed command line (and of a run that may fork) under the Docker-default
# simulation (tests/hosts/hostsim docker: moby's seccomp profile and
# Docker's capability set applied to the benchmark driver, so every run
# starts below it) against the same runs on the bare host.
#
#   SANDLOCK=../build/sandlock ./hosts.sh       (make -C bench hosts)
#
# The filter applies to a whole process tree, so the bare and the simulated
# runs cannot alternate inside one driver: blocks of BLOCK rounds alternate
# instead (bare, simulated, bare, ...), each block timed by bench/runner, and
# the ratio reported is the median of the per-block ratios of medians.
# Writes bench/results/hosts.txt.
set -u
export LC_ALL=C
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
SANDLOCK=${SANDLOCK:-$ROOT/build/sandlock}
case "$SANDLOCK" in /*) ;; *) SANDLOCK="$(cd "$BENCH_DIR" && cd "$(dirname "$SANDLOCK")" && pwd)/$(basename "$SANDLOCK")" ;; esac
SIM=$ROOT/tests/hosts/hostsim
BLOCKS=${BENCH_HOST_BLOCKS:-6}
BLOCK=${BENCH_HOST_ROUNDS:-60}
OUT=$BENCH_DIR/results/hosts.txt
RUNNER=$BENCH_DIR/runner
[ -x "$RUNNER" ] || make -C "$BENCH_DIR" runner >/dev/null
if ! "$SIM" docker -- /bin/true 2>/dev/null; then
	echo "hosts.sh: the docker simulation does not run here: $("$SIM" docker -- /bin/true 2>&1 | head -1)" >&2
	exit 1
fi

SEED="$SANDLOCK --no-fork --no-network --clean-env --cpu 5 --mem 256"
# name, command line, rounds per block
CASES=("seed-true|$SEED -- /bin/true|$BLOCK"
       "fork-true|$SANDLOCK -- /bin/true|$BLOCK"
       "seed-python|$SEED -- /usr/bin/python3 -c pass|$((BLOCK / 4))")

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
block_median() { # sim|bare ROUNDS CMDLINE: the median of one block, ms
	local pre=()
	[ "$1" = sim ] && pre=("$SIM" docker --)
	"${pre[@]}" "$RUNNER" -n "$2" -w 2 x "$3" | awk -F'\t' '$1 == "stat" && $2 == "x" { print $5 }'
}

{
	echo "# bench/hosts.sh: start-up under the Docker-default simulation / bare host"
	echo "# $BLOCKS blocks per case, alternating bare and simulated; runner medians in ms"
	echo "# kernel $(uname -r); $(nproc) CPUs; $(date -u +%Y-%m-%d)"
	printf '%-12s %10s %10s %8s %8s %8s\n' case bare_ms docker_ms ratio min max
	for c in "${CASES[@]}"; do
		IFS='|' read -r name cmd rounds <<<"$c"
		ratios=() bares=() sims=()
		for _ in $(seq 1 "$BLOCKS"); do
			b=$(block_median bare "$rounds" "$cmd")
			s=$(block_median sim "$rounds" "$cmd")
			[ -n "$b" ] && [ -n "$s" ] || { echo "# $name: a block failed" ; continue; }
			bares+=("$b") sims+=("$s")
			ratios+=("$(awk -v a="$s" -v b="$b" 'BEGIN { printf "%.4f", a / b }')")
		done
		[ ${#ratios[@]} -gt 0 ] || continue
		printf '%-12s %10.3f %10.3f %8.3f %8.3f %8.3f\n' "$name" \
			"$(printf '%s\n' "${bares[@]}" | median)" "$(printf '%s\n' "${sims[@]}" | median)" \
			"$(printf '%s\n' "${ratios[@]}" | median)" \
			"$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)" \
			"$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)"
	done
} | tee "$OUT"
