/*
 * --disk in the WASI host: natively the run's files are a tmpfs of that
 * size, which a guest that writes to the working directory (the host's)
 * never meets; so the host counts what the guest's files grow by and
 * refuses past the cap with ENOSPC, as a full disk would.  A file is
 * counted by its inode, so two descriptors of one file, a rename or a
 * rewrite do not count it twice; what a file held before the run (its
 * size when first opened for writing) is not the run's.
 */
#include "wasi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>

static uint64_t held(const struct wasi_file *e)
{
	return e->cur > e->base ? e->cur - e->base : 0;
}

static struct wasi_file *entry(const struct wasi *w, const struct wasi_fd *f)
{
	if (!w->disk_cap || !f->file || f->file > w->nfiles)
		return NULL;
	return &w->files[f->file - 1];
}

uint32_t wasi_disk_track(struct wasi *w, struct wasi_fd *f, uint64_t base)
{
	if (!w->disk_cap)
		return W_ESUCCESS;
	struct stat sb;
	if (fstat(f->host, &sb) != 0)
		return wasi_errno(errno);
	if (!S_ISREG(sb.st_mode))
		return W_ESUCCESS;
	uint32_t i;
	for (i = 0; i < w->nfiles; i++)
		if (w->files[i].dev == (uint64_t)sb.st_dev && w->files[i].ino == (uint64_t)sb.st_ino)
			break;
	if (i == w->nfiles) {
		struct wasi_file *t = realloc(w->files, (w->nfiles + 1) * sizeof(*t));
		if (!t)
			return W_ENOMEM;
		w->files = t;
		w->files[w->nfiles++] = (struct wasi_file){ .dev = (uint64_t)sb.st_dev,
							    .ino = (uint64_t)sb.st_ino,
							    .base = base, .cur = (uint64_t)sb.st_size };
	}
	f->file = i + 1;
	wasi_disk_set(w, f, (uint64_t)sb.st_size);
	return W_ESUCCESS;
}

uint64_t wasi_disk_fit(const struct wasi *w, const struct wasi_fd *f, uint64_t off, uint64_t len)
{
	const struct wasi_file *e = entry(w, f);
	if (!e)
		return len;
	uint64_t others = w->disk_used - held(e);
	/* the largest the file may be; never below what it already is */
	uint64_t max = others < w->disk_cap ? e->base + (w->disk_cap - others) : e->base;
	if (max < e->cur)
		max = e->cur;
	if (off >= max)
		return 0;
	return len < max - off ? len : max - off;
}

void wasi_disk_set(struct wasi *w, const struct wasi_fd *f, uint64_t size)
{
	struct wasi_file *e = entry(w, f);
	if (!e)
		return;
	w->disk_used -= held(e);
	e->cur = size;
	w->disk_used += held(e);
}

uint64_t wasi_disk_size(const struct wasi *w, const struct wasi_fd *f)
{
	const struct wasi_file *e = entry(w, f);
	return e ? e->cur : 0;
}

uint32_t wasi_disk_find(const struct wasi *w, int dirfd, const char *name)
{
	struct stat sb;
	if (!w->disk_cap || fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_nlink != 1)
		return 0;
	for (uint32_t i = 0; i < w->nfiles; i++)
		if (w->files[i].dev == (uint64_t)sb.st_dev && w->files[i].ino == (uint64_t)sb.st_ino)
			return i + 1;
	return 0;
}

static bool open_by_guest(const struct wasi *w, uint32_t file, const struct wasi_fd *but)
{
	for (uint32_t i = 0; i < w->nfds; i++)
		if (w->fds[i].host >= 0 && w->fds[i].file == file && &w->fds[i] != but)
			return true;
	return false;
}

void wasi_disk_drop(struct wasi *w, uint32_t file)
{
	if (!file || file > w->nfiles)
		return;
	/* removed but open: its bytes stay on the disk until the last close
	 * (wasi_disk_closing) */
	if (open_by_guest(w, file, NULL))
		return;
	struct wasi_file *e = &w->files[file - 1];
	w->disk_used -= held(e);
	/* a new file may take the inode: it starts empty */
	e->base = e->cur = 0;
}

void wasi_disk_closing(struct wasi *w, const struct wasi_fd *f)
{
	struct stat sb;
	if (!entry(w, f) || open_by_guest(w, f->file, f) || fstat(f->host, &sb) != 0 || sb.st_nlink)
		return;
	struct wasi_file *e = &w->files[f->file - 1];
	w->disk_used -= held(e);
	e->base = e->cur = 0;
}
