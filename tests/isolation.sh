#!/bin/bash
# Isolation layers: Landlock, /proc, scratch space, namespaces, strict mode,
# fail-closed --require, and hosts missing a layer (simulated).
# Each attack is shown to work without the layer and to be contained with it,
# judged by evidence (bytes read, files written, connections made).
set -u
. "$(dirname "$0")/lib.sh"
S=$SANDLOCK
P=${PROGS:?}
ME=$(id -u)
# one identity for every run as root (a container's root would otherwise
# get a uid of the default pool per run, which keeps a victim of 65534 out
# of reach by itself): the layers below are what is checked here
[ "$ME" = 0 ] && S="$SANDLOCK --uid-pool off"
FEAT=$($S --features)
has() { echo "$FEAT" | grep -q "^$1: available"; }
# Processes of the grader run as the program's uid: the worst case (as root
# the program runs as 65534, so the victim does too).
AS_PROGRAM=()
[ "$ME" = 0 ] && AS_PROGRAM=(runuser -u nobody --)
N="$P/nolayer"
# a grader process with a secret in its environment
start_victim() {
	# (runuser announces its child's death by a signal on its stderr)
	"${AS_PROGRAM[@]}" env GRADER_SECRET="$SECRET" sleep 30 2>/dev/null &
	victim_job=$!
	# up once it is sleep (the exec done: its environment holds the
	# secret), under runuser its child; a fixed wait was a guess
	victim_up() {
		victim=$(pgrep -P $victim_job -x sleep || echo $victim_job)
		[ "$(cat "/proc/$victim/comm" 2>/dev/null)" = sleep ]
	}
	wait_until 10 victim_up
}
# the victim, and the job that started it
stop_victim() {
	kill $victim 2>/dev/null
	wait $victim_job 2>/dev/null
}
BARE=()   # a prefix for the run without the layer (which also has --unshare off)

# A grader's directory with the expected answers, readable by the program's
# uid (the worst case: same uid, or world-readable files).
G="$WORK/grader"; SUB="$WORK/sub"
mkdir -p "$G" "$SUB"
SECRET="answer-$RANDOM$RANDOM"
echo "$SECRET" >"$G/expected.txt"
chmod 755 "$G"; chmod 644 "$G/expected.txt"; chmod 777 "$SUB"
chmod 1777 "$G" # writable too: the canary test needs a target the uid could write

# attack NAME LAYER-FLAGS -- PROGRAM...: evidence is the secret on stdout or a
# canary file; run bare (no layer) then with the layer.
contained() { # NAME EVIDENCE-CHECK-CMD FLAGS... -- CMD...
	local name=$1 check=$2
	shift 2
	local flags=() cmd
	while [ "$1" != -- ]; do flags+=("$1"); shift; done
	shift
	rm -f "$G/canary" /tmp/sandlock-canary-$ME-$$ "$WORK/ev"
	"${BARE[@]}" $S --no-landlock --unshare off --workdir "$SUB" -- "$@" >"$WORK/ev" 2>&1
	if ! eval "$check"; then fail "$name: attack does not work without the layer: $(head -c 200 "$WORK/ev")"; return; fi
	rm -f "$G/canary" /tmp/sandlock-canary-$ME-$$ "$WORK/ev"
	$S --workdir "$SUB" "${flags[@]}" -- "$@" >"$WORK/ev" 2>&1
	if eval "$check"; then fail "$name: not contained by ${flags[*]}"; else pass "$name contained by ${flags[*]}"; fi
}
read_secret='grep -q "$SECRET" "$WORK/ev"'
wrote_canary='[ -e "$G/canary" ]'

if has landlock; then
	R="$PY -c"
	contained "read answers by absolute path" "$read_secret" --landlock -- $R "print(open('$G/expected.txt').read())"
	contained "read answers through .." "$read_secret" --landlock -- $R "print(open('../grader/expected.txt').read())"
	ln -sf "$G/expected.txt" "$SUB/link"
	contained "read answers through a planted symlink" "$read_secret" --landlock -- $R "print(open('link').read())"
	rm -f "$SUB/link"
	contained "read answers through /proc/self/root" "$read_secret" --landlock -- $R "print(open('/proc/self/root$G/expected.txt').read())"
	contained "read answers through /proc/self/cwd" "$read_secret" --landlock -- $R "print(open('/proc/self/cwd/../grader/expected.txt').read())"
	contained "read answers with openat2" "$read_secret" --landlock -- $R "
