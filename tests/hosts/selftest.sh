#!/bin/bash
# The host simulations prove themselves.  Under each host, probes try the
# calls that host refuses and print the errno they got: tests/hosts/probe.py
# (calls that need memory: clone3, filters, namespaces in a child) and a C
# probe compiled here (raw calls by number, also by the x32 and i386 ABIs).
# The same probes on the unrestricted host ("full") must answer otherwise, so
# every check can fail.  The capability sets and no_new_privs are read from
# /proc/self/status.  As root with a Docker engine, the docker simulation is
# also compared call by call with a real default container.
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
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hosts-selftest.XXXXXX")
trap '[ "$BASHPID" = "$$" ] || exit; rm -rf "$WORK"' EXIT
ROOT=false
[ "$(id -u)" = 0 ] && ROOT=true

# The C probe: NAME=NR[,ARG...] makes that call in a forked child and prints
# "NAME OK", "NAME <errno name>" or "NAME SIG<n>"; NR "iN" enters by int 0x80
# (i386); "status" prints the capability and seccomp lines of /proc/self/status.
# Static, so that it also runs in an empty container.
cat >"$WORK/sysprobe.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long i386_call(long nr, long *a)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(nr), "b"(a[0]), "c"(a[1]), "d"(a[2]), "S"(a[3]), "D"(a[4]) : "memory");
	return r < 0 && r > -4096 ? (errno = -r, -1) : r;
}

static void status(void)
{
	char line[256], key[64], val[128];
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "%63[^:]: %127s", key, val) == 2 &&
		    (!strncmp(key, "Cap", 3) || !strcmp(key, "NoNewPrivs") || !strncmp(key, "Seccomp", 7)))
			printf("%s %s\n", key, val);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *name = argv[i], *p = strchr(name, '=');
		long a[6] = {0}, nr;
		int n = 0, i386, st;
		if (!strcmp(name, "status")) {
			status();
			continue;
		}
		if (!p)
			return 2;
		*p++ = 0;
		i386 = *p == 'i';
		nr = strtol(p + i386, &p, 0);
		while (*p == ',' && n < 6)
			a[n++] = (long)strtoull(p + 1, &p, 0);
		fflush(stdout);
		pid_t child = fork();
		if (child == 0) {
			pid_t self = getpid();
			long r = i386 ? i386_call(nr, a) : syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
			if (getpid() != self)
				_exit(0); /* the new process of a clone that worked */
			if (r > 0 && !strncmp(name, "clone", 5))
				waitpid(r, NULL, __WALL);
			printf("%s %s\n", name, r == -1 ? strerrorname_np(errno) : "OK");
			fflush(stdout);
			_exit(0);
		}
		waitpid(child, &st, 0);
		if (WIFSIGNALED(st))
			printf("%s SIG%d\n", name, WTERMSIG(st));
	}
	fflush(stdout);
	return 0;
}
EOF
# x86-64 numbers unless said; arguments that change nothing the probe keeps
CALLS=(
	unshare_ns=272,0x20000 unshare_time=272,0x80 setns=308,-1,0 mount=165,0,0,0,0,0
	open_tree=428,-1,0,0 kcmp=312,0,0,0,0,0 process_vm_readv=310,0,0,0,0,0,0
	pidfd_getfd=438,-1,0,0 personality_linux=135,0 personality_rix=135,0x400000
	userfaultfd=323,1 keyctl=250,0,0,0,0,0 bpf=321,0,0,0 memfd_secret=447,0
	openat2=437,-1,0,0,0 faccessat2=439,-1,0,0,0 epoll_pwait2=441,-1,0,0,0,0,0
	futex_waitv=449,0,0,0,0,0 cachestat=451,-1,0,0,0 fchmodat2=452,-1,0,0,0 mseal=462,0,0,0
	landlock_add_rule=445,-1,1,0,0 landlock_restrict_self=446,-1,0 socket_packet=41,17,3,0
	socket_netlink_audit=41,16,3,9 acct=163,0 sethostname=170,0,0 mbind=237,0,0,0,0,0,0
	x32_unshare_user=0x40000110,0x10000000 x32_ptrace_traceme=0x40000209,0,0,0,0
	x32_mseal=0x400001ce,0,0,0 i386_getpid=i20 i386_unshare_user=i310,0x10000000
	i386_ptrace_traceme=i26,0,0,0,0
)
SYSPROBE=$WORK/sysprobe
if ! cc -O -static -o "$SYSPROBE" "$WORK/sysprobe.c" 2>"$WORK/cc.err"; then
	skip "the C probe does not build: $(head -c 200 "$WORK/cc.err")"
	SYSPROBE=
