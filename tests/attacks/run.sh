#!/usr/bin/env bash
# Black-box attack suite for sandlock.
#
#   tests/attacks/run.sh [--bare-only] [--honest-only] [--build-only] [--keep] [-v] [-jN] [NAME...]
#
# Every attack (tests/attacks/*.c|*.py|*.sh) is run twice, each time in a
# fresh evidence directory with fresh secrets, victims and listeners:
#   1. BARE: its evidence must show the escape, otherwise the attack itself is
#      broken ("ERROR: attack does not work bare", a failure) - unless its
#      "needs:" are not met here (SKIP with the reason);
#   2. under "$SANDLOCK <flags> -- attack" (and once per "variant:"): the
#      evidence must show containment. Never the sandbox's report or messages.
# Honest workloads (tests/attacks/honest/*) must succeed sandboxed; they run
# bare only after a sandboxed run failed (failing bare too is an ERROR).
#
# Metadata: a comment header in each file ('# key: value' or '// key: value'):
#   attack: NAME | honest: NAME
#   flags: sandlock options for the main run
#   setup: victim[:basic|futex|churn|chatter] listener tty stdin-socket
#          stdout-pipe stdin blob
#          bash_env ld_preload killparent filecaps
#   escaped-if: shell test, true when the evidence shows an escape (attacks)
#   ok-if: shell test, true when the workload worked (honest)
#   xfail: issue N (reason)  - not contained yet by design: XFAIL/XPASS
#   variant-xfail: reason    - why the variants marked ",xfail" may escape
#   variant: LAYER | FLAGS [| LABEL[,xfail]] - extra sandboxed run, expected
#                             contained (",xfail": same xfail as the main run);
#                             SKIP when `sandlock --features` says LAYER is
#                             not available ("-" = no layer needed)
#   needs: root,userns,userns_or_root,x32,ia32,io_uring,memfd_secret,ipv6,
#          tiocsti,modules,membarrier_global,cgroupfs,cgroup2,filecaps
#   cflags: extra gcc flags     timeout / bare-timeout: seconds
#   settle: seconds to wait after the run before judging
#   cleanup: shell command run after judging    args: extra argv (eval'd)
#   isolate-uid: yes  (as root: bare run, victim and sandbox use a fresh uid)
#   lock: NAME        (host-wide state, e.g. a sysctl, or a load that slows
#                      every other lane: thousands of processes; one such
#                      test at a time across every lane of the machine)
#   exclusive: yes    (run alone: broadcast signals, bombs, timing; honest
#                      workloads always run alone too; the others run -j2)
#   layers: L1,L2 [(why)]  the layers any one of which contains the attack
#                     (default: seccomp).  On a host that offers none of them
#                     (tests/hosts/hostsim) a run that is not contained is an
#                     XFAIL naming what the host lacks, not a failure.  For
#                     an honest workload (no default): the layers any one of
#                     which it needs; on a host with none of them a broken
#                     run is an XFAIL naming what the host lacks.
#
# Each attack runs as  ATTACK EV key=value...  (EV: its evidence directory;
# keys: token, secretfile, grader, runner_uid, victim, victim_addr,
# victim_flag, tcp, tcp6, udp, unix, abstract, abstract_dgram, iso_uid) and
# prints ATTACK-STARTED first: a sandboxed run without it is a failure, not a
# containment. Helpers usable in escaped-if/ok-if: ev FILE, out_has STR,
# secret_leaked, conn KIND, victim_hit, victim_sched_changed, survivor,
# launcher_killed, st KEY (launcher's raw wait status), fsize PATH, can_fork,
# sysv_exists sem|shm, args_intact. See README.md.
#
# Environment: SANDLOCK_ATTACK_JOBS (default -j), SANDLOCK_ATTACKS_EXCEPT
# (names not to run: what make check ran already), SANDLOCK_EXTRA_FLAGS (added to every sandboxed run, e.g.
# --best-effort on a serverless host), SANDLOCK_HOSTSIM (the simulated host,
# set by tests/hosts/hostsim; only printed),
# SANDLOCK (default: build/sandlock of this repository),
# ATTACK_BUILD (default: a fresh temporary directory; --build-only fills it
# and stops, and ATTACK_PREBUILT=1 then reuses what is there, for runs that
# share it at once), TMPDIR (work area).
# The last line is always "attacks: P passed, F failed, S skipped"; the exit
# status is non-zero if anything failed.

set -u
export LC_ALL=C.UTF-8 2>/dev/null || export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SANDLOCK=${SANDLOCK:-$REPO/build/sandlock}
PY=/usr/bin/python3
BARE_ONLY=0
HONEST_ONLY=0
BUILD_ONLY=0
JOBS=${SANDLOCK_ATTACK_JOBS:-2}
KEEP=0
VERBOSE=0
FILTER=()
for a in "$@"; do
	case $a in
	--bare-only) BARE_ONLY=1 ;;
	--honest-only) HONEST_ONLY=1 ;;
	--build-only) BUILD_ONLY=1 ;;
	--keep) KEEP=1 ;;
	-v | --verbose) VERBOSE=1 ;;
	-j*) JOBS=${a#-j}; [[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad $a" >&2; exit 2; } ;;
	-h | --help) sed -n '2,/^$/p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $a" >&2; exit 2 ;;
	*) FILTER+=("$a") ;;
	esac
