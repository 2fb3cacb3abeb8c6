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
# The host's own filter makes every system call of every process dearer,
# sandboxed or not: floor-true (/bin/true started by the driver itself) is
# that cost alone, and "over the floor" divides each ratio by it: what the
# container costs the sandbox beyond what it costs any program.
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
CASES=("floor-true|/bin/true|$BLOCK"
       "seed-true|$SEED -- /bin/true|$BLOCK"
       "fork-true|$SANDLOCK -- /bin/true|$BLOCK"
       "seed-python|$SEED -- /usr/bin/python3 -c pass|$((BLOCK / 4))")

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
IMAGE=sandlock-test-empty:1
DOCKER=(docker run --rm --tmpfs /tmp:exec -v /usr:/usr:ro -v /lib:/lib:ro -v /lib64:/lib64:ro
	-v /bin:/bin:ro -v /sbin:/sbin:ro -v /etc:/etc:ro -v "$ROOT:$ROOT:ro" -v "$(dirname "$SANDLOCK"):$(dirname "$SANDLOCK"):ro" "$IMAGE")
REAL=no
if docker info >/dev/null 2>&1; then
	docker image inspect "$IMAGE" >/dev/null 2>&1 ||
		{ tar cf - --files-from /dev/null | docker import - "$IMAGE" >/dev/null; }
	"${DOCKER[@]}" /bin/true 2>/dev/null && REAL=yes
fi
# the same in a real container with Docker's default settings (root)
REAL_CASES=()
[ "$REAL" = yes ] && REAL_CASES=("real-floor-true|/bin/true|$BLOCK"
				 "real-seed-true|$SEED -- /bin/true|$BLOCK"
				 "real-fork-true|$SANDLOCK -- /bin/true|$BLOCK")
block_median() { # sim|bare|container ROUNDS CMDLINE: the median of one block, ms
	local pre=()
	[ "$1" = sim ] && pre=("$SIM" docker --)
	[ "$1" = container ] && pre=("${DOCKER[@]}")
	"${pre[@]}" "$RUNNER" -n "$2" -w 2 x "$3" | awk -F'\t' '$1 == "stat" && $2 == "x" { print $5 }'
}

{
	echo "# bench/hosts.sh: start-up under the Docker-default simulation / bare host"
	echo "# $BLOCKS blocks per case, alternating bare and simulated; runner medians in ms"
	echo "# kernel $(uname -r); $(nproc) CPUs; $(date -u +%Y-%m-%d)"
	echo "# docker_ms: under tests/hosts/hostsim docker; for real-* in a real default container"
	printf '%-15s %10s %10s %8s %8s %8s %10s\n' case bare_ms docker_ms ratio min max over_floor
	for c in "${CASES[@]}" "${REAL_CASES[@]}"; do
		IFS='|' read -r name cmd rounds <<<"$c"
		where=sim
		case $name in real-*) where=container ;; esac
		ratios=() bares=() sims=()
		for _ in $(seq 1 "$BLOCKS"); do
			b=$(block_median bare "$rounds" "$cmd")
			s=$(block_median $where "$rounds" "$cmd")
			[ -n "$b" ] && [ -n "$s" ] || { echo "# $name: a block failed" ; continue; }
			bares+=("$b") sims+=("$s")
			ratios+=("$(awk -v a="$s" -v b="$b" 'BEGIN { printf "%.4f", a / b }')")
		done
		[ ${#ratios[@]} -gt 0 ] || continue
		r=$(printf '%s\n' "${ratios[@]}" | median)
		case $name in floor-true) FLOOR=$r ;; real-floor-true) FLOOR=$r ;; esac
		printf '%-15s %10.3f %10.3f %8.3f %8.3f %8.3f %10s\n' "$name" \
			"$(printf '%s\n' "${bares[@]}" | median)" "$(printf '%s\n' "${sims[@]}" | median)" \
			"$(printf '%s\n' "${ratios[@]}" | median)" \
			"$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)" \
			"$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)" \
			"$(awk -v r="$r" -v f="${FLOOR:-1}" 'BEGIN { printf "%.3f", r / f }')"
	done
} | tee "$OUT"
