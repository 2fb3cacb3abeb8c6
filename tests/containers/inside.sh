#!/bin/bash
# Run inside a container by tests/containers.sh: what a grader relies on,
# judged by evidence, with a control for each containment check.
#   EXPECT_NS=yes|userns|no  whether this container lets a run have its
#                      namespaces (userns: a user namespace only, a new
#                      /proc refused because the container masks /proc)
#   PROFILE=default|shipped|unconfined|podman  the container's seccomp profile,
#                      checked by what probe.py's calls return
#   SANDLOCK, PROGS    the staged binary (sandbox_exec beside it), programs
# Prints PASS/FAIL lines, one "NAMESPACES ok|fail <why>" line, one
# "FEATURES layer=state..." line (the namespace layers of --features), and
# "inside: P passed, F failed, S skipped" last.  No check rests on timing:
# every wait is a poll with a generous bound, ended by the event itself.
set -u
S=$SANDLOCK
SE=$(dirname "$S")/sandbox_exec
PY=/usr/bin/python3
W=$(mktemp -d /tmp/inside.XXXXXX)
chmod 755 "$W"
P=0 F=0 K=0
pass() { P=$((P + 1)); echo "PASS $*"; }
fail() { F=$((F + 1)); echo "FAIL $*"; }
skip() { K=$((K + 1)); echo "SKIP $*"; }
# field FILE KEY[.KEY]: a value of a JSON report (booleans in lower case)
field() {
	$PY - "$1" "$2" <<'PYEOF' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    d = d.get(k) if isinstance(d, dict) else None
print('null' if d is None else (str(d).lower() if isinstance(d, bool) else d))
PYEOF
}
rep() { tr -d '\n' <"$1" 2>/dev/null | head -c 600; }
alive() { pgrep -fc -- "$1"; }
# gone PATTERN: true once no process matches (polls up to 10 s: a survivor
# sleeps 1000 s, so the bound never decides a pass)
gone() {
	local i
	for i in $(seq 100); do [ "$(alive "$1")" = 0 ] && return 0; sleep 0.1; done
	return 1
}
NS_LAYERS="userns pidns mountns ipcns netns utsns"

# ---- the seed command line, byte for byte, on an honest program ----
printf 'import sys\nprint(sum(map(int, sys.stdin.read().split())))\n' >"$W/prog.py"
out=$(cd "$W" && echo "2 3 4" | $SE --no-fork --no-network --clean-env --cpu 5 --mem 256 -- python3 prog.py 2>"$W/err")
st=$?
if [ "$out" = 9 ] && [ $st = 0 ] && [ ! -s "$W/err" ]; then pass "seed command line (sandbox_exec ... -- python3 prog.py)"
else fail "seed command line: status $st, out '$out', err $(head -c 300 "$W/err")"; fi
if [ -x "${PROGS:-}/threads" ]; then
	$SE --no-fork --no-network --clean-env --cpu 5 --mem 256 -- "$PROGS/threads" 4 >"$W/out" 2>"$W/err"
	st=$?
	if [ $st = 0 ]; then pass "an honest threaded program (4 threads, default --nproc)"
	else fail "threads: status $st: $(head -c 300 "$W/err")"; fi
fi

# ---- a run that may fork, and its report ----
out=$($S --report "$W/r.json" -- /bin/sh -c '/bin/echo child; exit 0' 2>"$W/err")
st=$?
if [ "$out" = child ] && [ $st = 0 ] && [ "$(field "$W/r.json" verdict)" = ok ]; then pass "a run that may fork: a child process runs, verdict ok"
else fail "forking run: status $st, out '$out', err $(head -c 300 "$W/err"); report $(rep "$W/r.json")"; fi
bad=
for l in seccomp no_new_privs rlimits landlock_scope; do
	[ "$(field "$W/r.json" layers.$l)" = true ] || bad="$bad $l"
done
[ -z "$bad" ] && pass "report of a forking run: seccomp, no_new_privs, rlimits, landlock_scope active" ||
	fail "forking run's report lacks$bad: $(rep "$W/r.json")"
