#!/bin/bash
# Run inside a container by tests/containers.sh: what a grader relies on,
# judged by evidence, with a control for each containment check.
#   EXPECT_NS=yes|no   whether this container lets a run have namespaces
#   SANDLOCK, PROGS    the staged binary (sandbox_exec beside it), programs
set -u
S=$SANDLOCK
SE=$(dirname "$S")/sandbox_exec
PY=/usr/bin/python3
W=$(mktemp -d /tmp/inside.XXXXXX)
chmod 755 "$W"
P=0 F=0 K=0
pass() { P=$((P + 1)); echo "PASS $*"; }
fail() { F=$((F + 1)); echo "FAIL $*"; }
layer() { $PY -c 'import json,sys; print(str(json.load(open(sys.argv[1]))["layers"][sys.argv[2]]).lower())' "$1" "$2" 2>/dev/null; }
field() { $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null; }
alive() { pgrep -fc -- "$1"; }

printf 'import sys\nprint(sum(map(int, sys.stdin.read().split())))\n' >"$W/sum.py"
out=$(echo "2 3 4" | $SE --no-fork --no-network --clean-env --cpu 5 --mem 256 -- $PY "$W/sum.py" 2>"$W/err")
st=$?
if [ "$out" = 9 ] && [ $st = 0 ] && [ ! -s "$W/err" ]; then pass "seed command line"; else fail "seed command line: status $st, out '$out', err $(head -c 300 "$W/err")"; fi

out=$($S --report "$W/r.json" -- /bin/sh -c '/bin/echo child; exit 0' 2>"$W/err")
st=$?
if [ "$out" = child ] && [ $st = 0 ]; then pass "a run that may fork"; else fail "forking run: status $st, out '$out', err $(head -c 300 "$W/err")"; fi
ns=$(layer "$W/r.json" pidns)
want=false; [ "$EXPECT_NS" = yes ] && want=true
if [ "$(layer "$W/r.json" seccomp)" = true ] && [ "$(layer "$W/r.json" landlock_scope)" = true ] && [ "$ns" = $want ]; then
	pass "report: seccomp, landlock_scope, pidns $ns"
else fail "report layers: $(cat "$W/r.json")"; fi
if [ "$EXPECT_NS" = no ]; then
	if [ "$(layer "$W/r.json" watchdog)" = true ] && field "$W/r.json" missing | grep -q pidns; then pass "report: the watchdog, and missing names pidns"
	else fail "report without namespaces: $(cat "$W/r.json")"; fi
fi

$S --unshare on -- /bin/true 2>"$W/err"
st=$?
if [ "$EXPECT_NS" = yes ]; then
	if [ $st = 0 ]; then pass "--unshare on works"; else fail "--unshare on: status $st: $(cat "$W/err")"; fi
else
	if [ $st = 125 ] && [ "$(wc -l <"$W/err")" = 1 ]; then pass "--unshare on: 125 and one line"; else fail "--unshare on: status $st: $(cat "$W/err")"; fi
fi

# the filesystem allow-list: a file outside the allowed paths (control:
# without it), from a working directory of the grader's; a container's
# default working directory, /, would allow everything: refused
(cd / && $S --no-fork --landlock -- /bin/true 2>"$W/err")
st=$?
if [ $st = 125 ] && grep -q "working directory is /" "$W/err"; then pass "--landlock from /: 125"; else fail "--landlock from /: status $st: $(cat "$W/err")"; fi
mkdir -p "$W/outside" "$W/work" && chmod 777 "$W/outside" "$W/work"
cd "$W/work" || exit 1
$S --no-fork -- $PY -c "open('$W/outside/control', 'w')" 2>/dev/null
$S --no-fork --landlock -- $PY -c "open('$W/outside/x', 'w')" 2>/dev/null
if [ -e "$W/outside/control" ] && [ ! -e "$W/outside/x" ]; then pass "--landlock: nothing written outside"; else fail "--landlock: control $(ls "$W/outside")"; fi