import ctypes, os, struct
how = struct.pack('QQQ', os.O_RDONLY, 0, 0)
fd = ctypes.CDLL(None, use_errno=True).syscall(437, -100, b'$G/expected.txt', how, len(how))
print(os.read(fd, 100) if fd >= 0 else 'denied')"
	contained "write a canary into the grader's directory" "$wrote_canary" --landlock -- $R "open('$G/canary', 'w').write('x')"
	contained "write a canary into /tmp" '[ -e /tmp/sandlock-canary-$ME-$$ ]' --landlock -- $R "open('/tmp/sandlock-canary-$ME-$$', 'w').write('x')"
	rm -f /tmp/sandlock-canary-$ME-$$
	# (the path inside the shell's text, not an argument of its own: a file
	# the grader names on the command line is reachable by design)
	contained "explicit --ro does not allow the grader dir" "$read_secret" --landlock --ro /usr --ro /lib --ro /lib64 --rw "$SUB" -- /bin/sh -c "cat $G/expected.txt"
	# a grader process holding a secret in its environment
	start_victim
	BARE=("$N" landlock userns --)
	contained "read a grader process's environ" "$read_secret" --landlock -- $R "print(open('/proc/$victim/environ').read())"
	contained "read a grader process's maps" 'grep -q "sleep" "$WORK/ev"' --landlock -- $R "print(open('/proc/$victim/maps').read())"
	contained "read a grader process's environ (default profile)" "$read_secret" --no-fork -- $R "print(open('/proc/$victim/environ').read())"
	BARE=()
	stop_victim
	# honest programs under the default rules
	expect_status "landlock: python with stdlib imports" 0 $S --landlock --workdir "$SUB" -- $PY -c 'import json, re, os, threading, hashlib, decimal, sqlite3, collections; print(os.listdir("/proc/self/fd"))'
	# the default /proc files, from the /proc the program sees: a forking
	# run has a /proc of its own (pid namespace), with other inodes
	for fl in "" --no-fork; do
		expect_status "landlock: /proc/{meminfo,stat,cpuinfo} readable ${fl:-(own /proc)}" 0 $S --landlock $fl --workdir "$SUB" -- $PY -c '
for p in ("/proc/meminfo", "/proc/stat", "/proc/cpuinfo", "/proc/sys/vm/overcommit_memory"):
    assert open(p).read(), p'
	done
	expect_status "landlock: write scratch files in the workdir" 0 $S --landlock --workdir "$SUB" -- $PY -c 'open("scratch.txt","w").write("x"); import os; os.remove("scratch.txt")'
	if command -v gcc >/dev/null; then
		printf '#include <stdio.h>\nint main(void){puts("compiled ok");return 0;}\n' >"$SUB/hello.c"
		chmod 666 "$SUB/hello.c"
		expect_status "landlock: gcc compiles in the workdir and the result runs" 0 $S --landlock --nproc 50 --workdir "$SUB" -- /bin/sh -c 'gcc hello.c -o hello && ./hello'
		expect_status "strict: gcc compiles in the workdir and the result runs" 0 $S --strict --nproc 50 --workdir "$SUB" -- /bin/sh -c 'gcc hello.c -o hello && ./hello'
		expect_status "strict + no-fork: the compiled program runs" 0 $S --strict --no-fork --no-network --clean-env --workdir "$SUB" -- ./hello
	fi
	if command -v node >/dev/null; then
		expect_status "landlock: node runs" 0 $S --landlock --nproc 16 --workdir "$SUB" -- node -e 'console.log([1,2,3].map(x=>x*2).join())'
		expect_status "strict: node runs" 0 $S --strict --nproc 16 --workdir "$SUB" -- node -e 'console.log(require("path").join("a","b"))'
	fi
	expect_status "strict: python runs" 0 $S --strict --no-fork --no-network --clean-env --workdir "$SUB" -- $PY -c 'import json, threading; t = threading.Thread(target=print, args=("t",)); t.start(); t.join()'
	expect_status "strict: unknown syscalls get ENOSYS" 0 $S --strict --workdir "$SUB" -- $PY -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
assert libc.syscall(162) == -1 and ctypes.get_errno() == 38   # sync: not in the profile
assert libc.syscall(470) == -1 and ctypes.get_errno() == 38   # newer than the policy
'
	contained "strict: socket refused even without --no-network" 'grep -q CONNECTED "$WORK/ev"' --strict -- $PY -c '
