#!/usr/bin/env bash
# run-all.sh - run the whole Sandlock benchmark suite (issue 6), write the raw
# results to bench/results/*.txt, the chart to docs/benchmarks-startup.png
# and regenerate docs/benchmarks.md (bench/report.py) from what was measured
# in this run.
#
#   SANDLOCK=../build/sandlock ./run-all.sh      (make -C bench run)
#   BENCH_QUICK=1 ./run-all.sh                   smoke test, < 30 s
#
# Knobs (environment): SANDLOCK, BENCH_QUICK, BENCH_ROUNDS_TRUE,
# BENCH_ROUNDS_PY, BENCH_WARMUP, BENCH_SYSCALL_N, BENCH_SYSCALL_ROUNDS,
# BENCH_TPUT_SECONDS, BENCH_TPUT_WORKERS, BENCH_INPROC_K, BENCH_MEM_REPS,
# BENCH_PYTHON, BENCH_LL_EXTRA (extra sandlock options for --landlock and
# --strict runs of the suite's own binaries, default none).
# Nothing here aborts on a failing sandbox: failures are counted and reported.
set -u
export LC_ALL=C

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
RES="$BENCH_DIR/results"
DOC="$ROOT/docs/benchmarks.md"
PNG="$ROOT/docs/benchmarks-startup.png"
mkdir -p "$RES" "$ROOT/docs"

