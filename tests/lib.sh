# Shared helpers of the shell test suites.  Source it; set SANDLOCK first.
PY=/usr/bin/python3
: "${SANDLOCK:?SANDLOCK must point at the sandlock binary}"
T_PASS=0 T_FAIL=0 T_SKIP=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sandlock-test.XXXXXX")
chmod 755 "$WORK"
# (only the suite's own shell: a subshell killed right after its fork, before
# it has reset the handlers it inherited, runs this trap too -- a guard
# subshell of core.sh's signal checks removed the suite's WORK mid-run)
trap '[ "$BASHPID" = "$$" ] && rm -rf "$WORK"' EXIT

pass() { T_PASS=$((T_PASS + 1)); echo "PASS $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL $*"; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP $*"; }

# expect_status NAME WANT CMD...: run CMD, compare its exit status
expect_status() {
	local name=$1 want=$2
	shift 2
	timeout 60 "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
	local got=$?
	if [ "$got" = "$want" ]; then pass "$name"; else
		fail "$name: status $got, want $want; stderr: $(head -c 300 "$WORK/err")"
	fi
}

# json FILE KEY: print a top-level (or a.b) value of a JSON report
json() {
	$PY - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    d = d[k] if isinstance(d, dict) else None
print('null' if d is None else (str(d).lower() if isinstance(d, bool) else d))
PYEOF
}

# expect_json NAME FILE KEY WANT
expect_json() {
	local got
	got=$(json "$2" "$3" 2>&1)
	if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: $3 is '$got', want '$4'"; fi
}

# wait_until SECONDS CMD...: true as soon as CMD succeeds, false if it still
# fails at the deadline.  For events (a process started, a survivor gone):
# a fixed sleep is too short on a loaded machine and too long elsewhere.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.02
	done
}

summary() {
	echo "$1: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" = 0 ]
}
