/* Metadata, links and changes to the tree.  Seeing that a name exists
 * (stat, access, readlink) needs r, except for the directories on the way
 * to an allowed path; changing anything needs w on every path named. */
#include "preload.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <utime.h>

struct stat64;
int __xstat(int ver, const char *path, struct stat *buf);
int __xstat64(int ver, const char *path, struct stat64 *buf);
int __lxstat(int ver, const char *path, struct stat *buf);
int __lxstat64(int ver, const char *path, struct stat64 *buf);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf, int flags);
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t len, size_t buflen);
int lchmod(const char *path, mode_t mode);
int __xmknod(int ver, const char *path, mode_t mode, dev_t *dev);
int __xmknodat(int ver, int dirfd, const char *path, mode_t mode, dev_t *dev);

/* AT_* flags as ours */
static int at(int flags, int follow_flag, int follow_when)
{
	int r = 0;
	if (((flags & follow_flag) != 0) != follow_when)
		r |= SL_NOFOLLOW;
	if (flags & AT_EMPTY_PATH)
		r |= SL_EMPTY;
	return r;
}
#define AT_NOFOLLOW(flags) at(flags, AT_SYMLINK_NOFOLLOW, 0)
#define AT_FOLLOW(flags) at(flags, AT_SYMLINK_FOLLOW, 1)

#define CHECK(op, dirfd, path, flags, acc)                          \
	do {                                                       \
		if (sl_check_at(op, dirfd, path, flags, acc) != 0) \
			return -1;                                 \
	} while (0)

/* A hook: type name(params) checks its path as op would reach it (dirfd,
 * path, flags as sl_check_at takes them; acc, the access it needs), then
 * calls the next definition of name with args. */
#define HOOK(type, name, params, args, op, dirfd, path, flags, acc) \
	SL_EXPORT type name params                                  \
	{                                                           \
		CHECK(op, dirfd, path, flags, acc);                 \
		return REAL(name) args;                             \
	}

/* Two names, both changed: from as from_flags says, the new name to not
 * followed. */
#define HOOK2(name, params, args, op, fromfd, from, from_flags, tofd, to) \
	SL_EXPORT int name params                                         \
	{                                                                 \
		CHECK(op, fromfd, from, from_flags, SL_WRITE);            \
		CHECK(op, tofd, to, SL_NOFOLLOW, SL_WRITE);               \
		return REAL(name) args;                                   \
	}

HOOK(int, stat, (const char *path, struct stat *buf), (path, buf),
     "stat", AT_FDCWD, path, 0, SL_STAT)
HOOK(int, stat64, (const char *path, struct stat64 *buf), (path, buf),
     "stat", AT_FDCWD, path, 0, SL_STAT)