import socket
s = socket.socket(); s.settimeout(1)
try: s.connect(("127.0.0.1", 9)); print("CONNECTED")
except ConnectionRefusedError: print("CONNECTED")  # the call reached the network stack
'
	expect_status "memfd cannot be created (so not executed)" 0 $S --landlock --workdir "$SUB" -- $PY -c '
import os
try: os.memfd_create("x"); raise SystemExit(1)
except OSError as e: assert e.errno == 38'
else
	skip "landlock tests: the kernel has no Landlock"
fi

# abstract unix sockets and signals are scoped to the sandbox (Landlock ABI 6)
if has landlock_scope; then
	# (the name carries this suite's pid: the sanitizer pass runs the suite
	# in two root lanes at once, and one bound it before the other could)
	$PY - "$WORK/conn" "$$" <<'PYEOF' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0sandlock-grader-%d-%s" % (__import__("os").getuid(), sys.argv[2])); s.listen(5); s.settimeout(20)
open(sys.argv[1] + ".ready", "w").close()
try:
    while True:
        c, _ = s.accept(); open(sys.argv[1], "a").write("connected\n"); c.close()
except Exception: pass
PYEOF
	lpid=$!
	wait_until 10 test -e "$WORK/conn.ready" # listening
	BARE=("$N" landlock --)
	contained "connect to the grader's abstract unix socket" 'grep -q "^ok" "$WORK/ev"' --landlock -- $PY -c "
import socket, os
s = socket.socket(socket.AF_UNIX); s.connect('\0sandlock-grader-%d-$$' % $ME); print('ok')"
	{ kill $lpid; wait $lpid; } 2>/dev/null
	BARE=()
fi

# /dev/shm and /tmp persistence between runs
expect_status "write /dev/shm (no namespaces, no allow-list: persists)" 0 $S --no-landlock --unshare off -- $PY -c "open('/dev/shm/sandlock-persist-$ME', 'w').write('x')"
if [ -e /dev/shm/sandlock-persist-$ME ]; then pass "/dev/shm write persists without the layer"; else fail "/dev/shm baseline"; fi
rm -f /dev/shm/sandlock-persist-$ME
printf "import os\nprint(os.getcwd())\n" >"$SUB/s.py"; chmod 644 "$SUB/s.py"
if has pidns; then
	$S --unshare on -- $PY -c "open('/dev/shm/sandlock-persist-$ME', 'w').write('x'); open('/tmp/sandlock-persist-$ME', 'w').write('x')" >/dev/null 2>&1
	if [ -e /dev/shm/sandlock-persist-$ME ] || [ -e /tmp/sandlock-persist-$ME ]; then fail "unshare: /dev/shm and /tmp are private"; else pass "unshare: /dev/shm and /tmp are private"; fi
	rm -f /dev/shm/sandlock-persist-$ME /tmp/sandlock-persist-$ME
	out=$($S --unshare on -- /bin/sh -c 'ls /proc | grep -c "^[0-9]"')
	if [ "$out" -le 4 ]; then pass "unshare: /proc shows only the sandbox ($out)"; else fail "unshare: /proc shows $out processes"; fi
	start_victim
	BARE=("$N" landlock userns --)
	contained "unshare: read a grader process's environ" "$read_secret" --unshare on -- $PY -c "print(open('/proc/$victim/environ').read())"
	stop_victim
	BARE=()
	contained "unshare: connect to a TCP port on the host" 'grep -q CONNECTED "$WORK/ev"' --unshare on -- $PY -c '
import socket
s = socket.socket(); s.settimeout(1)
try: s.connect(("127.0.0.1", 9)); print("CONNECTED")
except ConnectionRefusedError: print("CONNECTED")
except OSError as e: print("no route", e)'
	expect_status "unshare: signals to itself work (not pid 1)" 143 $S --unshare on -- $PY -c 'import os, signal; os.kill(os.getpid(), signal.SIGTERM)'
	expect_status "unshare: submission under /tmp stays visible" 0 $S --unshare on --workdir / -- $PY "$SUB/s.py"
fi

