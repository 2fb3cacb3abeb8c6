/*
 * The guest's descriptors: a table of ours, guest number -> host
 * descriptor.  The guest can only name what is in it (0, 1, 2, the
 * preopened directories, what path_open gave it), so no host descriptor
 * the host keeps for itself is reachable by number.
 */
#include "wasi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

uint32_t wasi_errno(int e)
{
	switch (e) {
	case 0: return W_ESUCCESS;
	case E2BIG: return W_E2BIG;
	case EACCES: return W_EACCES;
	case EAGAIN: return W_EAGAIN;
	case EBADF: return W_EBADF;
	case EBUSY: return W_EBUSY;
	case EDQUOT: return W_EDQUOT;
	case EEXIST: return W_EEXIST;
	case EFAULT: return W_EFAULT;
	case EFBIG: return W_EFBIG;
	case EINTR: return W_EINTR;
	case EINVAL: return W_EINVAL;
	case EIO: return W_EIO;
	case EISDIR: return W_EISDIR;
	case ELOOP: return W_ELOOP;
	case EMFILE: return W_EMFILE;
	case EMLINK: return W_EMLINK;
	case ENAMETOOLONG: return W_ENAMETOOLONG;
	case ENFILE: return W_ENFILE;
	case ENODEV: return W_ENODEV;
	case ENOENT: return W_ENOENT;
	case ENOMEM: return W_ENOMEM;
	case ENOSPC: return W_ENOSPC;
	case ENOSYS: return W_ENOSYS;
	case ENOTDIR: return W_ENOTDIR;
	case ENOTEMPTY: return W_ENOTEMPTY;
	case ENOTSOCK: return W_ENOTSOCK;
	case EOPNOTSUPP: return W_ENOTSUP;
	case ENOTTY: return W_ENOTTY;
	case ENXIO: return W_ENXIO;
	case EOVERFLOW: return W_EOVERFLOW;
	case EPERM: return W_EPERM;
	case EPIPE: return W_EPIPE;
	case ERANGE: return W_ERANGE;
	case EROFS: return W_EROFS;
	case ESPIPE: return W_ESPIPE;
	case ETXTBSY: return W_ETXTBSY;
	/* what a resolver says of an escape: not the guest's to reach */
	case EXDEV: return W_ENOTCAPABLE;
	default: return W_EIO;
	}
}

int wasi_init(struct wasi *w, char **argv, char **envp)
{
	memset(w, 0, sizeof(*w));
	w->argv = argv;
	w->envp = envp;
	while (argv[w->argc])
		w->argc++;
	while (envp[w->envc])
		w->envc++;
	w->nfds = 16;
	w->fds = calloc(w->nfds, sizeof(*w->fds));
	if (!w->fds)
		return -1;
	for (uint32_t i = 0; i < w->nfds; i++)
		w->fds[i].host = -1;
	for (int i = 0; i < 3; i++)
		w->fds[i].host = i;
	w->resolver = wasi_resolver_probe();
	return 0;
}

void wasi_release(struct wasi *w)
{
	for (uint32_t i = 3; i < w->nfds; i++) {
		if (w->fds[i].host >= 0)
			close(w->fds[i].host);
		free(w->fds[i].preopen);
	}
	free(w->fds);
	w->fds = NULL;
	w->nfds = 0;
	free(w->files);
	w->files = NULL;
	w->nfiles = 0;
}

struct wasi_fd *wasi_fd_get(struct wasi *w, uint32_t fd)
{
	if (fd >= w->nfds || w->fds[fd].host < 0)
		return NULL;
	return &w->fds[fd];
}

int wasi_fd_add(struct wasi *w, int host, bool ro, bool dir, uint32_t *out)
{
	uint32_t i;
	for (i = 3; i < w->nfds && w->fds[i].host >= 0; i++)
		;
	if (i == w->nfds) {
		if (w->nfds >= WASI_FD_MAX) {
			errno = EMFILE;
			return -1;
		}
		uint32_t n = w->nfds * 2;
		struct wasi_fd *t = realloc(w->fds, n * sizeof(*t));
		if (!t)
			return -1;
		for (uint32_t j = w->nfds; j < n; j++)
			t[j] = (struct wasi_fd){ .host = -1 };
		w->fds = t;
		w->nfds = n;
	}
	w->fds[i] = (struct wasi_fd){ .host = host, .ro = ro, .dir = dir };
	*out = i;
	return 0;
}

