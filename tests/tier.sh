#!/bin/bash
# Run one tier of the tests (make check / make check-full): the suites that
# tests/tiers.conf lists for it, in parallel lanes (the suites mostly wait
# on limits and timers), each lane with its own test user.
#
#   tests/tier.sh check|full [BUILD-DIR]
#
# SANDLOCK_TEST_USERS: the test users, one per lane, in order of the
#   lanes' first appearance in tiers.conf (default sandlock-test,
#   sandlock-test2, ...; made here if missing, and removed again).
#   SANDLOCK_TEST_USER alone names the first.
# SANDLOCK_LANES: only these lanes (names from tiers.conf); SANDLOCK_SUITES:
#   only the suites whose label is in this list (to rerun one).
# SANDLOCK_TIER_LIST=1: print the lanes and their suites, run nothing.
# SANDLOCK_TIER_LOGS=DIR: keep every suite's whole output there.
# SANDLOCK_TIER_CPUACCT=1: where cgroup v1's cpuacct is mounted (as root),
#   what each suite cost the machine ("machine N s"), daemons and orphans
#   included: docs/testing.md's measure of where CI's time goes.
# SANDLOCK_SUITE_TIMEOUT: seconds a suite may take (3000) before it is
#   stopped and counted as failed.
# SANDLOCK_AFTER_CHECK=1: check-full without the suites make check ran
#   whole (CI runs make check, then this; together: everything once).
# SANDLOCK_MUST_WORK=1: a skip of class "missing" (a layer, tool or engine
#   this machine should have; tests/skips.conf) counts as a failure.
# Each suite prints its name, time and tally; the last line is
#   "all: P passed, F failed, S skipped".
# The whole script is one compound command, read before it runs: an edit of
# this file (a checkout, a merge) during a run of half an hour cannot make
# bash run a shifted remainder of it.
{
set -u
TIER=${1:?usage: tests/tier.sh check|full [BUILD-DIR]}
case $TIER in check | full) ;; *) echo "tier.sh: unknown tier $TIER (check, full)" >&2; exit 125 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_NAME=${2:-build}
BUILD=$(cd "$ROOT/$BUILD_NAME" 2>/dev/null && pwd) || { echo "tier.sh: no build directory $BUILD_NAME" >&2; exit 125; }
CONF=${SANDLOCK_TIERS_CONF:-$ROOT/tests/tiers.conf}
T_START=$SECONDS

# ---- the lines of this tier: "lane|as|label|command"
LINES=()
LANES=()
while read -r tiers lane as label cmd; do
	case $tiers in '' | '#'*) continue ;; esac
	# SANDLOCK_AFTER_CHECK=1 (CI, after make check): the lines tagged
	# "after", which are check-full less what make check ran
	want=$TIER
	[ "${SANDLOCK_AFTER_CHECK:-0}" = 1 ] && [ "$TIER" = full ] && want=after
	[[ ",$tiers," == *",$want,"* ]] || continue
	[ -n "${SANDLOCK_LANES:-}" ] && [[ " $SANDLOCK_LANES " != *" $lane "* ]] && continue
	[ -n "${SANDLOCK_SUITES:-}" ] && [[ " $SANDLOCK_SUITES " != *" $label "* ]] && continue
	case $as in root | user) ;; *) echo "tier.sh: $CONF: bad AS '$as' for $label" >&2; exit 125 ;; esac
	LINES+=("$lane|$as|$label|$cmd")
	[[ " ${LANES[*]} " == *" $lane "* ]] || LANES+=("$lane")
