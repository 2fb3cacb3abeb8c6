/*
 * Path resolution beneath a directory of ours.  No symbolic link is ever
 * followed, in any component: the guest can neither plant nor make one
 * (path_symlink is refused), and the two resolvers below then agree on
 * every path, whatever the kernel.  ".." may climb only within the tree.
 *
 *   openat2   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (implies no magic
 *             links): the kernel refuses the escape, atomically
 *   walk      where openat2 is missing (before 5.6) or refused (a policy
 *             that answers ENOSYS or EPERM): one openat(O_NOFOLLOW) per
 *             component from the directory, ".." by popping our own stack
 *             of descriptors, never by asking the kernel for the parent
 */
#include "wasi.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WALK_DEPTH 128

static int sys_openat2(int dirfd, const char *path, int flags, unsigned mode)
{
	struct open_how how = {
		.flags = (uint64_t)(unsigned)flags,
		.mode = ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;
	do
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN);
	return (int)fd;
}

enum wasi_resolver wasi_resolver_probe(void)
{
	int fd = sys_openat2(AT_FDCWD, ".", O_PATH | O_CLOEXEC, 0);
	if (fd < 0)
		return WASI_RESOLVE_WALK;
	close(fd);
	return WASI_RESOLVE_OPENAT2;
}

static void close_stack(int *st, int n)
{
	for (int i = 0; i < n; i++)
		close(st[i]);
}

/* The walk: st[0..n) are the directories entered below dirfd. */
static int walk(int dirfd, const char *path, int flags, unsigned mode)
{
	int st[WALK_DEPTH], n = 0;
	char comp[256];
	const char *p = path;
	if (*p == '/') {
		errno = EXDEV;
		return -1;
	}
	for (;;) {
		while (*p == '/')
			p++;
		const char *e = strchrnul(p, '/');
		size_t len = (size_t)(e - p);
		const char *rest = e;
		while (*rest == '/')
			rest++;
		bool last = *rest == '\0';
		if (len >= sizeof(comp)) {
			close_stack(st, n);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		int cur = n ? st[n - 1] : dirfd;
		if (len == 0 || !strcmp(comp, ".") || !strcmp(comp, "..")) {
			if (!strcmp(comp, "..")) {
				if (n == 0) {
					errno = EXDEV;
					return -1;
				}
				close(st[--n]);
				cur = n ? st[n - 1] : dirfd;
			}
			if (last) {
				/* the directory itself, as the caller asked for it
				 * (a trailing "/" or ".": must be a directory) */
				int fd = openat(cur, ".", (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_DIRECTORY);
				close_stack(st, n);
				return fd;
			}
			p = rest;
			continue;
		}
		if (last) {
			/* a trailing "/" asks for a directory */
			int f = flags | O_NOFOLLOW | (*e == '/' ? O_DIRECTORY : 0);
			int fd = openat(cur, comp, f, mode);
			int err = errno;
			close_stack(st, n);
			/* O_PATH | O_NOFOLLOW opens a link itself: only what the
			 * caller asked for with O_NOFOLLOW (lstat); else a link at
			 * the end is refused like any other */
			struct stat sb;
			if (fd >= 0 && (flags & O_PATH) && !(flags & O_NOFOLLOW) &&
			    fstatat(fd, "", &sb, AT_EMPTY_PATH) == 0 && S_ISLNK(sb.st_mode)) {
				close(fd);
				fd = -1;
				err = ELOOP;
			}
			errno = err;
			return fd;
		}
		if (n == WALK_DEPTH) {
			close_stack(st, n);
			errno = ENAMETOOLONG;
			return -1;
		}
		int fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			int err = errno;
			/* a symbolic link in the middle: say so, as openat2 would */
			struct stat sb;
			if (err == ENOTDIR && fstatat(cur, comp, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(sb.st_mode))
				err = ELOOP;
			close_stack(st, n);
			errno = err;
			return -1;
		}
		st[n++] = fd;
		p = rest;
	}
}

int wasi_resolve(enum wasi_resolver r, int dirfd, const char *path, int flags, unsigned mode)
{
	if (*path == '\0') {
		errno = ENOENT;
		return -1;
	}
	if (*path == '/') {
		errno = EXDEV;
		return -1;
	}
	flags |= O_CLOEXEC;
	if (r == WASI_RESOLVE_OPENAT2)
		return sys_openat2(dirfd, path, flags, mode);
	return walk(dirfd, path, flags, mode);
}

int wasi_resolve_parent(enum wasi_resolver r, int dirfd, char *path, const char **last)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (len == 0) {
		errno = ENOENT;
		return -1;
	}
	char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	if (!strcmp(name, ".") || !strcmp(name, "..") || !*name) {
		errno = EINVAL;
		return -1;
	}
	*last = name;
	if (!slash)
		return wasi_resolve(r, dirfd, ".", O_PATH | O_DIRECTORY, 0);
	if (slash == path) {
		errno = EXDEV;
		return -1;
	}
	*slash = '\0';
	int fd = wasi_resolve(r, dirfd, path, O_PATH | O_DIRECTORY, 0);
	*slash = '/';
	return fd;
}
