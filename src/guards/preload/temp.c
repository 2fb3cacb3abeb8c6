/* Files libc creates by name inside itself (mkstemp & co, shm_open),
 * where its internal open is not ours to see, and the one call that opens
 * without a name at all. */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int mkstemp64(char *tmpl);
int mkostemp64(char *tmpl, int flags);
int mkstemps64(char *tmpl, int suffixlen);
int mkostemps64(char *tmpl, int suffixlen, int flags);

/* the template names a file not there yet: its directory decides */
#define TEMP(name, tmpl, call)                                                    \
	do {                                                                       \
		if (sl_check_at(name, AT_FDCWD, tmpl, SL_NOFOLLOW, SL_WRITE) != 0) \
			return -1;                                                 \
		return sl_after_open(name, call, SL_WRITE);                        \
	} while (0)

SL_EXPORT int mkstemp(char *tmpl)
{
	TEMP("mkstemp", tmpl, REAL(mkstemp)(tmpl));
}

SL_EXPORT int mkstemp64(char *tmpl)
{
	TEMP("mkstemp", tmpl, REAL(mkstemp64)(tmpl));
}

SL_EXPORT int mkostemp(char *tmpl, int flags)
{
	TEMP("mkostemp", tmpl, REAL(mkostemp)(tmpl, flags));
}

SL_EXPORT int mkostemp64(char *tmpl, int flags)
{
	TEMP("mkostemp", tmpl, REAL(mkostemp64)(tmpl, flags));
}

SL_EXPORT int mkstemps(char *tmpl, int suffixlen)
{
	TEMP("mkstemps", tmpl, REAL(mkstemps)(tmpl, suffixlen));
}

SL_EXPORT int mkstemps64(char *tmpl, int suffixlen)
{
	TEMP("mkstemps", tmpl, REAL(mkstemps64)(tmpl, suffixlen));
}

SL_EXPORT int mkostemps(char *tmpl, int suffixlen, int flags)
{
	TEMP("mkostemps", tmpl, REAL(mkostemps)(tmpl, suffixlen, flags));
}

SL_EXPORT int mkostemps64(char *tmpl, int suffixlen, int flags)
{
	TEMP("mkostemps", tmpl, REAL(mkostemps64)(tmpl, suffixlen, flags));
}

SL_EXPORT char *mkdtemp(char *tmpl)
{
	if (sl_check_at("mkdtemp", AT_FDCWD, tmpl, SL_NOFOLLOW, SL_WRITE) != 0)
		return NULL;
	return REAL(mkdtemp)(tmpl);
}

/* glibc keeps POSIX shared memory in /dev/shm */
SL_EXPORT int shm_open(const char *name, int flags, mode_t mode)
{
	char path[PATH_MAX];
	if (!name)
		return REAL(shm_open)(name, flags, mode);
	while (*name == '/')
		name++;
	if (strlen(name) + 10 >= sizeof(path) || strchr(name, '/')) {
		errno = EINVAL;
		return -1;
	}
	strcpy(path, "/dev/shm/");
	strcat(path, name);
	enum sl_access acc = sl_open_access(flags);
	if (sl_check_at("shm_open", AT_FDCWD, path, SL_NOFOLLOW, acc) != 0)
		return -1;
	return sl_after_open("shm_open", REAL(shm_open)(name, flags, mode), acc);
}

/* A file handle names no path to judge; what it opens is seen after. */
SL_EXPORT int open_by_handle_at(int mountfd, struct file_handle *h, int flags)
{
	sl_ensure();
	if (sl_open_access(flags) == SL_WRITE)
		return sl_refuse("open_by_handle_at", "(for writing)", EACCES);
	return sl_after_open("open_by_handle_at", REAL(open_by_handle_at)(mountfd, h, flags),
			     sl_open_access(flags));
}
