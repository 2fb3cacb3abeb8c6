#!/bin/bash
# The guards inside the program (--guard python, node, preload), each escape
# proven bare first; one summary line for the suite runners.
#   SANDLOCK=... tests/guards/run.sh       last line: "guards: P passed, F failed, S skipped"
HERE=$(cd "$(dirname "$0")" && pwd)
P=0 F=0 S=0
for t in python node preload; do
	[ -f "$HERE/$t.py" ] || continue
	out=$(/usr/bin/python3 "$HERE/$t.py" 2>&1)
	st=$?
	echo "$out" | grep -vE '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed'
	line=$(echo "$out" | grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -z "$line" ]; then
		echo "FAIL guard-$t: no summary line (status $st)"
		F=$((F + 1))
		continue
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
	P=$((P + p)) F=$((F + f)) S=$((S + ${s:-0}))
	[ "$st" != 0 ] && [ "$f" = 0 ] && { echo "FAIL guard-$t exited $st"; F=$((F + 1)); }
done
echo "guards: $P passed, $F failed, $S skipped"
[ "$F" = 0 ]
