/* Between main.c and glue.c (the part that knows the module). */
#ifndef SL_WASM_GLUE_H
#define SL_WASM_GLUE_H

#include <signal.h>
#include <stdint.h>

struct wasi;

/* how the executable dies when the guest was refused memory: the
 * supervisor's memory_limit (src/wasm/backend.c knows it too) */
#define SL_WASM_MEMORY_SIGNAL SIGUSR2

/* run the module's _start; returns only on a setup failure (the exit
 * status to use) */
int sl_wasm_run(struct wasi *w, uint32_t max_pages);
/* the guest's exit (proc_exit or the end of _start) */
void sl_wasm_finish(int code) __attribute__((noreturn));

#endif