# the network: a listener in the container hears from the bare client only
$PY - "$W" <<'PYEOF' &
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + "/port", "w").write(str(s.getsockname()[1]))
s.settimeout(8)
try:
    while True:
        c, _ = s.accept(); open(sys.argv[1] + "/heard", "a").write(c.recv(16).decode() + "\n")
except OSError:
    pass
PYEOF
lpid=$!
for _ in $(seq 200); do [ -s "$W/port" ] && break; sleep 0.1; done
conn="import socket,sys; s=socket.create_connection(('127.0.0.1', $(cat "$W/port"))); s.send(sys.argv[1].encode())"
$PY -c "$conn" bare 2>/dev/null
$S --no-fork --no-network -- $PY -c "$conn" sandboxed 2>/dev/null
sleep 0.3
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
if grep -q bare "$W/heard" 2>/dev/null && ! grep -q sandboxed "$W/heard"; then pass "--no-network: no connection made"; else fail "--no-network: heard $(cat "$W/heard" 2>/dev/null | tr '\n' ' ')"; fi

# nothing outlives a run: a background child, and a SIGKILLed sandbox
m=$RANDOM$RANDOM
$S -- /bin/sh -c "/bin/sleep 1000.$m & exit 0" 2>/dev/null
sleep 0.3
n=$(alive "1000.$m")
if [ "$n" = 0 ]; then pass "a background child does not outlive the run"; else fail "background child: $n left"; pkill -f "1000.$m"; fi
$S -- /bin/sh -c "/bin/sleep 1001.$m & /bin/sleep 1001.$m" 2>/dev/null &
spid=$!
for _ in $(seq 200); do [ "$(alive "1001.$m")" -ge 2 ] && break; sleep 0.05; done
started=$(alive "1001.$m")
kill -KILL $spid
wait $spid 2>/dev/null
sleep 0.5
n=$(alive "1001.$m")
if [ "$started" -ge 2 ] && [ "$n" = 0 ]; then pass "SIGKILL of the sandbox: nothing survives"; else fail "SIGKILL of the sandbox: started $started, left $n"; pkill -f "1001.$m"; fi

# limits
$S --no-fork --cpu 1 --report "$W/c.json" -- $PY -c 'while True: pass' 2>/dev/null
if [ "$(field "$W/c.json" verdict)" = cpu_limit ]; then pass "--cpu 1: cpu_limit"; else fail "--cpu: $(cat "$W/c.json")"; fi
$S --no-fork --mem 64 --report "$W/m.json" -- $PY -c 'b = bytearray(200 << 20)' 2>/dev/null
if [ "$(field "$W/m.json" verdict)" = memory_limit ]; then pass "--mem 64: memory_limit"; else fail "--mem: $(cat "$W/m.json")"; fi
shm='import mmap
m = []
for i in range(40):
    x = mmap.mmap(-1, 16 << 20, mmap.MAP_SHARED | mmap.MAP_ANONYMOUS); x.write(b"a" * (16 << 20)); m.append(x)'
$S --no-fork --mem 256 --report "$W/s.json" -- $PY -c "$shm" 2>/dev/null
peak=$(field "$W/s.json" peak_kb)
if [ "$(field "$W/s.json" verdict)" = memory_limit ] && [ "${peak:-999999}" -lt 280000 ]; then pass "shared memory counted: memory_limit at $peak KB"; else fail "shared memory: $(cat "$W/s.json")"; fi

# secrets in the environment
secret=sk-$RANDOM$RANDOM$RANDOM
c=$(GRADER_SECRET=$secret $S --no-fork -- /usr/bin/env 2>/dev/null | grep -c "$secret")
s=$(GRADER_SECRET=$secret $S --no-fork --clean-env -- /usr/bin/env 2>/dev/null | grep -c "$secret")
if [ "$c" = 1 ] && [ "$s" = 0 ]; then pass "--clean-env hides the grader's secret"; else fail "--clean-env: control $c, sandboxed $s"; fi

rm -rf "$W"
echo "inside: $P passed, $F failed, $K skipped"
[ $F = 0 ]
