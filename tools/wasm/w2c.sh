#!/bin/sh
# Stage 2 of `make wasm`: python.wasm through wabt's wasm2c into one
# object, with wabt's runtime.  Writes into $2 (a fresh directory):
#   python_w2c.h python_w2c.o   the module (its C is 61 MB: not kept)
#   wasm-rt.h wasm-rt-impl.h rt.o   the runtime, built as below
# One gcc of one 61 MB file: single-threaded, about 3.8 GB at -O2
# (wabt 1.0.32 cannot split its output).  SANDLOCK_WASM_OPT=-O1 takes
# about 60 % of the time and memory, for about 10 % more run time.
set -eu
WASM=$1
OUT=$2
OPT=${SANDLOCK_WASM_OPT:--O2}
mkdir -p "$OUT"
cd "$OUT"
# The runtime as Debian ships it, with one change: sigsetjmp(buf, 0).
# With 1 every wasm "try" costs a sigprocmask call; a trap is the end of
# this one-shot process, so the mask never needs restoring.
sed 's/sigsetjmp(buf, 1)/sigsetjmp(buf, 0)/' /usr/include/wasm-rt.h > wasm-rt.h
grep -q 'sigsetjmp(buf, 0)' wasm-rt.h || { echo "w2c.sh: wasm-rt.h: the sigsetjmp line was not found" >&2; exit 1; }
cp /usr/share/wabt/wasm2c/wasm-rt-impl.h .
echo "w2c.sh: wasm2c"
wasm2c -n python "$WASM" -o python_w2c.c
echo "w2c.sh: gcc $OPT python_w2c.c ($(wc -c < python_w2c.c) bytes; minutes)"
t0=$(date +%s)
gcc $OPT -D_GNU_SOURCE -w -I. -c python_w2c.c -o python_w2c.o
echo "w2c.sh: compiled in $(( $(date +%s) - t0 )) s"
# the runtime's memory.grow is renamed: the host's own counts refusals
gcc -O2 -D_GNU_SOURCE -w -I. -Dwasm_rt_grow_memory=sl_wasm_rt_grow_memory_impl \
	-c /usr/share/wabt/wasm2c/wasm-rt-impl.c -o rt.o
rm -f python_w2c.c