int wasi_preopen(struct wasi *w, const char *host_path, const char *guest_name, bool ro)
{
	int fd = open(host_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char *name = strdup(guest_name);
	uint32_t g;
	if (!name || wasi_fd_add(w, fd, ro, true, &g) != 0) {
		int e = errno;
		free(name);
		close(fd);
		errno = e;
		return -1;
	}
	w->fds[g].preopen = name;
	return 0;
}

uint32_t wasi_path_copy(const struct wasi *w, uint32_t ptr, uint32_t len, char *buf, size_t size)
{
	const uint8_t *p = wasi_mem(w, ptr, len);
	if (!p)
		return W_EFAULT;
	if (len >= size)
		return W_ENAMETOOLONG;
	if (memchr(p, '\0', len))
		return W_EINVAL;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return W_ESUCCESS;
}

static uint8_t filetype(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return W_FT_REG;
	case S_IFDIR: return W_FT_DIR;
	case S_IFCHR: return W_FT_CHAR;
	case S_IFBLK: return W_FT_BLOCK;
	case S_IFLNK: return W_FT_SYMLINK;
	case S_IFSOCK: return W_FT_SOCK_STREAM;
	default: return W_FT_UNKNOWN;
	}
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static uint64_t ns(struct timespec t)
{
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* struct filestat: dev, ino, filetype (u8 at 16), nlink, size, atim,
 * mtim, ctim; 64 bytes */
void wasi_put_filestat(uint8_t *o, const struct stat *sb);
void wasi_put_filestat(uint8_t *o, const struct stat *sb)
{
	memset(o, 0, 64);
	put64(o, sb->st_dev);
	put64(o + 8, sb->st_ino);
	o[16] = filetype(sb->st_mode);
	put64(o + 24, sb->st_nlink);
	put64(o + 32, (uint64_t)sb->st_size);
	put64(o + 40, ns(sb->st_atim));
	put64(o + 48, ns(sb->st_mtim));
	put64(o + 56, ns(sb->st_ctim));
}

uint32_t wasi_fd_filestat_get(struct wasi *w, uint32_t fd, uint32_t out)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	uint8_t *o = wasi_mem(w, out, 64);
	if (!f)
		return W_EBADF;
	if (!o)
		return W_EFAULT;
	struct stat sb;
	if (fstat(f->host, &sb) != 0)
		return wasi_errno(errno);
	wasi_put_filestat(o, &sb);
	return W_ESUCCESS;
}

/* struct fdstat: filetype u8, flags u16 at 2, rights at 8 and 16 */
uint32_t wasi_fd_fdstat_get(struct wasi *w, uint32_t fd, uint32_t out)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	uint8_t *o = wasi_mem(w, out, 24);
	if (!f)
		return W_EBADF;
	if (!o)
		return W_EFAULT;
	struct stat sb;
	if (fstat(f->host, &sb) != 0)
		return wasi_errno(errno);
	int fl = fcntl(f->host, F_GETFL);
	uint16_t flags = 0;
	if (fl >= 0 && (fl & O_APPEND))
		flags |= W_FDFLAG_APPEND;
	if (fl >= 0 && (fl & O_NONBLOCK))
		flags |= W_FDFLAG_NONBLOCK;
	memset(o, 0, 24);
	o[0] = filetype(sb.st_mode);
	memcpy(o + 2, &flags, 2);
	/* rights are not what confines the guest (the table and the
	 * resolver are); wasi-libc asks for them before every open */
	put64(o + 8, W_RIGHTS_ALL);
	put64(o + 16, W_RIGHTS_ALL);
	return W_ESUCCESS;
}

uint32_t wasi_fd_fdstat_set_flags(struct wasi *w, uint32_t fd, uint32_t flags)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	if (flags & ~(W_FDFLAG_APPEND | W_FDFLAG_NONBLOCK))
		return W_ENOTSUP;
	int fl = fcntl(f->host, F_GETFL);
	if (fl < 0)
		return wasi_errno(errno);
	fl &= ~(O_APPEND | O_NONBLOCK);
	if (flags & W_FDFLAG_APPEND)
		fl |= O_APPEND;
	if (flags & W_FDFLAG_NONBLOCK)
		fl |= O_NONBLOCK;
	return fcntl(f->host, F_SETFL, fl) == 0 ? W_ESUCCESS : wasi_errno(errno);
}