done

ME=$(id -u)
IS_ROOT=0
[ "$ME" = 0 ] && IS_ROOT=1
SBX_UID=$ME
[ $IS_ROOT = 1 ] && SBX_UID=65534 # sandlock's default identity when started as root
ISO_UID=""
if [ $IS_ROOT = 1 ]; then
	# a uid nothing else on the machine uses, for the kill(-1) attacks:
	# above the suites' --uid-pool ranges (60000-63099), whose runs a
	# kill(-1) as one of their uids would kill in another lane
	for _ in 1 2 3 4 5 6 7 8; do
		c=$((64000 + RANDOM % 1500))
		if ! getent passwd "$c" >/dev/null && ! grep -qs "^Uid:[[:space:]]*$c[[:space:]]" /proc/[0-9]*/status; then
			ISO_UID=$c
			break
		fi
	done
fi

# ---------------------------------------------------------------- work area
BASE=${TMPDIR:-/tmp}
if [ $IS_ROOT = 1 ] && ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$BASE" 2>/dev/null; then
	BASE=/tmp # the sandboxed uid must reach the evidence directories
fi
WORK=$(mktemp -d "$BASE/sandlock-attacks.XXXXXX") || { echo "run.sh: mktemp failed" >&2; exit 2; }
chmod 755 "$WORK"
if [ -n "${ATTACK_BUILD:-}" ]; then
	BUILD=$ATTACK_BUILD
	mkdir -p "$BUILD"
else
	BUILD=$WORK/build
	mkdir -p "$BUILD"
fi
chmod 755 "$BUILD" 2>/dev/null

declare -A SYSCTL_ORIG
for s in kernel/core_pattern kernel/domainname; do
	SYSCTL_ORIG[$s]=$(cat /proc/sys/$s 2>/dev/null)
done
restore_sysctl() {
	[ $IS_ROOT = 1 ] || return 0
	local cur
	cur=$(cat "/proc/sys/$1" 2>/dev/null)
	[ "$cur" != "${SYSCTL_ORIG[$1]}" ] && printf '%s' "${SYSCTL_ORIG[$1]}" >"/proc/sys/$1"
	return 0
}

LIVE_PIDS=()
on_exit() {
	[ "$BASHPID" = "$$" ] || return 0 # not in a subshell killed before it reset its traps (tests/lib.sh)
	local p
	for p in $(jobs -p); do kill -TERM "$p" 2>/dev/null; done
	wait 2>/dev/null
	for p in "${LIVE_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	restore_sysctl kernel/core_pattern
	restore_sysctl kernel/domainname
	[ $KEEP = 1 ] || rm -rf "$WORK" 2>/dev/null
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- results
NPASS=0 NFAIL=0 NSKIP=0 NXFAIL=0 NXPASS=0
FAILED=()
TLAST=$EPOCHREALTIME
result() { # STATUS NAME DETAIL (counted later from the printed lines)
	local now=$EPOCHREALTIME el
	el=$(( (${now/./} - ${TLAST/./}) / 1000 ))
	TLAST=$now
	if [ $VERBOSE = 1 ]; then
		printf '%-6s %-34s %6d ms %s\n' "$1" "$2" "$el" "$3"
	else
		printf '%-6s %-34s %s\n' "$1" "$2" "$3"
	fi
}
count_results() { # FILE: print it and add its result lines to the totals
	local st name rest
	cat "$1"
	while read -r st name rest; do
		case $st in
		PASS) NPASS=$((NPASS + 1)) ;;
		XFAIL) NPASS=$((NPASS + 1)) NXFAIL=$((NXFAIL + 1)) ;;
		XPASS) NPASS=$((NPASS + 1)) NXPASS=$((NXPASS + 1)) ;;
		SKIP) NSKIP=$((NSKIP + 1)) ;;
		FAIL | ERROR) NFAIL=$((NFAIL + 1)); FAILED+=("$name") ;;
		esac
	done <"$1"
}

if [ $BARE_ONLY = 0 ] && [ ! -x "$SANDLOCK" ]; then
	echo "run.sh: sandbox binary not found: $SANDLOCK (set SANDLOCK, or --bare-only)" >&2
	echo "attacks: 0 passed, 1 failed, 0 skipped"
	exit 1
fi