done <"$CONF"
[ ${#LINES[@]} -gt 0 ] || { echo "tier.sh: nothing to run for $TIER" >&2; exit 125; }
# A suite file in no tier is a failure (one added beside run-all.sh and
# not here would never run): every tests/*.sh, *.py, */run.sh, */run.py
# but the helpers must appear in tiers.conf.
UNLISTED=()
for f in "$ROOT"/tests/*.sh "$ROOT"/tests/*.py "$ROOT"/tests/*/run.sh "$ROOT"/tests/*/run.py; do
	[ -e "$f" ] || continue
	rel=${f#"$ROOT"/tests/}
	case $rel in lib.sh | results.py | run-all.sh | tier.sh | own-cgroup2.sh | idle_procs.py) continue ;; esac
	grep -q "/$rel\b" "$CONF" || UNLISTED+=("tests/$rel")
done
if [ "${SANDLOCK_TIER_LIST:-0}" = 1 ]; then
	for lane in "${LANES[@]}"; do
		echo "lane $lane:"
		for l in "${LINES[@]}"; do
			IFS='|' read -r ln as label cmd <<<"$l"
			[ "$ln" = "$lane" ] && printf '  %-22s %-5s %s\n' "$label" "$as" "$cmd"
		done
	done
	for f in "${UNLISTED[@]}"; do echo "in no tier: $f"; done
	exit 0
fi

# ---- a copy every user can read (the checkout may live under a private home)
STAGE=$(mktemp -d /tmp/sandlock-tier.XXXXXX)
CREATED=()
# a lane is a subshell whose suites are its children: stopping the lane
# alone (make check interrupted) would leave them running
killtree() {
	local c
	for c in $(pgrep -P "$1"); do killtree "$c"; done
	kill -TERM "$1" 2>/dev/null
}
cleanup() {
	[ "$BASHPID" = "$$" ] || return 0 # not in a subshell killed before it reset its traps (tests/lib.sh)
	local p u
	for p in $(jobs -p); do killtree "$p"; done
	wait 2>/dev/null
	for u in "${CREATED[@]}"; do
		pkill -KILL -u "$u" 2>/dev/null
		sleep 0.2
		rmdir "/tmp/sandlock-$(id -u "$u").runs" 2>/dev/null
		userdel -r "$u" >/dev/null 2>&1 || echo "note: could not remove the test user $u"
	done
	# SANDLOCK_TIER_LOGS=DIR: the suites' whole output is kept there
	[ -n "${SANDLOCK_TIER_LOGS:-}" ] && mkdir -p "$SANDLOCK_TIER_LOGS" && cp -r "$STAGE/logs/." "$SANDLOCK_TIER_LOGS/"
	rm -rf "$STAGE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$STAGE/bin" "$STAGE/progs" "$STAGE/logs" "$STAGE/attack-build"
cp "$BUILD/sandlock" "$BUILD/sandlock-scan" "$BUILD/test_async" "$STAGE/bin/"
ln "$STAGE/bin/sandlock" "$STAGE/bin/sandbox_exec"
cp -r "$ROOT/tests" "$STAGE/tests"
cp -r "$ROOT/README.md" "$ROOT/src" "$ROOT/docs" "$ROOT/examples" "$ROOT/include" "$ROOT/bindings" "$STAGE/"
mkdir -p "$STAGE/lib" && cp "$BUILD/libsandlock.a" "$STAGE/lib/"
cp "$ROOT"/tests/progs/*.py "$STAGE/progs/"
for src in "$ROOT"/tests/progs/*.c; do
	name=$(basename "$src" .c)
	libs=
	[ "$name" = nolayer ] && libs=-lseccomp
	cc -O1 -pthread "$src" -o "$STAGE/progs/$name" $libs &
done
wait || true
for src in "$ROOT"/tests/progs/*.c; do
	[ -x "$STAGE/progs/$(basename "$src" .c)" ] || { echo "tier.sh: cannot build $src" >&2; exit 1; }
done
# the attacks, compiled once for every lane that runs them
if [[ "${LINES[*]}" == *attacks/run.sh* || "${LINES[*]}" == *hosts.sh* ]]; then
	SANDLOCK=$STAGE/bin/sandlock ATTACK_BUILD=$STAGE/attack-build "$STAGE/tests/attacks/run.sh" --build-only >"$STAGE/logs/attack-build" 2>&1 ||
		{ cat "$STAGE/logs/attack-build"; exit 1; }
fi
chmod -R a+rX "$STAGE"

# ---- one test user per lane that runs suites as a user
declare -A LANE_USER
is_root=0
[ "$(id -u)" = 0 ] && is_root=1
if [ -n "${SANDLOCK_TEST_USERS:-}" ]; then
	read -r -a USERS <<<"$SANDLOCK_TEST_USERS"
else
	USERS=("${SANDLOCK_TEST_USER:-sandlock-test}")
	for i in $(seq 2 32); do USERS+=("sandlock-test$i"); done
fi
# every lane has its own (suites as root use it too: tests/hosts.sh runs
# parts as SANDLOCK_TEST_USER), so that one lane's bare attacks (kill(-1),
# bombs) never meet another's processes
nu=0
for lane in "${LANES[@]}"; do
	if [ $is_root = 0 ]; then LANE_USER[$lane]=$(id -un); continue; fi
	u=${USERS[$nu]:-}
	[ -n "$u" ] || { echo "tier.sh: more lanes need a test user than SANDLOCK_TEST_USERS names" >&2; exit 125; }
	nu=$((nu + 1))
	if ! id "$u" >/dev/null 2>&1; then
		useradd --system --create-home "$u" || { echo "tier.sh: cannot create $u" >&2; exit 1; }
		CREATED+=("$u")
	fi
	LANE_USER[$lane]=$u
done

# ---- skip reasons: "CLASS ERE" lines (tests/skips.conf); first match wins
SKIP_RE=()
SKIP_CLASS=()
while read -r class re; do
	case $class in '' | '#'*) continue ;; esac
	SKIP_CLASS+=("$class")
	SKIP_RE+=("$re")
done <"$ROOT/tests/skips.conf"
# skip_reason LINE: "SKIP name: reason" (lib.sh, results.py) or the attack
# suite's "SKIP   name    reason" (a padded column: a name without spaces)
skip_reason() {
	local r=${1#SKIP}
	if [[ $r =~ ^\ {2,}[^\ ]+\ +(.*)$ ]]; then r=${BASH_REMATCH[1]}
	elif [[ $r == *": "* ]]; then r=${r#*: }
	else r=${r# }; fi
	printf '%s\n' "$r"
}
skip_class() { # REASON
	local i
	for i in "${!SKIP_RE[@]}"; do
		[[ $1 =~ ${SKIP_RE[$i]} ]] && { echo "${SKIP_CLASS[$i]}"; return; }
	done
	echo unclassified
}

# ---- a lane: its suites one after another; a result file per suite
export SANDLOCK=$STAGE/bin/sandlock PROGS=$STAGE/progs T=$STAGE/tests BIN=$STAGE/bin STAGE ROOT TIER_BUILD=$BUILD BUILD_NAME
export SIM=$STAGE/tests/hosts/hostsim ATTACK_BUILD=$STAGE/attack-build ATTACK_PREBUILT=1
CLASSES=$(sed 's/#.*//' "$ROOT/tests/attack-classes" | tr -s ' \n\t' ' ')
HONEST=$(sed 's/#.*//' "$ROOT/tests/honest-classes" | tr -s ' \n\t' ' ')
HEAVY=$(sed 's/#.*//' "$ROOT/tests/heavy-tests" | tr -s ' \n\t' ' ')
export CLASSES HONEST HEAVY
# suite_once: one run of run_lane's suite (its locals cmd, key, pre, tu,
# cg), in its cpuacct group when it has one
suite_once() {
	( [ -z "$cg" ] || echo "$BASHPID" >"$cg/tasks"
	  exec /usr/bin/time -f '%U %S' -o "$STAGE/logs/$key.cpu" timeout -k 30 "${SANDLOCK_SUITE_TIMEOUT:-3000}" \
		"${pre[@]}" env TEST_USER="$tu" SANDLOCK_TEST_USER="$tu" \
		bash -c "cd \"\$STAGE\" && exec $cmd" ) </dev/null >"$STAGE/logs/$key.log" 2>&1
}
run_lane() { # LANE
	local lane=$1 l as label cmd t0 st n=0 who
	for l in "${LINES[@]}"; do
		IFS='|' read -r ln as label cmd <<<"$l"
		[ "$ln" = "$lane" ] || continue
		n=$((n + 1))
		local key="$lane.$n"
		printf '%s\n' "$cmd" >"$STAGE/logs/$key.cmd"
		who=$(id -un)
		local pre=() tu=${LANE_USER[$lane]:-${USERS[0]}}
		if [ "$as" = user ]; then
			# not root: the root lines already ran as this user
			[ $is_root = 1 ] || continue
			who=$tu
			pre=(runuser -u "$who" --)
		fi
		t0=$SECONDS
		# SANDLOCK_TIER_CPUACCT=1, where cgroup v1's cpuacct is mounted:
		# the suite in a group of its own, whose usage counts every process
		# it started, waited for or not (daemons, orphans, what runs under
		# another user), which the processor time below misses
		local cg=""
		if [ -n "${SANDLOCK_TIER_CPUACCT:-}" ] && [ -w /sys/fs/cgroup/cpuacct/tasks ] &&
		   mkdir "/sys/fs/cgroup/cpuacct/sandlock-tier-$$-$key" 2>/dev/null; then
			cg=/sys/fs/cgroup/cpuacct/sandlock-tier-$$-$key
		fi
		# the suite's processor time (user+system of what it waited for):
		# its cost on a shared 2-core machine, printed beside its wall time
		# a suite that hangs ends at SANDLOCK_SUITE_TIMEOUT (s) as a failure
		# with its output so far, instead of holding CI until its limit
		suite_once
		st=$?
		# A suite that failed runs once more, if it is short (the hosts
		# lanes retry their own parts): checks that race the supervisor's
		# sampling can lose under the load of ten lanes on two cores.
		# The first run's failures stay in the output ("retried"); a check
		# that fails twice fails the tier.  SANDLOCK_RETRY=0: no retry.
		if [ "${SANDLOCK_RETRY:-1}" != 0 ] && [ $((SECONDS - t0)) -lt 300 ] &&
		   { [ $st != 0 ] || ! grep -qE '^[a-z0-9_-]+: [0-9]+ passed, 0 failed' "$STAGE/logs/$key.log"; }; then
			mv "$STAGE/logs/$key.log" "$STAGE/logs/$key.first"
			suite_once
			st=$?
		fi
		local mcpu=""
		if [ -n "$cg" ]; then
			mcpu=$(awk '{printf "%d", $1 / 1e9}' "$cg/cpuacct.usage" 2>/dev/null)
			rmdir "$cg" 2>/dev/null
		fi
		printf '%s|%s|%s|%s|%s|%s|%s\n' "$label ($who)" "$st" "$((SECONDS - t0))" "$lane" "$STAGE/logs/$key.log" \
			"$(awk '/^[0-9.]+ [0-9.]+$/ {printf "%d", $1 + $2}' "$STAGE/logs/$key.cpu" 2>/dev/null)" "$mcpu" \
			>"$STAGE/logs/$key.done"
		report "$STAGE/logs/$key.done"
	done
}

# report DONE-FILE: a suite's block, printed at once (lanes share stdout)
report() {
	local name st secs lane log cpu mcpu line out
	IFS='|' read -r name st secs lane log cpu mcpu <"$1"
	line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	out="=== $name [lane $lane]"$'\n'
	if [ -e "${log%.log}.first" ]; then
		out+="RETRIED: the first run of this suite failed; what it said:"$'\n'
		out+=$(grep -E '^(FAIL|ERROR)|^  \[[^]]*\] (FAIL|ERROR)|[a-z0-9_-]+: [0-9]+ passed' "${log%.log}.first" | head -20 | sed 's/^/  first run: /')$'\n'
	fi
	out+=$(grep -E '^(FAIL|ERROR)|^  \[[^]]*\] (FAIL|ERROR)' "$log" | head -40)
	out+=$'\n'"${line:-no summary line (status $st)}"$'\n'"--- $name: $secs s, cpu ${cpu:-?} s${mcpu:+, machine $mcpu s}"
	printf '%s\n' "$out" | grep -v '^$'
}

echo "tier $TIER: ${#LINES[@]} suites in ${#LANES[@]} lanes (${LANES[*]}); stage $STAGE; $((SECONDS - T_START)) s to stage"
for lane in "${LANES[@]}"; do
	[[ $lane == last* ]] && continue
	lt0=$SECONDS
	{ run_lane "$lane"; echo "$((SECONDS - lt0))" >"$STAGE/logs/lane-$lane.time"; } &
done
wait
# lanes named last*: alone, after the others (see tiers.conf)
for lane in "${LANES[@]}"; do
	[[ $lane == last* ]] || continue
	lt0=$SECONDS
	run_lane "$lane"
	echo "$((SECONDS - lt0))" >"$STAGE/logs/lane-$lane.time"
done

# ---- totals
# a suite's cpuacct group that a straggler of it still held at its end
# (rmdir: EBUSY) is empty by now
[ -z "${SANDLOCK_TIER_CPUACCT:-}" ] || rmdir /sys/fs/cgroup/cpuacct/sandlock-tier-$$-* 2>/dev/null
P=0 F=0 S=0 CPU_ALL=0 MCPU_ALL=0
FAILURES=() NOTE=()
declare -A SKIPS
RETRIED=()
for d in "$STAGE"/logs/*.done; do
	IFS='|' read -r name st secs lane log cpu mcpu <"$d"
	CPU_ALL=$((CPU_ALL + ${cpu:-0})) MCPU_ALL=$((MCPU_ALL + ${mcpu:-0}))
	line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	if [ -z "$line" ]; then
		FAILURES+=("[$name] no summary line (status $st): $(tail -3 "$log" | tr '\n' ' ' | head -c 300)")
		F=$((F + 1))
		continue
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
	P=$((P + p)) F=$((F + f)) S=$((S + ${s:-0}))
	while IFS= read -r l; do FAILURES+=("[$name] ${l:0:300}"); done < <(grep -E '^(FAIL|ERROR)|^  \[[^]]*\] (FAIL|ERROR)' "$log")
	if [ "$st" != 0 ] && [ "$f" = 0 ]; then
		FAILURES+=("[$name] exited $st")
		F=$((F + 1))
	fi
	[ -e "${log%.log}.first" ] && RETRIED+=("[$name] $(grep -E '^[a-z0-9_-]+: [0-9]+ passed' "${log%.log}.first" | tail -1) on its first run; $line on the second")
	# skips by reason class (a layer missing under the simulation is right:
	# the line's command, or the pass's "=== ... docker-sim" header in a
	# suite that runs others: the sanitizer lane)
	sim=0
	grep -q 'SANDLOCK_HOSTS\|\$SIM\|hostsim' "${log%.log}.cmd" && sim=1
	hdr=""
	while IFS= read -r l; do
		case $l in "=== "*) hdr=$l; continue ;; esac
		r=$(skip_reason "$l")
		c=$(skip_class "$r")
		if [ "$c" = layer ]; then
			if [ $sim = 1 ] || [[ $hdr == *docker-sim* ]]; then c=not-applicable; else c=missing; fi
		fi
		SKIPS[$c]=$((${SKIPS[$c]:-0} + 1))
		[ "$c" != not-applicable ] && NOTE+=("[$name] $c: ${l:0:200}")
		if [ "${SANDLOCK_MUST_WORK:-0}" = 1 ] && [ "$c" != not-applicable ]; then
			FAILURES+=("[$name] SANDLOCK_MUST_WORK: skip of class $c: ${l:0:300}")
			F=$((F + 1)) S=$((S - 1))
		fi
	done < <(grep -E '^(=== | *SKIP)' "$log" | sed 's/^ *//')
done
for f in "${UNLISTED[@]}"; do
	FAILURES+=("[tiers] $f is in no tier: add it to tests/tiers.conf (docs/testing.md, Adding a suite)")
	F=$((F + 1))
done
if [ ${#NOTE[@]} -gt 0 ]; then
	echo "=== skips that may hide a missing layer, tool or engine (tests/skips.conf)"
	printf '%s\n' "${NOTE[@]}"
fi
if [ ${#RETRIED[@]} -gt 0 ]; then
	echo "=== suites that failed once and were run again (flaky under load: look at them)"
	printf '%s\n' "${RETRIED[@]}"
fi
if [ ${#FAILURES[@]} -gt 0 ]; then
	echo "=== failures"
	printf '%s\n' "${FAILURES[@]}"
fi
echo "=== lanes (wall seconds)"
for lane in "${LANES[@]}"; do
	printf '%s: %s s (%s)\n' "$lane" "$(cat "$STAGE/logs/lane-$lane.time" 2>/dev/null || echo '?')" \
		"$(for d in "$STAGE"/logs/*.done; do IFS='|' read -r name _ secs ln _ cpu mcpu <"$d"; [ "$ln" = "$lane" ] && printf '%s %s s (cpu %s%s); ' "$name" "$secs" "${cpu:-?}" "${mcpu:+, machine $mcpu}"; done)"
done
sk=""
for c in "${!SKIPS[@]}"; do sk+="$c ${SKIPS[$c]}, "; done
[ -n "$sk" ] || sk="none"
echo "=== tier $TIER: $((SECONDS - T_START)) s wall, $CPU_ALL s of processor time in the suites${SANDLOCK_TIER_CPUACCT:+ ($MCPU_ALL s counted by cpuacct)}; skipped by reason: ${sk%, }"
echo "all: $P passed, $F failed, $S skipped"
[ "$F" = 0 ]
exit
}
