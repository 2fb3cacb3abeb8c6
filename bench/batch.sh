#!/bin/bash
# Compile once, run many tests (issue 14): 100 tests of a C program and of a
# Python program through one `sandlock batch` against 100 separate `sandlock`
# runs (the way a judge used the command line before: one run per test, its
# output compared with cmp), measured in this script, alternating, ROUNDS
# rounds, the median kept.  Per test: the batch's whole time minus its
# compile step's wall time, over 100; the CLI's: its whole loop over 100 (the
# C program compiled once beforehand, not counted).  Writes
# results/batch.txt.
#   SANDLOCK=../build/sandlock ./batch.sh      (ROUNDS=5, TESTS=100)
set -u
cd "$(dirname "$0")"
SANDLOCK=$(realpath "${SANDLOCK:-../build/sandlock}")
ROUNDS=${ROUNDS:-5}
TESTS=${TESTS:-100}
OUT=${OUT:-results/batch.txt}
W=$(mktemp -d /tmp/sandlock-bench-batch.XXXXXX)
trap 'rm -rf "$W"' EXIT
chmod 755 "$W"
cat > "$W/sum.c" <<'C'
#include <stdio.h>
int main(void) { long a, b; if (scanf("%ld %ld", &a, &b) != 2) return 1; printf("%ld\n", a + b); return 0; }
C
printf 'a, b = map(int, input().split())\nprint(a + b)\n' > "$W/sum.py"
for i in $(seq 1 "$TESTS"); do
	echo "$i $((i * 7))" > "$W/$i.in"
	echo "$((i * 8))" > "$W/$i.out"
done
chmod -R a+rX "$W"
manifest() { # LANG
	if [ "$1" = c ]; then
		echo '{"compile": {"argv": ["gcc", "-O2", "-o", "prog", "sum.c"], "options": ["--profile", "c:compile"], "files": {"sum.c": "sum.c"}}}'
		echo '{"run": {"argv": ["./prog"], "options": ["--profile", "c:run"]}}'
	else
		echo '{"run": {"argv": ["python3", "sum.py"], "options": ["--profile", "python:run"], "files": {"sum.py": "sum.py"}}}'
	fi
	for i in $(seq 1 "$TESTS"); do
		echo "{\"test\": {\"name\": \"$i\", \"stdin\": \"$i.in\", \"expected\": \"$i.out\"}}"
	done
}
manifest c > "$W/c.jsonl"
manifest py > "$W/py.jsonl"
mkdir "$W/cbuild" && cp "$W/sum.c" "$W/cbuild/" && chmod 777 "$W/cbuild"
"$SANDLOCK" --profile c:compile --workdir "$W/cbuild" -- gcc -O2 -o prog sum.c || exit 1
chmod 755 "$W/cbuild"
cp "$W/sum.py" "$W/cbuild/"
chmod -R a+rX "$W/cbuild"
now() { date +%s%N; }
batch_ms() { # LANG -> per-test microseconds
	local t0 t1 comp
	t0=$(now)
	"$SANDLOCK" batch "$W/$1.jsonl" > "$W/res" || { echo "batch failed" >&2; exit 1; }
	t1=$(now)
	comp=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["step"] == "compile": print(r["report"]["wall_us"]); break
else: print(0)' "$W/res")
	echo $(( ((t1 - t0) / 1000 - comp) / TESTS ))
}
cli_ms() { # LANG -> per-test microseconds
	local t0 t1 i cmd
	if [ "$1" = c ]; then cmd=(--profile c:run --workdir "$W/cbuild" -- ./prog)
	else cmd=(--profile python:run --workdir "$W/cbuild" -- python3 sum.py); fi
	t0=$(now)
	for i in $(seq 1 "$TESTS"); do
		"$SANDLOCK" "${cmd[@]:0:4}" --stdin "$W/$i.in" "${cmd[@]:4}" > "$W/o" || exit 1
		cmp -s "$W/o" "$W/$i.out" || { echo "wrong output on $i" >&2; exit 1; }
	done
	t1=$(now)
	echo $(( (t1 - t0) / 1000 / TESTS ))
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
{
	echo "# bench/batch.sh: $TESTS tests per batch, $ROUNDS rounds alternating, median (us per test)"
	echo "# command: SANDLOCK=$(basename "$SANDLOCK") ROUNDS=$ROUNDS TESTS=$TESTS bench/batch.sh"
	echo "# host: $(uname -r), $(nproc) CPUs, $(id -un)"
	printf '%-8s %12s %12s %8s\n' lang batch_us cli_us ratio
	for lang in c py; do
		b=() c=()
		for r in $(seq 1 "$ROUNDS"); do
			b+=("$(batch_ms $lang)")
			c+=("$(cli_ms $lang)")
		done
		bm=$(printf '%s\n' "${b[@]}" | median)
		cm=$(printf '%s\n' "${c[@]}" | median)
		printf '%-8s %12s %12s %8s\n' $lang "$bm" "$cm" "$(awk -v a="$bm" -v b="$cm" 'BEGIN {printf "%.2f", a / b}')"
		echo "# $lang rounds: batch ${b[*]}; cli ${c[*]}"
	done
} | tee "$OUT"