# ---------------------------------------------------------------- metadata
# All headers are parsed once (one awk over every file) into META[file|key]
# (values of repeated keys separated by newlines); mget sets M to the first.
declare -A META
load_meta() {
	local f k v
	while IFS=$'\x1f' read -r f k v; do
		if [ -n "${META[$f|$k]+x}" ]; then META[$f|$k]+=$'\n'$v; else META[$f|$k]=$v; fi
	done < <(awk 'FNR <= 40 && match($0, /^(#|\/\/)[ \t]*[a-z-]+:/) {
		line = $0; sub(/^(#|\/\/)[ \t]*/, "", line)
		k = line; sub(/:.*/, "", k); v = line; sub(/^[a-z-]+:[ \t]*/, "", v)
		printf "%s\x1f%s\x1f%s\n", FILENAME, k, v }' "$@")
}
meta() { [ -n "${META[$1|$2]+x}" ] && printf '%s\n' "${META[$1|$2]}"; }
mget() { M=${META[$1|$2]-}; M=${M%%$'\n'*}; }

# ---------------------------------------------------------------- build
CC=${CC:-gcc}
build_one() { # SRC OUT EXTRA...
	local src=$1 out=$2
	shift 2
	# ATTACK_PREBUILT=1: ATTACK_BUILD was filled once (--build-only) for
	# runs that share it at once (a run writing there would race them)
	[ "${ATTACK_PREBUILT:-}" = 1 ] && [ -x "$out" ] && return 0
	"$CC" -std=gnu11 -O1 -Wall -I"$HERE/lib" -o "$out" "$src" "$@" -pthread >"$out.log" 2>&1
}
[ "${ATTACK_PREBUILT:-}" = 1 ] && echo "built in $BUILD" || echo "building into $BUILD"
build_one "$HERE/lib/launch.c" "$BUILD/launch" || { cat "$BUILD/launch.log"; exit 2; }
build_one "$HERE/lib/victim.c" "$BUILD/victim" || { cat "$BUILD/victim.log"; exit 2; }
build_one "$HERE/lib/probe.c" "$BUILD/probe" || { cat "$BUILD/probe.log"; exit 2; }
build_one "$HERE/lib/reap.c" "$BUILD/reap" || { cat "$BUILD/reap.log"; exit 2; }
if [ "${ATTACK_PREBUILT:-}" != 1 ] || [ ! -e "$BUILD/preload_canary.so" ]; then
	"$CC" -O1 -Wall -shared -fPIC -o "$BUILD/preload_canary.so" "$HERE/lib/preload_canary.c" 2>"$BUILD/preload.log" || { cat "$BUILD/preload.log"; exit 2; }
fi

ALLFILES=()
for f in "$HERE"/*.c "$HERE"/*.py "$HERE"/*.sh "$HERE"/honest/*.c "$HERE"/honest/*.py "$HERE"/honest/*.sh; do
	[ -f "$f" ] && [ "$f" != "$HERE/run.sh" ] && ALLFILES+=("$f")
done
load_meta "${ALLFILES[@]}"
TESTS=()
for f in "${ALLFILES[@]}"; do
	mget "$f" attack
	n=$M
	[ -n "$n" ] && [ $HONEST_ONLY = 1 ] && continue
	[ -n "$n" ] || { mget "$f" honest; n=$M; }
	[ -n "$n" ] || continue
	# SANDLOCK_ATTACKS_EXCEPT: names already run (check-full after make
	# check runs the rest of the suite)
	case " ${SANDLOCK_ATTACKS_EXCEPT:-} " in *" $n "*) continue ;; esac
	if [ ${#FILTER[@]} -gt 0 ]; then
		keep=0
		for x in "${FILTER[@]}"; do [ "$x" = "$n" ] && keep=1; done
		[ $keep = 1 ] || continue
	fi
	TESTS+=("$f")
done
njobs=$(nproc 2>/dev/null || echo 2)
running=0
for f in "${TESTS[@]}"; do
	case $f in *.c) ;; *) continue ;; esac
	n=${f##*/}
	n=${n%.c}
	mget "$f" cflags
	# shellcheck disable=SC2086
	build_one "$f" "$BUILD/$n" $M &
	running=$((running + 1))
	if [ $running -ge $((njobs * 2)) ]; then wait -n 2>/dev/null || wait; running=$((running - 1)); fi
done
wait
chmod -R a+rX "$BUILD" 2>/dev/null
if [ $BUILD_ONLY = 1 ]; then
	echo "attacks-build: ${#TESTS[@]} built into $BUILD"
	exit 0
fi

# ---------------------------------------------------------------- needs
declare -A NEED_CACHE
need_ok() { # NAME -> 0/1, reason in NEED_WHY
	local n=$1 r rc
	if [ -n "${NEED_CACHE[$n]+x}" ]; then
		NEED_WHY=${NEED_CACHE[$n]#*:}
		[ "${NEED_CACHE[$n]%%:*}" = 0 ]
		return
	fi
	case $n in
	root) if [ $IS_ROOT = 1 ]; then rc=0; else rc=1 r="needs root (bare run is not privileged)"; fi ;;
	userns_or_root)
		if [ $IS_ROOT = 1 ]; then rc=0; else r=$("$BUILD/probe" userns); rc=$?; fi ;;
	filecaps)
		if [ $IS_ROOT = 1 ] && command -v setcap >/dev/null; then rc=0
		else rc=1 r="needs root and setcap (libcap2-bin)"; fi ;;
	cgroupfs) if [ -w /sys/fs/cgroup/pids ]; then rc=0; else rc=1 r="no writable cgroup v1 pids hierarchy"; fi ;;
	cgroup2) # a cgroup v2 directory of our own we may write
		if r=$("$HERE/../own-cgroup2.sh" 2>&1); then rc=0
		else rc=1 r="$r: the supervisor's sampling cannot see the CPU of children the kernel reaped (docs/hosts.md, Known limits)"; fi ;;
	*) r=$("$BUILD/probe" "$n"); rc=$? ;;
	esac
	NEED_CACHE[$n]="$rc:${r:-}"
	NEED_WHY=${r:-}
	return $rc
}

