#!/bin/sh
# Stage 1 of `make wasm`: CPython 3.11 from Debian's source package, built
# for wasm32-wasi with Debian's clang-16 and wasi-libc, and its standard
# library precompiled.  Writes into $1 (a fresh directory):
#   python.wasm               the interpreter, stripped
#   lib/python3.11/           the standard library, .py and .pyc
# Debian's own python3.11 is the build Python: the same version and bytecode
# magic, so the frozen modules and the .pyc it makes are the guest's.
set -eu
OUT=$1
PYSRC=${SANDLOCK_WASM_PYSRC:-3.11.2-6+deb12u8}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
W=$OUT/work
rm -rf "$W" && mkdir -p "$W"
cd "$W"

# Without a sysroot clang also searches /usr/include, and configure then
# finds host libraries (zlib, ...) that do not exist for wasm.
mkdir -p sysroot/include sysroot/lib
ln -s /usr/include/wasm32-wasi sysroot/include/wasm32-wasi
ln -s /usr/lib/wasm32-wasi sysroot/lib/wasm32-wasi
SYSROOT=$W/sysroot

echo "cpython.sh: apt-get source python3.11=$PYSRC"
apt-get source -qq "python3.11=$PYSRC" >/dev/null
SRC=$(ls -d "$W"/python3.11-*/ | head -n 1)
SRC=${SRC%/}

mkdir -p "$SRC/builddir/wasi"
cd "$SRC/builddir/wasi"
export CC="clang-16 --target=wasm32-wasi --sysroot=$SYSROOT"
export CPP="clang-cpp-16 --target=wasm32-wasi --sysroot=$SYSROOT"
export CXX="clang++-16 --target=wasm32-wasi --sysroot=$SYSROOT"
export LDSHARED=wasm-ld-16 AR=llvm-ar-16 RANLIB=llvm-ranlib-16
export PKG_CONFIG_PATH="" PKG_CONFIG_LIBDIR="$SYSROOT/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$SYSROOT"
export CONFIG_SITE="$SRC/Tools/wasm/config.site-wasm32-wasi"
# the reproducible-build knobs: no timestamps in what we ship
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1672531200}
echo "cpython.sh: configure (serial; the longest step)"
../../configure -q -C --host=wasm32-unknown-wasi --build="$(../../config.guess)" \
	--with-build-python=/usr/bin/python3.11 >"$W/configure.log" 2>&1 ||
	{ tail -n 30 "$W/configure.log" >&2; exit 1; }
echo "cpython.sh: make"
# clang >= 15 makes -Wint-conversion an error, and wasi-libc's CLOCK_* are
# pointers (timemodule.c's PyModule_AddIntMacro)
make -j"${JOBS:-2}" CFLAGS_NODIST=-Wno-error=int-conversion >"$W/make.log" 2>&1 ||
	{ tail -n 30 "$W/make.log" >&2; exit 1; }
wasm-strip -o "$OUT/python.wasm" python.wasm

echo "cpython.sh: the standard library"
L=$OUT/lib/python3.11
rm -rf "$OUT/lib" && mkdir -p "$OUT/lib"
cp -a "$SRC/Lib" "$L"
(cd "$L" && rm -rf test idlelib tkinter turtledemo ensurepip lib2to3/tests \
	distutils/tests unittest/test ctypes/test sqlite3/test site-packages \
	__phello__ 2>/dev/null || true)
find "$L" -name tests -type d -prune -exec rm -rf {} +
# the build's configuration, without this build's directory in it,
# written out again as sysconfig writes it (its line breaks depend on the
# length of that directory's name)
/usr/bin/python3.11 - "$W" build/lib.wasi-wasm32-3.11/_sysconfigdata__wasi_wasm32-wasi.py \
	"$L/_sysconfigdata__wasi_wasm32-wasi.py" <<'PY'
import pprint, runpy, sys
w, src, dst = sys.argv[1:]
v = runpy.run_path(src)["build_time_vars"]
v = {k: x.replace(w, "/build") if isinstance(x, str) else x for k, x in v.items()}
with open(dst, "w") as f:
    f.write("# system configuration generated and used by the sysconfig module\n")
    f.write("build_time_vars = " + pprint.pformat(v) + "\n")
PY
mkdir -p "$L/lib-dynload" "$L/site-packages"
# unchecked-hash .pyc: valid whatever the files' times after a copy; -d:
# the guest's path in them, not this build's (reproducible, no host path)
/usr/bin/python3.11 -m compileall -q -j"${JOBS:-2}" --invalidation-mode unchecked-hash \
	-d /usr/local/lib/python3.11 "$L" >/dev/null
# never written at run time (read-only mount), so they must all be there
n=$(find "$L" -name '*.pyc' | wc -l)
echo "cpython.sh: $n .pyc"
cd "$OUT"
rm -rf "$W"