# private scratch space
out=$($S --isolate-tmp -- $PY -c '
import os, stat
d = os.environ["TMPDIR"]; st = os.stat(d)
open(os.path.join(d, "f"), "w").write("x")
print(d, oct(stat.S_IMODE(st.st_mode)), st.st_uid == os.getuid(), os.environ["HOME"] == d)')
d=${out%% *}
if [ "${out#* }" = "0o700 True True" ] && [ ! -e "$d" ]; then pass "isolate-tmp: private 0700 dir owned by the program, removed after"; else fail "isolate-tmp: $out (exists after: $([ -e "$d" ] && echo yes))"; fi
$S --isolate-tmp --timeout 0.5 -- $PY -c 'import os, time; open(os.environ["TMPDIR"] + "/f", "w"); print(os.environ["TMPDIR"], flush=True); time.sleep(10)' >"$WORK/iso" 2>&1
d=$(head -1 "$WORK/iso")
if [ -n "$d" ] && [ ! -e "$d" ]; then pass "isolate-tmp: removed after a wall timeout"; else fail "isolate-tmp after timeout: $d"; fi
# --clean-env in a run with a mount namespace: HOME and TMPDIR are its own
# /tmp (nothing made on the host's disk); where the namespaces then fail at
# the run's clone (a host that refuses CLONE_NEWNET, which the probe does not
# try), a private directory on the host instead, writable, removed after.
# Evidence: the file written there, and what is left on the host.
if has mountns && $PY -c "import seccomp" 2>/dev/null; then
	out=$($S --no-network --clean-env --workdir "$SUB" -- $PY -c '
import os
h = os.environ["HOME"]; open(os.path.join(h, "planted"), "w").write("x")
print(h, os.environ["TMPDIR"] == h, os.path.exists("/tmp/planted"))')
	if [ "$out" = "/tmp True True" ] && [ ! -e /tmp/planted ]; then
		pass "clean-env + mount namespace: HOME and TMPDIR are the run's own /tmp, not the host's"
	else fail "clean-env + mount namespace: $out (host /tmp/planted: $([ -e /tmp/planted ] && echo yes || echo no))"; fi
	cat >"$WORK/nonet.py" <<'PYEOF'
import errno, os, sys, seccomp
f = seccomp.SyscallFilter(seccomp.ALLOW)
NEWNET = 0x40000000
f.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, NEWNET, NEWNET))
f.add_rule(seccomp.ERRNO(errno.EPERM), "unshare", seccomp.Arg(0, seccomp.MASKED_EQ, NEWNET, NEWNET))
f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
f.load()
os.execvp(sys.argv[1], sys.argv[1:])
PYEOF
	out=$($PY "$WORK/nonet.py" $S --no-network --clean-env --report "$WORK/fb.json" --workdir "$SUB" -- $PY -c '
import os
h = os.environ["HOME"]; open(os.path.join(h, "f"), "w").write("x")
print(h, os.environ["TMPDIR"] == h, os.path.exists(os.path.join(h, "f")))')
	d=${out%% *}
	if [ "${out#* }" = "True True" ] && [ "$d" != /tmp ] && [ ! -e "$d" ] &&
	   grep -q '"mountns":false' "$WORK/fb.json"; then
		pass "clean-env, namespaces refused at the run's clone: a private HOME on the host, removed after"
	else fail "clean-env fallback: $out (left: $([ -e "$d" ] && echo yes || echo no); $(head -c 300 "$WORK/fb.json"))"; fi
fi
# as root, a --no-network run's emptied directory is parked for the next
# one when each run has a uid of its own (src/lib/scratch.c): what the next run
# gets must be as good as new
POOL="--uid-pool 61700-61799"
if [ "$ME" = 0 ]; then
	probe='import os, stat
d = os.environ["TMPDIR"]; st = os.stat(d)
print(d, oct(stat.S_IMODE(st.st_mode)), st.st_uid, sorted(os.listdir(d)))
open(d + "/left", "w").write("x"); os.mkdir(d + "/sub"); open(d + "/sub/f", "w"); os.chmod(d + "/sub", 0); os.chmod(d, 0o500)'
	a=$($S --no-fork --no-network --isolate-tmp $POOL -- $PY -c "$probe" 2>&1)
	b=$($S --no-fork --no-network --isolate-tmp $POOL -- $PY -c "$probe" 2>&1)
	c=$($S --no-fork --no-network --isolate-tmp --user 1234:2345 -- $PY -c "$probe" 2>&1)
	spare=${TMPDIR:-/tmp}/sandlock-root/spare
	sparemode=$(stat -c '%u %a' "$spare" 2>/dev/null)
	inside=$(find "$spare" -mindepth 2 2>/dev/null | head -3)
	if [[ "${a#* }" =~ ^0o700\ 617[0-9][0-9]\ \[\]$ ]] && [[ "${b#* }" =~ ^0o700\ 617[0-9][0-9]\ \[\]$ ]] &&
		[ "${c#* }" = "0o700 1234 []" ] && [ "${a%% *}" != "${b%% *}" ] &&
		[ ! -e "${a%% *}" ] && [ ! -e "${b%% *}" ] && [ ! -e "${c%% *}" ] &&
		[ "$sparemode" = "0 700" ] && [ -z "$inside" ]; then
		pass "isolate-tmp: a recycled directory is empty, 0700, the new program's, under a new name"
	else
		fail "isolate-tmp recycling: a=[$a] b=[$b] c=[$c] spare=[$sparemode] inside=[$inside]"
	fi
fi
# ... and carries nothing from one run to the next that the program could
# set and the next program read: extended attributes, times, inode flags,
# the size of a directory that once held many files (each is a channel from
# run to run, such as a test case saved for later)
if [ "$ME" = 0 ]; then
	RB=$WORK/recycle
	mkdir -p "$RB" && chmod 755 "$RB"
	look='import os, fcntl, array
d = os.environ["TMPDIR"]; st = os.stat(d); fl = array.array("l", [0])
fcntl.ioctl(os.open(d, os.O_RDONLY), 0x80086601, fl)
gen = array.array("l", [0])
try: fcntl.ioctl(os.open(d, os.O_RDONLY), 0x80087601, gen)
except OSError: pass
print([x for x in os.listxattr(d) if not x.startswith("security.")], int(st.st_mtime), st.st_size, fl[0] & 0x40, gen[0] & 0xffffffff == 12345)'
	leaks=""
	mkdir "$RB/fresh" && fresh=$(stat -c %s "$RB/fresh") && rmdir "$RB/fresh" # 4096 on ext4
	for plant in 'os.setxattr(d, "user.leak", b"answer")' 'os.utime(d, (12345, 12345))' \
		'[open(d + "/" + "f" * 200 + str(i), "w").close() for i in range(300)]' \
		'fcntl.ioctl(os.open(d, os.O_RDONLY), 0x40086602, array.array("l", [fl[0] | 0x40]))' \
		'try: fcntl.ioctl(os.open(d, os.O_RDONLY), 0x40087602, array.array("l", [12345]))
except OSError: pass  # no settable generation on this file system'; do
		TMPDIR=$RB $S --no-fork --no-network --isolate-tmp $POOL -- $PY -c "$look
$plant" >/dev/null 2>&1 || leaks+=" [could not plant: $plant]"
		out=$(TMPDIR=$RB $S --no-fork --no-network --isolate-tmp $POOL -- $PY -c "$look" 2>&1)
		case $out in "[] "*" $fresh 0 False") [ "$(echo "$out" | cut -d' ' -f2)" != 12345 ] || leaks+=" [$plant: $out]" ;;
		*) leaks+=" [$plant: $out]" ;; esac
	done
	if [ -z "$leaks" ]; then pass "isolate-tmp: nothing a run sets on its directory reaches the next run"
	else fail "isolate-tmp recycling leaks:$leaks"; fi
