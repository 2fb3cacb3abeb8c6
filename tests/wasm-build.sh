#!/bin/bash
# The WebAssembly backend's artifacts for tests/wasm.py in the tiers:
# `make wasm` (cached outside the clone by its inputs: minutes cold, under a
# second warm), then a copy every test user can read in the staged tree.
#   tests/wasm-build.sh CHECKOUT DEST
# Last line: "wasm-build: P passed, F failed, S skipped".
set -u
ROOT=$1 DEST=$2
t0=$SECONDS
if make -C "$ROOT" --no-print-directory wasm >"$DEST.log" 2>&1 &&
   rm -rf "$DEST" && cp -RL "$ROOT/build/wasm" "$DEST" && chmod -R a+rX "$DEST"; then
	echo "PASS make wasm ($((SECONDS - t0)) s), artifacts in $DEST"
	echo "wasm-build: 1 passed, 0 failed, 0 skipped"
else
	echo "FAIL make wasm: $(tail -5 "$DEST.log" | tr '\n' ' ' | head -c 400)"
	echo "wasm-build: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
