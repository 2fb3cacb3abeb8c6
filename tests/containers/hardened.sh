#!/bin/bash
# Hardened shapes, run inside them: a real container (tests/containers.sh)
# or a simulated host (tests/hosts.sh, hostsim docker-capdrop).
#   root without CAP_SETUID/CAP_SETGID (docker run --cap-drop ALL
#   --security-opt no-new-privileges), or with them but without CAP_KILL
#   and CAP_CHOWN (--cap-add SETUID --cap-add SETGID alone: root could not
#   stop the program once it is another uid): the seed command line is one line,
#   status 125, naming the capabilities and the non-root alternative, and
#   the program never runs (control: it runs bare); --features says
#   privdrop is refused; --best-effort runs it, and the report names
#   privdrop in missing.
#   non-root (Kubernetes' restricted: all capabilities dropped,
#   no-new-privileges, read-only root, tmpfs /tmp): the seed command line
#   runs, and every built-in profile compiles and runs (tests/profiles.py,
#   when PROFILES_PY names it).
#   SANDLOCK, PROGS as for inside.sh.  Last line:
#   "hardened: P passed, F failed, S skipped".
set -u
S=$SANDLOCK
SE=$(dirname "$S")/sandbox_exec
PY=/usr/bin/python3
W=$(mktemp -d /tmp/hardened.XXXXXX)
chmod 755 "$W"
P=0 F=0 K=0
pass() { P=$((P + 1)); echo "PASS $*"; }
fail() { F=$((F + 1)); echo "FAIL $*"; }
skip() { K=$((K + 1)); echo "SKIP $*"; }
field() {
	$PY - "$1" "$2" <<'PYEOF' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    d = d.get(k) if isinstance(d, dict) else None
print('null' if d is None else (str(d).lower() if isinstance(d, bool) else d))
PYEOF
}
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
# CAP_CHOWN is bit 0, CAP_KILL 5, CAP_SETGID 6, CAP_SETUID 7
can_setid=$(( (0x${capeff:-0} & 0xe1) == 0xe1 ))
ME=$(id -u)
echo "HARDENED uid $ME CapEff $capeff NoNewPrivs $(awk '/^NoNewPrivs:/ { print $2 }' /proc/self/status)"

# the seed command line, byte for byte; the program leaves a mark
cd "$W" || exit 1
printf 'import sys, os\nopen("mark-" + sys.argv[1], "w").write(str(os.getuid()))\nprint(sum(map(int, sys.stdin.read().split())))\n' >student.py
chmod 666 student.py
chmod 777 "$W"
out=$(echo "2 3 4" | $PY student.py bare 2>&1)
if [ "$out" = 9 ] && [ -e mark-bare ]; then pass "control: the program runs bare here"
else fail "control: the program does not run bare: $out"; fi

if [ "$ME" = 0 ] && [ $can_setid = 0 ]; then
	out=$(echo "2 3 4" | $SE --no-fork --no-network --clean-env --cpu 5 --mem 256 -- python3 student.py seed 2>"$W/err")
	st=$?
	if [ $st = 125 ] && [ -z "$out" ] && [ ! -e mark-seed ] && [ "$(wc -l <"$W/err")" = 1 ] &&
		grep -q 'CAP_SETUID' "$W/err" && grep -q 'CAP_SETGID' "$W/err" && grep -q 'CAP_KILL' "$W/err" &&
		grep -q 'non-root user' "$W/err"; then
		pass "root without CAP_SETUID/SETGID/KILL/CHOWN ($capeff): the seed line is one line, 125, naming them and the non-root alternative; the program did not run"
	else fail "root without CAP_SETUID/SETGID/KILL/CHOWN ($capeff): status $st, out '$out', mark $(ls mark-seed 2>&1), err: $(head -c 400 "$W/err")"; fi
	line=$($S --features | grep '^privdrop: ')
	if [[ $line == "privdrop: refused (no CAP_"* ]]; then pass "--features: $line"
	else fail "--features says '$line', want privdrop refused"; fi
	out=$(echo "2 3 4" | $S --best-effort --no-fork --no-network --clean-env --cpu 5 --mem 256 --report "$W/be.json" -- python3 student.py be 2>"$W/err")
	st=$?
	if [ $st = 0 ] && [ "$out" = 9 ] && [ -e mark-be ] && field "$W/be.json" missing | grep -q 'privdrop' &&
		[ "$(field "$W/be.json" layers.privdrop)" = false ] && [ "$(field "$W/be.json" uid)" = 0 ]; then
		pass "--best-effort: the run goes on as root, privdrop false and named in missing ($(field "$W/be.json" missing))"
	else fail "--best-effort: status $st, out '$out', err $(head -c 300 "$W/err"), report $(head -c 600 "$W/be.json")"; fi
elif [ "$ME" = 0 ]; then
	skip "root here holds CAP_SETUID, CAP_SETGID, CAP_KILL and CAP_CHOWN (CapEff $capeff): nothing hardened to check"
else
	out=$(echo "2 3 4" | $SE --no-fork --no-network --clean-env --cpu 5 --mem 256 -- python3 student.py seed 2>"$W/err")
	st=$?
	if [ $st = 0 ] && [ "$out" = 9 ] && [ "$(cat mark-seed 2>/dev/null)" = "$ME" ] && [ ! -s "$W/err" ]; then
		pass "non-root (CapEff $capeff): the seed command line runs, right answer"
	else fail "non-root seed command line: status $st, out '$out', err $(head -c 300 "$W/err")"; fi
	if [ -n "${PROFILES_PY:-}" ]; then
		out=$(cd "$W" && $PY "$PROFILES_PY" 2>&1)
		while IFS= read -r l; do
			case $l in
			PASS*) pass "profiles: ${l#PASS }" ;;
			FAIL*) fail "profiles: ${l#FAIL }" ;;
			SKIP*) skip "profiles: ${l#SKIP }" ;;
			esac
		done <<<"$out"
		echo "$out" | grep -qE '^profiles: [0-9]+ passed' || fail "profiles.py did not finish: $(echo "$out" | tail -3 | tr '\n' ' ')"
	fi
fi
cd / && rm -rf "$W"
echo "hardened: $P passed, $F failed, $K skipped"
[ $F = 0 ]
