#!/usr/bin/env bash
# scaling.sh - start-up that does not grow with the host (issue 26), the
# seed line against its prototype floor, a check against the recorded
# figure, and what counting tasks through the listener costs a thread
# (issue 25).
#
#   SANDLOCK=../build/sandlock ./scaling.sh      (make -C bench scaling)
#
# 1. Growth: blocks of BENCH_SCALE_ROUNDS paired rounds (bench/runner: the
#    seed line, a forking run and floor_proto, interleaved), alternating a
#    quiet host with one holding BENCH_SCALE_IDLE (2,000) idle processes
#    (tests/idle_procs.py), BENCH_SCALE_BLOCKS pairs.  Each block gives the
#    median of the paired ratios sandlock/floor_proto; the growth is the
#    median over the pairs of loaded/quiet.  Goal: <= 1.10.
# 2. Regression: the quiet ratio seed/floor_proto against the one in
#    results/startup-recorded.txt for this machine's kind (by what a
#    system call costs: bench/syscall_loop getppid), recorded by the first
#    run on that kind or by BENCH_RECORD=1; more than 10 % above it is
#    named: "REGRESSION".
# 3. Thread creation: bench/thread_rate under the Docker-default
#    simulation (no user namespace of the run's own: --nproc is counted by
#    the supervisor) with --nproc 64 against --nproc 0 (nothing counted),
#    with --fsize 0 (the count alone) and the default --fsize 10 (whose
#    check of a blocked SIGXFSZ sees every thread's exit).
# Writes results/scaling.txt.
set -u
export LC_ALL=C
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
SANDLOCK=${SANDLOCK:-$ROOT/build/sandlock}
case "$SANDLOCK" in /*) ;; *) SANDLOCK="$(cd "$BENCH_DIR" && cd "$(dirname "$SANDLOCK")" && pwd)/$(basename "$SANDLOCK")" ;; esac
BLOCKS=${BENCH_SCALE_BLOCKS:-3}
ROUNDS=${BENCH_SCALE_ROUNDS:-100}
IDLE=${BENCH_SCALE_IDLE:-2000}
THREADS=${BENCH_THREADS:-20000}
RESULTS=${BENCH_RESULTS:-$BENCH_DIR/results}
OUT=$RESULTS/scaling.txt
REC=$RESULTS/startup-recorded.txt
R=$BENCH_DIR/runner
for p in runner floor_proto thread_rate; do
	[ -x "$BENCH_DIR/$p" ] || make -C "$BENCH_DIR" "$p" >/dev/null || exit 2
done
SEED="$SANDLOCK --no-fork --no-network --clean-env --cpu 5 --mem 256 -- /bin/true"
# ... from a working directory the program may not write: its HOME and
# TMPDIR are then a private directory made on the host's /tmp per run
SEEDD="$SANDLOCK --workdir @RO --no-fork --no-network --clean-env --cpu 5 --mem 256 -- /bin/true"
FORK="$SANDLOCK -- /bin/true"
PROTO="$BENCH_DIR/floor_proto /bin/true"
median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# block: one runner block, prints "seed/proto fork/proto seed_ms proto_ms"
# Each run starts in a working directory of the program's own (where a
# grader runs a submission: a directory handed to its identity, 65534 as
# root), as the seed line's measure; seed_ro starts in one it may not write.
block() {
	(cd "$TMP/wd" && "$R" -n "$ROUNDS" -w 3 seed "$SEED" fork "$FORK" proto "$PROTO" \
		seed_ro "${SEEDD/@RO/$TMP/ro}" >"$TMP/block" 2>/dev/null)
	awk -F'\t' '$1 == "ratio" && $2 == "seed" && $3 == "proto" { s = $4 }
		    $1 == "ratio" && $2 == "fork" && $3 == "proto" { f = $4 }
		    $1 == "ratio" && $2 == "seed_ro" && $3 == "proto" { r = $4 }
		    $1 == "stat" && ($2 == "seed" || $2 == "fork" || $2 == "seed_ro") { bad += $4 }
		    $1 == "stat" && $2 == "seed" { sm = $5 }
		    $1 == "stat" && $2 == "proto" { pm = $5; bad += $4 }
		    END { print s, f, sm, pm, bad + 0, r }' "$TMP/block"
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/sandlock-scale.XXXXXX")
chmod 0755 "$TMP"
mkdir "$TMP/wd" "$TMP/ro"
chmod 0555 "$TMP/ro"
[ "$(id -u)" = 0 ] && chown 65534:65534 "$TMP/wd"
HOLDER=
cleanup() { [ -n "$HOLDER" ] && { exec 8>&-; wait "$HOLDER" 2>/dev/null; }; chmod 0755 "$TMP/ro"; rm -rf "$TMP"; }
trap cleanup EXIT
hold() {
	mkfifo "$TMP/hold"
	/usr/bin/python3 "$ROOT/tests/idle_procs.py" "$IDLE" <"$TMP/hold" >"$TMP/ready" &
	HOLDER=$!
	exec 8>"$TMP/hold"
	for _ in $(seq 600); do grep -q ready "$TMP/ready" 2>/dev/null && return; sleep 0.05; done
}
release() { exec 8>&-; wait "$HOLDER" 2>/dev/null; HOLDER=; rm -f "$TMP/hold" "$TMP/ready"; }

# the record names paths inside the checkout relative to it
relp() { sed "s|$ROOT/||g"; }
{
echo "# scaling.sh $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs, $(uname -r), user $(id -un), sandlock sha256 $(sha256sum "$SANDLOCK" | cut -c1-16)"
echo "# blocks of $ROUNDS rounds, interleaved: $R -n $ROUNDS -w 3 seed '$SEED' fork '$FORK' proto '$PROTO' seed_ro '$SEEDD'"
echo "# in a working directory of the program's own (65534's as root); @RO: a directory it may not write"
echo "# quiet and with $IDLE idle processes (python3 tests/idle_procs.py $IDLE) alternating, $BLOCKS pairs"
echo "# block host seed/proto fork/proto seed_ms proto_ms failed_runs seed_ro/proto"
} | relp >"$OUT"
GROW=() FGROW=() QSEED=() QFORK=() QRO=()
for b in $(seq "$BLOCKS"); do
	q=$(block)
	echo "block quiet $q" >>"$OUT"
	hold
	l=$(block)
	release
	echo "block loaded $l" >>"$OUT"
	set -- $q; qs=$1 qf=$2
	set -- $l; ls=$1 lf=$2
	GROW+=("$(awk -v a="$ls" -v b="$qs" 'BEGIN { print a / b }')")
	FGROW+=("$(awk -v a="$lf" -v b="$qf" 'BEGIN { print a / b }')")
	QSEED+=("$qs")
	QFORK+=("$qf")
	set -- $q; QRO+=("$6")
done
g=$(printf '%s\n' "${GROW[@]}" | median)
fg=$(printf '%s\n' "${FGROW[@]}" | median)
qs=$(printf '%s\n' "${QSEED[@]}" | median)
qf=$(printf '%s\n' "${QFORK[@]}" | median)
qr=$(printf '%s\n' "${QRO[@]}" | median)
{
echo "growth seed $g (with $IDLE idle processes / quiet, each over floor_proto; goal <= 1.10)"
echo "growth fork $fg"
echo "quiet seed/floor_proto $qs (goal <= 1.05)"
echo "quiet fork/floor_proto $qf"
echo "quiet seed_ro/floor_proto $qr (workdir not the program's: a private directory on the host's /tmp per run)"
} | tee -a "$OUT"

# the recorded figure, one per machine kind: the ratio over floor_proto
# depends on what a system call and a page fault cost there (1.03 where
# getppid takes 65 ns, 1.27 where it takes 1 us: sandlock's own system
# calls weigh more), so a figure is compared only with one recorded on a
# machine of the same kind (getppid under 150 ns: fast, under 500: mid,
# else slow); the first run on a kind records it
[ -x "$BENCH_DIR/syscall_loop" ] || make -C "$BENCH_DIR" syscall_loop >/dev/null || exit 2
NS=$("$BENCH_DIR/syscall_loop" getppid 2000000 | awk '{ printf "%.0f", $4 }')
KIND=$(awk -v n="$NS" 'BEGIN { print (n < 150 ? "fast" : n < 500 ? "mid" : "slow") }')
echo "# this machine: getppid $NS ns of wall per call (bench/syscall_loop): kind $KIND" | tee -a "$OUT"
[ -f "$REC" ] || echo "# recorded by scaling.sh: KIND seed_over_proto fork_over_proto getppid_ns date (BENCH_RECORD=1 records this kind again)" >"$REC"
if [ "${BENCH_RECORD:-0}" = 1 ] || ! awk -v k="$KIND" '$1 == k { f = 1 } END { exit !f }' "$REC"; then
	awk -v k="$KIND" '$1 != k' "$REC" >"$TMP/rec"
	echo "$KIND $qs $qf $NS $(date -u '+%Y-%m-%d')" >>"$TMP/rec"
	cat "$TMP/rec" >"$REC"
	echo "recorded for a $KIND machine: seed/floor_proto $qs, fork/floor_proto $qf ($REC)" | relp | tee -a "$OUT"
else
	for k in seed fork; do
		col=2; [ $k = fork ] && col=3
		read -r was wns <<<"$(awk -v k="$KIND" -v c="$col" '$1 == k { print $c, $4 }' "$REC")"
		now=$qs; [ $k = fork ] && now=$qf
		verdict=$(awk -v n="$now" -v w="$was" 'BEGIN { r = n / w; printf "%.3f %s", r, (r > 1.10 ? "REGRESSION" : "ok") }')
		echo "against the figure recorded on a $KIND machine (getppid $wns ns): $k/floor_proto $now, recorded $was: ${verdict% *}x, ${verdict#* }" | tee -a "$OUT"
		case $verdict in *REGRESSION) echo "REGRESSION: $k start-up more than 10 % above the recorded figure ($REC)" | relp | tee -a "$OUT" ;; esac
	done
fi

# thread creation with and without the supervisor's count (--nproc 64 or
# 0), alone (--fsize 0) and with the default --fsize, whose check of a
# blocked SIGXFSZ sees every thread's exit (a second round trip a thread)
SIM=$ROOT/tests/hosts/hostsim
if "$SIM" docker -- /bin/true 2>/dev/null; then
	declare -A TR
	for i in 1 2 3 4 5; do
		for c in "64 0" "0 0" "64 10" "0 10"; do
			set -- $c
			TR[$1-$2]+="$("$SIM" docker -- "$SANDLOCK" --nproc "$1" --fsize "$2" -- "$BENCH_DIR/thread_rate" "$THREADS" 2>/dev/null | tail -1) "
		done
		TR[bare]+="$("$BENCH_DIR/thread_rate" "$THREADS") "
	done
	med() { printf '%s\n' ${TR[$1]} | median; }
	cost() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f %%", (1 - a / b) * 100 }'; }
	{
	echo "# threads/s, create+join one at a time, 5 alternating rounds, medians: $SIM docker -- sandlock --nproc 64|0 --fsize 0|10 -- thread_rate $THREADS" | relp
	echo "the count alone (--fsize 0): counted $(med 64-0), not counted $(med 0-0): cost $(cost "$(med 64-0)" "$(med 0-0)") (goal <= 5 %)"
	echo "with the default --fsize 10: counted $(med 64-10), not counted $(med 0-10): cost $(cost "$(med 64-10)" "$(med 0-10)")"
	echo "the exit check (--fsize 10 over 0), not counted: cost $(cost "$(med 0-10)" "$(med 0-0)"); outside any sandbox: $(med bare)"
	} | tee -a "$OUT"
fi
