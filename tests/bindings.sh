#!/bin/bash
# The bindings' own tests, with the sandlock binary under test:
#   Python  /usr/bin/python3 -m unittest discover -s bindings/python -v
#   Go      go test ./...  in bindings/go and in examples/go-grader
# Each of the three counts as one test.  Go runs offline with a private
# GOCACHE/GOPATH (the modules have no external dependencies), so it works
# on a fresh machine; it is skipped when there is no `go`.
#
# Usage: [SANDLOCK=build/sandlock] tests/bindings.sh
# The last line is "bindings: N passed, M failed, K skipped"; non-zero exit
# on failure.  (tests/run-all.sh calls this with SANDLOCK set.)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T_PASS=0 T_FAIL=0 T_SKIP=0
pass() { T_PASS=$((T_PASS + 1)); echo "PASS $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL $*"; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP $*"; }

S=${SANDLOCK:-$ROOT/build/sandlock}
case $S in
/*) ;;
*/*) S=$(cd "$(dirname "$S")" 2>/dev/null && pwd)/$(basename "$S") ;;
*) S=$(command -v "$S" || echo "$S") ;;
esac
# The tests read SANDLOCK; when it is set but wrong they fail (never skip).
export SANDLOCK=$S

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sandlock-bindings.XXXXXX") || exit 1
trap '[ "$BASHPID" = "$$" ] || exit; chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
TIMEOUT=()
command -v timeout >/dev/null 2>&1 && TIMEOUT=(timeout 900)

# check NAME DIR CMD...: run CMD in DIR, one PASS/FAIL line; the output
# (its tail) is shown only on failure
check() {
	local name=$1 dir=$2
	shift 2
	local log=$WORK/log t0 t1 st
	t0=$(date +%s)
	(cd "$dir" && "${TIMEOUT[@]}" "$@") >"$log" 2>&1 </dev/null
	st=$?
	t1=$(date +%s)
	local summary
	summary=$(grep -E '^(Ran [0-9]+ tests|OK|FAILED|ok |FAIL|--- FAIL|panic:)' "$log" |
		  tr '\n' ' ' | head -c 300)
	if [ $st = 0 ]; then
		pass "$name ($((t1 - t0)) s): $summary"
	else
		fail "$name: status $st ($((t1 - t0)) s): $summary"
		tail -n 60 "$log" | sed 's/^/    /'
	fi
}

# ---- Python ----
if [ -x /usr/bin/python3 ]; then
	# no __pycache__ in the source tree
	check "python bindings" "$ROOT" env PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 -m unittest discover -s bindings/python -v
else
	skip "python bindings: /usr/bin/python3 not found"
fi

# ---- Python package: pip install of bindings/python into a fresh venv,
# offline (the build backend from Debian's python3-setuptools), then the
# installed module runs a real sandbox.  A copy: the build leaves files.
if /usr/bin/python3 -c 'import venv, setuptools, wheel' 2>/dev/null; then
	cp -r "$ROOT/bindings/python" "$WORK/pysrc"
	check "python package installs (pip, venv, offline)" "$WORK" sh -c '
		/usr/bin/python3 -m venv --system-site-packages venv &&
		venv/bin/pip install -q --no-index --no-build-isolation ./pysrc &&
		cd / && SANDLOCK="$0" "$1/venv/bin/python" -c "
import sandlock_judge as s, sys
assert \"site-packages\" in s.__file__, s.__file__
r = s.run(s.Policy(no_fork=True), [\"/bin/true\"])
print(\"Ran 1 tests\", r.verdict.value); sys.exit(r.verdict is not s.Verdict.OK)"' "$S" "$WORK"
else
	skip "python package: venv, setuptools or wheel missing (tools/setup-debian.sh --test installs them)"
fi

# ---- Go ----
if command -v go >/dev/null 2>&1; then
	mkdir -p "$WORK/gopath" "$WORK/gocache" "$WORK/gotmp"
	GOENV=(env GOTOOLCHAIN=local GOFLAGS=-buildvcs=false GOPROXY=off GOSUMDB=off
	       GO111MODULE=on GOWORK=off GOPATH="$WORK/gopath"
	       GOCACHE="$WORK/gocache" GOTMPDIR="$WORK/gotmp" GOENV=off)
	for m in bindings/go examples/go-grader; do
		if [ -f "$ROOT/$m/go.mod" ]; then
			check "go test ($m)" "$ROOT/$m" "${GOENV[@]}" go test ./...
		else
			fail "go test ($m): $ROOT/$m/go.mod not found"
		fi
	done
else
	skip "go test (bindings/go): go not found"
	skip "go test (examples/go-grader): go not found"
fi

echo "bindings: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
[ "$T_FAIL" = 0 ]
