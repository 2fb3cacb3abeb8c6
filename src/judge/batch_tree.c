/*
 * Batches: the working directory, snapshot in memory, checked and restored
 * between tests (why: batch.c's opening comment).
 */
#include "batch.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

void sl_tree_free(struct tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].path);
		free(t->v[i].data);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Remove everything under dirfd, never following a link, however deep
 * and whatever modes the program gave it (the scratch directory's walk:
 * one directory open at a time, no recursion). */
int sl_batch_empty_dir(int dirfd)
{
	/* a directory we could not write into cannot be emptied: make it
	 * ours to change (it is ours, or root's as root) */
	fchmod(dirfd, 0700);
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* an offset of its own */
	if (fd < 0)
		return -1;
	return sl_remove_tree(fd) ? 0 : -1;
}

static int tree_add(struct tree *t, const char *path, bool dir, mode_t mode, char *data,
		    size_t size)
{
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 16;
		struct entry *nv = realloc(t->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		t->v = nv;
		t->cap = nc;
	}
	struct entry *e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	if (!(e->path = strdup(path)))
		return -1;
	e->dir = dir;
	e->mode = mode;
	e->data = data;
	e->size = size;
	t->n++;
	return 0;
}

/* Read the tree under dirfd into memory: directories and regular files of
 * one link; anything else (links, fifos, sockets, devices) is left out,
 * and so is gone once the tree is written back. */
int sl_tree_read(struct tree *t, int dirfd, const char *prefix, uint64_t max_file,
		 uint64_t max_tree, int depth, char *err, size_t errlen)
{
	if (depth > 32)
		FAIL("the working directory is nested more than 32 deep");
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* an offset of its own */
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		FAIL("cannot read the working directory: %s", strerror(errno));
	}
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char path[PATH_MAX];
		if ((size_t)snprintf(path, sizeof(path), "%s%s", prefix, de->d_name) >= sizeof(path))
			continue;
		if (t->n >= 10000) {
			snprintf(err, errlen, "the working directory holds more than 10000 entries");
			rc = -1;
			break;
		}
		struct stat st;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				continue;
			if (tree_add(t, path, true, st.st_mode & 0777, NULL, 0) != 0) {
				close(sub);
				snprintf(err, errlen, "out of memory");
				rc = -1;
				break;
			}
			char sp[PATH_MAX + 1];
			snprintf(sp, sizeof(sp), "%s/", path);
			rc = sl_tree_read(t, sub, sp, max_file, max_tree, depth + 1, err, errlen);
			close(sub);
			continue;
		}
		if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
			continue;
		int f = openat(dirfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat fst;
		if (f < 0 || fstat(f, &fst) != 0 || !S_ISREG(fst.st_mode) || fst.st_nlink != 1) {
			if (f >= 0)
				close(f);
			continue;
		}
		char *data = NULL;
		size_t len = 0;
		bool over = false;
		if (sl_batch_read_fd(f, max_file, &data, &len, &over) != 0 || over) {
			close(f);
			free(data);
			snprintf(err, errlen, over ? "%s is larger than max_copy (%llu bytes)" :
				 "cannot read %s", path, (unsigned long long)max_file);
			rc = -1;
			break;
		}
		close(f);
		t->bytes += len;
		if (t->bytes > max_tree) {
			free(data);
			snprintf(err, errlen, "the working directory holds more than max_tree "
				 "(%llu bytes)", (unsigned long long)max_tree);
			rc = -1;
			break;
		}
		if (tree_add(t, path, false, st.st_mode & 0777, data, len) != 0) {
			free(data);
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
	}
	closedir(d);
	return rc;
fail:
	return -1;
}

int sl_batch_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Open the directory holding path (relative to top), component by
 * component, never following a link. */
