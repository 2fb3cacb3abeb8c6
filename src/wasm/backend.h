/* The WebAssembly backend's side in the library (backend.c): the rest of
 * this folder is the WASI host, a program of its own built by make wasm. */
#ifndef SANDLOCK_WASM_BACKEND_H
#define SANDLOCK_WASM_BACKEND_H
#include "lib/internal.h"

/* For --runtime wasm, rewrite the command to run under our
 * WASI host (run->wasm_argv, exec_paths) and add the layer to res->layers;
 * 0, or an error with res->error set */
int sl_wasm_prepare(struct sl_run *run, struct sandlock_result *res);
void sl_wasm_release(struct sl_run *run);
/* where the artifacts are (opt: --wasm-dir, or NULL): 0 and the real path
 * of the directory in dir, or -1 and why in dir */
int sl_wasm_find(const char *opt, char *dir, size_t size);

#endif