SANDLOCK=${SANDLOCK:-$ROOT/build/sandlock}
case "$SANDLOCK" in /*) ;; *) SANDLOCK="$(cd "$BENCH_DIR" && cd "$(dirname "$SANDLOCK")" 2>/dev/null && pwd)/$(basename "$SANDLOCK")" ;; esac
QUICK=${BENCH_QUICK:-0}
if [ "$QUICK" = 1 ]; then
    D_TRUE=20 D_PY=3 D_WARM=1 D_SN=100000 D_SR=1 D_TS=0.5 D_SL=1 D_K=30 D_MEM=2 D_SLEEP=0.1 D_SREPS=1
else
    D_TRUE=300 D_PY=60 D_WARM=3 D_SN=5000000 D_SR=5 D_TS=10 D_SL=10 D_K=500 D_MEM=5 D_SLEEP=0.2 D_SREPS=2
fi
ROUNDS_TRUE=${BENCH_ROUNDS_TRUE:-$D_TRUE}
ROUNDS_PY=${BENCH_ROUNDS_PY:-$D_PY}
WARMUP=${BENCH_WARMUP:-$D_WARM}
SYSCALL_N=${BENCH_SYSCALL_N:-$D_SN}
SYSCALL_ROUNDS=${BENCH_SYSCALL_ROUNDS:-$D_SR}
TPUT_SECONDS=${BENCH_TPUT_SECONDS:-$D_TS}
TPUT_WORKERS=${BENCH_TPUT_WORKERS:-2}
TPUT_SLICES=${BENCH_TPUT_SLICES:-$D_SL}
INPROC_K=${BENCH_INPROC_K:-$D_K}
MEM_REPS=${BENCH_MEM_REPS:-$D_MEM}
PY=${BENCH_PYTHON:-/usr/bin/python3}
LL_EXTRA=${BENCH_LL_EXTRA:-}

B="$BENCH_DIR"
for p in runner throughput maxrss floor_spawn floor_profile predecessor syscall_loop allow_filter tiny_exit; do
    [ -x "$B/$p" ] || { echo "run-all: $B/$p missing: run 'make -C bench' first" >&2; exit 2; }
done

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# print a command line, shell-quoted, for the record
qcmd() { local out="" a; for a in "$@"; do out+="$(printf '%q' "$a") "; done; printf '%s' "${out% }"; }

HAVE_SANDLOCK=0; [ -x "$SANDLOCK" ] && HAVE_SANDLOCK=1
# Measure a snapshot of the binary: a rebuild of build/sandlock while the suite
# runs (other work on the same tree) must not change or remove what is measured.
SANDLOCK_ORIG=$SANDLOCK
SANDLOCK_SHA=-
if [ $HAVE_SANDLOCK = 1 ]; then
    SNAPDIR=$(mktemp -d "${TMPDIR:-/tmp}/sandlock-bench.XXXXXX")
    trap 'rm -rf "$SNAPDIR"' EXIT
    cp "$SANDLOCK_ORIG" "$SNAPDIR/sandlock" && chmod 755 "$SNAPDIR" "$SNAPDIR/sandlock"
    SANDLOCK="$SNAPDIR/sandlock"
    SANDLOCK_SHA=$(sha256sum "$SANDLOCK" | cut -c1-16)
fi
# Every run starts in a working directory of the program's own (65534's as
# root), as a grader's runs do: the seed line then needs no private HOME made
# on the host's disk (bench/scaling.sh measures that case too, as seed_ro).
WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/sandlock-bench-wd.XXXXXX")
chmod 0755 "$WORKDIR"
[ "$(id -u)" = 0 ] && chown 65534:65534 "$WORKDIR"
trap 'rm -rf "${SNAPDIR:-}" "$WORKDIR"' EXIT
cd "$WORKDIR" || exit 2
HAVE_BWRAP=0; command -v bwrap >/dev/null 2>&1 && HAVE_BWRAP=1
HAVE_FIREJAIL=0; command -v firejail >/dev/null 2>&1 && HAVE_FIREJAIL=1
HAVE_GNUPLOT=0; command -v gnuplot >/dev/null 2>&1 && HAVE_GNUPLOT=1
BWRAP="bwrap --ro-bind / / --unshare-all --dev /dev --proc /proc --"
FIREJAIL="firejail --quiet --noprofile"
DEF="--no-fork --no-network --clean-env --cpu 5 --mem 256"

# sandlock profiles: name|options (the command follows "--")
PROFILES=(
    "sl_default|$DEF"
    "sl_landlock|$DEF --landlock"
    "sl_isolate_tmp|$DEF --isolate-tmp"
    "sl_unshare|$DEF --unshare on"
    "sl_strict|$DEF --strict"
)
# options for a profile when the command is one of the suite's own binaries
prof_opts() { # name opts
    case "$1" in sl_landlock|sl_strict) printf '%s%s' "$2" "${LL_EXTRA:+ $LL_EXTRA}" ;; *) printf '%s' "$2" ;; esac
}

T_START=$(date +%s)

# ---------------------------------------------------------------- machine
log "machine"
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "nproc: $(nproc)"
    echo "uname -r: $(uname -r)"
    echo "uname -m: $(uname -m)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
    echo "virtualization: $(systemd-detect-virt 2>/dev/null || echo unknown)"
    echo "user: $(id -un) (uid $(id -u))"
    echo "gcc: $(${CC:-cc} --version 2>/dev/null | head -1)"
    echo "libseccomp: $(dpkg-query -W -f '${Version}' libseccomp-dev 2>/dev/null || echo '?')"
    echo "bwrap: $([ $HAVE_BWRAP = 1 ] && bwrap --version 2>&1 | head -1 || echo 'not installed')"
    echo "firejail: $([ $HAVE_FIREJAIL = 1 ] && firejail --version 2>&1 | head -1 || echo 'not installed')"
    echo "python: $($PY --version 2>&1)"
    echo "sandlock: $SANDLOCK_ORIG"
    echo "sandlock_snapshot: $SANDLOCK"
    echo "sandlock_sha256: $SANDLOCK_SHA"
    if [ $HAVE_SANDLOCK = 1 ]; then
        echo "sandlock --version: $("$SANDLOCK" --version 2>&1 | head -1)"
        echo "sandlock --features:"
        "$SANDLOCK" --features 2>&1 | sed 's/^/    /'
    else
        echo "sandlock --version: NOT BUILT"
    fi
    echo "quick: $QUICK"
    echo "loadavg_start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$RES/machine.txt"

# ---------------------------------------------------------------- profiles
log "profile check (one run each, stderr kept)"
{
    echo "# one run of each sandlock profile; status and stderr"
    for pr in "${PROFILES[@]}"; do
        name=${pr%%|*}; opts=${pr#*|}
        for cmd in "/bin/true" "$PY -c pass" "$B/syscall_loop getppid 1000" "$B/syscall_loop write 1000" "$B/tiny_exit"; do
            o=$opts; case "$cmd" in "$B"/*) o=$(prof_opts "$name" "$opts") ;; esac
            if [ $HAVE_SANDLOCK = 1 ]; then
                # shellcheck disable=SC2086
                err=$("$SANDLOCK" $o -- $cmd 2>&1 >/dev/null); st=$?
            else
                err="sandlock not built"; st=127
            fi
            printf 'check\t%s\t%s\t%s\t%s\n' "$name" "$st" "sandlock $o -- $cmd" "$(printf '%s' "$err" | tr '\n\t' '  ' | cut -c1-300)"
        done
    done
} > "$RES/profiles.txt"

# ---------------------------------------------------------------- start-up
startup() { # label rounds target-cmd...
    local label=$1 rounds=$2; shift 2
    local cmd="$*"
    local args=(
        bare "$cmd"
        floor_spawn "$B/floor_spawn $cmd"
        floor_profile "$B/floor_profile $cmd"
        predecessor "$B/predecessor $cmd"
    )
    local pr
    for pr in "${PROFILES[@]}"; do
        args+=("${pr%%|*}" "$SANDLOCK ${pr#*|} -- $cmd")
    done
    [ $HAVE_BWRAP = 1 ] && args+=(bwrap "$BWRAP $cmd")
    [ $HAVE_FIREJAIL = 1 ] && args+=(firejail "$FIREJAIL $cmd")
    {
        echo "# startup of: $cmd"
        echo "# command: $(qcmd "$B/runner" -n "$rounds" -w "$WARMUP" -r "$RES/startup-$label.raw.tsv" "${args[@]}")"
        "$B/runner" -n "$rounds" -w "$WARMUP" -r "$RES/startup-$label.raw.tsv" "${args[@]}"
    } > "$RES/startup-$label.txt"
}
log "start-up: /bin/true x $ROUNDS_TRUE rounds"
startup true "$ROUNDS_TRUE" /bin/true
log "start-up: $PY -c pass x $ROUNDS_PY rounds"
startup python "$ROUNDS_PY" "$PY" -c pass

# ---------------------------------------------------------------- syscalls
log "per-syscall: $SYSCALL_N calls x $SYSCALL_ROUNDS rounds"
# 5 million syscalls take more than the profile's 5 s of CPU on a slow VM
# (about 1.1 us per syscall here), so the loops run with RLIMIT_CPU 60 s: the
# limit's value does not change what a syscall costs.
SYS_CPU=60
SYS_CONFIGS=(
    "bare|"
    "allow_filter|$B/allow_filter"
    "floor_profile|$B/floor_profile --cpu $SYS_CPU"
)
for pr in "${PROFILES[@]}"; do
    n=${pr%%|*}
    o=$(prof_opts "$n" "${pr#*|}")
    SYS_CONFIGS+=("$n|$SANDLOCK ${o/--cpu 5/--cpu $SYS_CPU} --")
done
{
    echo "# per-syscall cost: syscall_loop MODE $SYSCALL_N under each configuration, alternating, $SYSCALL_ROUNDS rounds"
    echo "# sys MODE CONFIG ROUND CPU_NS_PER_CALL STATUS COMMAND WALL_NS_PER_CALL"
    for ((r = 0; r < SYSCALL_ROUNDS; r++)); do
        for mode in getppid write; do
            for c in "${SYS_CONFIGS[@]}"; do
                name=${c%%|*}; pre=${c#*|}
                # shellcheck disable=SC2086
                out=$($pre "$B/syscall_loop" "$mode" "$SYSCALL_N" 2>/dev/null); st=$?
                read -r cpu wall <<< "$(printf '%s\n' "$out" | awk -v m="$mode" '$1 == m && NF >= 6 { c = $6; w = $4 } END { print (c == "" ? "nan" : c), (w == "" ? "nan" : w) }')"
                printf 'sys\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n' "$mode" "$name" "$r" "$cpu" "$st" "$pre${pre:+ }$B/syscall_loop $mode $SYSCALL_N" "$wall"
            done
        done
    done
} > "$RES/syscall.raw.txt"
# summary: median ns/call (CPU time, and wall time) and the median of the per-round ratios to bare
awk -F'\t' '
function med(arr, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
    if (n == 0) return "nan"
    return (n % 2) ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
}
function f(x, d) { return x == "nan" ? x : sprintf("%." d "f", x) }
$1 == "sys" {
    key = $2 SUBSEP $3
    if (!(key in seen)) { seen[key] = 1; order[++no] = key; cmdof[key] = $7 }
    if ($6 == 0 && $5 != "nan") { c = ++cnt[key]; v[key, c] = $5; w[key, c] = $8; byr[key, $4] = $5; byw[key, $4] = $8 } else fail[key]++
    rounds[$4] = 1
}
END {
    print "# syssum MODE CONFIG ok fail cpu_median_ns cpu_ratio_to_bare command wall_median_ns wall_ratio_to_bare   (ratios: paired medians)"
    for (i = 1; i <= no; i++) {
        key = order[i]; split(key, kk, SUBSEP); bk = kk[1] SUBSEP "bare"
        n = 0; for (j = 1; j <= cnt[key]; j++) a[++n] = v[key, j]
        mc = med(a, n)
        n = 0; for (j = 1; j <= cnt[key]; j++) a[++n] = w[key, j]
        mw = med(a, n)
        n = 0; m = 0
        for (r in rounds) if ((key, r) in byr && (bk, r) in byr) { b[++n] = byr[key, r] / byr[bk, r]; d[++m] = byw[key, r] / byw[bk, r] }
        rc = med(b, n); rw = med(d, m)
        printf "syssum\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", kk[1], kk[2], cnt[key] + 0, fail[key] + 0, f(mc, 2), f(rc, 4), cmdof[key], f(mw, 2), f(rw, 4)
    }
}' "$RES/syscall.raw.txt" > "$RES/syscall.txt"

# ---------------------------------------------------------------- in-process
log "in-process: sandlock_run vs posix_spawn, K=$INPROC_K"
if [ -x "$B/inproc" ]; then
    {
        echo "# command: $(qcmd "$B/inproc" -k "$INPROC_K")"
        "$B/inproc" -k "$INPROC_K" 2>&1
        echo "# exit status: $?"
    } > "$RES/inproc.txt"
else
    echo "# inproc not built (libsandlock.a / sandlock.h missing)" > "$RES/inproc.txt"
fi

# ---------------------------------------------------------------- throughput
log "throughput: $TPUT_WORKERS workers x ${TPUT_SECONDS}s per configuration, in $TPUT_SLICES slices"
TP_CONFIGS=(
    "bare|/bin/true"
    "floor_spawn|$B/floor_spawn /bin/true"
    "floor_profile|$B/floor_profile /bin/true"
    "predecessor|$B/predecessor /bin/true"
    "sl_default|$SANDLOCK $DEF -- /bin/true"
)
[ $HAVE_BWRAP = 1 ] && TP_CONFIGS+=("bwrap|$BWRAP /bin/true")
[ $HAVE_FIREJAIL = 1 ] && TP_CONFIGS+=("firejail|$FIREJAIL /bin/true")
# Each configuration runs TPUT_SECONDS in all, in TPUT_SLICES slices that
# alternate between the configurations (rotating order), so that a change of
# load on the machine during the minutes this takes hits them all alike.
TP_CONFIGS+=("bare_1worker|/bin/true")   # reference: how this machine scales from 1 worker to 2
SLICE=$(awk -v d="$TPUT_SECONDS" -v n="$TPUT_SLICES" 'BEGIN { printf "%.3f", d / n }')
{
    echo "# throughput slices: $TPUT_SLICES x ${SLICE}s per configuration, alternating"
    echo "# slice NAME tput WORKERS ELAPSED_S OK FAIL RUNS_PER_S FIRST_FAIL"
    k=${#TP_CONFIGS[@]}
    for ((sl = 0; sl < TPUT_SLICES; sl++)); do
        for ((j = 0; j < k; j++)); do
            c=${TP_CONFIGS[$(((sl + j) % k))]}
            name=${c%%|*}; cmd=${c#*|}; w=$TPUT_WORKERS; [ "$name" = bare_1worker ] && w=1
            # shellcheck disable=SC2086
            printf 'slice\t%s\t%s\n' "$name" "$("$B/throughput" -w "$w" -d "$SLICE" -- $cmd)"
        done
    done
} > "$RES/throughput.raw.txt"
{
    echo "# throughput: runs/s of /bin/true, $TPUT_WORKERS workers (bare_1worker: 1), $TPUT_SECONDS s each in $TPUT_SLICES alternating slices"
    echo "# tput NAME WORKERS ELAPSED_S OK FAIL RUNS_PER_S FIRST_FAIL COMMAND(one slice, run $TPUT_SLICES times)"
    for c in "${TP_CONFIGS[@]}"; do
        name=${c%%|*}; cmd=${c#*|}; w=$TPUT_WORKERS; [ "$name" = bare_1worker ] && w=1
        awk -F'\t' -v n="$name" -v c="$(qcmd "$B/throughput" -w "$w" -d "$SLICE" --) $cmd" '
            $1 == "slice" && $2 == n { w = $4; e += $5; ok += $6; fail += $7; if ($7 > 0 && ff == "") ff = $9 }
            END { printf "tput\t%s\t%s\t%.3f\t%d\t%d\t%.1f\t%s\t%s\n", n, w, e, ok, fail, (e > 0 ? ok / e : 0), (ff == "" ? "-" : ff), c }' "$RES/throughput.raw.txt"
    done
} > "$RES/throughput.txt"

# ---------------------------------------------------------------- memory
log "supervisor peak memory, $MEM_REPS runs each"
MEM_CONFIGS=(
    "wrapper_floor|"
    "floor_spawn|$B/floor_spawn"
    "floor_profile|$B/floor_profile"
    "predecessor|$B/predecessor"
)
for pr in "${PROFILES[@]}"; do
    n=${pr%%|*}
    MEM_CONFIGS+=("$n|$SANDLOCK $(prof_opts "$n" "${pr#*|}") --")
done
[ $HAVE_BWRAP = 1 ] && MEM_CONFIGS+=("bwrap|$BWRAP")
[ $HAVE_FIREJAIL = 1 ] && MEM_CONFIGS+=("firejail|$FIREJAIL")
{
    echo "# peak memory, KiB. tiny: wait4 ru_maxrss with the no-libc child bench/tiny_exit (max over the"
    echo "# supervisor and its reaped descendants; the child is ~10 KiB). hwm: VmHWM of the supervisor process alone,"
    echo "# sampled every ms while it runs /bin/sleep $D_SLEEP."
    echo "# mem NAME ok fail tiny_median_kb tiny_max_kb hwm_max_kb first_fail COMMAND"
    for c in "${MEM_CONFIGS[@]}"; do
        name=${c%%|*}; pre=${c#*|}
        # shellcheck disable=SC2086
        l1=$("$B/maxrss" -n "$MEM_REPS" -- $pre "$B/tiny_exit")
        if [ -n "$pre" ]; then
            # shellcheck disable=SC2086
            l2=$("$B/maxrss" -n "$D_SREPS" -s -- $pre /bin/sleep "$D_SLEEP")
        else
            l2=$(printf 'rss\t0\t0\t0\t0\t0\t-')
        fi
        printf '%s\n%s\n' "$l1" "$l2" | awk -F'\t' -v n="$name" -v c="$(qcmd "$B/maxrss" -n "$MEM_REPS" --)${pre:+ }$pre $B/tiny_exit" '
            NR == 1 { ok = $2; fail = $3; med = $4; mx = $5; ff = $7 }
            NR == 2 { hwm = $6; if ($3 > 0) { fail += $3; if (ff == "-") ff = $7 } }
            END { printf "mem\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n, ok, fail, med, mx, hwm, ff, c }'
    done
} > "$RES/memory.txt"

# ---------------------------------------------------------------- chart
log "chart"
# config, /bin/true median, python median, and their labels ("failed": every run failed)
chart_rows="bare floor_spawn floor_profile predecessor"
for pr in "${PROFILES[@]}"; do chart_rows+=" ${pr%%|*}"; done
[ $HAVE_BWRAP = 1 ] && chart_rows+=" bwrap"
[ $HAVE_FIREJAIL = 1 ] && chart_rows+=" firejail"
chart_val() { # file name decimals -> "value label"
    awk -F'\t' -v n="$2" -v d="$3" '$1 == "stat" && $2 == n { f = 1; if ($3 > 0) printf "%s %.*f\n", $5, d, $5; else print "0 failed" }
        END { if (!f) print "0 -" }' "$1"
}
{
    echo "# config true_median_ms python_median_ms true_label python_label"
    for n in $chart_rows; do
        read -r tv tl <<< "$(chart_val "$RES/startup-true.txt" "$n" 2)"
        read -r pv pl <<< "$(chart_val "$RES/startup-python.txt" "$n" 1)"
        echo "$n $tv $pv $tl $pl"
    done
} > "$RES/startup-chart.dat"
if [ $HAVE_GNUPLOT = 1 ]; then
    gnuplot -e "datafile='$RES/startup-chart.dat'; outfile='$PNG'; subtitle='$(uname -r), nproc $(nproc), $(date -u +%Y-%m-%d)$([ "$QUICK" = 1 ] && echo ', QUICK smoke run')'" \
        "$B/plot.gp" 2> "$RES/gnuplot.log" || log "gnuplot failed (see results/gnuplot.log)"
else
    log "gnuplot not installed: no chart"
fi

# ---------------------------------------------------------------- whole-run accounting
log "whole-run accounting (bench/accounting.sh)"
ROUNDS=$([ "$QUICK" = 1 ] && echo 3 || echo 20) SANDLOCK="$SANDLOCK" bash "$B/accounting.sh" >/dev/null ||
    log "accounting.sh failed"

T_END=$(date +%s)
echo "elapsed_s: $((T_END - T_START))" >> "$RES/machine.txt"
echo "loadavg_end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/machine.txt"

# The results are kept in the repository: no paths of this machine in them
# (commands read as run from the repository; the measured copy of the
# sandbox binary reads as build/sandlock).
for f in "$RES"/*.txt "$RES"/*.tsv "$RES"/*.dat; do
    [ -f "$f" ] || continue
    sed -i -e "s#$ROOT/##g" -e "s#${TMPDIR:-/tmp}/sandlock-bench\.[A-Za-z0-9]*/#build/#g" "$f"
done

# ---------------------------------------------------------------- report
log "writing $DOC"
"$PY" "$B/report.py" "$RES" "$ROOT" > "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
log "done in $((T_END - T_START)) s"
