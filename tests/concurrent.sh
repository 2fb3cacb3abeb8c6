#!/bin/bash
# Many runs at once on one node: a run's start-up and its process count
# are its own, whatever else runs beside it (issues 25 and 26).
# Usage: SANDLOCK=build/sandlock tests/concurrent.sh
#   SANDLOCK_CONCURRENT_ROUNDS=N   rounds of the concurrent mix (default 2;
#                                  the larger variant: 10)
# Runs on whatever host it is started in: the full host, or a simulation
# (tests/hosts/hostsim docker -- tests/concurrent.sh).
set -u
. "$(dirname "$0")/lib.sh"
S=$SANDLOCK
HERE=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${SANDLOCK_CONCURRENT_ROUNDS:-2}
# a serverless host runs only with --best-effort (the caller opts in)
BE=
$S -- /bin/true >/dev/null 2>&1 || BE=--best-effort
ORIG="$BE --no-fork --no-network --clean-env --cpu 5 --mem 256"
# Where the host gives neither a user namespace of the run's own nor a
# seccomp listener, --nproc falls back to the uid's RLIMIT_NPROC, shared
# (rlimits.c): the report names it, and its count walks the host's /proc.
$S $BE --report "$WORK/seed.json" -- /bin/true >/dev/null 2>&1
SHARED=$(json "$WORK/seed.json" missing 2>/dev/null | grep -o 'nproc ([^)]*)')

# ---- start-up does no work per process of the host ----
# The seed line's system calls that read directories or open files, with
# 2,000 idle processes on the host and with none: a run that walked every
# process of the machine (/proc/N/status of each, to count its uid's tasks)
# made 2,000 more of them, and took 36 ms instead of 10.
# hold N: N idle processes until release
hold() {
	rm -f "$WORK/hold" "$WORK/ready"
	mkfifo "$WORK/hold"
	$PY "$HERE/idle_procs.py" "$1" <"$WORK/hold" >"$WORK/ready" &
	HOLDER=$!
	exec 8>"$WORK/hold"
	for _ in $(seq 600); do grep -q ready "$WORK/ready" 2>/dev/null && return 0; sleep 0.05; done
	return 1
}
release() {
	exec 8>&-
	wait "$HOLDER" 2>/dev/null
}
# calls N: the seed line's directory reads and opens, all its processes
calls() {
	# (LeakSanitizer cannot work under ptrace: off for a sanitizer build)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -o "$WORK/trace" -e trace=openat,open,getdents64,newfstatat,statx \
		$S $ORIG -- /bin/true >/dev/null 2>"$WORK/strace.err" || return 1
	wc -l <"$WORK/trace"
}
if [ -n "$SHARED" ]; then
	skip "start-up per host process: the last resort counts the uid's tasks in /proc on this host (missing: $SHARED)"
elif ! command -v strace >/dev/null; then
	skip "start-up per host process: no strace"
elif ! strace -qq -o /dev/null /bin/true 2>/dev/null; then
	skip "start-up per host process: ptrace is refused on this host"
elif ! c0=$(calls); then
	fail "start-up per host process: the seed line failed under strace: $(head -c 300 "$WORK/strace.err")"
elif ! hold 2000; then
	release
	skip "start-up per host process: could not start 2,000 idle processes"
else
	c1=$(calls)
	grep -c '/status"' "$WORK/trace" >"$WORK/procn"
	release
	# (a few more calls are the supervisor's samples of its own run, which
	# lasts longer on a loaded machine; a walk of the host adds 2,000+)
	if [ -n "$c1" ] && [ "$c1" -le $((c0 + 100)) ]; then
		pass "start-up per host process: $c0 calls on a quiet host, $c1 with 2,000 idle processes"
	else
		fail "start-up per host process: $c0 calls on a quiet host, ${c1:-?} with 2,000 idle processes ($(cat "$WORK/procn") of them /proc/N/status)"
	fi
fi

# ---- a run's tasks are its own ----
# Where no user namespace of the run's own can be made (every default
# container), RLIMIT_NPROC counts every task of the uid: one run's fork
# bomb made its neighbours fail to start their threads (1 of 8 ok in the
# Docker simulation before the per-run count).
cat >"$WORK/honest.py" <<'PYEOF'
import threading, time
def work():
    s = 0
    for i in range(200000):
        s += i
    time.sleep(0.2)
