/*
 * The path_* imports.  Each resolves beneath the directory the guest names
 * (paths.c); what changes the tree resolves the parent and then acts on
 * one component with *at() and AT_SYMLINK_NOFOLLOW.  Beneath a read-only
 * directory nothing changes (EROFS before the call; its files are opened
 * O_RDONLY besides).  Links of both kinds are refused: a symbolic link is
 * a way out for whoever follows it, a hard link would alias a read-only
 * file into a writable tree.
 */
#include "wasi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void wasi_put_filestat(uint8_t *o, const struct stat *sb);
int wasi_times(uint64_t atim, uint64_t mtim, uint32_t fl, struct timespec ts[2]);

/* the directory descriptor and the guest's path, copied */
static uint32_t prep(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len, char *buf,
		     struct wasi_fd **f)
{
	*f = wasi_fd_get(w, fd);
	if (!*f)
		return W_EBADF;
	if (!(*f)->dir)
		return W_ENOTDIR;
	uint32_t e = wasi_path_copy(w, path, len, buf, WASI_PATH_MAX);
	if (e)
		return e;
	if (buf[0] == '/')
		return W_ENOTCAPABLE;
	return W_ESUCCESS;
}

uint32_t wasi_path_open(struct wasi *w, uint32_t fd, uint32_t dirflags, uint32_t path, uint32_t len,
			uint32_t oflags, uint64_t rights, uint64_t inh, uint32_t fdflags, uint32_t out)
{
	(void)inh;
	(void)dirflags; /* never followed (paths.c) */
	char p[WASI_PATH_MAX];
	struct wasi_fd *d;
	uint32_t e = prep(w, fd, path, len, p, &d);
	if (e)
		return e;
	if (!wasi_mem(w, out, 4))
		return W_EFAULT;
	if (oflags & ~0xfu)
		return W_EINVAL;
	bool write = (rights & W_RIGHT_FD_WRITE) || (oflags & (W_OFLAG_CREAT | W_OFLAG_TRUNC)) ||
		     (fdflags & W_FDFLAG_APPEND);
	bool read = rights & (W_RIGHT_FD_READ | W_RIGHT_FD_READDIR);
	if (write && d->ro)
		return W_EROFS;
	int fl = (write && read) ? O_RDWR : write ? O_WRONLY : O_RDONLY;
	/* creating or truncating needs a writable descriptor, whatever the
	 * rights said */
	if ((oflags & (W_OFLAG_CREAT | W_OFLAG_TRUNC)) && fl == O_RDONLY)
		fl = O_RDWR;
	if (oflags & W_OFLAG_CREAT)
		fl |= O_CREAT;
	if (oflags & W_OFLAG_EXCL)
		fl |= O_EXCL;
	/* under --disk a truncated file's old size is its base (a rewrite
	 * is not growth): truncated once counted */
	bool trunc_after = (oflags & W_OFLAG_TRUNC) && w->disk_cap;
	if ((oflags & W_OFLAG_TRUNC) && !trunc_after)
		fl |= O_TRUNC;
	if (oflags & W_OFLAG_DIRECTORY)
		fl |= O_DIRECTORY;
	if (fdflags & W_FDFLAG_APPEND)
		fl |= O_APPEND;
	/* a FIFO or a device beneath the tree must not hang the open: opened
	 * non-blocking, refused below */
	int h = wasi_resolve(w->resolver, d->host, p, fl | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0666);
	if (h < 0 && errno == EISDIR && fl != O_RDONLY)
		return W_EISDIR;
	if (h < 0)
		return wasi_errno(errno);
	struct stat sb;
	if (fstat(h, &sb) != 0) {
		int err = errno;
		close(h);
		return wasi_errno(err);
	}
	if (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
		/* devices, sockets and FIFOs in a tree are not the guest's */
		close(h);
		return W_EACCES;
	}
	if (!(fdflags & W_FDFLAG_NONBLOCK))
		fcntl(h, F_SETFL, fcntl(h, F_GETFL) & ~O_NONBLOCK);
	uint32_t g;
	if (wasi_fd_add(w, h, d->ro, S_ISDIR(sb.st_mode), &g) != 0) {
		int err = errno;
		close(h);
		return wasi_errno(err);
	}
	if (write && S_ISREG(sb.st_mode)) {
		struct wasi_fd *f = &w->fds[g];
		e = wasi_disk_track(w, f, (uint64_t)sb.st_size);
		if (!e && trunc_after && sb.st_size) {
			if (ftruncate(h, 0) == 0)
				wasi_disk_set(w, f, 0);
			else
				e = wasi_errno(errno);
		}
		if (e) {
			close(h);
			*f = (struct wasi_fd){ .host = -1 };
			return e;
		}
	}
	memcpy(w->mem + out, &g, 4);
	return W_ESUCCESS;
}

uint32_t wasi_path_filestat_get(struct wasi *w, uint32_t fd, uint32_t flags, uint32_t path, uint32_t len,
				uint32_t out)
{
	char p[WASI_PATH_MAX];
	struct wasi_fd *d;
	uint32_t e = prep(w, fd, path, len, p, &d);
	if (e)
		return e;
	uint8_t *o = wasi_mem(w, out, 64);
	if (!o)
		return W_EFAULT;
	/* without FOLLOW a final link is shown as one; with it, refused
	 * (ELOOP) like every other link */
	int fl = O_PATH | ((flags & W_LOOKUP_FOLLOW) ? 0 : O_NOFOLLOW);
	int h = wasi_resolve(w->resolver, d->host, p, fl, 0);
	if (h < 0)
		return wasi_errno(errno);
	struct stat sb;
	int r = fstatat(h, "", &sb, AT_EMPTY_PATH);
	int err = errno;
	close(h);
	if (r != 0)
		return wasi_errno(err);
	wasi_put_filestat(o, &sb);
	return W_ESUCCESS;
}

