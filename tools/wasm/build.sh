#!/bin/sh
# make wasm: the WebAssembly backend's artifacts, from Debian's packages
# (tools/setup-debian.sh --wasm), cached outside the clone.
#
#   stage 1  cpython.sh  python.wasm + the standard library (~6 min)
#   stage 2  w2c.sh      python.wasm through wasm2c and gcc (~3-8 min)
#   stage J  duktape.sh  node.wasm (Duktape and js/) through wasm2c (~1-3 min)
#   stage L  stdlib.sh   stage 1's standard library with py/ added (seconds)
#   stage 3  here        our WASI host (src/wasm) linked with each (seconds)
#
# Each stage lives in $SANDLOCK_WASM_CACHE (default /var/cache/sandlock-wasm,
# else ~/.cache/sandlock-wasm) under a key of what it is made from: the
# Debian package versions, the stage's recipe, the stage before; stage 3
# also our host's sources.  A stage whose key is there is not rebuilt.
# $1 (default build/wasm) becomes a symbolic link to the result:
#   python                the executable (CPython)
#   node                  the executable (JavaScript: Duktape, js/node.c)
#   lib/python3.11/       the standard library (the guest's /usr/local/lib)
set -eu
umask 022
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$ROOT/build/wasm}
PYSRC=${SANDLOCK_WASM_PYSRC:-3.11.2-6+deb12u8}
export SANDLOCK_WASM_PYSRC=$PYSRC
DUKSRC=${SANDLOCK_WASM_DUKSRC:-2.7.0-2}
export SANDLOCK_WASM_DUKSRC=$DUKSRC
NICE="nice -n ${SANDLOCK_WASM_NICE:-15}"
for t in clang-16 wasm-ld-16 llvm-ar-16 wasm2c wasm-strip /usr/bin/python3.11 dpkg-source gcc; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "make wasm: $t is missing: run tools/setup-debian.sh --wasm (as root)" >&2
		exit 125
	}
done
[ -f /usr/include/wasm32-wasi/stdio.h ] && [ -f /usr/include/wasm-rt.h ] || {
	echo "make wasm: wasi-libc or wabt's headers are missing: run tools/setup-debian.sh --wasm" >&2
	exit 125
}
CACHE=${SANDLOCK_WASM_CACHE:-/var/cache/sandlock-wasm}
if ! mkdir -p "$CACHE" 2>/dev/null || [ ! -w "$CACHE" ]; then
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/sandlock-wasm
	mkdir -p "$CACHE"
fi
# one build at a time per cache: a second make wasm (CI starts one early,
# a tier's lane asks again) waits, then finds every stage built
exec 9>>"$CACHE/.lock"
flock 9
ver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo none; }
key() { sha256sum | cut -c1-16; }

# build stage $1 into $CACHE/$1-$2 with the command after them, unless there
stage() {
	name=$1 k=$2
	shift 2
	dir=$CACHE/$name-$k
	if [ -f "$dir/.done" ]; then
		echo "make wasm: $name: cached ($dir)"
		return
	fi
	tmp=$CACHE/.tmp-$name-$k-$$
	rm -rf "$tmp"
	t0=$(date +%s)
	"$@" "$tmp"
	echo "make wasm: $name: built in $(( $(date +%s) - t0 )) s"
	touch "$tmp/.done"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

K1=$({ echo "python3.11 source $PYSRC"
	for p in clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32 python3.11; do
		echo "$p $(ver "$p")"
	done
	cat "$ROOT/tools/wasm/cpython.sh"; } | key)
stage cpython "$K1" $NICE "$ROOT/tools/wasm/cpython.sh"
S1=$CACHE/cpython-$K1

# keyed by python.wasm itself (reproducible: the same bytes from every cold
# build), so that a change of the standard library's packaging in stage 1
# does not recompile 61 MB of C
K2=$({ sha256sum < "$S1/python.wasm"; echo "${SANDLOCK_WASM_OPT:--O2}"
	for p in wabt gcc-12 libc6-dev; do echo "$p $(ver "$p")"; done
	gcc --version | head -n 1
	cat "$ROOT/tools/wasm/w2c.sh"; } | key)
stage w2c "$K2" $NICE "$ROOT/tools/wasm/w2c.sh" "$S1/python.wasm"
S2=$CACHE/w2c-$K2

KJ=$({ echo "duktape source $DUKSRC"
	for p in clang-16 lld-16 wasi-libc libclang-rt-16-dev-wasm32 wabt gcc-12 libc6-dev; do
		echo "$p $(ver "$p")"
	done
	gcc --version | head -n 1
	cat "$ROOT/tools/wasm/duktape.sh" "$ROOT"/tools/wasm/js/*.c "$ROOT"/tools/wasm/js/*.js \
		"$ROOT"/tools/wasm/js/inc/*.h; } | key)
stage duktape "$KJ" $NICE "$ROOT/tools/wasm/duktape.sh"
SJ=$CACHE/duktape-$KJ

# keyed by stage 1 and our additions to its library: changing those does
# not rebuild CPython
KL=$({ echo "$K1"; cat "$ROOT/tools/wasm/stdlib.sh" "$ROOT"/tools/wasm/py/*.py; } | key)
stage stdlib "$KL" "$ROOT/tools/wasm/stdlib.sh" "$S1"
SL=$CACHE/stdlib-$KL

HOST_SRC="$ROOT/src/wasm/args.c $ROOT/src/wasm/clock.c $ROOT/src/wasm/disk.c $ROOT/src/wasm/fds.c $ROOT/src/wasm/files.c
	  $ROOT/src/wasm/io.c $ROOT/src/wasm/main.c $ROOT/src/wasm/paths.c"
K3=$({ echo "$K2 $KJ $KL"; cat $HOST_SRC "$ROOT/src/wasm/glue.c" "$ROOT/src/wasm/glue.h" "$ROOT/src/wasm/wasi.h" \
	"$ROOT/tools/wasm/build.sh"; } | key)
# static: the executable needs nothing from the host's file system (a
# Landlock allow-list of --ro dirs, a minimal serverless layer)
link() {
	mkdir -p "$1"
	WARN="-std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers"
	# $1: the output; then per executable: name, the stage with NAME_w2c.{h,o}
	out=$1
	shift
	while [ $# -ge 2 ]; do
		# shellcheck disable=SC2086
		gcc $WARN -O2 -D_GNU_SOURCE -I"$2" -I"$ROOT/src/wasm" -DWASM_MODULE="$1" \
			-include "$2/$1_w2c.h" -c "$ROOT/src/wasm/glue.c" -o "$out/glue.o"
		# shellcheck disable=SC2086
		gcc $WARN -O2 -D_GNU_SOURCE -I"$ROOT/src/wasm" $HOST_SRC "$out/glue.o" "$2/$1_w2c.o" \
			"$2/rt.o" -static -lm -o "$out/$1"
		rm -f "$out/glue.o"
		shift 2
	done
	set -- "$out"
	ln -s "$SL/lib" "$1/lib"
}
link_all() { link "$1" python "$S2" node "$SJ"; }
stage dist "$K3" link_all
DIST=$CACHE/dist-$K3
mkdir -p "$(dirname "$OUT")"
rm -rf "$OUT"
ln -s "$DIST" "$OUT"
echo "make wasm: $OUT -> $DIST"
