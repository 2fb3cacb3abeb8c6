/* Reads and writes: the guest's iovecs checked and turned into ours. */
#include "wasi.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* struct iovec in the guest: u32 buf, u32 len */
static uint32_t iovecs(const struct wasi *w, uint32_t iovs, uint32_t n, struct iovec *v)
{
	if (n > WASI_IOV_MAX)
		return W_EINVAL;
	const uint8_t *p = wasi_mem(w, iovs, (uint64_t)n * 8);
	if (!p)
		return W_EFAULT;
	uint64_t total = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b, l;
		memcpy(&b, p + 8 * i, 4);
		memcpy(&l, p + 8 * i + 4, 4);
		uint8_t *m = wasi_mem(w, b, l);
		if (!m)
			return W_EFAULT;
		total += l;
		v[i].iov_base = m;
		v[i].iov_len = l;
	}
	/* the result is a u32 in the guest */
	if (total > UINT32_MAX)
		return W_EINVAL;
	return W_ESUCCESS;
}

static uint32_t result(struct wasi *w, ssize_t r, uint32_t out)
{
	if (r < 0)
		return wasi_errno(errno);
	uint8_t *o = wasi_mem(w, out, 4);
	if (!o)
		return W_EFAULT;
	uint32_t n = (uint32_t)r;
	memcpy(o, &n, 4);
	return W_ESUCCESS;
}

static uint32_t rw(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t out,
		   bool write, bool at, uint64_t off)
{
	struct wasi_fd *f = wasi_fd_get(w, fd);
	if (!f)
		return W_EBADF;
	if (!wasi_mem(w, out, 4))
		return W_EFAULT;
	if (f->dir)
		return W_EISDIR;
	if (write && f->ro)
		return W_EBADF;
	struct iovec v[WASI_IOV_MAX];
	uint32_t e = iovecs(w, iovs, n, v);
	if (e)
		return e;
	if (at && off > INT64_MAX)
		return W_EINVAL;
	/* --disk: what fits is written, as on a disk that fills; nothing
	 * fits is ENOSPC */
	bool counted = write && w->disk_cap && f->file;
	uint64_t start = off;
	if (counted) {
		int fl = fcntl(f->host, F_GETFL);
		if (fl >= 0 && (fl & O_APPEND)) {
			start = wasi_disk_size(w, f);
		} else if (!at) {
			off_t cur = lseek(f->host, 0, SEEK_CUR);
			if (cur < 0)
				return wasi_errno(errno);
			start = (uint64_t)cur;
		}
		uint64_t total = 0;
		for (uint32_t i = 0; i < n; i++)
			total += v[i].iov_len;
		uint64_t fit = wasi_disk_fit(w, f, start, total);
		if (fit == 0 && total)
			return W_ENOSPC;
		for (uint32_t i = 0; i < n; i++) {
			if (v[i].iov_len > fit)
				v[i].iov_len = fit;
			fit -= v[i].iov_len;
		}
	}
	ssize_t r;
	do {
		if (write)
			r = at ? pwritev(f->host, v, (int)n, (off_t)off) : writev(f->host, v, (int)n);
		else
			r = at ? preadv(f->host, v, (int)n, (off_t)off) : readv(f->host, v, (int)n);
	} while (r < 0 && errno == EINTR);
	if (counted && r > 0 && start + (uint64_t)r > wasi_disk_size(w, f))
		wasi_disk_set(w, f, start + (uint64_t)r);
	return result(w, r, out);
}

uint32_t wasi_fd_read(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t nread)
{
	return rw(w, fd, iovs, n, nread, false, false, 0);
}

uint32_t wasi_fd_write(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint32_t nwritten)
{
	return rw(w, fd, iovs, n, nwritten, true, false, 0);
}

uint32_t wasi_fd_pread(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint64_t off, uint32_t nread)
{
	return rw(w, fd, iovs, n, nread, false, true, off);
}

uint32_t wasi_fd_pwrite(struct wasi *w, uint32_t fd, uint32_t iovs, uint32_t n, uint64_t off, uint32_t nwritten)
{
	return rw(w, fd, iovs, n, nwritten, true, true, off);
}
