#!/bin/bash
# Start-up cost of keeping runs apart (issue 24): the default allow-list and
# the private HOME/TMPDIR of --clean-env, in one interleaved run of
# bench/runner (every command once per round, rotating order), on the seed
# command line and a forking run:
#   new     the default (allow-list where the kernel has Landlock)
#   nolock  the same binary with --no-landlock (the opt-out: the old open
#           file system, still with the private HOME/TMPDIR)
#   old     (optional) a binary from before both, for the private
#           directory's own share
#   bench/neighbours.sh NEW [OLD] [ROUNDS]      (make -C bench runner first)
set -eu
NEW=$1 OLD=${2:-} N=${3:-400}
HERE=$(cd "$(dirname "$0")" && pwd)
SEED="--no-fork --no-network --clean-env --cpu 5 --mem 256"
FORK="--no-network --clean-env --cpu 5 --mem 256"
# a working directory of the run's own, as a grader gives it (a run from /
# would leave it out, and a shared /tmp is never a rule), which the program
# may write (its TMPDIR then; one it may not write costs a private
# directory per run: BENCH_WD_MODE=755 measures that)
WD=$(mktemp -d "${TMPDIR:-/tmp}/sandlock-bench.XXXXXX")
chmod "${BENCH_WD_MODE:-777}" "$WD"
trap 'rm -rf "$WD"' EXIT
args=()
for prof in "seed|$SEED" "forking|$FORK"; do
	name=${prof%%|*} opts=${prof#*|}
	args+=("new_$name" "$NEW $opts --workdir $WD -- /bin/true"
	       "nolock_$name" "$NEW $opts --no-landlock --workdir $WD -- /bin/true")
	[ -n "$OLD" ] && args+=("old_$name" "$OLD $opts --workdir $WD -- /bin/true")
done
echo "# command: bench/neighbours.sh NEW ${OLD:+OLD }$N"
echo "# new: $(sha256sum "$NEW" | cut -c1-16)${OLD:+  old: $(sha256sum "$OLD" | cut -c1-16)}"
echo "# host: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), uid $(id -u)"
# CPU per run (less at the mercy of the machine's load than wall time)
/usr/bin/python3 "$HERE/cpu_pairs.py" "$N" "${args[@]}"
"$HERE/runner" -n "$N" -w 3 "${args[@]}" | grep -E '^(stat|ratio|#)' |
	awk '$1 != "ratio" || (substr($2, index($2, "_")) == substr($3, index($3, "_")) &&
	     ($2 ~ /^new_/ || ($2 ~ /^nolock_/ && $3 ~ /^old_/)))'
