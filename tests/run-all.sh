#!/bin/bash
# Every black-box test, as root and again as an ordinary user created here.
# Usage: tests/run-all.sh [BUILD-DIR]      (called by `make check`)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$ROOT/${1:-build}" && pwd)
TEST_USER=${SANDLOCK_TEST_USER:-sandlock-test}
TOTAL_PASS=0 TOTAL_FAIL=0 TOTAL_SKIP=0
FAILURES=()

# A copy every user can read (the checkout may live under a private home).
STAGE=$(mktemp -d /tmp/sandlock-check.XXXXXX)
trap '[ "$BASHPID" = "$$" ] || exit; rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/bin" "$STAGE/progs"
cp "$BUILD/sandlock" "$STAGE/bin/sandlock"
cp "$BUILD/sandlock-scan" "$STAGE/bin/sandlock-scan"
cp "$BUILD/test_async" "$STAGE/bin/test_async"
ln "$STAGE/bin/sandlock" "$STAGE/bin/sandbox_exec"
cp -r "$ROOT/tests" "$STAGE/tests"
# what the guard suites check against: docs/hosts.md's table, the guards'
# sources (run directly as the sandbox runs them; the preload library also
# needs the generator of its libc aliases, tools/) and their pages
cp -r "$ROOT/README.md" "$ROOT/src" "$ROOT/docs" "$ROOT/tools" "$STAGE/"
# the example judge builds against the library and its header
cp -r "$ROOT/examples" "$ROOT/include" "$ROOT/bindings" "$STAGE/"
mkdir -p "$STAGE/lib" && cp "$BUILD/libsandlock.a" "$STAGE/lib/"
EX_FLAGS=()
[ "${SANDLOCK_PASS_NAME:-}" = sanitizer ] &&
	EX_FLAGS=(CFLAGS=-fsanitize=address,undefined LDFLAGS=-fsanitize=address,undefined)
cp "$ROOT"/tests/progs/*.py "$STAGE/progs/"
for src in "$ROOT"/tests/progs/*.c; do
	name=$(basename "$src" .c)
	libs=
	[ "$name" = nolayer ] && libs=-lseccomp
	cc -O1 -pthread "$src" -o "$STAGE/progs/$name" $libs || exit 1
done
chmod -R a+rX "$STAGE"

# run_suite LABEL CMD...: run a suite, echo its output, add up its last line
# SANDLOCK_PASS_ONLY / SANDLOCK_PASS_EXCEPT="core ...": only, or all but,
# the suites whose label starts with one of these words (the sanitizer
# pass's core.sh, its longest suite, runs in a lane of its own)
run_suite() {
	local label=$1
	shift
	local first=${label%% *}
	[ -n "${SANDLOCK_PASS_ONLY:-}" ] && [[ " $SANDLOCK_PASS_ONLY " != *" $first "* ]] && return
	[ -n "${SANDLOCK_PASS_EXCEPT:-}" ] && [[ " $SANDLOCK_PASS_EXCEPT " == *" $first "* ]] && return
	echo "=== $label"
	local out t0=$SECONDS st
	# shown as it comes (all but the passes), kept whole for the totals
	"$@" >"$STAGE/suite.log" 2>&1 &
	local spid=$!
	tail -n +1 -f --pid=$spid "$STAGE/suite.log" 2>/dev/null | grep --line-buffered -v '^PASS'
	wait $spid
	st=$?
	out=$(cat "$STAGE/suite.log")
	# a suite that failed runs once more (as tests/tier.sh does): its first
	# run's failures are shown as RETRIED; a second failure counts
	if [ "${SANDLOCK_RETRY:-1}" != 0 ] &&
	   { [ $st != 0 ] || ! echo "$out" | grep -qE '^[a-z_-]+: [0-9]+ passed, 0 failed'; }; then
		echo "$out" | grep -E '^(FAIL|ERROR)|^[a-z_-]+: [0-9]+ passed' | head -10 | sed 's/^/RETRIED, first run: /'
		"$@" >"$STAGE/suite.log" 2>&1
		st=$?
		out=$(cat "$STAGE/suite.log")
		echo "$out" | grep -v '^PASS'
	fi
	echo "--- $label: $((SECONDS - t0)) s"
	# failures again at the very end: the tail of a long log is what CI shows
	while IFS= read -r l; do FAILURES+=("[$label] ${l:0:300}"); done < <(echo "$out" | grep -E '^(FAIL|ERROR)')
	local line
	line=$(echo "$out" | grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -z "$line" ]; then
		echo "FAIL $label: no summary line (status $st)"
		FAILURES+=("[$label] no summary line (status $st)")
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		return
	fi
	local p f s
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
	TOTAL_PASS=$((TOTAL_PASS + p))
	TOTAL_FAIL=$((TOTAL_FAIL + f))
	TOTAL_SKIP=$((TOTAL_SKIP + ${s:-0}))
	if [ "$st" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL $label exited $st"
		FAILURES+=("[$label] exited $st")
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
	fi
}

finish() {
	# what the run made on the host goes with it: the test user it created
	if [ "${CREATED_USER:-0}" = 1 ]; then
		local tuid
		tuid=$(id -u "$TEST_USER")
		pkill -KILL -u "$TEST_USER" 2>/dev/null
		sleep 0.2
		# the registry of its scratch directories (src/lib/scratch.c), empty by now
		rmdir "/tmp/sandlock-$tuid.runs" 2>/dev/null
		userdel -r "$TEST_USER" >/dev/null 2>&1 || echo "note: could not remove the test user $TEST_USER"
	fi
	if [ ${#FAILURES[@]} -gt 0 ]; then
		echo "=== failures"
		printf '%s\n' "${FAILURES[@]}"
	fi
	echo "=== summary of the ${PASS_NAME:-main} pass (${PASS_SCOPE:-every suite above, as root and as $TEST_USER, on every simulated host})"
	echo "all: $TOTAL_PASS passed, $TOTAL_FAIL failed, $TOTAL_SKIP skipped"
	[ "$TOTAL_FAIL" = 0 ]
	exit
}

# The sanitizer pass runs one attack of each class and one honest workload
# of each kind (tests/attack-classes, tests/honest-classes): the code paths
# of every class under ASan/UBSan, not every attack a second time (the
# tiers run them all on the normal build)
ATTACK_NAMES=()
if [ "${SANDLOCK_PASS_NAME:-}" = sanitizer ]; then
	read -r -a ATTACK_NAMES <<<"$(cat "$ROOT/tests/attack-classes" "$ROOT/tests/honest-classes" | sed 's/#.*//' | tr -s ' \n\t' ' ')"
