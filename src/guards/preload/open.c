/* Opening: every exported libc entry that opens by name (the fortified
 * ones too, and fopen, which opens inside libc where open() is not seen). */
#include "preload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

static int want_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

#define GET_MODE(flags, mode)                          \
	do {                                           \
		if (want_mode(flags)) {                \
			va_list ap;                    \
			va_start(ap, flags);           \
			mode = (mode_t)va_arg(ap, int); \
			va_end(ap);                    \
		}                                      \
	} while (0)

#define OPEN_AT(name, dirfd, path, flags, call)                                     \
	do {                                                                         \
		enum sl_access acc = sl_open_access(flags);                          \
		if (sl_check_at(name, dirfd, path, sl_open_flags(flags), acc) != 0) \
			return -1;                                                   \
		return sl_after_open(name, call, acc);                               \
	} while (0)

SL_EXPORT int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	GET_MODE(flags, mode);
	OPEN_AT("open", AT_FDCWD, path, flags, REAL(open)(path, flags, mode));
}

SL_EXPORT int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	GET_MODE(flags, mode);
	OPEN_AT("open64", AT_FDCWD, path, flags, REAL(open64)(path, flags, mode));
}

SL_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	GET_MODE(flags, mode);
	OPEN_AT("openat", dirfd, path, flags, REAL(openat)(dirfd, path, flags, mode));
}

SL_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	GET_MODE(flags, mode);
	OPEN_AT("openat64", dirfd, path, flags, REAL(openat64)(dirfd, path, flags, mode));
}

SL_EXPORT int __open_2(const char *path, int flags)
{
	OPEN_AT("open", AT_FDCWD, path, flags, REAL(__open_2)(path, flags));
}

SL_EXPORT int __open64_2(const char *path, int flags)
{
	OPEN_AT("open64", AT_FDCWD, path, flags, REAL(__open64_2)(path, flags));
}

SL_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	OPEN_AT("openat", dirfd, path, flags, REAL(__openat_2)(dirfd, path, flags));
}

SL_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	OPEN_AT("openat64", dirfd, path, flags, REAL(__openat64_2)(dirfd, path, flags));
}

SL_EXPORT int creat(const char *path, mode_t mode)
{
	OPEN_AT("creat", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, REAL(creat)(path, mode));
}

SL_EXPORT int creat64(const char *path, mode_t mode)
{
	OPEN_AT("creat64", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, REAL(creat64)(path, mode));
}

/* fopen's mode as open flags: what matters here is write and O_EXCL */
static int mode_flags(const char *mode)
{
	int flags = O_RDONLY;
	if (!mode)
		return flags;
	if (mode[0] != 'r')
		flags = O_WRONLY | O_CREAT;
	for (const char *m = mode + 1; *m && *m != ','; m++) {
		if (*m == '+')
			flags = (flags & ~O_ACCMODE) | O_RDWR;
		else if (*m == 'x')
			flags |= O_EXCL;
	}
	return flags;
}

static FILE *after_fopen(const char *op, FILE *f, enum sl_access acc)
{
	if (f && sl_check_fd(op, fileno(f), acc) != 0) {
		fclose(f);
		errno = EACCES;
		return NULL;
	}
	return f;
}

#define FOPEN(name, path, mode, call)                                                   \
	do {                                                                             \
		int fl = mode_flags(mode);                                               \
		enum sl_access acc = sl_open_access(fl);                                 \
		if (sl_check_at(name, AT_FDCWD, path, sl_open_flags(fl), acc) != 0)     \
			return NULL;                                                     \
		return after_fopen(name, call, acc);                                     \
	} while (0)

SL_EXPORT FILE *fopen(const char *path, const char *mode)
{
	FOPEN("fopen", path, mode, REAL(fopen)(path, mode));
}

SL_EXPORT FILE *fopen64(const char *path, const char *mode)
{
	FOPEN("fopen64", path, mode, REAL(fopen64)(path, mode));
}

/* With no path freopen reopens the stream's own file in a new mode
 * (through /proc/self/fd): judged on that file. */
#define FREOPEN(name, path, mode, stream, call)                                   \
	do {                                                                       \
		int fl = mode_flags(mode);                                         \
		enum sl_access acc = sl_open_access(fl);                           \
		int bad = path ? sl_check_at(name, AT_FDCWD, path, sl_open_flags(fl), acc) \
			       : sl_check_fd(name, fileno(stream), acc);           \
		if (bad)                                                           \
			return NULL;                                               \
		return after_fopen(name, call, acc);                               \
	} while (0)

SL_EXPORT FILE *freopen(const char *path, const char *mode, FILE *stream)
{
	FREOPEN("freopen", path, mode, stream, REAL(freopen)(path, mode, stream));
}

SL_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *stream)
{
	FREOPEN("freopen64", path, mode, stream, REAL(freopen64)(path, mode, stream));
}

SL_EXPORT DIR *opendir(const char *path)
{
	if (sl_check_at("opendir", AT_FDCWD, path, 0, SL_READ) != 0)
		return NULL;
	DIR *d = REAL(opendir)(path);
	if (d && sl_check_fd("opendir", dirfd(d), SL_READ) != 0) {
		closedir(d);
		errno = EACCES;
		return NULL;
	}
	return d;
}