declare -A FEAT_CACHE
FEATURES=""
[ $BARE_ONLY = 0 ] && FEATURES=$(timeout 10 "$SANDLOCK" --features 2>&1)
feature_ok() { # LAYER -> 0/1, reason in FEAT_WHY
	local l=$1 key line
	FEAT_WHY=""
	[ "$l" = - ] && return 0
	key=${l//-/_}
	line=$(grep -E "^[[:space:]]*${key}[[:space:]]*:" <<<"$FEATURES" | head -n 1)
	if [ -z "$line" ]; then
		FEAT_WHY="sandlock --features has no line for $key"
		return 1
	fi
	if ! grep -qiE ":[[:space:]]*(yes|available|on|true)" <<<"$line"; then
		FEAT_WHY="layer unavailable: $line"
		return 1
	fi
	return 0
}

host_has_any() { # LAYER,LAYER... -> 0 when the host offers one of them
	local l
	for l in ${1//,/ }; do feature_ok "$l" && return 0; done
	return 1
}
# Flags that fail closed (125) where the host lacks their layer: such a
# configuration is skipped there, with the reason.
flags_ok() {
	local f need=()
	for f in $1; do
		case $f in
		--landlock | --ro | --rw | --allow | --strict) need+=(landlock) ;;
		--unshare=on) need+=(pidns) ;;
		esac
	done
	[[ " $1 " == *" --unshare on "* ]] && need+=(pidns)
	[[ " $1 " == *" --strict "* ]] && need+=(seccomp)
	for f in "${need[@]}"; do
		feature_ok "$f" || { FEAT_WHY="flags need $f: $FEAT_WHY"; return 1; }
	done
	return 0
}

# ---------------------------------------------------------------- evidence helpers
ev() { [ -e "$EV/$1" ]; }
out_has() { grep -aqF -- "$1" "$OUT"; }
secret_leaked() { grep -aqF -- "$SECRET" "$OUT"; }
conn() { [ -s "$EV/conn.$1" ]; }
st() { # KEY from the launcher's raw status; 999999999 when the launcher died
	if [ -s "$RUN/status" ]; then sed -n "s/^$1 //p" "$RUN/status" | head -n 1; else echo 999999999; fi
}
launcher_killed() { [ ! -s "$RUN/status" ] || grep -q '^signal' "$RUN/status"; }
fsize() { stat -c %s "$1" 2>/dev/null || echo 0; }
survivor() {
	flock -n -x -E 200 "$EV/alive.lock" true 2>/dev/null
	[ $? = 200 ]
}
can_fork() { timeout 5 /bin/true; }
pid_alive() {
	local s
	s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$s" ] && [ "$s" != Z ] && [ "$s" != X ]
}
victim_hit() {
	compgen -G "$EV/victim.sig.*" >/dev/null && return 0
	! pid_alive "$VPID"
}
victim_sched_changed() {
	local f o
	read -r -a f <<<"$(sed 's/.*) //' "/proc/$VPID/stat" 2>/dev/null)"
	# the victim starts with ours (a run under nice(1) is not an attack)
	read -r -a o <<<"$(sed 's/.*) //' "/proc/$$/stat" 2>/dev/null)"
	# after "comm) ": f[0] is field 3; nice = field 19, policy = field 41
	[ "${f[16]:-0}" != "${o[16]:-0}" ] || [ "${f[38]:-0}" != "${o[38]:-0}" ]
}
sysv_key() { echo $((0x5a000000 | 0x${TOKEN:0:6})); }
sysv_exists() { awk -v k="$(sysv_key)" 'NR > 1 && $1 == k { f = 1 } END { exit !f }' "/proc/sysvipc/$1"; }
sysv_remove() {
	local k
	k=$(sysv_key)
	case $1 in sem) ipcrm -S "$k" 2>/dev/null ;; shm) ipcrm -M "$k" 2>/dev/null ;; esac
	return 0
}
args_intact() {
	local exp
	exp=$(for a in "${EXTRA[@]}"; do printf 'ARG %s\n' "$(printf '%s' "$a" | od -An -v -tx1 | tr -d ' \n')"; done)
	[ "$(tail -n ${#EXTRA[@]} "$OUT")" = "$exp" ]
}

# Kill whatever a run left behind (see lib/reap.py: processes pointing into
# the run's private directory or holding its alive.lock, killed by pid).
reap_run() {
	"$PY" "$HERE/lib/reap.py" "$1" "$(stat -c %i "$1/ev/alive.lock" 2>/dev/null)" >/dev/null
}