fi
suites() { # AS-USER-PREFIX...
	local env="SANDLOCK=$STAGE/bin/sandlock PROGS=$STAGE/progs"
	run_suite "core ($1)" "${@:2}" env $env "$STAGE/tests/core.sh"
	run_suite "verdicts ($1)" "${@:2}" env $env /usr/bin/python3 "$STAGE/tests/verdicts.py"
	run_suite "profiles ($1)" "${@:2}" env $env /usr/bin/python3 "$STAGE/tests/profiles.py"
	run_suite "neighbours ($1)" "${@:2}" env $env /usr/bin/python3 "$STAGE/tests/neighbours.py"
	[ -x "$STAGE/tests/isolation.sh" ] &&
		run_suite "isolation ($1)" "${@:2}" env $env "$STAGE/tests/isolation.sh"
	[ -x "$STAGE/tests/attacks/run.sh" ] &&
		run_suite "attacks ($1)" "${@:2}" env $env "$STAGE/tests/attacks/run.sh" "${ATTACK_NAMES[@]}"
	run_suite "guards ($1)" "${@:2}" env $env "$STAGE/tests/guards/run.sh"
	run_suite "batch ($1)" "${@:2}" env $env /usr/bin/python3 "$STAGE/tests/batch.py"
	run_suite "interactive ($1)" "${@:2}" env $env /usr/bin/python3 "$STAGE/tests/interactive.py"
	run_suite "async ($1)" "${@:2}" env $env "$STAGE/tests/async.sh" "$STAGE/bin"
	run_suite "concurrent ($1)" "${@:2}" env $env "$STAGE/tests/concurrent.sh"
	run_suite "nsjail ($1)" "${@:2}" env $env /usr/bin/python3 "$STAGE/tests/nsjail.py"
}
# the example judge, as the grader who runs it: root and the test user
examples() { # AS-USER-PREFIX...
	run_suite "examples ($1)" "${@:2}" env SANDLOCK="$STAGE/bin/sandlock" SANDLOCK_LIB="$STAGE/lib" \
		"${EX_FLAGS[@]}" "$STAGE/tests/examples.sh"
	run_suite "graders ($1)" "${@:2}" env SANDLOCK="$STAGE/bin/sandlock" SANDLOCK_LIB="$STAGE/lib" \
		"${EX_FLAGS[@]}" /usr/bin/python3 "$STAGE/tests/graders.py"
}

