#!/bin/bash
# The asynchronous library API (sandlock_spawn, sandlock_handle_fd,
# sandlock_wait, sandlock_kill) on this host: the cmocka tests of
# tests/unit/test_async.c, one PASS/FAIL line each, for the hosts suite
# (run it under tests/hosts/hostsim; SANDLOCK_EXTRA_FLAGS=--best-effort on
# the serverless host, as tests/hosts.sh sets it).
#
#   tests/async.sh BUILD-DIR      (the test_async that `make unit` built there)
# Last line: "async: P passed, F failed, S skipped".
set -u
T=${1:?build directory}/test_async
if [ ! -x "$T" ]; then
	echo "FAIL async: $T not built (make unit)"
	echo "async: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
P=0 F=0 K=0
out=$(CMOCKA_MESSAGE_OUTPUT=TAP timeout 120 "$T" 2>&1)
st=$?
while IFS= read -r line; do
	case $line in
	# a test that calls skip(): what it checks needs a layer this host
	# does not offer (threads_run_at_once: a seccomp filter)
	"not ok "*"# SKIP"*) K=$((K + 1)); echo "SKIP ${line##*# SKIP }: a layer it needs is not available on this host" ;;
	"ok "*) P=$((P + 1)); echo "PASS ${line#ok * - }" ;;
	"not ok "*) F=$((F + 1)); echo "FAIL ${line#not ok * - }" ;;
	"#"*) [ $F -gt 0 ] && echo "  $line" ;;
	esac
done <<<"$out"
if [ $st != 0 ] && [ $F = 0 ]; then
	F=$((F + 1))
	echo "FAIL async: test_async exited $st: $(echo "$out" | tail -3 | tr '\n' ' ')"
fi
echo "async: $P passed, $F failed, $K skipped"
[ $F = 0 ]
