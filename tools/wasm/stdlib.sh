#!/bin/sh
# Stage L of `make wasm`: the guest's standard library, stage 1's with our
# additions (tools/wasm/py/), so that changing them costs seconds, not a
# CPython build.  $1: stage 1's directory; writes into $2 (a fresh one):
#   lib/python3.11/   stage 1's, plus asyncio/wasi_events.py, imported by
#                     asyncio/__init__.py on WASI (an event loop without
#                     the socket pair WASI cannot make)
set -eu
S1=$1 OUT=$2
PY=$(cd "$(dirname "$0")/py" && pwd)
mkdir -p "$OUT"
# a copy, not hard links: the files changed here are stage 1's too
cp -a "$S1/lib" "$OUT/lib"
A=$OUT/lib/python3.11/asyncio
cp "$PY/wasi_events.py" "$A/wasi_events.py"
# the package picks its platform's loop last (windows_events or
# unix_events, `from ... import *`); this rebinds SelectorEventLoop and
# DefaultEventLoopPolicy after that, on WASI only
tail -n 1 "$A/__init__.py" | grep -qx '    __all__ += unix_events.__all__' || {
	echo "stdlib.sh: asyncio/__init__.py does not end as Python 3.11's does" >&2
	exit 1
}
chmod u+w "$A/__init__.py"
cat >>"$A/__init__.py" <<'PY'

if sys.platform == 'wasi':  # sandlock's --runtime wasm (wasi_events.py)
    from .wasi_events import *
PY
# as stage 1 compiles them (unchecked-hash: a stale .pyc would be used, so
# both are compiled again, with -f)
/usr/bin/python3.11 -m compileall -q -f --invalidation-mode unchecked-hash \
	-d /usr/local/lib/python3.11/asyncio "$A" >/dev/null
