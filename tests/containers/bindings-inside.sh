#!/bin/bash
# Run inside a container by tests/containers.sh: the bindings' own tests,
# as tests/bindings.sh runs them, from the read-only checkout at /src,
# against the staged binary ($SANDLOCK):
#   Python  /usr/bin/python3 -m unittest discover -s bindings/python -v
#   Go      go test -count=1 ./...  in every module under bindings/ and
#           examples/ (-count=1: the build cache is kept, never a result)
# Go runs only where its toolchain works in this container (else skipped,
# with the reason); its build cache is /gocache when the caller mounted one
# (kept between runs: a cold cache costs a minute per container).
# Last line: "bindings: P passed, F failed, S skipped".
set -u
export HOME=/tmp
P=0 F=0 K=0
pass() { P=$((P + 1)); echo "PASS $*"; }
fail() { F=$((F + 1)); echo "FAIL $*"; }
skip() { K=$((K + 1)); echo "SKIP $*"; }
LOG=$(mktemp /tmp/bindings.XXXXXX)

# check NAME DIR CMD...: one PASS/FAIL line; the log's tail on failure
check() {
	local name=$1 dir=$2 t0=$SECONDS st sum
	shift 2
	(cd "$dir" && timeout 600 "$@") >"$LOG" 2>&1 </dev/null
	st=$?
	sum=$(grep -E '^(Ran [0-9]+ tests|OK|FAILED|ok |FAIL|--- FAIL|panic:)' "$LOG" | tr '\n' ' ' | head -c 300)
	if [ $st = 0 ]; then pass "$name ($((SECONDS - t0)) s): $sum"
	else fail "$name: status $st ($((SECONDS - t0)) s): $sum"; tail -n 40 "$LOG" | sed 's/^/    /'; fi
}

if [ -d /src/bindings/python ]; then
	if [ -x /usr/bin/python3 ]; then
		check "python bindings" /src env PYTHONDONTWRITEBYTECODE=1 \
			/usr/bin/python3 -m unittest discover -s bindings/python -v
	else skip "python bindings: no /usr/bin/python3 in this container"; fi
fi

mods=$(cd /src && find bindings examples -maxdepth 3 -name go.mod 2>/dev/null | sort | xargs -rn1 dirname)
if [ -n "$mods" ]; then
	cache=/tmp/gocache
	[ -d /gocache ] && [ -w /gocache ] && cache=/gocache
	mkdir -p /tmp/gopath /tmp/gotmp "$cache"
	GOENV=(env GOTOOLCHAIN=local GOFLAGS=-buildvcs=false GOPROXY=off GOSUMDB=off GO111MODULE=on
	       GOWORK=off GOPATH=/tmp/gopath GOCACHE="$cache" GOTMPDIR=/tmp/gotmp GOENV=off)
	why=
	if ! command -v go >/dev/null 2>&1; then
		why="no go toolchain in this container (none on the host, or outside the mounted directories)"
	elif ! v=$("${GOENV[@]}" go version 2>&1); then
		why="the go toolchain does not run here: $(echo "$v" | head -1 | head -c 200)"
	fi
	for m in $mods; do
		if [ -n "$why" ]; then skip "go test ($m): $why"
		else check "go test ($m)" "/src/$m" "${GOENV[@]}" go test -count=1 ./...; fi
	done
fi
rm -f "$LOG"
echo "bindings: $P passed, $F failed, $K skipped"
[ $F = 0 ]