fi
chmod -R a+rX "$WORK"

# host: probe=expected ... (what the real host answers); BASE: what the
# unrestricted host answers (the call is not refused)
declare -A EXPECT=(
	[docker]="unshare_user=EPERM unshare_files=EPERM clone_newuser=EPERM clone3=ENOSYS close_range=OK
		pidfd_open=OK landlock=OK filter_listener=OK pdeathsig=OK setns=EPERM mount=EPERM kcmp=EPERM
		personality_linux=BASE personality_rix=EPERM userfaultfd=EPERM futex_waitv=BASE
		cachestat=ENOSYS mseal=ENOSYS socket_packet=BASE x32_unshare_user=EPERM i386_unshare_user=EPERM"
	[docker-capdrop]="unshare_user=EPERM clone_newuser=EPERM clone3=ENOSYS landlock=OK filter_listener=OK
		setns=EPERM mount=EPERM kcmp=EPERM"
	[podman]="unshare_user=OK clone_newuser_newpid=OK userns_mount=OK close_range=OK landlock=OK
		filter_listener=OK pdeathsig=OK personality_rix=ENOSYS userfaultfd=EPERM kcmp=EPERM"
	[old-docker]="unshare_files=EPERM clone_newuser=EPERM clone3=ENOSYS close_range=EPERM pidfd_open=EPERM
		landlock=EPERM landlock_add_rule=EPERM memfd_secret=EPERM filter_listener=OK faccessat2=BASE
		openat2=BASE mseal=ENOSYS"
	[userns-refused]="unshare_user=ENOSPC clone_newuser=ENOSPC clone_newuser_newpid=ENOSPC clone3=ENOSYS
		unshare_files=OK x32_unshare_user=ENOSPC i386_unshare_user=ENOSPC"
	[userns-nocaps]="unshare_user=OK clone_newuser=OK clone_newuser_newpid=EPERM userns_mount=EPERM
		userns_unshare_mnt=EPERM clone3=ENOSYS unshare_ns=EPERM setns=EPERM mount=EPERM open_tree=EPERM"
	[no-pdeathsig]="pdeathsig=EPERM filter_listener=OK no_new_privs=OK"
	[no-landlock]="landlock=ENOSYS landlock_add_rule=ENOSYS landlock_restrict_self=ENOSYS filter_listener=OK"
	[old-kernel]="landlock=ENOSYS close_range=ENOSYS pidfd_open=ENOSYS pidfd_getfd=ENOSYS clone_pidfd=EINVAL
		clone3=ENOSYS filter=OK filter_listener=EINVAL notif_sizes=EINVAL epoll_pwait2=ENOSYS
		mseal=ENOSYS openat2=ENOSYS faccessat2=BASE"
	[lambda]="filter=EPERM filter_listener=EPERM notif_sizes=EPERM no_new_privs=EPERM unshare_user=EPERM
		clone_newuser=EPERM unshare_files=OK setns=EPERM mount=EPERM landlock=ENOSYS ptrace_traceme=EPERM
		process_vm_readv=EPERM pdeathsig=EPERM x32_ptrace_traceme=EPERM i386_ptrace_traceme=EPERM"
)
# as root, what the capability set takes away
declare -A ROOT_EXPECT=(
	[docker]="socket_packet=OK" [podman]="socket_packet=EPERM" [lambda]="socket_packet=EPERM"
	[userns-refused]="unshare_ns=EPERM unshare_time=EPERM"
	[docker-capdrop]="socket_packet=EPERM"
)
# capability sets as root (hex CapEff = CapPrm = CapBnd), for the hosts that set them
declare -A CAPS=([docker-capdrop]=0 [docker]=a80425fb [old-docker]=a80425fb [podman]=800405fb [lambda]=fb)