uint32_t wasi_fd_fdstat_set_rights(struct wasi *w, uint32_t fd, uint64_t base, uint64_t inh)
{
	(void)base;
	(void)inh;
	return wasi_fd_get(w, fd) ? W_ESUCCESS : W_EBADF;
}

uint32_t wasi_fd_prestat_get(struct wasi *w, uint32_t fd, uint32_t out)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	uint8_t *o = wasi_mem(w, out, 8);
	if (!f || !f->preopen)
		return W_EBADF;
	if (!o)
		return W_EFAULT;
	uint32_t len = (uint32_t)strlen(f->preopen);
	memset(o, 0, 8);
	memcpy(o + 4, &len, 4);
	return W_ESUCCESS;
}

uint32_t wasi_fd_prestat_dir_name(struct wasi *w, uint32_t fd, uint32_t path, uint32_t len)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f || !f->preopen)
		return W_EBADF;
	size_t n = strlen(f->preopen);
	if (len < n)
		return W_ENAMETOOLONG;
	uint8_t *o = wasi_mem(w, path, n);
	if (!o)
		return W_EFAULT;
	memcpy(o, f->preopen, n);
	return W_ESUCCESS;
}

uint32_t wasi_fd_close(struct wasi *w, uint32_t fd)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	wasi_disk_closing(w, f);
	/* 0, 1, 2 stay open for the host: the guest loses only its name */
	if (fd > 2)
		close(f->host);
	free(f->preopen);
	*f = (struct wasi_fd){ .host = -1 };
	return W_ESUCCESS;
}

uint32_t wasi_fd_renumber(struct wasi *w, uint32_t fd, uint32_t to)
{
	struct wasi_fd *f = wasi_fd_get(w, fd), *t = wasi_fd_get(w, to);
	if (!f || !t)
		return W_EBADF;
	if (fd == to)
		return W_ESUCCESS;
	if (to > 2)
		close(t->host);
	free(t->preopen);
	*t = *f;
	*f = (struct wasi_fd){ .host = -1 };
	return W_ESUCCESS;
}

uint32_t wasi_fd_seek(struct wasi *w, uint32_t fd, uint64_t off, uint32_t whence, uint32_t newoff)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	uint8_t *o = wasi_mem(w, newoff, 8);
	if (!f)
		return W_EBADF;
	if (!o)
		return W_EFAULT;
	int wh = whence == 0 ? SEEK_SET : whence == 1 ? SEEK_CUR : whence == 2 ? SEEK_END : -1;
	if (wh < 0)
		return W_EINVAL;
	if (f->dir)
		return W_EBADF;
	off_t r = lseek(f->host, (off_t)off, wh);
	if (r < 0)
		return wasi_errno(errno);
	put64(o, (uint64_t)r);
	return W_ESUCCESS;
}

uint32_t wasi_fd_tell(struct wasi *w, uint32_t fd, uint32_t out)
{
	return wasi_fd_seek(w, fd, 0, 1, out);
}

uint32_t wasi_fd_filestat_set_size(struct wasi *w, uint32_t fd, uint64_t size)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	if (f->ro)
		return W_EROFS;
	if (size > INT64_MAX)
		return W_EINVAL;
	if (wasi_disk_fit(w, f, 0, size) < size)
		return W_ENOSPC;
	if (ftruncate(f->host, (off_t)size) != 0)
		return wasi_errno(errno);
	wasi_disk_set(w, f, size);
	return W_ESUCCESS;
}

/* the times of fstflags: what utimensat takes */
int wasi_times(uint64_t atim, uint64_t mtim, uint32_t fl, struct timespec ts[2]);
int wasi_times(uint64_t atim, uint64_t mtim, uint32_t fl, struct timespec ts[2])
{
	if ((fl & ~0xfu) || ((fl & W_FST_ATIM) && (fl & W_FST_ATIM_NOW)) ||
	    ((fl & W_FST_MTIM) && (fl & W_FST_MTIM_NOW)))
		return -1;
	ts[0].tv_sec = (time_t)(atim / 1000000000ull);
	ts[0].tv_nsec = (long)(atim % 1000000000ull);
	ts[1].tv_sec = (time_t)(mtim / 1000000000ull);
	ts[1].tv_nsec = (long)(mtim % 1000000000ull);
	if (fl & W_FST_ATIM_NOW)
		ts[0].tv_nsec = UTIME_NOW;
	else if (!(fl & W_FST_ATIM))
		ts[0].tv_nsec = UTIME_OMIT;
	if (fl & W_FST_MTIM_NOW)
		ts[1].tv_nsec = UTIME_NOW;
	else if (!(fl & W_FST_MTIM))
		ts[1].tv_nsec = UTIME_OMIT;
	return 0;
}