# ---------------------------------------------------------------- one run
rand_hex() { # N (multiple of 8) hex digits into R, without forking
	R=""
	while [ ${#R} -lt "$1" ]; do printf -v R '%s%08x' "$R" "$SRANDOM"; done
	R=${R:0:$1}
}

# run_once FILE MODE(bare|sandbox) TAG FLAGS: one run in a fresh directory.
# Sets RUN EV CWD GRADER OUT ERR SECRET TOKEN VPID LPID TCPHEX EXTRA STARTED.
run_once() {
	local file=$1 mode=$2 tag=$3 flags=$4
	local name=$NAME tmo fx vmode a i iso=0 vuid=$SBX_UID
	local lopt=() envv=() cmd=() full=() fl=()
	RUN=$WORK/$name.$tag
	[ -e "$RUN" ] && rm -rf "$RUN"
	mkdir -p "$RUN"/{ev/fd,cwd,grader,tmp} # umask 000: everything 0777/0666
	EV=$RUN/ev CWD=$RUN/cwd GRADER=$RUN/grader OUT=$RUN/out ERR=$RUN/err
	rand_hex 24; SECRET=sk-$R
	rand_hex 16; TOKEN=$R
	VPID="" LPID="" TCPHEX=""
	: >"$EV/alive.lock"
	printf 'expected answer: %s\n' "$SECRET" >"$GRADER/answers.txt"
	echo "student output" >"$GRADER/output.txt"

	case $file in
	*.c) a=${file##*/}; cp "$BUILD/${a%.c}" "$CWD/$name"; cmd=("$CWD/$name") ;;
	*.py) cp "$file" "$CWD/$name.py"; cmd=("$PY" "$CWD/$name.py") ;;
	*.sh) cp "$file" "$CWD/$name.sh"; cmd=(/bin/bash "$CWD/$name.sh") ;;
	esac
	local args=("$EV" "token=$TOKEN" "secretfile=$GRADER/answers.txt" "grader=$GRADER" "runner_uid=$ME")
	mget "$file" isolate-uid
	[ "$M" = yes ] && [ $IS_ROOT = 1 ] && [ -n "$ISO_UID" ] && iso=1
	if [ $iso = 1 ]; then args+=("iso_uid=$ISO_UID"); vuid=$ISO_UID; fi

	mget "$file" setup
	for fx in $M; do
		case $fx in
		victim*)
			vmode=basic
			[ "$fx" != "${fx#victim:}" ] && vmode=${fx#victim:}
			if [ $IS_ROOT = 1 ]; then
				env SANDLOCK_TEST_SECRET="$SECRET" setpriv --reuid="$vuid" --regid="$vuid" --clear-groups \
					"$BUILD/victim" "$EV" "$GRADER" "$TOKEN" "$vmode" </dev/null >/dev/null 2>&1 &
			else
				env SANDLOCK_TEST_SECRET="$SECRET" "$BUILD/victim" "$EV" "$GRADER" "$TOKEN" "$vmode" </dev/null >/dev/null 2>&1 &
			fi
			VPID=$!
			LIVE_PIDS+=("$VPID")
			for i in $(seq 1 200); do [ -s "$EV/victim.pid" ] && break; sleep 0.01; done
			if [ "$vmode" = futex ]; then
				for i in $(seq 1 200); do [ -e "$EV/victim.futex_ready" ] && break; sleep 0.01; done
			fi
			a="" i=""
			read -r a i <"$EV/victim.addr"
			args+=("victim=$VPID" "victim_addr=$a" "victim_flag=$i")
			;;
		listener)
			"$PY" "$HERE/lib/listener.py" "$EV" "$TOKEN" </dev/null >/dev/null 2>"$RUN/listener.err" &
			LPID=$!
			LIVE_PIDS+=("$LPID")
			for i in $(seq 1 300); do [ -s "$EV/listener.info" ] && break; sleep 0.01; done
			i=()
			read -r -a i <"$EV/listener.info"
			args+=("${i[@]}")
			for a in "${i[@]}"; do [ "${a%%=*}" = tcp ] && printf -v TCPHEX '%04X' "${a#tcp=}"; done
			;;
		tty) lopt+=(-T "$RUN/tty_input") ;;
		stdin-socket) lopt+=(-U) ;;
		stdout-pipe) lopt+=(-P) ;;
		stdin)
			for i in 1 2 3; do printf 'line %s %s ünï\n' "$i" "$TOKEN"; done >"$RUN/stdin.txt"
			lopt+=(-i "$RUN/stdin.txt")
			;;
		blob) head -c 5242880 /dev/urandom >"$CWD/blob" ;;
		filecaps)
			# a file of root's that only a capability opens, and the
			# capability on the attack's own binary
			(umask 077 && printf 'sealed answer: %s\n' "$SECRET" >"$GRADER/sealed.txt")
			setcap cap_dac_read_search+ep "${cmd[0]}" 2>>"$RUN/runner.err"
			;;
		bash_env)
			printf ': > %q\n' "$EV/bash_env_ran" >"$RUN/bashenv.sh"
			envv+=("BASH_ENV=$RUN/bashenv.sh")
			;;
		ld_preload) envv+=("LD_PRELOAD=$BUILD/preload_canary.so") ;;
		killparent)
			if [ "$mode" = bare ]; then lopt+=(-R "$EV/ready" -X self); else lopt+=(-R "$EV/ready" -X child); fi
			;;
		esac
	done
	EXTRA=()
	mget "$file" args
	[ -n "$M" ] && eval "EXTRA=($M)"

	mget "$file" timeout
	tmo=${M:-10}
	if [ "$mode" = bare ]; then
		mget "$file" bare-timeout
		[ -n "$M" ] && tmo=$M
		tmo=$((tmo * ${BARE_SLOW:-1}))
	fi
	# an honest workload ends by itself: its deadline only catches a hang,
	# so it is far above what a loaded machine needs (java_run bare took
	# 10.4 s of wall for 0.66 s of CPU beside busy loops on both cores)
	[ "$KIND" = honest ] && [ "$tmo" -lt 60 ] && tmo=60
	if [ "$mode" = bare ]; then
		if [ $iso = 1 ]; then
			full=(setpriv --reuid="$ISO_UID" --regid="$ISO_UID" --clear-groups "${cmd[@]}")
		else
			full=("${cmd[@]}")
		fi
	else
		read -r -a fl <<<"${SANDLOCK_EXTRA_FLAGS:-} $flags"
		[ $iso = 1 ] && fl+=(--user "$ISO_UID:$ISO_UID")
		full=("$SANDLOCK" "${fl[@]}" -- "${cmd[@]}")
	fi
	if [ "$KIND" = attack ]; then full+=("${args[@]}"); else full+=("$EV" "${EXTRA[@]}"); fi

	{ (cd "$CWD" && umask 022 && exec env SANDLOCK_TEST_SECRET="$SECRET" TMPDIR="$RUN/tmp" "${envv[@]}" \
		timeout -k 2 $((tmo + 5)) "$BUILD/launch" -t $((tmo * 1000)) -s "$RUN/status" \
		-o "$OUT" -e "$ERR" "${lopt[@]}" -- "${full[@]}"); } 2>>"$RUN/runner.err"
	mget "$file" settle
	if [ -n "$M" ]; then sleep "$M"; elif [ -n "$VPID" ]; then sleep 0.1; fi
	if [ -n "$LPID" ]; then { kill -TERM "$LPID"; wait "$LPID"; } 2>/dev/null; fi
	STARTED=0
	if [ "$KIND" = honest ] || grep -aq '^ATTACK-STARTED' "$OUT" 2>/dev/null; then STARTED=1; fi
}

