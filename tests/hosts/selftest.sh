#!/bin/bash
# The host simulations prove themselves: under each host, tests/hosts/probe.py
# tries the calls that host refuses and reports the errno it got; the same
# probe on the unrestricted host ("full") must succeed, so every check here
# can fail.  As root the capability sets are read from /proc/self/status.
#
#   tests/hosts/selftest.sh [HOST...]
# Last line: "hosts-selftest: P passed, F failed, S skipped".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SIM=$HERE/hostsim
PROBE=$HERE/probe.py
P=0 F=0 S=0
pass() { P=$((P + 1)); echo "PASS $*"; }
fail() { F=$((F + 1)); echo "FAIL $*"; }
skip() { S=$((S + 1)); echo "SKIP $*"; }

# host: probe=expected ... (what the real host answers)
declare -A EXPECT=(
	[docker]="unshare_user=EPERM unshare_files=EPERM clone_newuser=EPERM clone3=ENOSYS close_range=OK pidfd_open=OK landlock=OK filter_listener=OK pdeathsig=OK"
	[podman]="unshare_user=OK clone_newuser_newpid=OK userns_mount=OK close_range=OK landlock=OK filter_listener=OK pdeathsig=OK"
	[old-docker]="unshare_files=EPERM clone_newuser=EPERM clone3=ENOSYS close_range=EPERM pidfd_open=EPERM landlock=EPERM filter_listener=OK"
	[userns-refused]="unshare_user=ENOSPC clone_newuser=ENOSPC clone_newuser_newpid=ENOSPC clone3=ENOSYS unshare_files=OK"
	[userns-nocaps]="unshare_user=OK clone_newuser=OK clone_newuser_newpid=EPERM userns_mount=EPERM userns_unshare_mnt=EPERM clone3=ENOSYS"
	[no-pdeathsig]="pdeathsig=EPERM filter_listener=OK no_new_privs=OK"
	[no-landlock]="landlock=ENOSYS filter_listener=OK"
	[old-kernel]="landlock=ENOSYS close_range=ENOSYS pidfd_open=ENOSYS clone_pidfd=EINVAL clone3=ENOSYS filter=OK filter_listener=EINVAL notif_sizes=EINVAL"
	[lambda]="filter=EPERM filter_listener=EPERM no_new_privs=EPERM unshare_user=EPERM clone_newuser=EPERM landlock=ENOSYS ptrace_traceme=EPERM pdeathsig=EPERM unshare_files=OK"
)
# capability sets as root (hex CapEff), for the hosts that set them
declare -A CAPS=(
	[docker]=a80425fb [old-docker]=a80425fb [podman]=800405fb
	[lambda]=fb
)

if ! "$SIM" --list >/dev/null 2>&1; then
	fail "hostsim --list: $("$SIM" --list 2>&1 | head -1)"
	echo "hosts-selftest: $P passed, $F failed, $S skipped"
	exit 1
fi
"$SIM" nowhere -- /bin/true 2>/dev/null
st=$?
if [ $st = 125 ]; then pass "unknown host: 125"; else fail "unknown host: status $st"; fi

declare -A BASE
while read -r name got; do BASE[$name]=$got; done < <("$SIM" full -- "$PROBE")
HOSTS=("$@")
[ ${#HOSTS[@]} = 0 ] && HOSTS=(docker podman old-docker userns-refused userns-nocaps no-pdeathsig no-landlock old-kernel lambda)
for h in "${HOSTS[@]}"; do
	declare -A GOT=()
	out=$("$SIM" "$h" -- "$PROBE" 2>&1)
	st=$?
	if [ $st != 0 ]; then
		fail "$h: the probe did not run (status $st): $(echo "$out" | head -2 | tr '\n' ' ')"
		continue
	fi
	while read -r name got; do GOT[$name]=$got; done <<<"$out"
	for e in ${EXPECT[$h]}; do
		name=${e%%=*} want=${e#*=}
		got=${GOT[$name]:-none}
		if [ "$want" != OK ] && [ "${BASE[$name]:-}" = "$want" ]; then
			skip "$h: $name: the unrestricted host answers $want too"
		elif [ "$got" = "$want" ]; then
			pass "$h: $name $got"
		else
			fail "$h: $name: got $got, want $want (full host: ${BASE[$name]:-none})"
		fi
	done
	# no_new_privs: set by hostsim only for an ordinary user (root keeps
	# Docker's behaviour: not set)
	nnp=$("$SIM" "$h" -- awk '/^NoNewPrivs:/ { print $2 }' /proc/self/status)
	want=1
	[ "$(id -u)" = 0 ] && want=0
	if [ "$nnp" = "$want" ]; then pass "$h: NoNewPrivs $nnp"; else fail "$h: NoNewPrivs $nnp, want $want"; fi
	if [ "$(id -u)" = 0 ] && [ -n "${CAPS[$h]:-}" ]; then
		have=$(awk '/^CapPrm:/ { print $2 }' /proc/self/status)
		eff=$("$SIM" "$h" -- awk '/^CapEff:/ { print $2 }' /proc/self/status)
		bnd=$("$SIM" "$h" -- awk '/^CapBnd:/ { print $2 }' /proc/self/status)
		want=$(printf '%016x' $((0x${CAPS[$h]} & 0x$have)))
		if [ "$eff" = "$want" ] && [ "$bnd" = "$want" ]; then pass "$h: capabilities $eff"
		else fail "$h: CapEff $eff CapBnd $bnd, want $want"; fi
	fi
	if [ "$(id -u)" = 0 ] && [[ $h == userns-* ]]; then
		eff=$("$SIM" "$h" -- awk '/^CapEff:/ { print $2 }' /proc/self/status)
		if (( (0x$eff >> 21) & 1 )); then fail "$h: root keeps CAP_SYS_ADMIN"; else pass "$h: root without CAP_SYS_ADMIN"; fi
	fi
	unset GOT
done
echo "hosts-selftest: $P passed, $F failed, $S skipped"
[ $F = 0 ]
