/* The compiled syscall policy (generated at build time by tools/genfilter). */
#ifndef SANDLOCK_SECCOMP_FILTERS_H
#define SANDLOCK_SECCOMP_FILTERS_H
#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#define SL_FV_NO_NETWORK 1u
#define SL_FV_NO_FORK 2u
#define SL_FV_SIG_WIDE 4u
#define SL_FV_STRICT 8u
#define SL_FV_COUNT 16u

#define SL_PH_VIOLATION_ERRNO 0xfedu
#define SL_PH_VIOLATION (0x00050000u | SL_PH_VIOLATION_ERRNO)
#define SL_PH_MEMPROBE_ERRNO 0xfecu
#define SL_PH_EXECMEM_ERRNO 0xfebu
#define SL_PH_EXECMEM (0x00050000u | SL_PH_EXECMEM_ERRNO)
#define SL_PH_MEMPROBE (0x00050000u | SL_PH_MEMPROBE_ERRNO)
/* the size above which an allocation is shown to the supervisor */
#define SL_PH_BIG_ALLOC_HI 0x1357u
#define SL_PH_BIG_ALLOC_LO 0x2468ace0u
#define SL_PH_BIG_ALLOC (((uint64_t)SL_PH_BIG_ALLOC_HI << 32) | SL_PH_BIG_ALLOC_LO)
/* execve: the sandbox's own exec passes by its argv and envp pointers;
 * any other exec takes SL_PH_EXEC */
#define SL_PH_EXEC_ERRNO 0xfeau
#define SL_PH_EXEC (0x00050000u | SL_PH_EXEC_ERRNO)
/* link, linkat: allowed where fs.protected_hardlinks is 1, else a violation */
#define SL_PH_LINK_ERRNO 0xfe9u
#define SL_PH_LINK (0x00050000u | SL_PH_LINK_ERRNO)
/* exit, exit_group, rt_sigtimedwait: shown to the supervisor where --fsize
 * is judged at the end (a blocked SIGXFSZ, pending as the process exits or
 * is about to be taken by sigtimedwait), else allowed */
#define SL_PH_XFSZ_ERRNO 0xfe8u
#define SL_PH_XFSZ (0x00050000u | SL_PH_XFSZ_ERRNO)
/* a new task (clone, fork, vfork): allowed, or shown to the supervisor
 * where it counts the run's tasks itself (no user namespace of its own) */
#define SL_PH_TASK_ERRNO 0xfe7u
#define SL_PH_TASK (0x00050000u | SL_PH_TASK_ERRNO)
#define SL_PH_EXEC_ARGV (((uint64_t)0x5ec3u << 32) | 0x0badf00du)
#define SL_PH_EXEC_ENVP (((uint64_t)0x5ec4u << 32) | 0x0defacedu)
#define SL_PH_SELF 0x2d5a17c3u
#define SL_PH_NEG_SELF (0u - SL_PH_SELF)

struct sl_bpf {
	const struct sock_filter *insns;
	size_t len;
};
extern const struct sl_bpf sl_filters[SL_FV_COUNT];
extern const char *const sl_names_native[1024];
extern const char *const sl_names_i386[1024];
extern const char *const sl_names_x32[1024];
#endif