uint32_t wasi_fd_filestat_set_times(struct wasi *w, uint32_t fd, uint64_t atim, uint64_t mtim, uint32_t flags)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	if (f->ro)
		return W_EROFS;
	struct timespec ts[2];
	if (wasi_times(atim, mtim, flags, ts) != 0)
		return W_EINVAL;
	return futimens(f->host, ts) == 0 ? W_ESUCCESS : wasi_errno(errno);
}

uint32_t wasi_fd_advise(struct wasi *w, uint32_t fd, uint64_t off, uint64_t len, uint32_t advice)
{
	(void)off;
	(void)len;
	if (advice > 5)
		return W_EINVAL;
	return wasi_fd_get(w, fd) ? W_ESUCCESS : W_EBADF;
}

uint32_t wasi_fd_allocate(struct wasi *w, uint32_t fd, uint64_t off, uint64_t len)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	if (f->ro)
		return W_EROFS;
	if (off > INT64_MAX || len > INT64_MAX || off + len > INT64_MAX)
		return W_EINVAL;
	if (wasi_disk_fit(w, f, off, len) < len)
		return W_ENOSPC;
	int e = posix_fallocate(f->host, (off_t)off, (off_t)len);
	if (!e && off + len > wasi_disk_size(w, f))
		wasi_disk_set(w, f, off + len);
	return wasi_errno(e);
}

uint32_t wasi_fd_datasync(struct wasi *w, uint32_t fd)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	return fdatasync(f->host) == 0 || errno == EINVAL ? W_ESUCCESS : wasi_errno(errno);
}

uint32_t wasi_fd_sync(struct wasi *w, uint32_t fd)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	return fsync(f->host) == 0 || errno == EINVAL ? W_ESUCCESS : wasi_errno(errno);
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static uint8_t dtype(unsigned char t)
{
	switch (t) {
	case DT_REG: return W_FT_REG;
	case DT_DIR: return W_FT_DIR;
	case DT_CHR: return W_FT_CHAR;
	case DT_BLK: return W_FT_BLOCK;
	case DT_LNK: return W_FT_SYMLINK;
	case DT_SOCK: return W_FT_SOCK_STREAM;
	default: return W_FT_UNKNOWN;
	}
}

/* Entries from the cookie on (the kernel's d_off of the one before, 0 for
 * the first), each a 24-byte dirent and its name, the last one cut where
 * the buffer ends: a full buffer tells wasi-libc to ask again. */
uint32_t wasi_fd_readdir(struct wasi *w, uint32_t fd, uint32_t buf, uint32_t len, uint64_t cookie, uint32_t used)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	uint8_t *o = wasi_mem(w, buf, len), *u = wasi_mem(w, used, 4);
	if (!f)
		return W_EBADF;
	if (!o || !u)
		return W_EFAULT;
	if (!f->dir)
		return W_ENOTDIR;
	if (cookie > INT64_MAX)
		return W_EINVAL;
	if (lseek(f->host, (off_t)cookie, SEEK_SET) < 0)
		return wasi_errno(errno);
	char kb[8192];
	uint32_t at = 0;
	while (at < len) {
		long n = syscall(SYS_getdents64, f->host, kb, sizeof(kb));
		if (n < 0)
			return wasi_errno(errno);
		if (n == 0)
			break;
		for (long k = 0; k < n && at < len;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(kb + k);
			uint8_t ent[24 + 256];
			uint32_t nl = (uint32_t)strlen(d->d_name);
			memset(ent, 0, 24);
			put64(ent, (uint64_t)d->d_off);
			put64(ent + 8, d->d_ino);
			memcpy(ent + 16, &nl, 4);
			ent[20] = dtype(d->d_type);
			memcpy(ent + 24, d->d_name, nl);
			uint32_t el = 24 + nl, c = el < len - at ? el : len - at;
			memcpy(o + at, ent, c);
			at += c;
			k += d->d_reclen;
		}
	}
	memcpy(u, &at, 4);
	return W_ESUCCESS;
}