fi
# A sandbox killed with SIGKILL leaves its scratch directory (nothing of it
# runs to remove it): the next run removes it.  Evidence: the directory is
# there after the kill, and gone after the next run.
for extra in "" --no-fork; do
	rm -f "$WORK/killed"
	$S $extra --isolate-tmp -- $PY -c '
import os, sys, time
d = os.environ["TMPDIR"]
os.mkdir(d + "/sub"); open(d + "/sub/f", "w").write("x"); os.chmod(d + "/sub", 0)
print(d, flush=True); time.sleep(30)' >"$WORK/killed" 2>&1 &
	kpid=$!
	wait_until 30 test -s "$WORK/killed"
	kill -KILL $kpid; wait $kpid 2>/dev/null
	d=$(head -1 "$WORK/killed")
	sleep 0.2
	left=no; [ -n "$d" ] && [ -e "$d" ] && left=yes
	$S $extra --isolate-tmp -- /bin/true
	if [ "${d:0:1}" != / ]; then fail "isolate-tmp ${extra:-forking}: killed run printed no directory: $d"
	elif [ $left = yes ] && [ ! -e "$d" ]; then pass "isolate-tmp ${extra:-forking}: a SIGKILLed sandbox's directory (left behind) is removed by the next run"
	elif [ $left = no ]; then pass "isolate-tmp ${extra:-forking}: a SIGKILLed sandbox left no directory"
	else fail "isolate-tmp ${extra:-forking}: a SIGKILLed sandbox's directory $d is still there after the next run"; fi