on=
for l in $NS_LAYERS; do [ "$(field "$W/r.json" layers.$l)" = true ] && on="$on $l"; done
if [ "$EXPECT_NS" != yes ]; then
	# honest reporting: no namespace claimed (but the user namespace
	# where the profile allows one and only /proc is masked), the
	# watchdog instead, and the missing list says why
	want=
	[ "$EXPECT_NS" = userns ] && want=" userns"
	if [ "$on" = "$want" ] && [ "$(field "$W/r.json" layers.watchdog)" = true ] &&
		field "$W/r.json" missing | grep -q pidns; then
		pass "report without a pid namespace: namespace layers claimed [${want# }], watchdog on, missing names pidns"
	else fail "report without a pid namespace: claims [$on], want [$want]: $(rep "$W/r.json")"; fi
else
	case $on in
	*pidns*mountns*) pass "report: namespaces active:$on" ;;
	*) fail "report: namespaces expected, active [$on]: $(rep "$W/r.json")" ;;
	esac
fi

# ---- an honest forking program whose children share its memory: 96 MB
# made before four fork()s, read only (resident sizes add up to ~480 MB,
# proportional shares ~100 MB); the supervisor reads the shares as the
# run's uid (a container's root has no CAP_SYS_PTRACE): memory_limit
# before 2026-12-07 as root ----
cat >"$W/cow.py" <<'EOF_COW'
import os, time
big = bytearray(b"\1") * (96 << 20)
kids = []
for k in range(4):
    pid = os.fork()
    if pid == 0:
        time.sleep(0.6)
        os._exit(0 if sum(big[k << 20:(k + 1) << 20]) == 1 << 20 else 1)
    kids.append(pid)
print("cow-ok", sum(os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) == 0 for p in kids))
EOF_COW
out=$(cd "$W" && $S --no-network --clean-env --cpu 5 --mem 256 --report "$W/r.json" -- $PY cow.py 2>"$W/err")
st=$?
if [ "$out" = "cow-ok 4" ] && [ $st = 0 ] && [ "$(field "$W/r.json" verdict)" = ok ]; then
	pass "an honest forking program: four children sharing 96 MB (resident ~480 MB) under --mem 256, verdict ok"
else fail "children sharing 96 MB under --mem 256: status $st, out '$out', err $(head -c 300 "$W/err"); report $(rep "$W/r.json")"; fi

