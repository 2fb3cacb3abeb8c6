/* libsandlock-preload.so: an LD_PRELOAD layer that checks the libc
 * wrappers of file, process and network actions against the guard policy
 * (SANDLOCK_GUARD_POLICY, see docs/preload.md).  It only sees calls that go
 * through the dynamic libc's exported symbols: raw syscalls and static
 * binaries pass it by (the documented label). */
#ifndef SL_PRELOAD_H
#define SL_PRELOAD_H

/* our own definitions of open, stat... must not be renamed by the headers */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#define SL_EXPORT __attribute__((visibility("default")))

enum sl_access {
	SL_READ,	/* open read-only, list, read a link, map, exec */
	SL_WRITE,	/* create, truncate, remove, rename, change metadata */
	SL_STAT,	/* existence and metadata: r, or a directory on the way to a rule */
};

/* sl_check_at flags */
#define SL_NOFOLLOW 1	/* the call does not follow a symlink in the last component */
#define SL_EMPTY 2	/* an empty path means dirfd itself (AT_EMPTY_PATH) */

struct sl_state {
	int ready;		/* 1 once init ran: the fields below are immutable */
	int have_policy;	/* 0: no policy was given, everything refused */
	int net, fork, exec;
	char *env_policy;	/* "SANDLOCK_GUARD_POLICY=..." for exec'd children */
	char *env_preload;	/* "LD_PRELOAD=..." as the program got it */
	const char *preload_path;	/* its first entry: the library */
	int preload_fd;		/* N when that is /proc/self/fd/N, else -1 */
	dev_t preload_dev;
	ino_t preload_ino;
	const void *image;	/* the library's bytes, to remake a lost memfd */
	size_t image_len;
};
extern struct sl_state sl;

/* the next definitions of the hooked functions (RTLD_NEXT), found once */
#define SL_REAL_NAMES(X) \
	X(open) X(open64) X(openat) X(openat64) X(__open_2) X(__open64_2) X(__openat_2) \
	X(__openat64_2) X(creat) X(creat64) X(fopen) X(fopen64) X(freopen) X(freopen64) \
	X(opendir) X(stat) X(stat64) X(lstat) X(lstat64) X(fstatat) X(fstatat64) X(__xstat) \
	X(__xstat64) X(__lxstat) X(__lxstat64) X(__fxstatat) X(__fxstatat64) X(statx) \
	X(access) X(faccessat) X(euidaccess) X(eaccess) X(readlink) X(readlinkat) \
	X(__readlink_chk) X(__readlinkat_chk) X(truncate) X(truncate64) X(mkdir) X(mkdirat) \
	X(unlink) X(unlinkat) X(rmdir) X(rename) X(renameat) X(renameat2) X(link) X(linkat) \
	X(symlink) X(symlinkat) X(chmod) X(lchmod) X(fchmodat) X(chown) X(lchown) X(fchownat) \
	X(utimensat) X(utime) X(utimes) X(lutimes) X(futimesat) X(mknod) X(mknodat) X(__xmknod) \
	X(__xmknodat) X(mkfifo) X(mkfifoat) X(mkstemp) X(mkstemp64) X(mkostemp) X(mkostemp64) \
	X(mkstemps) X(mkstemps64) X(mkostemps) X(mkostemps64) X(mkdtemp) X(shm_open) \
	X(open_by_handle_at) X(execve) X(fexecve) X(execveat) X(posix_spawn) X(posix_spawnp) \
	X(posix_spawn_file_actions_addclose) X(posix_spawn_file_actions_adddup2) \
	X(posix_spawn_file_actions_addopen) X(posix_spawn_file_actions_addclosefrom_np) \
	X(fork) X(vfork) X(_Fork) X(clone) X(daemon) X(forkpty) X(pclose) X(_IO_proc_open) \
	X(socket) X(socketpair) X(connect) X(bind) X(listen) X(accept) X(accept4) X(sendto) \
	X(sendmsg) X(sendmmsg) X(getaddrinfo) X(gethostbyname) X(gethostbyname2) \
	X(gethostbyname_r) X(gethostbyname2_r) X(gethostbyaddr) \
	X(dlopen) X(dlmopen) X(syscall)

enum {
#define SL_ENUM(n) SLR_##n,
	SL_REAL_NAMES(SL_ENUM)
#undef SL_ENUM
	SLR_COUNT
};
extern void *sl_real[SLR_COUNT];
/* the real function, typed like our hook of the same name */
#define REAL(n) ((__typeof__(&n))sl_real[SLR_##n])

/* libc's headers declare some arguments nonnull that callers do pass as
 * NULL (utimensat's path): the checks must not be optimised away */
static inline const void *sl_opaque(const void *p)
{
	__asm__("" : "+r"(p));
	return p;
}

void sl_init(void);
static inline void sl_ensure(void)
{
	if (!__atomic_load_n(&sl.ready, __ATOMIC_ACQUIRE))
		sl_init();
}

/* raw system calls (sys.c): -errno on failure; they pass by our own hooks */
long sl_sys(long n, long a, long b, long c, long d, long e, long f);
#define SYS3(n, a, b, c) sl_sys((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)
int sl_getpid(void);
void sl_say(const char *what, const char *detail, const char *why);

/* policy.c */
int sl_policy_parse(const char *text);
int sl_allowed(const char *path, enum sl_access acc);
size_t sl_proc_pid(char *buf, int pid);

/* resolve.c: the path a call would reach, as the kernel walks it.  *own is
 * set when it is one of this process's own descriptors without a path
 * (pipe:[..], socket:[..]) reached through /proc/PID/fd. */
int sl_resolve(int dirfd, const char *path, int flags, char *out, int *own);
int sl_fd_path(int fd, char *out);

/* check.c: 0 allowed; -1 refused (errno set, one line on stderr) */
int sl_check_at(const char *op, int dirfd, const char *path, int flags, enum sl_access acc);
int sl_check_fd(const char *op, int fd, enum sl_access acc);
int sl_after_open(const char *op, int fd, enum sl_access acc);
int sl_refuse(const char *op, const char *detail, int err);
enum sl_access sl_open_access(int flags);
int sl_open_flags(int flags);

/* dl.c: libc's dlsym and dlvsym, found without dlsym (ours) */
extern void *sl_real_dlsym, *sl_real_dlvsym;
void sl_find_dlsym(void);

/* fork.c: libc's vfork once allowed (the assembly jumps there) */
extern void *sl_vfork_real;
pid_t sl_vfork_slow(void);

/* exec.c */
int sl_execve_checked(const char *op, int dirfd, const char *path, char *const argv[],
		      char *const envp[], int atflags, int fd);
int sl_exec_search(const char *op, const char *file, char *const argv[], char *const envp[]);
/* The candidates for file along PATH (/bin:/usr/bin without it), in the
 * order execvp tries them: try_one(candidate, arg) until it returns
 * nonzero, which is returned; 0 when none did. */
int sl_path_walk(const char *file, int (*try_one)(const char *cand, void *arg), void *arg);
int sl_spawn_allowed(const char *op);
#endif
