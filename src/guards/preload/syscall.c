/* libc's syscall(): the easy way around every wrapper above.  The calls
 * they cover are judged here the same way; the rest pass.  (An inline
 * syscall instruction passes by this, and everything: the label.) */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define P(x) ((const char *)(x))

/* how a call's AT_ flags argument reads */
#define H_NOFOLLOW 1	/* AT_SYMLINK_NOFOLLOW: not followed */
#define H_FOLLOW 2	/* followed only with AT_SYMLINK_FOLLOW */
#define H_EMPTY 4	/* AT_EMPTY_PATH */

/* The calls that name files, one row a path they name, checked in order:
 * the argument (1 to 5) holding the path and the directory it is relative
 * to (0: the working directory), the flags argument and how it reads (0:
 * none), the sl_check_at flags it always has, the access it needs, and
 * whether a null path (the descriptor itself, already judged) passes. */
static const struct path_call {
	long nr;
	unsigned char dir, path, flags, how;
	int fixed, acc, nullok;
} path_calls[] = {
#ifdef SYS_stat
	{ SYS_stat, 0, 1, 0, 0, 0, SL_STAT, 0 },
	{ SYS_lstat, 0, 1, 0, 0, SL_NOFOLLOW, SL_STAT, 0 },
#endif
#ifdef SYS_newfstatat
	{ SYS_newfstatat, 1, 2, 4, H_NOFOLLOW | H_EMPTY, 0, SL_STAT, 0 },
#endif
	{ SYS_statx, 1, 2, 3, H_NOFOLLOW | H_EMPTY, 0, SL_STAT, 0 },
#ifdef SYS_access
	{ SYS_access, 0, 1, 0, 0, 0, SL_STAT, 0 },
#endif
	{ SYS_faccessat, 1, 2, 0, 0, 0, SL_STAT, 0 },
#ifdef SYS_faccessat2
	{ SYS_faccessat2, 1, 2, 4, H_NOFOLLOW | H_EMPTY, 0, SL_STAT, 0 },
#endif
	{ SYS_name_to_handle_at, 1, 2, 5, H_FOLLOW | H_EMPTY, 0, SL_STAT, 0 },
#ifdef SYS_readlink
	{ SYS_readlink, 0, 1, 0, 0, SL_NOFOLLOW, SL_READ, 0 },
#endif
	{ SYS_readlinkat, 1, 2, 0, 0, SL_NOFOLLOW | SL_EMPTY, SL_READ, 0 },
	{ SYS_truncate, 0, 1, 0, 0, 0, SL_WRITE, 0 },
#ifdef SYS_mkdir
	{ SYS_mkdir, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_rmdir, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_unlink, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_mknod, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_chmod, 0, 1, 0, 0, 0, SL_WRITE, 0 },
	{ SYS_chown, 0, 1, 0, 0, 0, SL_WRITE, 0 },
	{ SYS_utime, 0, 1, 0, 0, 0, SL_WRITE, 0 },
	{ SYS_utimes, 0, 1, 0, 0, 0, SL_WRITE, 0 },
	{ SYS_lchown, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_rename, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_rename, 0, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_link, 0, 1, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_link, 0, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_symlink, 0, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_futimesat, 1, 2, 0, 0, 0, SL_WRITE, 1 },
#endif
	{ SYS_mkdirat, 1, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_unlinkat, 1, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_mknodat, 1, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_fchmodat, 1, 2, 0, 0, 0, SL_WRITE, 0 },
	{ SYS_fchownat, 1, 2, 5, H_NOFOLLOW | H_EMPTY, 0, SL_WRITE, 0 },
	{ SYS_utimensat, 1, 2, 4, H_NOFOLLOW, 0, SL_WRITE, 1 },
#ifdef SYS_renameat
	{ SYS_renameat, 1, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_renameat, 3, 4, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
#endif
	{ SYS_renameat2, 1, 2, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_renameat2, 3, 4, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_linkat, 1, 2, 5, H_FOLLOW | H_EMPTY, 0, SL_WRITE, 0 },
	{ SYS_linkat, 3, 4, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
	{ SYS_symlinkat, 2, 3, 0, 0, SL_NOFOLLOW, SL_WRITE, 0 },
};

/* The paths call n names, by path_calls: 0 allowed (or none named), -1 refused. */
static int judge_paths(long n, const long a[6])
{
	for (size_t k = 0; k < sizeof(path_calls) / sizeof(path_calls[0]); k++) {
		const struct path_call *c = &path_calls[k];
		if (c->nr != n || (c->nullok && !a[c->path]))
			continue;
		long f = a[c->flags];
		int fl = c->fixed;
		if ((c->how & H_NOFOLLOW) && (f & AT_SYMLINK_NOFOLLOW))
			fl |= SL_NOFOLLOW;
		if ((c->how & H_FOLLOW) && !(f & AT_SYMLINK_FOLLOW))
			fl |= SL_NOFOLLOW;
		if ((c->how & H_EMPTY) && (f & AT_EMPTY_PATH))
			fl |= SL_EMPTY;
		if (sl_check_at("syscall", c->dir ? (int)a[c->dir] : AT_FDCWD, P(a[c->path]), fl, c->acc) != 0)
			return -1;
	}
	return 0;
}

static int refuse(const char *why, int err)
{
	sl_say("syscall", NULL, why);
	errno = err;
	return -1;
}

/* The check for one call: 0 go on, -1 refused (errno set). */
static int judge(long n, long a1, long a2, long a3, long a4, long a5, int *acc_out)
{
	const char *op = "syscall";
	const long a[6] = { 0, a1, a2, a3, a4, a5 };
	*acc_out = -1;
	if (judge_paths(n, a) != 0)
		return -1;
	switch (n) {
#ifdef SYS_open
	case SYS_open:
		*acc_out = (int)sl_open_access((int)a2);
		return sl_check_at(op, AT_FDCWD, P(a1), sl_open_flags((int)a2), sl_open_access((int)a2));
#endif
	case SYS_openat:
		*acc_out = (int)sl_open_access((int)a3);
		return sl_check_at(op, (int)a1, P(a2), sl_open_flags((int)a3), sl_open_access((int)a3));
#ifdef SYS_openat2
	case SYS_openat2: {
		const struct open_how *how = (const struct open_how *)a3;
		int fl = how ? (int)how->flags : 0;
		*acc_out = (int)sl_open_access(fl);
		return sl_check_at(op, (int)a1, P(a2), sl_open_flags(fl), sl_open_access(fl));
	}
#endif
#ifdef SYS_creat
	case SYS_creat:
		*acc_out = SL_WRITE;
		return sl_check_at(op, AT_FDCWD, P(a1), 0, SL_WRITE);
#endif
	case SYS_open_by_handle_at:
		if (sl_open_access((int)a3) == SL_WRITE)
			return refuse("open_by_handle_at for writing", EACCES);
		*acc_out = SL_READ;
		return 0;
#ifdef SYS_fork
	case SYS_fork:
	case SYS_vfork:
		return sl.fork ? 0 : refuse("fork 0", EPERM);
#endif
	case SYS_clone:
		return sl.fork || (a1 & CLONE_THREAD) ? 0 : refuse("fork 0", EPERM);
#ifdef SYS_clone3
	case SYS_clone3: {
		const struct clone_args *ca = (const struct clone_args *)a1;
		return sl.fork || (ca && (ca->flags & CLONE_THREAD)) ? 0 : refuse("fork 0", EPERM);
	}
#endif
	case SYS_socket:
	case SYS_connect:
	case SYS_bind:
	case SYS_listen:
	case SYS_accept:
	case SYS_accept4:
		return sl.net ? 0 : refuse("net 0", EPERM);
	case SYS_socketpair:
		return sl.net || a1 == AF_UNIX ? 0 : refuse("net 0", EPERM);
	case SYS_sendto:
		return sl.net || !a5 ? 0 : refuse("net 0", EPERM);
	case SYS_sendmsg: {
		const struct msghdr *m = (const struct msghdr *)a2;
		return sl.net || !m || !m->msg_name ? 0 : refuse("net 0", EPERM);
	}
	case SYS_sendmmsg: {
		const struct mmsghdr *v = (const struct mmsghdr *)a2;
		for (long i = 0; !sl.net && v && i < a3; i++)
			if (v[i].msg_hdr.msg_name)
				return refuse("net 0", EPERM);
		return 0;
	}
#ifdef SYS_io_uring_setup
	case SYS_io_uring_setup:
		/* its rings open, connect and read with no call here seeing it */
		return refuse("io_uring", EPERM);
#endif
	}
	return 0;
}

SL_EXPORT long syscall(long n, ...)
{
	va_list ap;
	va_start(ap, n);
	long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
	long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
	va_end(ap);
	int acc;
	sl_ensure();
	if (n == SYS_execve)
		return sl_execve_checked("syscall(execve)", AT_FDCWD, P(a1), (char *const *)a2,
					 (char *const *)a3, 0, -1);
	if (n == SYS_execveat)
		return sl_execve_checked("syscall(execveat)", (int)a1, P(a2), (char *const *)a3,
					 (char *const *)a4, (int)a5, -1);
	if (judge(n, a1, a2, a3, a4, a5, &acc) != 0)
		return -1;
	long r = REAL(syscall)(n, a1, a2, a3, a4, a5, a6);
	if (acc >= 0 && r >= 0)
		return sl_after_open("syscall", (int)r, (enum sl_access)acc);
	return r;
}
