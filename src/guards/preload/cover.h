/* The C library's names for what the layer hooks (build/preload/cover.c,
 * generated from the installed libc by tools/gen-preload-aliases.sh): each
 * name and version libc exports, and our definition of that name.  It
 * declares no hook: the generated file names them by symbol only, and
 * includes no libc header that would declare them with their types. */
#ifndef SL_COVER_H
#define SL_COVER_H

struct sl_cover {
	const char *name, *version;
	const void *ours;
};
extern const struct sl_cover sl_cover[];
extern const unsigned sl_cover_count;
/* libc's address of each, found at start-up (init.c), then only read */
extern void *sl_cover_libc[];

/* an alias's body: a jump to the hook, so that every argument (varargs
 * too) and the return address are the caller's */
#if defined(__x86_64__)
#define SL_JUMP(hook) "\tendbr64\n\tjmp " hook "@PLT\n"
#elif defined(__aarch64__)
#define SL_JUMP(hook) "\tb " hook "\n"
#else
#error "the preload layer's alias stubs are written for x86-64 and aarch64"
#endif
#endif