# ---- the container's profile, by what its calls return ----
case ${PROFILE:-default} in
default) want="clone_run_ns=EPERM unshare_user=EPERM unshare_files=EPERM clone_user_cgroup=EPERM unshare_user_mnt=EPERM unshare_user_cgroup=EPERM setns=EPERM clone3=ENOSYS mount_container_tmp=EPERM" ;;
shipped) want="clone_run_ns=0 unshare_user=0 unshare_files=0 clone_user_cgroup=EPERM unshare_user_mnt=EPERM unshare_user_cgroup=EPERM setns=EPERM clone3=ENOSYS mount_container_tmp=EPERM" ;;
unconfined|podman) want="clone_run_ns=0 unshare_user=0 unshare_files=0 clone_user_cgroup=0 unshare_user_mnt=0 unshare_user_cgroup=0 setns=EBADF clone3=EINVAL mount_container_tmp=EPERM" ;;
esac
got=$(cd "$W" && $PY "$(dirname "$0")/probe.py" 2>&1 | tr '\n' ' ')
if [ "${got% }" = "$want" ]; then pass "the container's calls are those of the ${PROFILE:-default} profile"
else fail "the ${PROFILE:-default} profile: calls returned [${got% }], want [$want]"; fi
feat=$($S --features --json 2>/dev/null | $PY -c '
import json, sys
d = json.load(sys.stdin)["layers"]
print(" ".join("%s=%s" % (k, d[k]["state"]) for k in "userns pidns mountns ipcns netns utsns".split()))' 2>/dev/null)
echo "FEATURES $feat"

# ---- --unshare on: works, or 125 with one line naming why ----
$S --unshare on -- /bin/true 2>"$W/err"
st=$?
if [ $st = 0 ]; then echo "NAMESPACES ok"
else echo "NAMESPACES fail (status $st) $(head -1 "$W/err" | head -c 300)"; fi
if [ "$EXPECT_NS" = yes ]; then
	if [ $st = 0 ]; then pass "--unshare on works"; else fail "--unshare on: status $st: $(cat "$W/err")"; fi
	# evidence: the program is alone in its own /proc
	n=$($S --unshare on -- /bin/sh -c 'ls -d /proc/[0-9]* | wc -l' 2>"$W/err")
	if [ "${n:-99}" -le 4 ]; then pass "--unshare on: /proc shows the run only ($n entries)"
	else fail "--unshare on /proc: '$n' entries: $(head -c 300 "$W/err")"; fi
else
	if [ $st = 125 ] && [ "$(wc -l <"$W/err")" = 1 ]; then pass "--unshare on: 125 and one line"
	else fail "--unshare on: status $st, want 125 and one line: $(cat "$W/err")"; fi
fi

# ---- the filesystem allow-list ----
# a container's default working directory, /, would allow everything:
# refused; from a working directory of the grader's, nothing is written
# outside the allowed paths (control: the same program without it)
(cd / && $S --no-fork --landlock -- /bin/true 2>"$W/err")
st=$?
if [ $st = 125 ] && grep -q "working directory is /" "$W/err"; then pass "--landlock from /: 125"
else fail "--landlock from /: status $st: $(cat "$W/err")"; fi
mkdir -p "$W/outside" "$W/work" && chmod 777 "$W/outside" "$W/work"
cd "$W/work" || exit 1
$S --no-fork --landlock --report "$W/l.json" -- /bin/true 2>"$W/err"
if [ "$(field "$W/l.json" verdict)" = ok ] && [ "$(field "$W/l.json" layers.landlock)" = true ] &&
	[ "$(field "$W/l.json" layers.seccomp)" = true ]; then pass "--landlock report: verdict ok, layers seccomp and landlock"
else fail "--landlock report: $(rep "$W/l.json") $(head -c 200 "$W/err")"; fi
$S --no-fork --no-landlock -- $PY -c "open('$W/outside/control', 'w')" 2>/dev/null
$S --no-fork --landlock -- $PY -c "open('$W/outside/x', 'w')" 2>/dev/null
if [ -e "$W/outside/control" ] && [ ! -e "$W/outside/x" ]; then pass "--landlock: nothing written outside (control written)"
else fail "--landlock: outside holds [$(ls "$W/outside" | tr '\n' ' ')], want control only"; fi

# ---- the network: a listener in the container hears the bare client only ----
$PY - "$W" <<'PYEOF' &
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + "/port.tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + "/port.tmp", sys.argv[1] + "/port")
s.settimeout(60)
try:
    while True:
        c, _ = s.accept()
        with open(sys.argv[1] + "/heard", "a") as f:
            f.write(c.recv(16).decode() + "\n")
        c.close()
except OSError:
    pass
PYEOF
lpid=$!
heard() { # WORD: wait until the listener wrote WORD (up to 20 s)
	local i
	for i in $(seq 200); do grep -qx "$1" "$W/heard" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
for _ in $(seq 200); do [ -s "$W/port" ] && break; sleep 0.1; done
conn="import socket,sys; s=socket.create_connection(('127.0.0.1', $(cat "$W/port" 2>/dev/null || echo 1))); s.send(sys.argv[1].encode())"
$PY -c "$conn" before 2>/dev/null
heard before; b=$?
$S --no-fork --no-network --report "$W/n.json" -- $PY -c "$conn" sandboxed 2>"$W/n.err"
# connections are accepted in order: once "after" is heard, anything the
# sandboxed run had sent would have been heard before it
$PY -c "$conn" after 2>/dev/null
heard after; a=$?
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
if [ $b = 0 ] && [ $a = 0 ] && ! grep -q sandboxed "$W/heard"; then pass "--no-network: the listener heard nothing from the run (controls heard)"
else fail "--no-network: heard [$(tr '\n' ' ' <"$W/heard" 2>/dev/null)], want before and after only"; fi
# socket() is refused with EACCES (programs that probe for a network go on)
if [ "$(field "$W/n.json" verdict)" = runtime_error ] && grep -q "PermissionError" "$W/n.err"; then
	pass "--no-network: socket() refused (PermissionError), verdict runtime_error"
else fail "--no-network report: $(rep "$W/n.json"); $(tail -1 "$W/n.err")"; fi

# ---- ptrace: blocked, named in the report (control: the container allows it) ----
/bin/sleep 1002 &
tpid=$!
tr_py="import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.ptrace(16, int(sys.argv[1]), 0, 0)
print('attached' if r == 0 else 'errno %d' % ctypes.get_errno())"
ctl=$($PY -c "$tr_py" $tpid 2>&1)
out=$($S --no-fork --report "$W/p.json" -- $PY -c "$tr_py" $tpid 2>/dev/null)
kill -KILL $tpid 2>/dev/null; wait $tpid 2>/dev/null
if [ "$(field "$W/p.json" verdict)" = syscall_blocked ] && [ "$(field "$W/p.json" blocked_syscall)" = ptrace ] && [ -z "$out" ]; then
	pass "ptrace: verdict syscall_blocked, blocked_syscall ptrace, never returned (bare: $ctl)"
else fail "ptrace: out '$out', report $(rep "$W/p.json")"; fi

# ---- what the container's profile allows, the program may still not do ----
# (the shipped profile gives the container unshare, namespace clones and
# mount; Sandlock's own filter keeps them from the program)
for c in "unshare 272 0x10000000" "mount 165 b'none',b'/tmp',b'tmpfs',0,None"; do
	set -- $c
	call="import ctypes; l = ctypes.CDLL(None, use_errno=True); r = l.syscall($2, ${3}); print('ok' if r == 0 else 'errno %d' % ctypes.get_errno())"
	ctl=$($PY -c "$call" 2>&1)
	out=$($S --no-fork --report "$W/ns.json" -- $PY -c "$call" 2>/dev/null)
	if [ "$(field "$W/ns.json" verdict)" = syscall_blocked ] && [ "$(field "$W/ns.json" blocked_syscall)" = "$1" ] && [ -z "$out" ]; then
		pass "$1 from the program: syscall_blocked, named (bare in this container: $ctl)"
	elif [ "$ctl" != ok ] && [ "${out%% *}" = errno ] && [ "$(field "$W/ns.json" verdict)" = ok ]; then
		# the container's own filter answers first: its ERRNO takes
		# precedence over Sandlock's user notification, so the call
		# fails and nothing is named (the kernel's order of actions)
		pass "$1 from the program: refused by the container's profile ($out), verdict ok (bare: $ctl)"
	else fail "$1 from the program: out '$out', report $(rep "$W/ns.json") (bare: $ctl)"; fi
done

# ---- nothing outlives a run: a background child, and a SIGKILLed sandbox ----
m=$RANDOM$RANDOM
$S -- /bin/sh -c "/bin/sleep 1000.$m & exit 0" 2>/dev/null
if gone "1000.$m"; then pass "a background child (sleep 1000 &) does not outlive the run"
else fail "background child: $(alive "1000.$m") left after 10 s: $(pgrep -fa "1000.$m")"; pkill -KILL -f "1000.$m"; fi
$S -- /bin/sh -c "/bin/sleep 1001.$m & /bin/sleep 1001.$m" 2>/dev/null &
spid=$!
for _ in $(seq 200); do [ "$(alive "1001.$m")" -ge 2 ] && break; sleep 0.05; done
started=$(alive "1001.$m")
kill -KILL $spid
wait $spid 2>/dev/null
if [ "$started" -ge 2 ] && gone "1001.$m"; then pass "SIGKILL of the sandbox: nothing survives"
else fail "SIGKILL of the sandbox: started $started, left $(alive "1001.$m")"; pkill -KILL -f "1001.$m"; fi

# ---- limits ----
$S --no-fork --cpu 1 --report "$W/c.json" -- $PY -c 'while True: pass' 2>/dev/null
if [ "$(field "$W/c.json" verdict)" = cpu_limit ]; then pass "--cpu 1 on a busy loop: cpu_limit"; else fail "--cpu 1: $(rep "$W/c.json")"; fi
$S --no-fork --mem 64 --report "$W/m.json" -- $PY -c 'b = bytearray(200 << 20)' 2>/dev/null
if [ "$(field "$W/m.json" verdict)" = memory_limit ]; then pass "--mem 64, 200 MB: memory_limit"; else fail "--mem 64: $(rep "$W/m.json")"; fi
shm='import mmap
m = []
for i in range(40):
    x = mmap.mmap(-1, 16 << 20, mmap.MAP_SHARED | mmap.MAP_ANONYMOUS); x.write(b"a" * (16 << 20)); m.append(x)'
$S --no-fork --mem 256 --report "$W/s.json" -- $PY -c "$shm" 2>/dev/null
peak=$(field "$W/s.json" peak_kb)
if [ "$(field "$W/s.json" verdict)" = memory_limit ] && [ "${peak:-999999}" -lt 280000 ]; then pass "shared memory counted: memory_limit at $peak KB"
else fail "shared memory (640 MB under --mem 256): $(rep "$W/s.json")"; fi

# a run of more processes than one read of a children list returns (a
# page) and than a walk once kept (4,096): 4,200 idle children, then 40
# that hold 16 MB each; the supervisor sees their memory (control: bare,
# all 40 hold it together for 11.4 s and say so: longer than two walks)
if [ -x "${PROGS:-}/tree" ]; then
	mkdir -p "$W/bh0" "$W/bh"
	chmod 0777 "$W/bh"
	"$PROGS/tree" behind 4200 40 16 "$W/bh0" >/dev/null 2>&1
	(cd "$W" && $S --mem 256 --nproc 4400 --cpu 60 --timeout 60 --report "$W/b.json" -- "$PROGS/tree" behind 4200 40 16 "$W/bh" >/dev/null 2>&1)
	if [ -e "$W/bh0/held.40" ] && [ ! -e "$W/bh/held.40" ] && [ "$(field "$W/b.json" verdict)" = memory_limit ]; then
		pass "4,200 idle children, then 40 holding 16 MB each under --mem 256: memory_limit at $(field "$W/b.json" peak_kb) KB (bare: held)"
	else fail "children past a page and past 4,096: bare held: $([ -e "$W/bh0/held.40" ] && echo yes || echo no), sandboxed held: $([ -e "$W/bh/held.40" ] && echo yes || echo no), report $(rep "$W/b.json")"; fi
fi

# ---- secrets in the environment ----
secret=sk-$RANDOM$RANDOM$RANDOM
c=$(GRADER_SECRET=$secret $S --no-fork -- /usr/bin/env 2>/dev/null | grep -c "$secret")
s=$(GRADER_SECRET=$secret $S --no-fork --clean-env -- /usr/bin/env 2>/dev/null | grep -c "$secret")
if [ "$c" = 1 ] && [ "$s" = 0 ]; then pass "--clean-env hides the grader's secret (control: visible without)"
else fail "--clean-env: control saw it $c times, sandboxed $s"; fi

# ---- suites staged beside us: runs side by side (tests/neighbours.py:
# plant, read, change, fill and leave, each proven between bare processes
# first), and the nsjail command lines graders use (tests/nsjail.py)
for suite in neighbours nsjail; do
	NB=$(dirname "$0")/$suite.py
	[ -f "$NB" ] || continue
	nout=$(cd "$W" && SANDLOCK_HOSTSIM=container SANDLOCK=$S PROGS=$(dirname "$0")/progs timeout 600 $PY "$NB" 2>&1)
	echo "$nout" | grep -E '^(PASS|FAIL|SKIP) ' | sed -E "s/^(PASS|FAIL|SKIP) /\1 $suite: /"
	line=$(echo "$nout" | grep -E "^$suite: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped" | tail -1)
	if [ -n "$line" ]; then
		set -- $line
		P=$((P + $2)) F=$((F + $4)) K=$((K + $6))
	else
		fail "$suite: no summary line: $(echo "$nout" | tail -3 | tr '\n' ' ' | head -c 300)"
	fi
done

cd / && rm -rf "$W"
echo "inside: $P passed, $F failed, $K skipped"
[ $F = 0 ]