# probe HOST: every answer under hostsim HOST, "NAME ANSWER" lines
probe() {
	"$SIM" "$1" -- "$PROBE"
	[ -n "$SYSPROBE" ] && "$SIM" "$1" -- "$SYSPROBE" "${CALLS[@]}"
	"$SIM" "$1" -- awk 'BEGIN { print "env", ENVIRON["SANDLOCK_HOSTSIM"] }
		/^(Cap[A-Za-z]+|NoNewPrivs):/ { sub(":", "", $1); print $1, $2 }' /proc/self/status
}

# the command line
list=$("$SIM" --list 2>&1)
if [ "$(echo "$list" | awk 'NF >= 2' | wc -l)" -ge 10 ] && echo "$list" | grep -q '^full '; then
	pass "hostsim --list: $(echo "$list" | wc -l) hosts, each with a description"
else
	fail "hostsim --list: $(echo "$list" | head -2 | tr '\n' ' ')"
fi
for args in "nowhere -- /bin/true" "docker" "docker --" ""; do
	# shellcheck disable=SC2086
	err=$("$SIM" $args 2>&1 >/dev/null)
	st=$?
	if [ $st = 125 ] && [ "$(echo "$err" | wc -l)" = 1 ]; then pass "hostsim ${args:-(no arguments)}: 125, one line"
	else fail "hostsim ${args:-(no arguments)}: status $st, stderr: $err"; fi
done

