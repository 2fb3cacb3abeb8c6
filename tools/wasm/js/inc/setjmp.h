/* setjmp/longjmp for wasm32-wasi, which wasi-libc (2022) lacks: clang
 * lowers these calls to WebAssembly exceptions (-mllvm -wasm-enable-sjlj
 * -mexception-handling); sjlj.c holds the runtime that lowering calls. */
#ifndef SL_WASM_SETJMP_H
#define SL_WASM_SETJMP_H
typedef struct { unsigned long id; } jmp_buf[1];
int setjmp(jmp_buf env) __attribute__((returns_twice));
void longjmp(jmp_buf env, int val) __attribute__((noreturn));
#define _setjmp setjmp
#define _longjmp longjmp
#endif
