#!/bin/bash
# The filesystem allow-list where the kernel has no Landlock but a run may
# have a mount namespace: a root of the run's own holding only the allowed
# paths (src/lib/bind_root.c).  Run it on such a host:
#
#   tests/hosts/hostsim no-landlock -- tests/bind_root.sh   (SANDLOCK, PROGS as for core.sh)
#
# Each attack is first shown to work on the same host without the list
# (--no-landlock), then contained with it, by evidence: the secret's bytes
# on stdout, a file written, a process's environment read; and the honest
# part runs in the same setup.  As root and as an ordinary user.
set -u
. "$(dirname "$0")/lib.sh"
S=$SANDLOCK
ME=$(id -u)
[ "$ME" = 0 ] && S="$SANDLOCK --uid-pool off"
FEAT=$($S --features)
if echo "$FEAT" | grep -q "^landlock: available"; then
	skip "bind_root: this host has Landlock, which the list uses instead (not applicable)"
	summary bind_root
	exit
fi
if ! echo "$FEAT" | grep -q "^mountns: available"; then
	skip "bind_root: no mount namespace on this host, so no root of binds (not applicable)"
	summary bind_root
	exit
fi
# the grader's files: a secret the program's uid could read (the worst
# case), a directory it could write, outside anything allowed
G="$WORK/grader"; SUB="$WORK/sub"
mkdir -p "$G" "$SUB"
SECRET="answer-$RANDOM$RANDOM"
echo "$SECRET" >"$G/expected.txt"
chmod 1777 "$G"; chmod 644 "$G/expected.txt"; chmod 777 "$SUB"
ln -s "$G/expected.txt" "$SUB/link"

# attack NAME OPTIONS -- PYTHON-CODE: bare (--no-landlock) first, then with
# the list; evidence: the secret on stdout, or the canary file
attack() {
	local name=$1
	shift
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	local code=$2
	rm -f "$G/canary"
	$S --no-landlock --unshare off --workdir "$SUB" -- $PY -c "$code" >"$WORK/bare" 2>&1
	if ! grep -q "$SECRET" "$WORK/bare" && [ ! -e "$G/canary" ]; then
		fail "$name: bare, the attack did not work here: $(head -c 300 "$WORK/bare")"
		return
	fi
	rm -f "$G/canary"
	$S --report "$WORK/r.json" "${opts[@]}" --workdir "$SUB" -- $PY -c "$code" >"$WORK/boxed" 2>&1
	local br
	br=$(json "$WORK/r.json" layers.bind_root 2>/dev/null)
	if grep -q "$SECRET" "$WORK/boxed" || [ -e "$G/canary" ]; then
		fail "$name: NOT contained: $(head -c 300 "$WORK/boxed")"
	elif [ "$br" != true ]; then
		fail "$name: no root of binds (bind_root: $br): $(head -c 300 "$WORK/boxed")"
	else
		pass "$name"
	fi
}
READ="print(open('$G/expected.txt').read())"
attack "read a file outside the list (--landlock)" --landlock -- "$READ"
attack "read a file outside the list (--ro DIR)" --ro "$SUB" -- "$READ"
attack "write a file outside the list" --landlock -- "open('$G/canary', 'w').write('x')"
attack "read it through a link in the working directory" --landlock -- "print(open('link').read())"
attack "climb out of the working directory" --landlock -- "
import os
for _ in range(64): os.chdir('..')
print(open('.$G/expected.txt').read())"
attack "through /proc/self/root and /proc/1/root" --landlock -- "
for p in ('/proc/self/root$G/expected.txt', '/proc/1/root$G/expected.txt', '/proc/self/cwd/../grader/expected.txt'):
    try: print(open(p).read())
    except OSError as e: print(p, e)"

# the root itself: nothing can be made in it, nor in what it shows read-only
$S --landlock --workdir "$SUB" -- $PY -c "
import os
for p in ('/planted', '/usr/planted', '/etc/planted'):
    try: open(p, 'w'); print('made', p)
    except OSError as e: print(p, e.errno)" >"$WORK/out" 2>&1
