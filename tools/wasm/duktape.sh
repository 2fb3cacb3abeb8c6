#!/bin/sh
# The JavaScript stage of `make wasm`: Duktape from Debian's source package
# with our Node-like guest (js/node.c, js/prelude.js), built for
# wasm32-wasi with Debian's clang-16 and wasi-libc, then through wabt's
# wasm2c into one object.  Writes into $1 (a fresh directory):
#   node.wasm                       the module, stripped
#   node_w2c.h node_w2c.o           the module as C, compiled
#   wasm-rt.h wasm-rt-impl.h rt.o   the runtime, as w2c.sh builds it
# Duktape's error handling is setjmp/longjmp, which wasi-libc lacks: clang
# lowers it to WebAssembly exceptions (js/inc/setjmp.h, js/sjlj.c), and
# wasm2c --enable-exceptions turns those into the runtime's own setjmp.
set -eu
OUT=$1
DUKSRC=${SANDLOCK_WASM_DUKSRC:-2.7.0-2}
JS=$(cd "$(dirname "$0")/js" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
W=$OUT/work
rm -rf "$W" && mkdir -p "$W"
cd "$W"
mkdir -p sysroot/include sysroot/lib
ln -s /usr/include/wasm32-wasi sysroot/include/wasm32-wasi
ln -s /usr/lib/wasm32-wasi sysroot/lib/wasm32-wasi

echo "duktape.sh: apt-get source duktape=$DUKSRC"
apt-get source -qq "duktape=$DUKSRC" >/dev/null
SRC=$(ls -d "$W"/duktape-*/ | head -n 1)
SRC=${SRC%/}
# the prelude as a C string
{ echo "static const char prelude_js[] ="
  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$JS/prelude.js"
  echo ";"; } > prelude.h
echo "duktape.sh: clang-16 (wasm32-wasi)"
# a 1 MiB stack placed first: an overflow is an out-of-bounds trap, not
# a write over the heap; the file names Duktape puts in its errors without
# the build's directories (the same bytes from every build)
clang-16 --target=wasm32-wasi --sysroot="$W/sysroot" -O2 -std=gnu11 \
	-ffile-prefix-map="$SRC/src/"= -ffile-prefix-map="$JS/"= -ffile-prefix-map="$W/"= \
	-I"$JS/inc" -I"$SRC/src" -I"$W" -mllvm -wasm-enable-sjlj -mexception-handling \
	-Wl,-z,stack-size=1048576 -Wl,--stack-first \
	-o node.wasm "$SRC/src/duktape.c" "$JS/node.c" "$JS/sjlj.c" -lm
wasm-strip -o "$OUT/node.wasm" node.wasm
cd "$OUT"
sed 's/sigsetjmp(buf, 1)/sigsetjmp(buf, 0)/' /usr/include/wasm-rt.h > wasm-rt.h
grep -q 'sigsetjmp(buf, 0)' wasm-rt.h || { echo "duktape.sh: wasm-rt.h: the sigsetjmp line was not found" >&2; exit 1; }
cp /usr/share/wabt/wasm2c/wasm-rt-impl.h .
echo "duktape.sh: wasm2c --enable-exceptions"
wasm2c --enable-exceptions -n node node.wasm -o node_w2c.c
# wabt 1.0.32 names the label at the end of a try block "$T<n>" where its
# branches say "w2c_T<n>" (gcc takes both spellings as two labels: "used
# but not defined"); and a branch out of the try body to that label leaves
# the try's unwind target in place, which a later throw would longjmp to.
# Both fixed here: the label as the branches spell it, and each branch
# restores the outer unwind target first, as the try's normal end does.
sed -i -e 's/^\( *\)\$T\([0-9][0-9]*\):;/\1w2c_T\2:;/' \
	-e 's/goto w2c_T\([0-9][0-9]*\);/{ wasm_rt_set_unwind_target(w2c_T\1_outer_target); goto w2c_T\1; }/' node_w2c.c
if grep -n '^ *\$[A-Za-z_]' node_w2c.c >&2; then
	echo "duktape.sh: node_w2c.c: a label wasm2c misspelt is left (above)" >&2
	exit 1
fi
echo "duktape.sh: gcc -O2 node_w2c.c ($(wc -c < node_w2c.c) bytes)"
gcc -O2 -D_GNU_SOURCE -w -I. -c node_w2c.c -o node_w2c.o
gcc -O2 -D_GNU_SOURCE -w -I. -Dwasm_rt_grow_memory=sl_wasm_rt_grow_memory_impl \
	-c /usr/share/wabt/wasm2c/wasm-rt-impl.c -o rt.o
rm -rf node_w2c.c "$W"
