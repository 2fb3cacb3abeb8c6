/* The decision for one call: resolve, look up, refuse with one line. */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

static const char *const names[] = { "read", "write", "stat" };

int sl_refuse(const char *op, const char *detail, int err)
{
	sl_say(op, detail, NULL);
	errno = err;
	return -1;
}

int sl_check_at(const char *op, int dirfd, const char *path, int flags, enum sl_access acc)
{
	char out[PATH_MAX];
	int own;
	sl_ensure();
	if (!path)
		return 0;	/* the call itself fails with EFAULT */
	if (!path[0] && (flags & SL_EMPTY) && dirfd != AT_FDCWD)
		return sl_check_fd(op, dirfd, acc);	/* the descriptor itself */
	int r = sl_resolve(dirfd, path, flags, out, &own);
	if (r < 0) {
		if (r == -ENOENT || r == -ENAMETOOLONG || r == -ELOOP || r == -EBADF) {
			errno = -r;	/* what the call itself would have said */
			return -1;
		}
		sl_say(op, path, names[acc]);
		errno = EACCES;
		return -1;
	}
	if (own || sl_allowed(out, acc))
		return 0;
	sl_say(op, out, names[acc]);
	errno = EACCES;
	return -1;
}

int sl_check_fd(const char *op, int fd, enum sl_access acc)
{
	char out[PATH_MAX];
	sl_ensure();
	if (sl_fd_path(fd, out) < 0)
		return 0;	/* no path: one of the program's pipes or sockets */
	if (sl_allowed(out, acc))
		return 0;
	sl_say(op, out, names[acc]);
	errno = EACCES;
	return -1;
}

/* What was opened, seen through its descriptor: a symlink swapped in
 * between the check and the open is caught here (for reading; a write
 * has happened by then, see docs/preload.md). */
int sl_after_open(const char *op, int fd, enum sl_access acc)
{
	if (fd < 0 || sl_check_fd(op, fd, acc) == 0)
		return fd;
	sl_sys(SYS_close, fd, 0, 0, 0, 0, 0);
	errno = EACCES;
	return -1;
}

enum sl_access sl_open_access(int flags)
{
	if (flags & O_PATH)
		return SL_STAT;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) ||
	    (flags & O_TMPFILE) == O_TMPFILE)
		return SL_WRITE;
	return SL_READ;
}

/* O_NOFOLLOW, and O_CREAT|O_EXCL, which fails on a symlink rather than follow it */
int sl_open_flags(int flags)
{
	if ((flags & O_NOFOLLOW) || (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return SL_NOFOLLOW;
	return 0;
}
