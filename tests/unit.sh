#!/bin/bash
# The unit tests (tests/unit, cmocka), counted with the rest: each binary's
# own tally, one summary line.   tests/unit.sh BUILD-DIR
set -u
BUILD=${1:?build directory}
P=0 F=0
for t in "$BUILD"/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1)
	st=$?
	p=$(echo "$out" | sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' | tail -1)
	f=$(echo "$out" | sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' | tail -1)
	P=$((P + ${p:-0})) F=$((F + ${f:-0}))
	echo "$out" | grep -E '^\[  (FAILED|ERROR) ' | sed "s|^|FAIL $(basename "$t"): |"
	if [ $st != 0 ] && [ "${f:-0}" = 0 ]; then echo "FAIL $(basename "$t") exited $st"; F=$((F + 1)); fi
	[ -z "$p$f" ] && [ $st = 0 ] && { echo "FAIL $(basename "$t"): no tally"; F=$((F + 1)); }
done
echo "unit: $P passed, $F failed, 0 skipped"
[ $F = 0 ]
