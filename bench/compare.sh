#!/bin/bash
# Start-up of two sandlock binaries side by side, in one interleaved run of
# bench/runner (every command once per round, rotating order): the ratio
# new/old per profile is what a change costs.
#   bench/compare.sh OLD NEW [ROUNDS]      (make -C bench runner first)
set -eu
OLD=$1 NEW=$2 N=${3:-400}
HERE=$(cd "$(dirname "$0")" && pwd)
DEF="--no-fork --no-network --clean-env --cpu 5 --mem 256"
args=()
for prof in "default|$DEF" "isolate_tmp|$DEF --isolate-tmp" "forking|--no-network --clean-env --cpu 5 --mem 256"; do
	name=${prof%%|*} opts=${prof#*|}
	args+=("old_$name" "$OLD $opts -- /bin/true" "new_$name" "$NEW $opts -- /bin/true")
done
echo "# command: bench/compare.sh OLD NEW $N"
echo "# old: $(sha256sum "$OLD" | cut -c1-16)  new: $(sha256sum "$NEW" | cut -c1-16)"
"$HERE/runner" -n "$N" -w 3 "${args[@]}" | grep -E '^(stat|ratio|#)' |
	awk '$1 != "ratio" || ($2 ~ /^new_/ && $3 ~ /^old_/ && substr($2, 5) == substr($3, 5))'
