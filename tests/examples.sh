#!/bin/bash
# The example judge (examples/judge/): judge.c built against the library,
# then both judges grade every reference submission of every problem, and
# each verdict must be the one problem.json expects.
#
#   SANDLOCK=path [SANDLOCK_LIB=dir-with-libsandlock.a] [CFLAGS= LDFLAGS=] tests/examples.sh
#   (SANDLOCK_EXTRA_FLAGS=--best-effort on hosts without the kernel layers)
# Last line: "examples: P passed, F failed, S skipped".
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIB=${SANDLOCK_LIB:-$(dirname "$SANDLOCK")}
HOST=${SANDLOCK_HOSTSIM:-full}
BE=
case " ${SANDLOCK_EXTRA_FLAGS:-} " in *" --best-effort "*) BE=--best-effort ;; esac
P=0 F=0 S=0
pass() { echo "PASS $1"; P=$((P + 1)); }
fail() { echo "FAIL [$HOST] $1: $2"; F=$((F + 1)); }
skip() { echo "SKIP $1: $2"; S=$((S + 1)); }

# a copy every uid can read (as root the programs run as 65534)
WORK=$(mktemp -d /tmp/sandlock-examples.XXXXXX)
trap '[ "$BASHPID" = "$$" ] || exit; rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
cp -r "$ROOT/examples/judge" "$WORK/judge"
chmod -R a+rX "$WORK/judge"
cd "$WORK/judge" || exit 1

JUDGE_C=
# CFLAGS/LDFLAGS: those the library was built with (a sanitizer build's)
# shellcheck disable=SC2086
if [ -f "$LIB/libsandlock.a" ] && cc -std=gnu11 -Wall -Wextra -Werror ${CFLAGS:-} -I"$ROOT/include" \
	judge.c "$LIB/libsandlock.a" ${LDFLAGS:-} -o "$WORK/judge-c" 2>"$WORK/cc.err"; then
	JUDGE_C=$WORK/judge-c
	pass "judge.c builds against libsandlock.a"
elif [ -f "$LIB/libsandlock.a" ]; then
	fail "judge.c builds against libsandlock.a" "$(head -3 "$WORK/cc.err")"
else
	skip "judge.c builds against libsandlock.a" "no libsandlock.a in $LIB (SANDLOCK_LIB)"
fi

have() { command -v "$1" >/dev/null 2>&1; }
for pdir in problems/*/; do
	pdir=${pdir%/}
	prob=$(basename "$pdir")
	[ -f "$pdir/problem.json" ] || continue
	cpu_limit_ms=$(/usr/bin/python3 -c 'import json, sys
print(int(float(json.load(open(sys.argv[1])).get("cpu", 1)) * 1000))' "$pdir/problem.json")
	while IFS=$'\t' read -r sub want; do
		[ -n "$sub" ] || continue
		case $sub in *.c) have gcc || { skip "$prob $sub" "no gcc"; continue; } ;; esac
		for judge in py c; do
			if [ $judge = c ]; then
				[ -n "$JUDGE_C" ] || continue
				cmd=("$JUDGE_C" --sandlock "$SANDLOCK")
			else
				cmd=(/usr/bin/python3 judge.py --sandlock "$SANDLOCK")
			fi
			[ -n "$BE" ] && cmd+=("$BE")
			# -v: a line per test (its CPU and wall), then the verdict
			out=$("${cmd[@]}" -v "$pdir" "$pdir/submissions/$sub" 2>"$WORK/err")
			st=$?
			got=$(echo "$out" | tail -1 | awk '{print $2}')
			want_st=1
			[ "$want" = ok ] && want_st=0
			# A spinning submission reaches its CPU limit before the
			# problem's wall clock (10 times it) wherever it gets a tenth
			# of a CPU; on a machine busier than that the wall clock comes
			# first, and wall_limit is then the verdict that matches what
			# was measured: less CPU than the limit (more would be a CPU
			# limit not enforced, and fails)
			loaded=
			if [ "$want" = cpu_limit ] && [ "$got" = wall_limit ]; then
				cpu_ms=$(echo "$out" | awk '$3 == "wall_limit" && $5 == "ms" {print $4; exit}')
				if [ -n "$cpu_ms" ] && [ "$cpu_ms" -lt "$cpu_limit_ms" ]; then
					loaded=" (wall_limit first: $cpu_ms ms of CPU by then, a loaded machine)"
				fi
			fi
			if [ -n "$loaded" ] && [ $st = $want_st ]; then
				pass "judge.$judge $prob $sub: $want$loaded"
			elif [ "$got" = "$want" ] && [ $st = $want_st ]; then
				pass "judge.$judge $prob $sub: $want"
			else
				fail "judge.$judge $prob $sub: $want" \
					"got '$out' status $st $(head -2 "$WORK/err" | tr '\n' ' ')"
			fi
		done
	done < <(/usr/bin/python3 -c 'import json, sys
for k, v in sorted(json.load(open(sys.argv[1])).get("expect", {}).items()):
    print("%s\t%s" % (k, v))' "$pdir/problem.json")
done
# -v: one line per test, then the verdict line
out=$(/usr/bin/python3 judge.py --sandlock "$SANDLOCK" $BE -v problems/sum problems/sum/submissions/ok.py 2>&1)
n=$(echo "$out" | grep -c '^sum [0-9][0-9] ok ')
if [ "$n" = 20 ] && [ "$(echo "$out" | tail -1)" = "sum ok 20/20" ]; then
	pass "judge.py -v: 20 test lines and the verdict"
else
	fail "judge.py -v: 20 test lines and the verdict" "$n lines: $(echo "$out" | tail -2 | tr '\n' ' ')"
fi
echo "examples: $P passed, $F failed, $S skipped"
[ $F = 0 ]