done
# --disk: the run's /tmp, /dev/shm and scratch directory are one tmpfs of
# that size, with a bounded number of files; and the files there count
# against --mem (they are RAM).  Evidence: bytes and files that landed.
fill='import os, sys
d, n = os.environ.get(sys.argv[1], sys.argv[1]), int(sys.argv[2])
got = 0
try:
    with open(d + "/fill", "wb") as f:
        for _ in range(n):
            f.write(b"x" * 2**20); f.flush(); got += 1
except OSError as e:
    pass
print(got)'
files='import os, sys
d = sys.argv[1]
got = 0
try:
    for i in range(10000):
        open("%s/f%d" % (d, i), "w").close(); got += 1
except OSError:
    pass
print(got)'
bare_mb=$($PY -c "$fill" "$WORK" 30); rm -f "$WORK/fill"
if [ "$bare_mb" = 30 ]; then pass "disk: bare, 30 MB land in a directory"; else fail "disk: bare fill: $bare_mb"; fi
if has mountns; then
	for extra in "" --no-fork; do
		got=$($S $extra --isolate-tmp --disk 10 --fsize 100 -- $PY -c "$fill" TMPDIR 30 2>&1)
		if [ "$got" -ge 8 ] 2>/dev/null && [ "$got" -le 10 ]; then pass "disk ${extra:-forking}: --disk 10 holds $got MB in the scratch directory"
		else fail "disk ${extra:-forking}: --disk 10 let $got MB into the scratch directory"; fi
	done
	got=$($S --isolate-tmp --disk 10 --fsize 100 -- sh -c "$PY -c '$fill' /dev/shm 6; $PY -c '$fill' /tmp 6" 2>&1 | tr '\n' ' ')
	case $got in "6 "[0-4]" ") pass "disk: /dev/shm and /tmp share the one size ($got MB)" ;;
	*) fail "disk: /dev/shm then /tmp under --disk 10: $got" ;; esac
	got=$($S --isolate-tmp --disk 10 -- $PY -c "$files" /tmp 2>&1)
	bare_files=$($PY -c "$files" "$WORK"); rm -f "$WORK"/f[0-9]*
	if [ "$bare_files" = 10000 ] && [ "$got" -lt 5000 ] 2>/dev/null; then pass "disk: the number of files is bounded ($got of 10000; bare $bare_files)"
	else fail "disk: files: $got (bare $bare_files)"; fi
	# files in RAM count against --mem
	verdict_of() { rm -f "$WORK/r.json"; "$@" >/dev/null 2>&1; json "$WORK/r.json" verdict; }
	v=$(verdict_of $S --report "$WORK/r.json" --isolate-tmp --mem 64 --fsize 100 -- sh -c "$PY -c '$fill' /dev/shm 40; $PY -c '$fill' /tmp 40; sleep 0.5")
	if [ "$v" = memory_limit ]; then pass "disk: 80 MB of files in the run's tmpfs under --mem 64 is memory_limit"; else fail "disk: files against --mem: $v"; fi
	v=$(verdict_of $S --report "$WORK/r.json" --isolate-tmp --mem 64 --fsize 100 -- sh -c "$PY -c '$fill' /tmp 20; sleep 0.3")
	peak=$(json "$WORK/r.json" peak_kb)
	if [ "$v" = ok ] && [ "$peak" -ge 20000 ]; then pass "disk: 20 MB of files under --mem 64 is ok, and in the peak ($peak kB)"; else fail "disk: 20 MB of files: $v $peak"; fi
else
	expect_status "disk: refused without a mount namespace" 125 $S --disk 10 -- /bin/true
	out=$($S --disk 10 --best-effort --report /dev/stdout -- /bin/true 2>/dev/null)
	if [[ "$out" == *'"missing":"'*'disk (no mount namespace)'* ]]; then pass "disk: --best-effort runs without it, reported"; else fail "disk best effort: ${out:0:300}"; fi