HOOK(int, lstat, (const char *path, struct stat *buf), (path, buf),
     "lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT)
HOOK(int, lstat64, (const char *path, struct stat64 *buf), (path, buf),
     "lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT)
HOOK(int, fstatat, (int dirfd, const char *path, struct stat *buf, int flags),
     (dirfd, path, buf, flags),
     "fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT)
HOOK(int, fstatat64, (int dirfd, const char *path, struct stat64 *buf, int flags),
     (dirfd, path, buf, flags),
     "fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT)

/* glibc before 2.33: the stat family through versioned entries */
HOOK(int, __xstat, (int ver, const char *path, struct stat *buf), (ver, path, buf),
     "stat", AT_FDCWD, path, 0, SL_STAT)
HOOK(int, __xstat64, (int ver, const char *path, struct stat64 *buf), (ver, path, buf),
     "stat", AT_FDCWD, path, 0, SL_STAT)
HOOK(int, __lxstat, (int ver, const char *path, struct stat *buf), (ver, path, buf),
     "lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT)
HOOK(int, __lxstat64, (int ver, const char *path, struct stat64 *buf), (ver, path, buf),
     "lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT)
HOOK(int, __fxstatat, (int ver, int dirfd, const char *path, struct stat *buf, int flags),
     (ver, dirfd, path, buf, flags),
     "fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT)
HOOK(int, __fxstatat64, (int ver, int dirfd, const char *path, struct stat64 *buf, int flags),
     (ver, dirfd, path, buf, flags),
     "fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT)

HOOK(int, statx, (int dirfd, const char *path, int flags, unsigned mask, struct statx *buf),
     (dirfd, path, flags, mask, buf),
     "statx", dirfd, path, AT_NOFOLLOW(flags), SL_STAT)
HOOK(int, access, (const char *path, int mode), (path, mode),
     "access", AT_FDCWD, path, 0, SL_STAT)
HOOK(int, faccessat, (int dirfd, const char *path, int mode, int flags), (dirfd, path, mode, flags),
     "faccessat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT)
HOOK(int, euidaccess, (const char *path, int mode), (path, mode),
     "euidaccess", AT_FDCWD, path, 0, SL_STAT)
HOOK(int, eaccess, (const char *path, int mode), (path, mode),
     "eaccess", AT_FDCWD, path, 0, SL_STAT)

HOOK(ssize_t, readlink, (const char *path, char *buf, size_t len), (path, buf, len),
     "readlink", AT_FDCWD, path, SL_NOFOLLOW, SL_READ)
HOOK(ssize_t, readlinkat, (int dirfd, const char *path, char *buf, size_t len), (dirfd, path, buf, len),
     "readlinkat", dirfd, path, SL_NOFOLLOW | SL_EMPTY, SL_READ)
HOOK(ssize_t, __readlink_chk, (const char *path, char *buf, size_t len, size_t buflen),
     (path, buf, len, buflen),
     "readlink", AT_FDCWD, path, SL_NOFOLLOW, SL_READ)
HOOK(ssize_t, __readlinkat_chk, (int dirfd, const char *path, char *buf, size_t len, size_t buflen),
     (dirfd, path, buf, len, buflen),
     "readlinkat", dirfd, path, SL_NOFOLLOW | SL_EMPTY, SL_READ)

HOOK(int, truncate, (const char *path, off_t len), (path, len),
     "truncate", AT_FDCWD, path, 0, SL_WRITE)
HOOK(int, truncate64, (const char *path, off64_t len), (path, len),
     "truncate", AT_FDCWD, path, 0, SL_WRITE)
HOOK(int, mkdir, (const char *path, mode_t mode), (path, mode),
     "mkdir", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, mkdirat, (int dirfd, const char *path, mode_t mode), (dirfd, path, mode),
     "mkdirat", dirfd, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, unlink, (const char *path), (path),
     "unlink", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, unlinkat, (int dirfd, const char *path, int flags), (dirfd, path, flags),
     "unlinkat", dirfd, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, rmdir, (const char *path), (path),
     "rmdir", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)

HOOK2(rename, (const char *from, const char *to), (from, to),
      "rename", AT_FDCWD, from, SL_NOFOLLOW, AT_FDCWD, to)
HOOK2(renameat, (int fromfd, const char *from, int tofd, const char *to), (fromfd, from, tofd, to),
      "renameat", fromfd, from, SL_NOFOLLOW, tofd, to)
HOOK2(renameat2, (int fromfd, const char *from, int tofd, const char *to, unsigned flags),
      (fromfd, from, tofd, to, flags),
      "renameat2", fromfd, from, SL_NOFOLLOW, tofd, to)

/* A new name for a file is as good as the file: w on both. */
HOOK2(link, (const char *from, const char *to), (from, to),
      "link", AT_FDCWD, from, SL_NOFOLLOW, AT_FDCWD, to)
HOOK2(linkat, (int fromfd, const char *from, int tofd, const char *to, int flags),
      (fromfd, from, tofd, to, flags),
      "linkat", fromfd, from, AT_FOLLOW(flags), tofd, to)

/* The target is text; following it later is what gets checked. */
HOOK(int, symlink, (const char *target, const char *path), (target, path),
     "symlink", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, symlinkat, (const char *target, int dirfd, const char *path), (target, dirfd, path),
     "symlinkat", dirfd, path, SL_NOFOLLOW, SL_WRITE)

HOOK(int, chmod, (const char *path, mode_t mode), (path, mode),
     "chmod", AT_FDCWD, path, 0, SL_WRITE)
HOOK(int, lchmod, (const char *path, mode_t mode), (path, mode),
     "lchmod", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, fchmodat, (int dirfd, const char *path, mode_t mode, int flags), (dirfd, path, mode, flags),
     "fchmodat", dirfd, path, AT_NOFOLLOW(flags), SL_WRITE)
HOOK(int, chown, (const char *path, uid_t uid, gid_t gid), (path, uid, gid),
     "chown", AT_FDCWD, path, 0, SL_WRITE)
HOOK(int, lchown, (const char *path, uid_t uid, gid_t gid), (path, uid, gid),
     "lchown", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, fchownat, (int dirfd, const char *path, uid_t uid, gid_t gid, int flags),
     (dirfd, path, uid, gid, flags),
     "fchownat", dirfd, path, AT_NOFOLLOW(flags), SL_WRITE)

/* a null path is futimens(dirfd): an open descriptor, already judged */
SL_EXPORT int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags)
{
	if (sl_opaque(path))
		CHECK("utimensat", dirfd, path, AT_NOFOLLOW(flags), SL_WRITE);
	return REAL(utimensat)(dirfd, path, times, flags);
}

HOOK(int, utime, (const char *path, const struct utimbuf *times), (path, times),
     "utime", AT_FDCWD, path, 0, SL_WRITE)
HOOK(int, utimes, (const char *path, const struct timeval times[2]), (path, times),
     "utimes", AT_FDCWD, path, 0, SL_WRITE)
HOOK(int, lutimes, (const char *path, const struct timeval times[2]), (path, times),
     "lutimes", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)

SL_EXPORT int futimesat(int dirfd, const char *path, const struct timeval times[2])
{
	if (sl_opaque(path))
		CHECK("futimesat", dirfd, path, 0, SL_WRITE);
	return REAL(futimesat)(dirfd, path, times);
}

HOOK(int, mknod, (const char *path, mode_t mode, dev_t dev), (path, mode, dev),
     "mknod", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, mknodat, (int dirfd, const char *path, mode_t mode, dev_t dev), (dirfd, path, mode, dev),
     "mknodat", dirfd, path, SL_NOFOLLOW, SL_WRITE)
/* glibc before 2.33: mknod through versioned entries, still exported */
HOOK(int, __xmknod, (int ver, const char *path, mode_t mode, dev_t *dev), (ver, path, mode, dev),
     "mknod", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, __xmknodat, (int ver, int dirfd, const char *path, mode_t mode, dev_t *dev),
     (ver, dirfd, path, mode, dev),
     "mknodat", dirfd, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, mkfifo, (const char *path, mode_t mode), (path, mode),
     "mkfifo", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE)
HOOK(int, mkfifoat, (int dirfd, const char *path, mode_t mode), (dirfd, path, mode),
     "mkfifoat", dirfd, path, SL_NOFOLLOW, SL_WRITE)