if ! grep -q made "$WORK/out" && [ ! -e /usr/planted ] && [ ! -e /etc/planted ] &&
   [ "$(grep -c " 30$\| 13$" "$WORK/out")" = 3 ]; then
	pass "the new root and its read-only binds refuse new files (EROFS)"
else fail "new files in the root: $(head -c 300 "$WORK/out")"; fi

# --ro reads, --rw writes, each where it is
$S --ro "$G" --workdir "$SUB" -- $PY -c "print(open('$G/expected.txt').read())" >"$WORK/out" 2>&1
if grep -q "$SECRET" "$WORK/out"; then pass "--ro DIR: read at its place"; else
	fail "--ro DIR: $(head -c 300 "$WORK/out")"; fi
rm -f "$G/canary"
$S --ro "$G" --workdir "$SUB" -- $PY -c "open('$G/canary', 'w')" >"$WORK/out" 2>&1
if [ ! -e "$G/canary" ] && grep -q "Read-only file system" "$WORK/out"; then
	pass "--ro DIR: not written (EROFS)"; else fail "--ro DIR written: $(head -c 300 "$WORK/out")"; fi
$S --rw "$G" --workdir "$SUB" -- $PY -c "open('$G/canary', 'w').write('x')" >"$WORK/out" 2>&1
if [ -e "$G/canary" ]; then pass "--rw DIR: written at its place"; else
	fail "--rw DIR: $(head -c 300 "$WORK/out")"; fi
rm -f "$G/canary"

# the honest part, in the same setup: an interpreter, numpy, a compiler,
# a shell through /bin (a link into /usr), scratch files, /dev/null, threads
rm -f "$SUB/made.txt"
$S --landlock --workdir "$SUB" -- /bin/sh -c "
$PY -c '
import threading, tempfile, os, subprocess
t = threading.Thread(target=print, args=(\"thread\",)); t.start(); t.join()
open(\"made.txt\", \"w\").write(\"ok\")
subprocess.run([\"true\"], stdout=subprocess.DEVNULL, check=True)
print(open(\"/etc/passwd\").read().count(\":\") > 0)
' && echo 'int main(void){return 0;}' > t.c && cc -o t t.c && ./t && echo compiled" >"$WORK/out" 2>&1
st=$?
if [ $st = 0 ] && grep -q thread "$WORK/out" && grep -q True "$WORK/out" && grep -q compiled "$WORK/out" &&
   [ "$(cat "$SUB/made.txt" 2>/dev/null)" = ok ]; then
	pass "honest: python (threads, subprocess), /etc/passwd, cc, a file in the working directory"
else fail "honest: status $st: $(head -c 400 "$WORK/out")"; fi
if $PY -c 'import numpy' 2>/dev/null; then
	expect_status "honest: numpy" 0 $S --landlock --workdir "$SUB" -- $PY -c 'import numpy; print(numpy.arange(3).sum())'
fi
if command -v java >/dev/null; then
	expect_status "honest: java (through /etc/alternatives)" 0 $S --landlock --mem 1024 --nproc 64 --workdir "$SUB" -- java -version
fi
# the default list, widened by --ro: the run's own /tmp is there, writable
out=$($S --ro "$G" --clean-env --workdir "$SUB" -- /bin/sh -c 'echo x > "$TMPDIR/f" && cat "$TMPDIR/f" && echo "$TMPDIR"' 2>&1)
if [ "$out" = "x
/tmp" ]; then pass "the default list widened: the run's own /tmp as TMPDIR, writable"; else
	fail "default list widened: $out"; fi
# the report
$S --report "$WORK/r.json" --landlock --workdir "$SUB" -- /bin/true
expect_json "report: bind_root true" "$WORK/r.json" layers.bind_root true
expect_json "report: landlock false (the kernel has none)" "$WORK/r.json" layers.landlock false
# asked for Landlock itself: still refused
expect_status "--require landlock: still 125 (Landlock itself is asked)" 125 $S --require landlock --landlock -- /bin/true
summary bind_root