# The hosts the sandbox claims (SANDLOCK_CHECK_HOSTS=no skips them): the
# whole suite under the Docker-default simulation, as root and as the test
# user; every other simulated host (tests/hosts.sh); real containers.
SIM=$STAGE/tests/hosts/hostsim
CHECK_HOSTS=${SANDLOCK_CHECK_HOSTS:-yes}
[ -x "$SIM" ] || CHECK_HOSTS=no
docker_suites() { # LABEL AS-USER-PREFIX...
	# an ordinary user's concurrent runs share one process count there (no
	# user namespace of their own): the attacks run one at a time
	local jobs=2
	[ $# -gt 1 ] && jobs=1
	suites "docker-sim, $1" "${@:2}" env SANDLOCK_ATTACK_JOBS=$jobs "$SIM" docker --
}

# SANDLOCK_PASS_PART=host|dsim (with SANDLOCK_CHECK_USER=no: the sanitizer
# pass in two lanes): the full host's suites, or the Docker simulation's
PART=${SANDLOCK_PASS_PART:-all}
case $PART in all | host | dsim) ;; *) echo "run-all.sh: SANDLOCK_PASS_PART=$PART (host, dsim, all)" >&2; exit 125 ;; esac
[ "$PART" != dsim ] && [ -x "$ROOT/tests/unit.sh" ] && run_suite unit "$ROOT/tests/unit.sh" "$BUILD"
if [ "$(id -u)" = 0 ]; then
	if [ "$PART" != dsim ]; then
		suites root
		examples root
		run_suite "stress (root)" env SANDLOCK="$STAGE/bin/sandlock" "$STAGE/tests/stress.sh"
	fi
	if [ "${SANDLOCK_CHECK_USER:-yes}" = no ]; then
		PASS_NAME=${SANDLOCK_PASS_NAME:-root-only}
		PASS_SCOPE="every suite above, as root, on the full host and the Docker simulation; the attack suite one of each class; part: $PART"
		# the sanitizer pass: the fallback paths of a default container too
		[ "$CHECK_HOSTS" = yes ] && [ "$PART" != host ] && docker_suites root
		[ "$PART" != dsim ] &&
			run_suite scan env SANDLOCK_SCAN="$STAGE/bin/sandlock-scan" SANDLOCK_SCAN_SANITIZED="$STAGE/bin/sandlock-scan" \
				/usr/bin/python3 "$STAGE/tests/scan/run.py"
		finish
	fi
	if ! id "$TEST_USER" >/dev/null 2>&1; then
		useradd --system --create-home "$TEST_USER" || { echo "cannot create $TEST_USER"; exit 1; }
		CREATED_USER=1
	fi
	suites "user $TEST_USER" runuser -u "$TEST_USER" --
	examples "user $TEST_USER" runuser -u "$TEST_USER" --
else
	suites "user $(id -un)"
fi
[ -x "$ROOT/tests/bindings.sh" ] && run_suite bindings env SANDLOCK="$STAGE/bin/sandlock" "$ROOT/tests/bindings.sh"
[ -x "$ROOT/tests/install.sh" ] && run_suite install "$ROOT/tests/install.sh" "$(basename "$BUILD")"
[ -f "$ROOT/tests/docs.py" ] && run_suite docs /usr/bin/python3 "$ROOT/tests/docs.py" "$STAGE/bin/sandlock" "$ROOT"
run_suite scan env SANDLOCK_SCAN="$STAGE/bin/sandlock-scan" /usr/bin/python3 "$STAGE/tests/scan/run.py"

if [ "$CHECK_HOSTS" = yes ]; then
	if [ "$(id -u)" = 0 ]; then
		docker_suites root
		run_suite "stress (docker-sim, root)" "$SIM" docker -- env SANDLOCK="$STAGE/bin/sandlock" "$STAGE/tests/stress.sh"
		docker_suites "user $TEST_USER" runuser -u "$TEST_USER" --
		[ -x "$ROOT/tests/bindings.sh" ] &&
			run_suite "bindings (docker-sim, root)" "$SIM" docker -- env SANDLOCK="$STAGE/bin/sandlock" "$ROOT/tests/bindings.sh"
	else
		docker_suites "user $(id -un)"
	fi
	# what each class of host stops, against docs/hosts.md's table
	run_suite "matrix ($(id -un))" env SANDLOCK="$STAGE/bin/sandlock" SANDLOCK_HOSTS_DOC="$STAGE/docs/hosts.md" \
		/usr/bin/python3 "$STAGE/tests/guards/matrix.py"
	[ "$(id -u)" = 0 ] && run_suite "matrix ($TEST_USER)" runuser -u "$TEST_USER" -- env SANDLOCK="$STAGE/bin/sandlock" \
		SANDLOCK_HOSTS_DOC="$STAGE/docs/hosts.md" /usr/bin/python3 "$STAGE/tests/guards/matrix.py"
	run_suite hosts env SANDLOCK="$STAGE/bin/sandlock" PROGS="$STAGE/progs" SANDLOCK_TEST_USER="$TEST_USER" \
		"$STAGE/tests/hosts.sh"
	[ -x "$STAGE/tests/containers.sh" ] && [ "$(id -u)" = 0 ] &&
		run_suite containers env SANDLOCK_SRC="$ROOT" SANDLOCK="$STAGE/bin/sandlock" PROGS="$STAGE/progs" "$STAGE/tests/containers.sh"
fi

finish
