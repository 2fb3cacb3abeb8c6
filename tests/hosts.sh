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
# SANDLOCK_HOSTS_HONEST_NAMES: only these honest workloads where a host runs
# the honest ones alone (make check: tests/honest-classes).
# SANDLOCK_HOSTS_ATTACK_NAMES: only these attacks there (make check: one
# of each class; default every attack).
# SANDLOCK_HOSTS_DOCKER_HONEST=yes: the honest workloads on "docker" too (by
# default the tiers' dsim lanes run them, with the attacks, root and user).
# SANDLOCK_HOSTS_BATCH: hosts that run tests/batch.py's checker-files part.
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
# runs side by side (tests/neighbours.py): where the walls between them are
# another mechanism than the full host's (Landlock alone; namespaces alone;
# none, where the report must name what is shared)
NEIGHBOUR_HOSTS=${SANDLOCK_HOSTS_NEIGHBOURS:-"userns-refused no-landlock lambda"}
# a batch's checker files (tests/batch.py's checker-files part, with
# --best-effort as docs/batch.md allows): where no Landlock hides the box's
# check/ from a later test's program.  no-landlock: the test user's box is
# outside the /tmp a run's mount namespace replaces (root's is in /tmp, so
# that namespace hides it too); lambda: no mount namespace, root and user
BATCH_HOSTS=${SANDLOCK_HOSTS_BATCH:-"no-landlock lambda"}

# part LABEL CMD...: run one part, keep its FAIL/ERROR lines, add its summary
part() {
	local label=$1 out line p f s st first
	shift
	out=$("$@" 2>&1)
	st=$?
	# a part that failed runs once more (checks that race the
	# supervisor's sampling can lose under the tiers' load); the first
	# run's failures are shown as RETRIED, a second failure counts
	if [ "${SANDLOCK_RETRY:-1}" != 0 ] &&
	   { [ $st != 0 ] || ! echo "$out" | grep -qE '^[a-z_-]+: [0-9]+ passed, 0 failed'; }; then
		first=$(echo "$out" | grep -E '^(FAIL|ERROR)|^[a-z_-]+: [0-9]+ passed' | head -10)
		out=$("$@" 2>&1)
		st=$?
		echo "$first" | sed "s|^|  [$label] RETRIED, first run: |"
	fi
	echo "$out" | grep -E '^(FAIL|ERROR)' | sed "s|^|  [$label] |"
	# as printed: tests/tier.sh classes skips by their reason
	echo "$out" | grep -E '^ *SKIP'
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

# SANDLOCK_HOSTS_REST=1 (check-full after make check): only the attacks and
# honest workloads, less SANDLOCK_ATTACKS_EXCEPT (the classes make check
# ran on every host); the rest of each host's parts make check ran whole
REST=${SANDLOCK_HOSTS_REST:-0}
if [ "$REST" = 1 ]; then
	SANDLOCK_HOSTS_SELFTEST=no VERDICT_HOSTS="" GUARD_HOSTS="" NEIGHBOUR_HOSTS="" BATCH_HOSTS=""
fi

# SANDLOCK_HOSTS_SELFTEST=no: the simulation's self-test runs elsewhere
# (the tiers split the hosts over lanes: one of them runs it)
[ "${SANDLOCK_HOSTS_SELFTEST:-yes}" = no ] || part "selftest" "$HERE/hosts/selftest.sh"
as_user=()
if [ "$(id -u)" = 0 ] && id "$TEST_USER" >/dev/null 2>&1; then as_user=(runuser -u "$TEST_USER" --); fi
for h in $HOSTS; do
	# docker-capdrop has checks of its own (below): root there fails closed
	[ "$h" = docker-capdrop ] && continue
	extra=""
	[ "$h" = lambda ] && extra=--best-effort # a serverless host: opt in
	envs=(env SANDLOCK="$SANDLOCK" PROGS="${PROGS:-}" SANDLOCK_EXTRA_FLAGS="$extra")
	[ "$REST" = 1 ] || part "$h, contract, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/hosts/contract.py"
	# the Docker simulation's honest workloads (and attacks) run in the
	# dsim and user2 lanes of the tiers (tests/attacks/run.sh under
	# `hostsim docker`, root and a test user): not twice here
	honest_here=1
	[ "$h" = docker ] && [ "${SANDLOCK_HOSTS_DOCKER_HONEST:-no}" = no ] && honest_here=0
	if [ $honest_here = 0 ]; then :
	elif [[ " $ATTACK_HOSTS " == *" $h "* ]]; then
		# one at a time where runs share a uid's process count (no user
		# namespace of their own there)
		j=-j2
		case $h in userns-refused | old-docker | lambda) j=-j1 ;; esac
		# shellcheck disable=SC2086 # names, split on purpose
		part "$h, attacks, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/attacks/run.sh" $j \
			${SANDLOCK_HOSTS_ATTACK_NAMES:-}
	else
		# shellcheck disable=SC2086 # names, split on purpose
		part "$h, honest, $(id -un)" "${envs[@]}" "$SIM" "$h" -- "$HERE/attacks/run.sh" --honest-only \
			${SANDLOCK_HOSTS_HONEST_NAMES:-}
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
	if [[ " $NEIGHBOUR_HOSTS " == *" $h "* ]]; then
		part "$h, neighbours, $(id -un)" "${envs[@]}" "$SIM" "$h" -- /usr/bin/python3 "$HERE/neighbours.py"
		[ ${#as_user[@]} -gt 0 ] &&
			part "$h, neighbours, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- \
				/usr/bin/python3 "$HERE/neighbours.py"
	fi
	if [[ " $BATCH_HOSTS " == *" $h "* ]]; then
		benvs=(env SANDLOCK="$SANDLOCK" SANDLOCK_EXTRA_FLAGS=--best-effort SANDLOCK_BATCH_ONLY=checker-files)
		part "$h, batch, $(id -un)" "${benvs[@]}" "$SIM" "$h" -- /usr/bin/python3 "$HERE/batch.py"
		[ ${#as_user[@]} -gt 0 ] &&
			part "$h, batch, $TEST_USER" "${as_user[@]}" "${benvs[@]}" "$SIM" "$h" -- \
				/usr/bin/python3 "$HERE/batch.py"
	fi
	if [ ${#as_user[@]} -gt 0 ]; then
		[ "$REST" = 1 ] ||
			part "$h, contract, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- "$HERE/hosts/contract.py"
		# shellcheck disable=SC2086
		[ $honest_here = 1 ] &&
			part "$h, honest, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" "$h" -- "$HERE/attacks/run.sh" --honest-only \
				${SANDLOCK_HOSTS_HONEST_NAMES:-}
	fi
done
# hardened containers (tests/containers/hardened.sh): root without
# CAP_SETUID/CAP_SETGID fails closed with a remedy, or runs labelled under
# --best-effort; a non-root user without capabilities runs the seed line
if [ "$REST" = 0 ] && [[ " $(echo $HOSTS) " == *" docker-capdrop "* ]]; then
	envs=(env SANDLOCK="$SANDLOCK" PROGS="${PROGS:-}")
	part "docker-capdrop, hardened, $(id -un)" "${envs[@]}" "$SIM" docker-capdrop -- "$HERE/containers/hardened.sh"
	[ ${#as_user[@]} -gt 0 ] &&
		part "docker-capdrop, hardened, $TEST_USER" "${as_user[@]}" "${envs[@]}" "$SIM" docker-capdrop -- \
			"$HERE/containers/hardened.sh"
fi
echo "hosts: $P passed, $F failed, $S skipped"
[ "$F" = 0 ]
