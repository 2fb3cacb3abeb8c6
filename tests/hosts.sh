#!/bin/bash
# The sandbox on every simulated host (tests/hosts/hostsim: a parent seccomp
# policy and capability set applied before the sandbox starts): the
# simulation's own self-test, the client contract of a real grader, the
# honest workloads, and the attack suite, whose every attack is first proven
# to escape bare on that same simulated host.
#
#   tests/hosts.sh        SANDLOCK=... PROGS=... (as for tests/core.sh)
#
# SANDLOCK_HOSTS: the hosts to run (default: every host hostsim knows but
# "full", which is the rest of the suite).  SANDLOCK_HOSTS_ATTACKS: hosts that
# also run the whole attack suite (default below); the others run the honest
# workloads only.  SANDLOCK_HOSTS_VERDICTS: hosts that run the verdict matrix
# (tests/verdicts.py, default below) and the language profiles (tests/profiles.py);
# SANDLOCK_HOSTS_GUARDS: hosts that run the guards (tests/guards/run.sh) and
# the library's asynchronous runs (tests/async.sh).  As root, the contract and the honest workloads run again
# as the ordinary user SANDLOCK_TEST_USER (default sandlock-test) if it exists.
# Last line: "hosts: P passed, F failed, S skipped".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SIM=$HERE/hosts/hostsim
: "${SANDLOCK:?SANDLOCK must point at the sandlock binary}"
TEST_USER=${SANDLOCK_TEST_USER:-sandlock-test}
P=0 F=0 S=0
FAILS=()

if ! HOSTS_ALL=$("$SIM" --list 2>&1 | awk '{print $1}'); then
	echo "FAIL hostsim --list: $HOSTS_ALL"
	echo "hosts: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
HOSTS=${SANDLOCK_HOSTS:-$(echo "$HOSTS_ALL" | grep -vx full)}
ATTACK_HOSTS=${SANDLOCK_HOSTS_ATTACKS:-"podman old-docker userns-refused no-pdeathsig no-landlock old-kernel lambda"}
# the verdict matrix (tests/verdicts.py), as root and as the test user, where
# the mechanisms behind a verdict differ: no seccomp listener (old-docker,
# old-kernel), no seccomp at all (lambda), no namespaces (userns-refused)
VERDICT_HOSTS=${SANDLOCK_HOSTS_VERDICTS:-"old-docker userns-refused old-kernel lambda"}
# the guards inside the program (tests/guards): the serverless host they are
# for (the Docker simulation and the full host run them in tests/run-all.sh;
# SANDLOCK_HOSTS_GUARDS="lambda old-kernel" adds a host without Landlock)
GUARD_HOSTS=${SANDLOCK_HOSTS_GUARDS:-"lambda"}

# part LABEL CMD...: run one part, keep its FAIL/ERROR lines, add its summary
part() {
	local label=$1 out line p f s st
	shift
	out=$("$@" 2>&1)
	st=$?
	echo "$out" | grep -E '^(FAIL|ERROR)' | sed "s|^|  [$label] |"
	line=$(echo "$out" | grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -z "$line" ]; then
		echo "FAIL [$label] no summary (status $st): $(echo "$out" | tail -3 | tr '\n' ' ' | head -c 400)"
		F=$((F + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
	P=$((P + p)) F=$((F + f)) S=$((S + ${s:-0}))
	[ "$f" != 0 ] && echo "FAIL [$label] $f failed"
	echo "  ($label: $line, ${SECONDS}s)"
}

part "selftest" "$HERE/hosts/selftest.sh"
as_user=()
if [ "$(id -u)" = 0 ] && id "$TEST_USER" >/dev/null 2>&1; then as_user=(runuser -u "$TEST_USER" --); fi
for h in $HOSTS; do
	extra=""
	[ "$h" = lambda ] && extra=--best-effort # a serverless host: opt in
	envs=(env SANDLOCK="$SANDLOCK" PROGS="${PROGS:-}" SANDLOCK_EXTRA_FLAGS="$extra")
	part "$h, contract, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/hosts/contract.py"
	if [[ " $ATTACK_HOSTS " == *" $h "* ]]; then
		# one at a time where runs share a uid's process count (no user
		# namespace of their own there)
		j=-j2
		case $h in userns-refused | old-docker | lambda) j=-j1 ;; esac
		part "$h, attacks, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/attacks/run.sh" $j
	else
		part "$h, honest, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/attacks/run.sh" --honest-only
	fi
	if [[ " $VERDICT_HOSTS " == *" $h "* ]]; then
		part "$h, verdicts, $(id -un)" "${envs[@]}" "$SIM" "$h" -- /usr/bin/python3 "$HERE/verdicts.py"
		# language profiles: Landlock's paths, or 125 (--best-effort: run, named)
		part "$h, profiles, $(id -un)" "${envs[@]}" "$SIM" "$h" -- /usr/bin/python3 "$HERE/profiles.py"
		[ ${#as_user[@]} -gt 0 ] &&
			part "$h, verdicts, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- \
				/usr/bin/python3 "$HERE/verdicts.py"
	fi
	if [[ " $GUARD_HOSTS " == *" $h "* ]]; then
		part "$h, guards, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/guards/run.sh"
		# the library's asynchronous runs (tests/unit/test_async.c, staged
		# beside the binary)
		[ -x "$(dirname "$SANDLOCK")/test_async" ] &&
			part "$h, async, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/async.sh" "$(dirname "$SANDLOCK")"
		[ ${#as_user[@]} -gt 0 ] &&
			part "$h, guards, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- "$HERE/guards/run.sh"
	fi
	if [ ${#as_user[@]} -gt 0 ]; then
		part "$h, contract, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- "$HERE/hosts/contract.py"
		part "$h, honest, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- "$HERE/attacks/run.sh" --honest-only
	fi
done
echo "hosts: $P passed, $F failed, $S skipped"
[ "$F" = 0 ]
