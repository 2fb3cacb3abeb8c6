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

#define CHECK(op, dirfd, path, flags, acc, ret)                              \
	do {                                                                 \
		if (sl_check_at(op, dirfd, path, flags, acc) != 0)          \
			return ret;                                          \
	} while (0)

SL_EXPORT int stat(const char *path, struct stat *buf)
{
	CHECK("stat", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(stat)(path, buf);
}

SL_EXPORT int stat64(const char *path, struct stat64 *buf)
{
	CHECK("stat", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(stat64)(path, buf);
}

SL_EXPORT int lstat(const char *path, struct stat *buf)
{
	CHECK("lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT, -1);
	return REAL(lstat)(path, buf);
}

SL_EXPORT int lstat64(const char *path, struct stat64 *buf)
{
	CHECK("lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT, -1);
	return REAL(lstat64)(path, buf);
}

SL_EXPORT int fstatat(int dirfd, const char *path, struct stat *buf, int flags)
{
	CHECK("fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT, -1);
	return REAL(fstatat)(dirfd, path, buf, flags);
}

SL_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags)
{
	CHECK("fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT, -1);
	return REAL(fstatat64)(dirfd, path, buf, flags);
}

SL_EXPORT int __xstat(int ver, const char *path, struct stat *buf)
{
	CHECK("stat", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(__xstat)(ver, path, buf);
}

SL_EXPORT int __xstat64(int ver, const char *path, struct stat64 *buf)
{
	CHECK("stat", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(__xstat64)(ver, path, buf);
}

SL_EXPORT int __lxstat(int ver, const char *path, struct stat *buf)
{
	CHECK("lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT, -1);
	return REAL(__lxstat)(ver, path, buf);
}

SL_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *buf)
{
	CHECK("lstat", AT_FDCWD, path, SL_NOFOLLOW, SL_STAT, -1);
	return REAL(__lxstat64)(ver, path, buf);
}

SL_EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags)
{
	CHECK("fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT, -1);
	return REAL(__fxstatat)(ver, dirfd, path, buf, flags);
}

SL_EXPORT int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf, int flags)
{
	CHECK("fstatat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT, -1);
	return REAL(__fxstatat64)(ver, dirfd, path, buf, flags);
}

SL_EXPORT int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *buf)
{
	CHECK("statx", dirfd, path, AT_NOFOLLOW(flags), SL_STAT, -1);
	return REAL(statx)(dirfd, path, flags, mask, buf);
}

SL_EXPORT int access(const char *path, int mode)
{
	CHECK("access", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(access)(path, mode);
}

SL_EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	CHECK("faccessat", dirfd, path, AT_NOFOLLOW(flags), SL_STAT, -1);
	return REAL(faccessat)(dirfd, path, mode, flags);
}

SL_EXPORT int euidaccess(const char *path, int mode)
{
	CHECK("euidaccess", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(euidaccess)(path, mode);
}

SL_EXPORT int eaccess(const char *path, int mode)
{
	CHECK("eaccess", AT_FDCWD, path, 0, SL_STAT, -1);
	return REAL(eaccess)(path, mode);
}

SL_EXPORT ssize_t readlink(const char *path, char *buf, size_t len)
{
	CHECK("readlink", AT_FDCWD, path, SL_NOFOLLOW, SL_READ, -1);
	return REAL(readlink)(path, buf, len);
}

SL_EXPORT ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	CHECK("readlinkat", dirfd, path, SL_NOFOLLOW | SL_EMPTY, SL_READ, -1);
	return REAL(readlinkat)(dirfd, path, buf, len);
}

SL_EXPORT ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen)
{
	CHECK("readlink", AT_FDCWD, path, SL_NOFOLLOW, SL_READ, -1);
	return REAL(__readlink_chk)(path, buf, len, buflen);
}

SL_EXPORT ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t len, size_t buflen)
{
	CHECK("readlinkat", dirfd, path, SL_NOFOLLOW | SL_EMPTY, SL_READ, -1);
	return REAL(__readlinkat_chk)(dirfd, path, buf, len, buflen);
}

SL_EXPORT int truncate(const char *path, off_t len)
{
	CHECK("truncate", AT_FDCWD, path, 0, SL_WRITE, -1);
	return REAL(truncate)(path, len);
}

SL_EXPORT int truncate64(const char *path, off64_t len)
{
	CHECK("truncate", AT_FDCWD, path, 0, SL_WRITE, -1);
	return REAL(truncate64)(path, len);
}

SL_EXPORT int mkdir(const char *path, mode_t mode)
{
	CHECK("mkdir", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(mkdir)(path, mode);
}

SL_EXPORT int mkdirat(int dirfd, const char *path, mode_t mode)
{
	CHECK("mkdirat", dirfd, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(mkdirat)(dirfd, path, mode);
}

SL_EXPORT int unlink(const char *path)
{
	CHECK("unlink", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(unlink)(path);
}

SL_EXPORT int unlinkat(int dirfd, const char *path, int flags)
{
	CHECK("unlinkat", dirfd, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(unlinkat)(dirfd, path, flags);
}

SL_EXPORT int rmdir(const char *path)
{
	CHECK("rmdir", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(rmdir)(path);
}

SL_EXPORT int rename(const char *from, const char *to)
{
	CHECK("rename", AT_FDCWD, from, SL_NOFOLLOW, SL_WRITE, -1);
	CHECK("rename", AT_FDCWD, to, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(rename)(from, to);
}

SL_EXPORT int renameat(int fromfd, const char *from, int tofd, const char *to)
{
	CHECK("renameat", fromfd, from, SL_NOFOLLOW, SL_WRITE, -1);
	CHECK("renameat", tofd, to, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(renameat)(fromfd, from, tofd, to);
}

SL_EXPORT int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags)
{
	CHECK("renameat2", fromfd, from, SL_NOFOLLOW, SL_WRITE, -1);
	CHECK("renameat2", tofd, to, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(renameat2)(fromfd, from, tofd, to, flags);
}

/* A new name for a file is as good as the file: w on both. */
SL_EXPORT int link(const char *from, const char *to)
{
	CHECK("link", AT_FDCWD, from, SL_NOFOLLOW, SL_WRITE, -1);
	CHECK("link", AT_FDCWD, to, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(link)(from, to);
}

SL_EXPORT int linkat(int fromfd, const char *from, int tofd, const char *to, int flags)
{
	CHECK("linkat", fromfd, from, AT_FOLLOW(flags), SL_WRITE, -1);
	CHECK("linkat", tofd, to, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(linkat)(fromfd, from, tofd, to, flags);
}

/* The target is text; following it later is what gets checked. */
SL_EXPORT int symlink(const char *target, const char *path)
{
	CHECK("symlink", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(symlink)(target, path);
}

SL_EXPORT int symlinkat(const char *target, int dirfd, const char *path)
{
	CHECK("symlinkat", dirfd, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(symlinkat)(target, dirfd, path);
}

SL_EXPORT int chmod(const char *path, mode_t mode)
{
	CHECK("chmod", AT_FDCWD, path, 0, SL_WRITE, -1);
	return REAL(chmod)(path, mode);
}

SL_EXPORT int lchmod(const char *path, mode_t mode)
{
	CHECK("lchmod", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(lchmod)(path, mode);
}

SL_EXPORT int fchmodat(int dirfd, const char *path, mode_t mode, int flags)
{
	CHECK("fchmodat", dirfd, path, AT_NOFOLLOW(flags), SL_WRITE, -1);
	return REAL(fchmodat)(dirfd, path, mode, flags);
}

SL_EXPORT int chown(const char *path, uid_t uid, gid_t gid)
{
	CHECK("chown", AT_FDCWD, path, 0, SL_WRITE, -1);
	return REAL(chown)(path, uid, gid);
}

SL_EXPORT int lchown(const char *path, uid_t uid, gid_t gid)
{
	CHECK("lchown", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(lchown)(path, uid, gid);
}

SL_EXPORT int fchownat(int dirfd, const char *path, uid_t uid, gid_t gid, int flags)
{
	CHECK("fchownat", dirfd, path, AT_NOFOLLOW(flags), SL_WRITE, -1);
	return REAL(fchownat)(dirfd, path, uid, gid, flags);
}

/* a null path is futimens(dirfd): an open descriptor, already judged */
SL_EXPORT int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags)
{
	if (sl_opaque(path))
		CHECK("utimensat", dirfd, path, AT_NOFOLLOW(flags), SL_WRITE, -1);
	return REAL(utimensat)(dirfd, path, times, flags);
}

SL_EXPORT int utime(const char *path, const struct utimbuf *times)
{
	CHECK("utime", AT_FDCWD, path, 0, SL_WRITE, -1);
	return REAL(utime)(path, times);
}

SL_EXPORT int utimes(const char *path, const struct timeval times[2])
{
	CHECK("utimes", AT_FDCWD, path, 0, SL_WRITE, -1);
	return REAL(utimes)(path, times);
}

SL_EXPORT int lutimes(const char *path, const struct timeval times[2])
{
	CHECK("lutimes", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(lutimes)(path, times);
}

SL_EXPORT int futimesat(int dirfd, const char *path, const struct timeval times[2])
{
	if (sl_opaque(path))
		CHECK("futimesat", dirfd, path, 0, SL_WRITE, -1);
	return REAL(futimesat)(dirfd, path, times);
}

SL_EXPORT int mknod(const char *path, mode_t mode, dev_t dev)
{
	CHECK("mknod", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(mknod)(path, mode, dev);
}

SL_EXPORT int mknodat(int dirfd, const char *path, mode_t mode, dev_t dev)
{
	CHECK("mknodat", dirfd, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(mknodat)(dirfd, path, mode, dev);
}

SL_EXPORT int mkfifo(const char *path, mode_t mode)
{
	CHECK("mkfifo", AT_FDCWD, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(mkfifo)(path, mode);
}

SL_EXPORT int mkfifoat(int dirfd, const char *path, mode_t mode)
{
	CHECK("mkfifoat", dirfd, path, SL_NOFOLLOW, SL_WRITE, -1);
	return REAL(mkfifoat)(dirfd, path, mode);
}