fi
expect_status "disk: refused with --unshare off" 125 $S --disk 10 --unshare off -- /bin/true
expect_status "disk: 0 is refused" 125 $S --disk 0 -- /bin/true
# Cleanup of any depth, names and permissions the program chose (it gave
# up below 256 levels): 1000 levels, a file in each, some unreadable
for extra in "" --no-fork; do
	d=$($S $extra --isolate-tmp -- $PY -c '
import os
d = os.environ["TMPDIR"]; print(d, flush=True); os.chdir(d)
for i in range(1000):
    os.mkdir("d\n" if i % 3 else "d"); open("f%d" % i, "w").close()
    if i % 100 == 99: os.chmod(".", 0o300)
    os.chdir("d\n" if i % 3 else "d")
print(len(os.getcwd()), flush=True)' 2>&1 | head -1)
	if [ -n "$d" ] && [ "${d:0:1}" = / ] && [ ! -e "$d" ]; then pass "isolate-tmp ${extra:-forking}: a tree 1000 levels deep is removed"
	else fail "isolate-tmp ${extra:-forking}: deep tree: $d (left: $([ -e "$d" ] && find "$d" 2>/dev/null | wc -l))"; fi
done
# A run that learnt another's scratch directory (the program can tell its
# name to anyone through a file) opens it, keeps the descriptor, and plants
# a file through it once that run has ended: the next run must not find it
# (code injection through Python's user site under HOME).  Evidence: the
# planter held the descriptor, and what the next run lists.
if [ "$ME" = 0 ]; then
	for pool in "" "$POOL"; do
	SH=$WORK/share; rm -rf "$SH"; mkdir -m 1777 "$SH"
	$S --no-fork --no-network --isolate-tmp $pool --timeout 60 -- $PY -c '
import os, sys, time
sh = sys.argv[1]
while not os.path.exists(sh + "/path"): time.sleep(0.01)
try:
    fd = os.open(open(sh + "/path").read(), os.O_RDONLY | os.O_DIRECTORY)
    open(sh + "/held", "w").close()
except OSError as e:
    open(sh + "/refused", "w").write(str(e))
    sys.exit(0)
while not os.path.exists(sh + "/done"):
    try: os.close(os.open("planted", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)); open(sh + "/planted", "w").close()
    except OSError: pass
    time.sleep(0.005)' "$SH" >/dev/null 2>&1 &
	planter=$!
	$S --no-fork --no-network --isolate-tmp $pool -- $PY -c '
import os, sys, time
sh = sys.argv[1]
open(sh + "/path", "w").write(os.environ["TMPDIR"])
end = time.time() + 30  # the planter tried (3 s before: too short under load)
while time.time() < end:
    if os.path.exists(sh + "/held") or os.path.exists(sh + "/refused"): break
    time.sleep(0.01)' "$SH" >/dev/null 2>&1
	sleep 0.1
	next=$($S --no-fork --no-network --isolate-tmp $pool -- $PY -c 'import os; print(sorted(os.listdir(os.environ["TMPDIR"])))' 2>&1)
	touch "$SH/done"; wait $planter
	if [ ! -e "$SH/held" ] && [ ! -e "$SH/refused" ]; then fail "scratch planting ${pool:-same uid}: the planter never tried"
	elif [ "$next" = "[]" ]; then pass "scratch: a descriptor kept by another run plants nothing in the next run's directory (${pool:-same uid}; $(ls "$SH" | tr '\n' ' '))"
	else fail "scratch planting ${pool:-same uid}: the next run found $next ($(ls "$SH" | tr '\n' ' '))"; fi
	done
fi
# two concurrent runs cannot touch each other's files (with and without
# the pid namespace a forking run gets)
for extra in "" --no-fork; do
rm -f "$WORK/first" "$WORK/hold"
# the first run lives until its stdin ends, after the second run (a fixed
# 2 s let the second start after the first was gone under load)
mkfifo "$WORK/hold"
$S $extra --isolate-tmp -- $PY -c 'import os, sys; p = os.environ["TMPDIR"]; open(p + "/mine", "w").write("x"); print(p, flush=True); sys.stdin.read()' <"$WORK/hold" >"$WORK/first" &
first=$!
exec 7>"$WORK/hold"
wait_until 30 test -s "$WORK/first"
other=$(cat "$WORK/first" 2>/dev/null)
[ -n "$other" ] || fail "isolate-tmp: first run did not start"
# the other run knows what it could find out: /tmp and the name of the
# directory there (not the random name of the scratch directory inside)
top=$(echo "$other" | cut -d/ -f1-3)
$S $extra --isolate-tmp -- $PY -c "
import os
found = [os.path.join(d, f) for d, _, fs in os.walk('$top') for f in fs if f == 'mine']
found += [p for p in ['$top/mine'] if os.path.exists(p)]
for p in found: os.remove(p); print('TOUCHED', p)
print('walked', found)" >"$WORK/iso2" 2>&1
exec 7>&-
wait $first
if grep -q TOUCHED "$WORK/iso2" || grep -q "'mine'" "$WORK/iso2"; then fail "isolate-tmp: concurrent runs isolated ${extra:-(forking)}: $(cat "$WORK/iso2")"; else pass "isolate-tmp: concurrent runs isolated ${extra:-(forking)}"; fi

done
# fail closed: --require, and hosts without a layer (simulated by a parent
# seccomp policy, as container runtimes and serverless platforms impose)
N="$P/nolayer"
# a grader process with a secret in its environment

expect_status "require a layer the host has" 0 $S --require seccomp,seccomp_notify,no_new_privs -- /bin/true
# --require asks for what it names (with a run's base namespaces), not for
# every namespace; a layer available but not asked for says how to ask
if has netns && has utsns; then
	rm -f "$WORK/req.json"
	$S --require netns --report "$WORK/req.json" -- /bin/true >/dev/null 2>&1
	if [ "$(json "$WORK/req.json" layers.netns)/$(json "$WORK/req.json" layers.utsns)" = true/false ]; then
		pass "--require netns: a network namespace, not every namespace"
	else fail "--require netns: $(head -c 400 "$WORK/req.json")"; fi
	expect_status "--no-fork --require pidns runs (no --unshare needed)" 0 $S --no-fork --require pidns -- /bin/true
fi
if has landlock; then
	# the allow-list is the default where the kernel has Landlock
	msg=$($S --require landlock -- /bin/true 2>&1)
	if [ $? = 0 ]; then pass "--require landlock is met by the default allow-list"
	else fail "--require landlock: $msg"; fi
	msg=$($S --no-landlock --require landlock -- /bin/true 2>&1)
	if [[ "$msg" == *"landlock"* ]]; then pass "--no-landlock --require landlock: refused, named"
	else fail "--no-landlock --require landlock: $msg"; fi
fi
if [ -x "$N" ]; then
	# without Landlock an asked list is a root of binds where the run has a
	# mount namespace (tests/bind_root.sh), and fails closed where not
	if $N landlock -- $S --features | grep -q '^mountns: available'; then
		$N landlock -- $S --report "$WORK/nl.json" --landlock -- /bin/true
		expect_json "no landlock: --landlock is a root of binds (a mount namespace here)" "$WORK/nl.json" layers.bind_root true
	fi
	expect_status "no landlock: --landlock --unshare off fails closed" 125 $N landlock -- $S --landlock --unshare off -- /bin/true
	expect_status "no landlock: --require landlock fails closed" 125 $N landlock -- $S --require landlock -- /bin/true
	expect_status "no landlock: --require landlock-scope fails closed" 125 $N landlock -- $S --require landlock-scope -- /bin/true
	expect_status "no landlock: default profile still runs" 0 $N landlock -- $S --no-fork -- /bin/true
	if $N landlock -- $S --features | grep -qE '^landlock: (missing|refused)'; then pass "no landlock: --features says so"; else fail "no landlock: --features"; fi
	expect_status "no seccomp: refuses to run unsandboxed" 125 $N seccomp -- $S -- /bin/true
	$N notify -- $S --report "$WORK/n.json" --no-fork -- $PY -c 'import os; os.fork()' >/dev/null 2>&1
	expect_json "no user notification: blocked call still kills" "$WORK/n.json" verdict syscall_blocked
	expect_json "no user notification: the report says so" "$WORK/n.json" layers.seccomp_notify false
	if [ "$ME" != 0 ]; then
		expect_status "no userns: --unshare on fails closed" 125 $N userns -- $S --unshare on -- /bin/true
		expect_status "no userns: --require pidns fails closed" 125 $N userns -- $S --unshare auto --require pidns -- /bin/true
		$N userns -- $S --unshare auto --report "$WORK/u.json" -- /bin/true
		expect_json "no userns: auto runs without, and says so" "$WORK/u.json" layers.pidns false
	fi
	if has pidns; then
		$S --unshare auto --report "$WORK/u.json" -- /bin/true
		expect_json "namespaces available: auto uses them" "$WORK/u.json" layers.pidns true
	else
		skip "namespaces available: auto uses them: this host refuses them"
		$S --unshare auto --report "$WORK/u.json" -- /bin/true
		expect_json "namespaces refused here: auto runs without, and says so" "$WORK/u.json" layers.pidns false
	fi
else
	skip "nolayer helper not built"
fi
summary isolation