teardown() {
	local file=$1
	if [ -n "$VPID" ]; then { kill -KILL "$VPID"; wait "$VPID"; } 2>/dev/null; fi
	"$BUILD/reap" "$RUN" >/dev/null
	mget "$file" cleanup
	if [ -n "$M" ]; then eval "$M" >/dev/null 2>&1; fi
	if [ $KEEP = 0 ]; then rm -rf "$RUN" 2>/dev/null; fi
}

judge() { # -> 0 when the evidence shows escape (attack) / success (honest)
	(eval "$1") >/dev/null 2>&1
}

detail() { # short description of what happened in the last run
	local s
	s=$(tr '\n' ' ' <"$RUN/status" 2>/dev/null)
	[ -n "$s" ] || s="no status (launcher killed)"
	printf '%s' "$s"
	if [ $VERBOSE = 1 ]; then
		printf '\n        stdout: %s' "$(head -c 400 "$OUT" 2>/dev/null | tr '\n' '|')"
		printf '\n        stderr: %s' "$(head -c 400 "$ERR" 2>/dev/null | tr '\n' '|')"
	fi
}

# ---------------------------------------------------------------- main loop
# run_test FILE: bare run, then every sandboxed configuration (an honest
# workload: sandboxed first, bare only after a failure); prints result
# lines. Runs in a background subshell (one per test, -j of them at once).
run_test() {
	local file=$1 b skip n
	TLAST=$EPOCHREALTIME
	LIVE_PIDS=()
	trap 'for p in "${LIVE_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done' EXIT
	trap 'exit 143' TERM
	trap - INT
	# "lock: NAME": the host-wide state the attack writes (a sysctl of the
	# host's namespaces) is another lane's too: one such attack at a time
	# across every run of this suite on the machine, bare run to cleanup
	mget "$file" lock
	if [ -n "$M" ]; then
		# made by whichever lane comes first, opened read-only by all (a
		# test user cannot open root's file for writing in the sticky /tmp)
		local lf="/tmp/sandlock-attacks-${M%% *}.lock"
		[ -e "$lf" ] || (umask 022; : >>"$lf") 2>/dev/null
		{ exec 8<"$lf"; } 2>/dev/null && flock 8
	fi
	KIND=attack
	mget "$file" attack
	NAME=$M
	if [ -z "$NAME" ]; then mget "$file" honest; NAME=$M; KIND=honest; fi
	if [ $KIND = attack ]; then mget "$file" escaped-if; else mget "$file" ok-if; fi
	EXPR=$M
	# SANDLOCK_ATTACKS_SKIP="name ...": not meaningful for this build (the
	# sanitizer build is dynamically linked, so LD_PRELOAD reaches it)
	case " ${SANDLOCK_ATTACKS_SKIP:-} " in *" $NAME "*)
		result SKIP "$NAME" "not meaningful for this build of sandlock"
		return 0 ;;
	esac
	mget "$file" flags
	FLAGS=${M:-"--no-fork --no-network --clean-env --cpu 5 --mem 256"}
	mget "$file" xfail
	XFAIL=$M
	mget "$file" variant-xfail
	VXFAIL=$M
	mget "$file" layers
	LAYERS_GIVEN=$M
	LAYERS=${M:-seccomp}
	LAYERS_WHY=""
	[ "$LAYERS" != "${LAYERS%% *}" ] && LAYERS_WHY=" ${LAYERS#* }"
	LAYERS=${LAYERS%% *}

	case $file in *.c)
		b=${file##*/}
		b=$BUILD/${b%.c}
		if [ ! -x "$b" ]; then
			result ERROR "$NAME" "does not compile: $(head -c 300 "$b.log" | tr '\n' ' ')"
			return
		fi ;;
	esac
	skip=""
	mget "$file" needs
	for n in ${M//,/ }; do
		if [ "${NEED_RC[$n]:-1}" != 0 ]; then skip=${NEED_MSG[$n]:-"need $n unknown"}; break; fi
	done
	if [ -n "$skip" ]; then
		result SKIP "$NAME" "$skip"
		return
	fi

	# 1. bare.  An honest workload's bare run only tells "broken here
	# anyway" from "broken by the sandbox": it runs after a sandboxed run
	# that failed (bare_broken), not before every one (a third of the suites'
	# honest processor time: JVMs, compilers, numpy on every host and user)
	if [ $KIND = honest ] && [ $BARE_ONLY = 0 ]; then
		sandboxed "$file"
		return
	fi
	run_once "$file" bare bare ""
	# A loaded or slow machine can starve a bare run of the CPU its
	# evidence needs before the deadline (memory_bomb_shared: 242 of its
	# 640 MB touched, 1.1 s of CPU in 10 s of wall, on a guest whose
	# system calls cost 1 us): stopped at the deadline without evidence, it
	# runs once more with six times the time before it counts as broken.
	if [ $KIND = attack ] && [ $STARTED = 1 ] && ! judge "$EXPR" && [ "$(st timeout)" = 1 ]; then
		teardown "$file"
		BARE_SLOW=6 run_once "$file" bare bare ""
	fi
	if [ $KIND = attack ] && [ "${SANDLOCK_HOSTSIM:-full}" != full ] &&
		{ [ $STARTED = 0 ] || ! judge "$EXPR"; }; then
		# on a simulated host whose own policy already stops it, there
		# is nothing to contain (on the full host this is an ERROR)
		result SKIP "$NAME" "the $SANDLOCK_HOSTSIM host stops it bare ($(detail))"
		teardown "$file"
		return
	fi
	if [ $KIND = attack ]; then
		if [ $STARTED = 0 ]; then
			result ERROR "$NAME" "attack does not work bare: did not start ($(detail))"
			teardown "$file"
			return
		fi
		if ! judge "$EXPR"; then
			result ERROR "$NAME" "attack does not work bare: no evidence of escape ($(detail))"
			teardown "$file"
			return
		fi
	elif ! judge "$EXPR"; then
		result ERROR "$NAME" "honest workload fails bare ($(detail))"
		teardown "$file"
		return
	fi
	teardown "$file"
	if [ $BARE_ONLY = 1 ]; then
		if [ $KIND = attack ]; then result PASS "$NAME" "[bare] escapes bare"; else result PASS "$NAME" "[bare] works bare"; fi
		return
	fi
	sandboxed "$file"
}

# bare_broken FILE: an honest workload run bare, after a sandboxed run of
# it failed: does it fail without the sandbox too?  (prints why)
bare_broken() {
	local file=$1 why
	run_once "$file" bare bare ""
	why=$(detail)
	judge "$EXPR"
	local st=$?
	teardown "$file"
	printf '%s' "$why"
	[ $st != 0 ]
}

# 2. sandboxed: main flags, then variants (run_test's locals: NAME, KIND,
# EXPR, FLAGS, XFAIL, VXFAIL, LAYERS...)
sandboxed() {
	local file=$1 configs cfg idx layer flags vlabel label xf v why bwhy
	configs=("-|$FLAGS")
	while IFS= read -r v; do [ -n "$v" ] && configs+=("$v"); done < <(meta "$file" variant)
	idx=0
	for cfg in "${configs[@]}"; do
		layer=${cfg%%|*}
		layer=${layer//[[:space:]]/}
		flags=${cfg#*|}
		vlabel=""
		if [ "$flags" != "${flags%%|*}" ]; then
			vlabel=${flags#*|}
			vlabel=${vlabel//[[:space:]]/}
			flags=${flags%%|*}
		fi
		flags=${flags#"${flags%%[![:space:]]*}"}
		label=$NAME
		xf=$XFAIL
		if [ $idx -gt 0 ]; then
			xf=""
			case $vlabel in *,xfail) xf=${VXFAIL:-${XFAIL:-"by design, see docs/hosts.md"}}; vlabel=${vlabel%,xfail} ;; esac
			label="$NAME[${vlabel:-${flags%% --no-*}}]"
			label=${label// /=}
		fi
		if ! feature_ok "$layer" || ! flags_ok "$flags"; then
			result SKIP "$label" "$FEAT_WHY"
			idx=$((idx + 1))
			continue
		fi
		# contained by a layer this host lacks: escaping is expected
		if [ $KIND = attack ] && [ -z "$xf" ] && ! host_has_any "$LAYERS"; then
			xf="this host lacks ${LAYERS//,/ and }$LAYERS_WHY"
		fi
		# an honest workload that needs a layer this host lacks
		if [ $KIND = honest ] && [ -n "$LAYERS_GIVEN" ] && [ -z "$xf" ] && ! host_has_any "$LAYERS"; then
			xf="this host lacks ${LAYERS//,/ and }$LAYERS_WHY"
		fi
		run_once "$file" sandbox "sbx$idx" "$flags"
		if [ $KIND = honest ]; then
			if judge "$EXPR"; then
				if [ -n "$xf" ]; then result XPASS "$label" "works (xfail: $xf)"; else result PASS "$label" ""; fi
			elif [ -n "$xf" ]; then result XFAIL "$label" "broken under the sandbox, expected: $xf"
			else
				why=$(detail)
				teardown "$file"
				if bwhy=$(bare_broken "$file"); then
					result ERROR "$NAME" "honest workload fails bare ($bwhy)"
					return
				fi
				result FAIL "$label" "honest workload broken under the sandbox ($why)"
				idx=$((idx + 1))
				continue
			fi
		elif [ $STARTED = 0 ]; then
			result FAIL "$label" "attack did not start under the sandbox ($(detail); stderr: $(head -c 200 "$ERR" | tr '\n' ' '))"
		elif judge "$EXPR"; then
			if [ -n "$xf" ]; then result XFAIL "$label" "not contained, expected: $xf"; else result FAIL "$label" "NOT CONTAINED ($(detail))"; fi
		else
			if [ -n "$xf" ]; then result XPASS "$label" "contained (xfail: $xf)"; else result PASS "$label" ""; fi
		fi
		teardown "$file"
		idx=$((idx + 1))
	done
}

# needs are probed once, here, not in every test's subshell
declare -A NEED_RC NEED_MSG
for f in "${TESTS[@]}"; do
	mget "$f" needs
	for n in ${M//,/ }; do
		[ -n "${NEED_RC[$n]+x}" ] && continue
		need_ok "$n"
		NEED_RC[$n]=$?
		NEED_MSG[$n]=$NEED_WHY
	done
done

echo "sandbox: $SANDLOCK ${SANDLOCK_EXTRA_FLAGS:-}  work: $WORK   uid: $ME${ISO_UID:+   isolated uid: $ISO_UID}   jobs: $JOBS${SANDLOCK_HOSTSIM:+   host: $SANDLOCK_HOSTSIM}"
T0=$SECONDS
umask 000
# Tests marked "exclusive: yes" (broadcast signals, bombs, timing) and the
# honest workloads run alone, after the others.
PAR=() EXCL=()
for f in "${TESTS[@]}"; do
	mget "$f" exclusive
	if [ "$M" = yes ] || [ -n "${META[$f|honest]+x}" ]; then EXCL+=("$f"); else PAR+=("$f"); fi
done
NEXT_PRINT=0
flush_done() { # print finished tests in order
	while [ -e "$WORK/done.$NEXT_PRINT" ]; do
		count_results "$WORK/done.$NEXT_PRINT"
		rm -f "$WORK/done.$NEXT_PRINT"
		NEXT_PRINT=$((NEXT_PRINT + 1))
	done
}
i=0
running=0
for file in "${PAR[@]}" "${EXCL[@]}"; do
	if [ $i = ${#PAR[@]} ]; then
		wait
		flush_done
		running=0
	fi
	if [ $i -ge ${#PAR[@]} ]; then
		# alone: wait for every job (wait -n can return early), so no
		# setup of the next test runs beside it either
		wait
		flush_done
		running=0
	fi
	while [ $running -ge "$JOBS" ]; do
		wait -n 2>/dev/null
		running=$((running - 1))
		flush_done
	done
	{ run_test "$file" >"$WORK/res.$i" 2>&1; mv "$WORK/res.$i" "$WORK/done.$i"; } &
	running=$((running + 1))
	i=$((i + 1))
done
wait
flush_done
echo "time: $((SECONDS - T0)) s; xfail: $NXFAIL, xpass: $NXPASS (both counted as passed)"
[ ${#FAILED[@]} -gt 0 ] && echo "failed: ${FAILED[*]}"
echo "attacks: $NPASS passed, $NFAIL failed, $NSKIP skipped"
[ $NFAIL = 0 ]