/* the parent of the guest's path, for a change: beneath a writable
 * directory only */
static uint32_t parent(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len, char *buf,
		       const char **last, int *h, bool change)
{
	struct wasi_fd *d;
	uint32_t e = prep(w, fd, path, len, buf, &d);
	if (e)
		return e;
	if (change && d->ro)
		return W_EROFS;
	*h = wasi_resolve_parent(w->resolver, d->host, buf, last);
	return *h < 0 ? wasi_errno(errno) : W_ESUCCESS;
}

static uint32_t done(int h, int r)
{
	int err = errno;
	close(h);
	return r == 0 ? W_ESUCCESS : wasi_errno(err);
}

uint32_t wasi_path_filestat_set_times(struct wasi *w, uint32_t fd, uint32_t flags, uint32_t path, uint32_t len,
				      uint64_t atim, uint64_t mtim, uint32_t fst)
{
	(void)flags; /* never followed: a link's own times are set */
	struct timespec ts[2];
	if (wasi_times(atim, mtim, fst, ts) != 0)
		return W_EINVAL;
	char p[WASI_PATH_MAX];
	const char *last;
	int h;
	uint32_t e = parent(w, fd, path, len, p, &last, &h, true);
	if (e)
		return e;
	return done(h, utimensat(h, last, ts, AT_SYMLINK_NOFOLLOW));
}

uint32_t wasi_path_create_directory(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len)
{
	char p[WASI_PATH_MAX];
	const char *last;
	int h;
	uint32_t e = parent(w, fd, path, len, p, &last, &h, true);
	if (e)
		return e;
	return done(h, mkdirat(h, last, 0777));
}

uint32_t wasi_path_remove_directory(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len)
{
	char p[WASI_PATH_MAX];
	const char *last;
	int h;
	uint32_t e = parent(w, fd, path, len, p, &last, &h, true);
	if (e)
		return e;
	return done(h, unlinkat(h, last, AT_REMOVEDIR));
}

uint32_t wasi_path_unlink_file(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len)
{
	char p[WASI_PATH_MAX];
	const char *last;
	int h;
	uint32_t e = parent(w, fd, path, len, p, &last, &h, true);
	if (e)
		return e;
	uint32_t file = wasi_disk_find(w, h, last);
	uint32_t r = done(h, unlinkat(h, last, 0));
	if (!r)
		wasi_disk_drop(w, file);
	return r;
}

uint32_t wasi_path_readlink(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len, uint32_t buf,
			    uint32_t buflen, uint32_t used)
{
	char p[WASI_PATH_MAX];
	const char *last;
	int h;
	uint8_t *b = wasi_mem(w, buf, buflen), *u = wasi_mem(w, used, 4);
	if (!b || !u)
		return W_EFAULT;
	uint32_t e = parent(w, fd, path, len, p, &last, &h, false);
	if (e)
		return e;
	ssize_t n = readlinkat(h, last, (char *)b, buflen);
	int err = errno;
	close(h);
	if (n < 0)
		return wasi_errno(err);
	uint32_t nn = (uint32_t)n;
	memcpy(u, &nn, 4);
	return W_ESUCCESS;
}

uint32_t wasi_path_rename(struct wasi *w, uint32_t fd, uint32_t opath, uint32_t olen, uint32_t nfd,
			  uint32_t npath, uint32_t nlen)
{
	char a[WASI_PATH_MAX], b[WASI_PATH_MAX];
	const char *la, *lb;
	int ha, hb;
	uint32_t e = parent(w, fd, opath, olen, a, &la, &ha, true);
	if (e)
		return e;
	e = parent(w, nfd, npath, nlen, b, &lb, &hb, true);
	if (e) {
		close(ha);
		return e;
	}
	/* a file renamed onto itself is not replaced */
	uint32_t replaced = wasi_disk_find(w, hb, lb);
	int r = renameat(ha, la, hb, lb);
	if (r == 0 && replaced && replaced != wasi_disk_find(w, hb, lb))
		wasi_disk_drop(w, replaced);
	int err = errno;
	close(ha);
	close(hb);
	return r == 0 ? W_ESUCCESS : wasi_errno(err);
}

uint32_t wasi_path_symlink(struct wasi *w, uint32_t opath, uint32_t olen, uint32_t fd, uint32_t npath,
			   uint32_t nlen)
{
	(void)opath;
	(void)olen;
	(void)npath;
	(void)nlen;
	return wasi_fd_get(w, fd) ? W_EPERM : W_EBADF;
}

uint32_t wasi_path_link(struct wasi *w, uint32_t ofd, uint32_t oflags, uint32_t opath, uint32_t olen,
			uint32_t nfd, uint32_t npath, uint32_t nlen)
{
	(void)oflags;
	(void)opath;
	(void)olen;
	(void)npath;
	(void)nlen;
	return wasi_fd_get(w, ofd) && wasi_fd_get(w, nfd) ? W_EPERM : W_EBADF;
}