static int open_parent(int top, const char *path, const char **base)
{
	int fd = dup(top);
	char comp[256];
	const char *p = path, *slash;
	while (fd >= 0 && (slash = strchr(p, '/'))) {
		size_t n = (size_t)(slash - p);
		if (n >= sizeof(comp)) {
			close(fd);
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = 0;
		int sub = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = sub;
		p = slash + 1;
	}
	*base = p;
	return fd;
}

/* Write the tree back into the emptied directory: the caller's own,
 * without write permission for anyone (directories are made writable
 * while they are filled, the deepest first protected last). */
static int tree_write(struct tree *t, int top, char *err, size_t errlen)
{
	for (size_t i = 0; i < t->n; i++) {
		struct entry *e = &t->v[i];
		const char *base;
		int pfd = open_parent(top, e->path, &base);
		if (pfd < 0)
			FAIL("cannot restore %s: %s", e->path, strerror(errno));
		fchmod(pfd, 0700);
		int rc;
		if (e->dir) {
			rc = mkdirat(pfd, base, 0700);
		} else {
			int f = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				       0600);
			rc = f < 0 ? -1 : sl_batch_write_all(f, e->data, e->size);
			if (f >= 0) {
				if (rc == 0)
					rc = fchmod(f, (e->mode & 0555) | 0444);
				close(f);
			}
		}
		int saved = errno;
		close(pfd);
		if (rc != 0)
			FAIL("cannot restore %s: %s", e->path, strerror(saved));
	}
	/* directories read-only, from the deepest up (they come after their
	 * parents in the list) */
	for (size_t i = t->n; i-- > 0;) {
		struct entry *e = &t->v[i];
		if (!e->dir)
			continue;
		const char *base;
		int pfd = open_parent(top, e->path, &base);
		if (pfd < 0)
			FAIL("cannot restore %s: %s", e->path, strerror(errno));
		int rc = fchmodat(pfd, base, 0555, 0);
		close(pfd);
		if (rc != 0)
			FAIL("cannot restore %s: %s", e->path, strerror(errno));
	}
	if (fchmod(top, 0555) != 0)
		FAIL("cannot restore the working directory: %s", strerror(errno));
	return 0;
fail:
	return -1;
}

/* What the tree looks like now, to compare with before each test. */
static int tree_stamp(struct tree *t, int top)
{
	struct stat st;
	if (fstat(top, &st) != 0)
		return -1;
	t->top_ctime = st.st_ctim;
	t->top_ino = st.st_ino;
	for (size_t i = 0; i < t->n; i++) {
		const char *base;
		int pfd = open_parent(top, t->v[i].path, &base);
		int rc = pfd < 0 ? -1 : fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW);
		if (pfd >= 0)
			close(pfd);
		if (rc != 0)
			return -1;
		t->v[i].ino = st.st_ino;
		t->v[i].ctime = st.st_ctim;
	}
	return 0;
}

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Unchanged since written?  A change to a file's bytes, mode or owner,
 * or to a directory's entries, moves its change time. */
bool sl_tree_intact(const struct tree *t, int top)
{
	struct stat st;
	if (fstat(top, &st) != 0 || st.st_ino != t->top_ino || !same_time(st.st_ctim, t->top_ctime))
		return false;
	for (size_t i = 0; i < t->n; i++) {
		const struct entry *e = &t->v[i];
		const char *base;
		int pfd = open_parent(top, e->path, &base);
		int rc = pfd < 0 ? -1 : fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW);
		if (pfd >= 0)
			close(pfd);
		if (rc != 0 || st.st_ino != e->ino || !same_time(st.st_ctim, e->ctime) ||
		    (e->dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) ||
		    (!e->dir && (uint64_t)st.st_size != e->size))
			return false;
	}
	return true;
}

int sl_tree_restore(struct tree *t, int top, char *err, size_t errlen)
{
	if (sl_batch_empty_dir(top) != 0)
		FAIL("cannot empty the working directory");
	if (tree_write(t, top, err, errlen) != 0)
		return -1;
	if (tree_stamp(t, top) != 0)
		FAIL("cannot stat the working directory: %s", strerror(errno));
	return 0;
fail:
	return -1;
}