ts = [threading.Thread(target=work) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("done")
PYEOF
cat >"$WORK/bomb.py" <<'PYEOF'
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
PYEOF
cat >"$WORK/hog.py" <<'PYEOF'
held = []
while True:
    held.append(bytearray(16 << 20))  # touched: zero-filled pages
PYEOF
cat >"$WORK/burn.py" <<'PYEOF'
while True:
    pass
PYEOF
cat >"$WORK/forkn.py" <<'PYEOF'
import os, time
n = 0
for i in range(30):
    try:
        pid = os.fork()
    except OSError:
        continue
    if pid == 0:
        time.sleep(1.5)
        os._exit(0)
    n += 1
print("forks", n)
PYEOF
chmod 644 "$WORK"/*.py

# the bound holds: 30 forks asked for, --nproc 10 (the program and 9)
$S $BE --nproc 10 -- $PY "$WORK/forkn.py" >"$WORK/forkn.out" 2>"$WORK/forkn.err"
got=$(awk '/^forks/ {print $2}' "$WORK/forkn.out")
if [ -n "$got" ] && [ "$got" -ge 5 ] && [ "$got" -le 9 ]; then
	pass "--nproc 10 bounds the run: $got of 30 forks granted"
else
	fail "--nproc 10: ${got:-no} forks granted of 30 (want 5..9): $(head -c 300 "$WORK/forkn.err")"
fi

# 8 honest runs of 4 threads each beside 2 fork bombs, a memory hog and a
# CPU burner, all started at once: each hostile run's verdict is its own
mix() { # ROUND
	local d="$WORK/mix$1" i
	mkdir -p "$d"
	for i in 1 2 3 4 5 6 7 8; do
		$S $BE $MIXOPT --timeout 30 --report "$d/h$i.json" -- $PY "$WORK/honest.py" >"$d/h$i.out" 2>&1 &
	done
	for i in 1 2; do
		$S $BE $MIXOPT --timeout 3 --report "$d/b$i.json" -- $PY "$WORK/bomb.py" >/dev/null 2>&1 &
	done
	$S $BE $MIXOPT --mem 128 --timeout 30 --report "$d/hog.json" -- $PY "$WORK/hog.py" >/dev/null 2>&1 &
	$S $BE $MIXOPT --cpu 1 --timeout 30 --report "$d/burn.json" -- $PY "$WORK/burn.py" >/dev/null 2>&1 &
	wait
	local ok=0 bad=""
	for i in 1 2 3 4 5 6 7 8; do
		if [ "$(json "$d/h$i.json" verdict 2>/dev/null)" = ok ] && grep -q '^done' "$d/h$i.out"; then
			ok=$((ok + 1))
		else
			bad="$bad h$i=$(json "$d/h$i.json" verdict 2>/dev/null):$(grep -m1 -o 'error.*' "$d/h$i.out" | head -c 80)"
		fi
	done
	local bombs
	bombs="$(json "$d/b1.json" verdict 2>/dev/null) $(json "$d/b2.json" verdict 2>/dev/null)"
	bombs="$bombs, hog $(json "$d/hog.json" verdict 2>/dev/null), burner $(json "$d/burn.json" verdict 2>/dev/null)"
	if [ "$ok" = 8 ] && [ "$bombs" = "wall_limit wall_limit, hog memory_limit, burner cpu_limit" ]; then
		pass "round $1: 8 of 8 honest 4-thread runs ok beside 2 fork bombs, a memory hog and a CPU burner ($bombs)${MIXOPT:+ with $MIXOPT}"
	else
		fail "round $1: $ok of 8 honest runs ok beside 2 fork bombs, a hog and a burner ($bombs)${MIXOPT:+ with $MIXOPT};$bad"
	fi
}
MIXOPT=
# ---- as root where runs can make no namespaces: a uid of its own each ----
# (a container's root: no CAP_SYS_ADMIN).  As 65534 every run shared
# /dev/shm (multiprocessing refused), signals by pid and the uid's count.
cap_sys_admin() { echo $((0x$(awk '/^CapEff/ { print $2 }' /proc/self/status) >> 21 & 1)); }
if [ "$(id -u)" != 0 ]; then
	skip "default uid pool: not root (the program runs as the caller)"
elif [ "$(cap_sys_admin)" = 1 ]; then
	# a host that gives each run its namespaces: the uid graders expect
	$S $BE --report "$WORK/id.json" -- /bin/true >/dev/null 2>&1
	expect_json "root with CAP_SYS_ADMIN: the program runs as 65534 (no pool)" "$WORK/id.json" uid 65534
else
	cat >"$WORK/mp.py" <<'PYEOF'
import multiprocessing as mp
def sq(x):
    return x * x
if __name__ == "__main__":
    with mp.Pool(2) as p:
        print("HONEST", sum(p.map(sq, range(100))))
PYEOF
	chmod 644 "$WORK/mp.py"
	for i in 1 2; do
		$S $BE --report "$WORK/id$i.json" -- /bin/sleep 1 >/dev/null 2>&1 &
	done
	wait
	u1=$(json "$WORK/id1.json" uid 2>/dev/null) u2=$(json "$WORK/id2.json" uid 2>/dev/null)
	if [ -n "$u1" ] && [ -n "$u2" ] && [ "$u1" != "$u2" ] && [ "$u1" -ge 59000 ] && [ "$u1" -le 59999 ] &&
	   [ "$u2" -ge 59000 ] && [ "$u2" -le 59999 ]; then
		pass "default uid pool: two runs at once as $u1 and $u2"
	else
		fail "default uid pool: two runs at once as ${u1:-?} and ${u2:-?} (want two of 59000-59999)"
	fi
	# a working directory the grader handed to 65534 keeps the program there
	mkdir -p "$WORK/owned" && chown 65534:65534 "$WORK/owned"
	$S $BE --workdir "$WORK/owned" --report "$WORK/owned.json" -- /bin/sh -c 'echo x >mine'
	if [ "$(json "$WORK/owned.json" uid)" = 65534 ] && [ -s "$WORK/owned/mine" ]; then
		pass "default uid pool: a working directory chowned to 65534 keeps 65534 (and is written)"
	else
		fail "default uid pool: a working directory chowned to 65534: uid $(json "$WORK/owned.json" uid 2>&1), written $(ls "$WORK/owned")"
	fi
	for o in "--uid-pool off" "--user 65534"; do
		$S $BE $o --report "$WORK/off.json" -- /bin/true >/dev/null 2>&1
		expect_json "default uid pool: $o runs as 65534" "$WORK/off.json" uid 65534
	done
	# multiprocessing's semaphores are files in /dev/shm: closed to a
	# shared 65534, open to a uid no other run has
	$S $BE --uid-pool off --timeout 20 -- $PY "$WORK/mp.py" >"$WORK/mp0.out" 2>&1
	$S $BE --timeout 20 -- $PY "$WORK/mp.py" >"$WORK/mp1.out" 2>&1
	if ! grep -q HONEST "$WORK/mp0.out" && grep -q "HONEST 328350" "$WORK/mp1.out"; then
		pass "default uid pool: multiprocessing runs (and fails as a shared 65534)"
	elif grep -q "HONEST 328350" "$WORK/mp1.out"; then
		pass "default uid pool: multiprocessing runs (as 65534 too on this host)"
	else
		fail "default uid pool: multiprocessing as 65534: $(tail -1 "$WORK/mp0.out" | head -c 100); pooled: $(tail -1 "$WORK/mp1.out" | head -c 100)"
	fi
	# a shared /dev/shm holding another's unnamed memory (a neighbour's
	# unlinked file, held open): not this run's, even in the sample taken
	# as its program dies (an exiting process shows its /proc/PID as
	# root's, which was read as a run hiding what it holds)
	rm -f "$WORK/held"
	if [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -lt 409600 ] 2>/dev/null; then
		skip "default uid pool: /dev/shm here cannot hold 300 MB (a container's small tmpfs: the simulations run this check)"
	else
	$PY -c 'import os, sys, time
fd = os.open("/dev/shm/sl-cc-held-%d" % os.getpid(), os.O_CREAT | os.O_RDWR, 0o600)
os.unlink("/dev/shm/sl-cc-held-%d" % os.getpid())
for _ in range(300):
    os.write(fd, b"z" * (1 << 20))
open(sys.argv[1], "w").write("held")
time.sleep(60)' "$WORK/held" &
	HELD=$!
	if wait_until 30 test -s "$WORK/held"; then
		bad=""
		for i in $(seq 20); do
			$S $BE --mem 256 --report "$WORK/dies.json" -- $PY -c 'import os, signal; os.kill(os.getpid(), signal.SIGSEGV)' >/dev/null 2>&1
			v=$(json "$WORK/dies.json" verdict 2>/dev/null)
			[ "$v" = runtime_error ] || bad="$bad $v"
		done
		# and two honest runs side by side there (each was charged with
		# the other's... and the holder's 300 MB: its process refused our
		# read of its descriptors though it had not made itself hidden)
		for i in 1 2 3; do
			for j in a b; do
				$S $BE --mem 256 --report "$WORK/side$j.json" -- $PY -c 'import time; time.sleep(0.3)' >/dev/null 2>&1 &
			done
			wait $(jobs -p | grep -vx "$HELD")
			for j in a b; do
				v=$(json "$WORK/side$j.json" verdict 2>/dev/null)
				[ "$v" = ok ] || bad="$bad side-by-side:$v"
			done
		done
		kill $HELD 2>/dev/null
		wait $HELD 2>/dev/null
		if [ -z "$bad" ]; then
			pass "default uid pool: 300 MB another holds unnamed in /dev/shm are not this run's (20 of 20 dying runs runtime_error, 6 of 6 side by side ok)"
		else
			fail "default uid pool: dying runs beside 300 MB held unnamed in /dev/shm:$bad"
		fi
	else
		kill $HELD 2>/dev/null
		fail "default uid pool: 300 MB could not be held in /dev/shm"
	fi
	fi
	# signals by pid reach the kernel now (a pid of another uid: EPERM)
	kill_code='import os, sys, time
try:
    os.kill(int(open(sys.argv[1]).read()), 9)
    print("KILLED")
except OSError as e:
    print("REFUSED", e.errno)'
	victim() { # OUT [OPTS]: a run that says if it lived 3 s
		local out=$1
		shift
		rm -f "$WORK/vpid"
		("$@" /bin/sh -c "echo \$\$ >$WORK/vpid.tmp; mv $WORK/vpid.tmp $WORK/vpid; sleep 3; echo \$((6 * 7))LIVED"; true) >"$out" 2>&1 &
		wait_until 10 test -s "$WORK/vpid"
	}
	chmod 1777 "$WORK"
	victim "$WORK/kv0.out" env
	$PY -c "$kill_code" "$WORK/vpid" >"$WORK/ka0.out" 2>&1
	wait
	victim "$WORK/kv1.out" $S $BE --workdir "$WORK" --timeout 20 --
	$S $BE --workdir "$WORK" --timeout 20 -- $PY -c "$kill_code" "$WORK/vpid" >"$WORK/ka1.out" 2>&1
	wait
	if grep -q KILLED "$WORK/ka0.out" && ! grep -q 42LIVED "$WORK/kv0.out" &&
	   grep -q 42LIVED "$WORK/kv1.out" && ! grep -q KILLED "$WORK/ka1.out"; then
		pass "default uid pool: a run cannot kill another run's process by pid ($(cat "$WORK/ka1.out"); bare: killed)"
	else
		fail "default uid pool: kill by pid: bare $(cat "$WORK/ka0.out") / $(cat "$WORK/kv0.out"); sandboxed $(cat "$WORK/ka1.out") / $(cat "$WORK/kv1.out")"
	fi
fi

if [ -n "$SHARED" ] && [ "$(id -u)" = 0 ]; then
	# the remedy the report's line points to: a uid of its own per run
	MIXOPT="--uid-pool 62000-62099"
	for r in $(seq "$ROUNDS"); do
		mix "$r"
	done
elif [ -n "$SHARED" ]; then
	skip "concurrent mix: runs of one uid share RLIMIT_NPROC on this host (missing: $SHARED)"
else
	for r in $(seq "$ROUNDS"); do
		mix "$r"
	done
fi

summary concurrent