declare -A BASE
while read -r name got; do BASE[$name]=$got; done < <(probe full)
[ "${BASE[env]:-}" = full ] || fail "full: SANDLOCK_HOSTSIM is '${BASE[env]:-}'"
HOSTS=("$@")
[ ${#HOSTS[@]} = 0 ] && HOSTS=(docker docker-capdrop podman old-docker userns-refused userns-nocaps no-pdeathsig
	no-landlock old-kernel lambda)
for h in "${HOSTS[@]}"; do
	if [ -z "${EXPECT[$h]+x}" ]; then
		fail "$h: no such host here"
		continue
	fi
	declare -A GOT=()
	out=$(probe "$h" 2>&1)
	while read -r name got; do GOT[$name]=$got; done <<<"$out"
	if [ "${GOT[env]:-}" != "$h" ]; then
		fail "$h: the probes did not run: $(echo "$out" | grep -v '^[a-z0-9_]* [A-Z0-9]*$' | head -2 | tr '\n' ' ')"
		unset GOT
		continue
	fi
	want_all=${EXPECT[$h]}
	$ROOT && want_all+=" ${ROOT_EXPECT[$h]:-}"
	for e in $want_all; do
		name=${e%%=*} want=${e#*=} got=${GOT[${e%%=*}]:-none} base=${BASE[${e%%=*}]:-none}
		if [ "$got" = none ] && [ -z "$SYSPROBE" ]; then
			skip "$h: $name: no C probe"
		elif [[ $name == i386_* ]] && [ "${BASE[i386_getpid]:-}" != OK ]; then
			skip "$h: $name: this kernel runs no i386 call (int 0x80: ${BASE[i386_getpid]:-none})"
		elif [ "$e" = "$name=BASE" ]; then
			if [ "$got" = "$base" ]; then pass "$h: $name $got, as on the full host"
			else fail "$h: $name: got $got, the full host answers $base"; fi
		elif [ "$want" != OK ] && [ "$base" = "$want" ]; then
			skip "$h: $name: the unrestricted host answers $want too"
		elif [ "$got" = "$want" ]; then
			pass "$h: $name $got"
		else
			fail "$h: $name: got $got, want $want (full host: $base)"
		fi
	done
	# no_new_privs: set by hostsim only without CAP_SYS_ADMIN (root keeps
	# Docker's behaviour: not set)
	want=1
	$ROOT && [ "$h" != docker-capdrop ] && want=0 # (docker-capdrop: no-new-privileges)
	if [ "${GOT[NoNewPrivs]:-}" = $want ]; then pass "$h: NoNewPrivs $want"
	else fail "$h: NoNewPrivs ${GOT[NoNewPrivs]:-none}, want $want"; fi
	if $ROOT && [ -n "${CAPS[$h]:-}" ]; then
		want=$(printf '%016x' $((0x${CAPS[$h]} & 0x${BASE[CapPrm]})))
		got="${GOT[CapEff]:-} ${GOT[CapPrm]:-} ${GOT[CapBnd]:-} ${GOT[CapInh]:-} ${GOT[CapAmb]:-}"
		if [ "$got" = "$want $want $want 0000000000000000 0000000000000000" ]; then
			pass "$h: capabilities $want (effective, permitted, bounding; none inheritable, ambient)"
		else fail "$h: CapEff CapPrm CapBnd CapInh CapAmb are $got, want $want x3, 0, 0"; fi
	fi
	if $ROOT && [[ $h == userns-* ]]; then
		if (((0x${GOT[CapEff]:-0} | 0x${GOT[CapBnd]:-0}) >> 21 & 1)); then fail "$h: root keeps CAP_SYS_ADMIN"
		else pass "$h: root without CAP_SYS_ADMIN (effective and bounding)"; fi
	fi
	unset GOT
done

# The docker simulation against a real default container (root, a Docker
# engine, an image imported from an empty archive: no registry)
IMAGE=sandlock-test-empty:1
if [[ " ${HOSTS[*]} " != *" docker "* ]]; then
	:
elif ! $ROOT || [ -z "$SYSPROBE" ]; then
	skip "docker against a real container: needs root and the C probe"
elif ! timeout 10 docker info >/dev/null 2>&1; then
	skip "docker against a real container: no Docker engine answers here"
elif ! docker image inspect "$IMAGE" >/dev/null 2>&1 &&
	! (tar cf "$WORK/empty.tar" --files-from /dev/null && docker import "$WORK/empty.tar" "$IMAGE") >/dev/null 2>&1; then
	skip "docker against a real container: cannot import an empty image"
else
	"$SIM" docker -- "$SYSPROBE" "${CALLS[@]}" status >"$WORK/sim" 2>&1
	timeout 30 docker run --rm --network none -v "$WORK:/w:ro" "$IMAGE" /w/sysprobe "${CALLS[@]}" status \
		>"$WORK/real" 2>&1
	if diff=$(diff "$WORK/real" "$WORK/sim"); then
		pass "docker: all $(wc -l <"$WORK/sim") answers (calls, status fields) as in a real default container"
	else
		fail "docker: differs from a real default container (< real, > hostsim): $(echo "$diff" | grep '^[<>]' | tr '\n' ' ' | head -c 600)"
	fi
	# the hardened one: --cap-drop ALL --security-opt no-new-privileges
	if [[ " ${HOSTS[*]} " == *" docker-capdrop "* ]]; then
		"$SIM" docker-capdrop -- "$SYSPROBE" "${CALLS[@]}" status >"$WORK/sim" 2>&1
		timeout 30 docker run --rm --network none --cap-drop ALL --security-opt no-new-privileges \
			-v "$WORK:/w:ro" "$IMAGE" /w/sysprobe "${CALLS[@]}" status >"$WORK/real" 2>&1
		if diff=$(diff "$WORK/real" "$WORK/sim"); then
			pass "docker-capdrop: all $(wc -l <"$WORK/sim") answers as in a real container with --cap-drop ALL and no-new-privileges"
		else
			fail "docker-capdrop: differs from a real hardened container (< real, > hostsim): $(echo "$diff" | grep '^[<>]' | tr '\n' ' ' | head -c 600)"
		fi
	fi
fi
echo "hosts-selftest: $P passed, $F failed, $S skipped"
[ $F = 0 ]
