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

#define NOFOLLOW_IF(flags, bit) ((flags) & (bit) ? SL_NOFOLLOW : 0)
#define FOLLOW_IF(flags, bit) ((flags) & (bit) ? 0 : SL_NOFOLLOW)
#define EMPTY_IF(flags) ((flags) & AT_EMPTY_PATH ? SL_EMPTY : 0)
#define P(x) ((const char *)(x))

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
	*acc_out = -1;
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
#ifdef SYS_stat
	case SYS_stat:
		return sl_check_at(op, AT_FDCWD, P(a1), 0, SL_STAT);
	case SYS_lstat:
		return sl_check_at(op, AT_FDCWD, P(a1), SL_NOFOLLOW, SL_STAT);
#endif
#ifdef SYS_newfstatat
	case SYS_newfstatat:
		return sl_check_at(op, (int)a1, P(a2),
				   NOFOLLOW_IF(a4, AT_SYMLINK_NOFOLLOW) | EMPTY_IF(a4), SL_STAT);
#endif
	case SYS_statx:
		return sl_check_at(op, (int)a1, P(a2),
				   NOFOLLOW_IF(a3, AT_SYMLINK_NOFOLLOW) | EMPTY_IF(a3), SL_STAT);
#ifdef SYS_access
	case SYS_access:
		return sl_check_at(op, AT_FDCWD, P(a1), 0, SL_STAT);
#endif
	case SYS_faccessat:
		return sl_check_at(op, (int)a1, P(a2), 0, SL_STAT);
#ifdef SYS_faccessat2
	case SYS_faccessat2:
		return sl_check_at(op, (int)a1, P(a2),
				   NOFOLLOW_IF(a4, AT_SYMLINK_NOFOLLOW) | EMPTY_IF(a4), SL_STAT);
#endif
	case SYS_name_to_handle_at:
		return sl_check_at(op, (int)a1, P(a2),
				   FOLLOW_IF(a5, AT_SYMLINK_FOLLOW) | EMPTY_IF(a5), SL_STAT);
#ifdef SYS_readlink
	case SYS_readlink:
		return sl_check_at(op, AT_FDCWD, P(a1), SL_NOFOLLOW, SL_READ);
#endif
	case SYS_readlinkat:
		return sl_check_at(op, (int)a1, P(a2), SL_NOFOLLOW | SL_EMPTY, SL_READ);
	case SYS_truncate:
		return sl_check_at(op, AT_FDCWD, P(a1), 0, SL_WRITE);
#ifdef SYS_mkdir
	case SYS_mkdir:
	case SYS_rmdir:
	case SYS_unlink:
	case SYS_mknod:
		return sl_check_at(op, AT_FDCWD, P(a1), SL_NOFOLLOW, SL_WRITE);
	case SYS_chmod:
	case SYS_chown:
	case SYS_utime:
	case SYS_utimes:
		return sl_check_at(op, AT_FDCWD, P(a1), 0, SL_WRITE);
	case SYS_lchown:
		return sl_check_at(op, AT_FDCWD, P(a1), SL_NOFOLLOW, SL_WRITE);
	case SYS_rename:
	case SYS_link:
		if (sl_check_at(op, AT_FDCWD, P(a1), SL_NOFOLLOW, SL_WRITE))
			return -1;
		return sl_check_at(op, AT_FDCWD, P(a2), SL_NOFOLLOW, SL_WRITE);
	case SYS_symlink:
		return sl_check_at(op, AT_FDCWD, P(a2), SL_NOFOLLOW, SL_WRITE);
	case SYS_futimesat:
		return a2 ? sl_check_at(op, (int)a1, P(a2), 0, SL_WRITE) : 0;
#endif
	case SYS_mkdirat:
	case SYS_unlinkat:
	case SYS_mknodat:
		return sl_check_at(op, (int)a1, P(a2), SL_NOFOLLOW, SL_WRITE);
	case SYS_fchmodat:
		return sl_check_at(op, (int)a1, P(a2), 0, SL_WRITE);
	case SYS_fchownat:
		return sl_check_at(op, (int)a1, P(a2),
				   NOFOLLOW_IF(a5, AT_SYMLINK_NOFOLLOW) | EMPTY_IF(a5), SL_WRITE);
	case SYS_utimensat:
		return a2 ? sl_check_at(op, (int)a1, P(a2), NOFOLLOW_IF(a4, AT_SYMLINK_NOFOLLOW),
					SL_WRITE)
			  : 0;
#ifdef SYS_renameat
	case SYS_renameat:
#endif
	case SYS_renameat2:
		if (sl_check_at(op, (int)a1, P(a2), SL_NOFOLLOW, SL_WRITE))
			return -1;
		return sl_check_at(op, (int)a3, P(a4), SL_NOFOLLOW, SL_WRITE);
	case SYS_linkat:
		if (sl_check_at(op, (int)a1, P(a2), FOLLOW_IF(a5, AT_SYMLINK_FOLLOW) | EMPTY_IF(a5),
				SL_WRITE))
			return -1;
		return sl_check_at(op, (int)a3, P(a4), SL_NOFOLLOW, SL_WRITE);
	case SYS_symlinkat:
		return sl_check_at(op, (int)a2, P(a3), SL_NOFOLLOW, SL_WRITE);
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
