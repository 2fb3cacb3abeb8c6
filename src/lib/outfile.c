/*
 * --stdout FILE, --stderr FILE: the program writes into a file nobody can
 * name until the run is over, which is then put in FILE's place.  A program
 * that may write FILE's directory could otherwise rename FILE away and put
 * one of its own there (past --max-output, or anything at all) for the
 * grader to read, while the supervisor wrote into the renamed one.
 *
 * The file is made with O_TMPFILE in FILE's directory (held open from the
 * start, so renaming the directory changes nothing either) and linked in
 * under a temporary name, then renamed over FILE, once every process of the
 * run is gone.  Where the file system has no O_TMPFILE (FUSE, older
 * overlayfs) the file gets a random hidden name there instead; at the end
 * the name must still be our file, or what we hold is copied to a new one,
 * and under --max-output a file is cut to what the supervisor wrote into
 * it.  An existing FILE keeps its owner and mode (never writable by
 * others).  An existing FILE that is not a regular one (a pipe, /dev/null)
 * is opened as it is; a link at FILE is refused.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

static void temp_name(char *buf, size_t len)
{
	uint64_t r = 0;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint64_t)getpid() << 20 ^ (uint64_t)(uintptr_t)buf;
	snprintf(buf, len, ".sandlock-out.%016llx", (unsigned long long)r);
}

/* A new file named tmp in the directory, or -1. */
static int create_named(struct sl_outfile *o)
{
	for (int i = 0; i < 16; i++) {
		temp_name(o->tmp, sizeof(o->tmp));
		int fd = openat(o->dir, o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int sl_outfile_open(struct sl_outfile *o, const char *path)
{
	*o = (struct sl_outfile){ .fd = -1, .dir = -1 };
	struct stat st;
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			errno = ELOOP;
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			/* a pipe, a device: what the grader set up, as it is */
			o->fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
			return o->fd;
		}
		o->keep_owner = true;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
		o->mode = st.st_mode & 0644;
	} else if (errno != ENOENT) {
		return -1;
	}
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	o->base = strdup(slash ? slash + 1 : path);
	if (!dir || !o->base || !*o->base) {
		free(dir);
		errno = o->base && !*o->base ? EISDIR : ENOMEM;
		return -1;
	}
	o->dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (o->dir < 0)
		return -1;
	o->fd = openat(o->dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (o->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		o->fd = create_named(o);
	else
		o->anonymous = o->fd >= 0;
	if (o->fd < 0 && o->keep_owner && (errno == EACCES || errno == EPERM || errno == EROFS)) {
		/* a directory we may not write: nor may the program (as
		 * root we may write any, and as another user it is us), so
		 * the file the grader made is written where it is */
		close(o->dir);
		free(o->base);
		*o = (struct sl_outfile){ .fd = -1, .dir = -1 };
		o->fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	}
	return o->fd;
}

bool sl_outfile_same(const struct sl_outfile *a, const char *path)
{
	if (a->dir < 0 || !a->base)
		return false;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	struct stat x, y;
	bool same = dir && !strcmp(base, a->base) && stat(dir, &x) == 0 && fstat(a->dir, &y) == 0 &&
		    x.st_dev == y.st_dev && x.st_ino == y.st_ino;
	free(dir);
	return same;
}

/* What we hold, under a new temporary name: the program took the old one. */
static int copy_out(struct sl_outfile *o)
{
	int to = create_named(o);
	if (to < 0)
		return -1;
	off_t off = 0;
	struct stat st;
	int r = fstat(o->fd, &st);
	while (r == 0 && off < st.st_size) {
		ssize_t n = sendfile(to, o->fd, &off, (size_t)(st.st_size - off));
		if (n <= 0)
			r = -1;
	}
	if (r != 0) {
		int e = errno;
		close(to);
		unlinkat(o->dir, o->tmp, 0);
		errno = e ? e : EIO;
		return -1;
	}
	close(o->fd);
	o->fd = to;
	return 0;
}

int sl_outfile_place(struct sl_outfile *o, int64_t size)
{
	if (o->dir < 0 || o->placed)
		return 0;
	if (!o->anonymous) {
		/* our name must still be our file, or what we hold is copied */
		struct stat a, b;
		if (fstatat(o->dir, o->tmp, &b, AT_SYMLINK_NOFOLLOW) != 0 || fstat(o->fd, &a) != 0 ||
		    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
			if (copy_out(o) != 0)
				return -1;
		}
	}
	if (size >= 0)
		ftruncate(o->fd, size);
	if (o->keep_owner && (fchown(o->fd, o->uid, o->gid) == 0 || geteuid() != 0))
		fchmod(o->fd, o->mode);
	if (o->anonymous) {
		char self[64];
		snprintf(self, sizeof(self), "/proc/self/fd/%d", o->fd);
		int r = -1;
		for (int i = 0; i < 16 && r != 0; i++) {
			temp_name(o->tmp, sizeof(o->tmp));
			/* root may link a descriptor; anyone may its /proc link */
			r = linkat(o->fd, "", o->dir, o->tmp, AT_EMPTY_PATH);
			if (r != 0 && errno != EEXIST)
				r = linkat(AT_FDCWD, self, o->dir, o->tmp, AT_SYMLINK_FOLLOW);
			if (r != 0 && errno != EEXIST)
				return -1;
		}
		if (r != 0)
			return -1;
	}
	if (renameat(o->dir, o->tmp, o->dir, o->base) != 0) {
		int e = errno;
		unlinkat(o->dir, o->tmp, 0);
		errno = e;
		return -1;
	}
	o->placed = true;
	return 0;
}

void sl_outfile_release(struct sl_outfile *o)
{
	if (o->dir >= 0 && !o->anonymous && !o->placed && o->tmp[0]) {
		/* the run never got that far: our name goes, if it is ours */
		struct stat a, b;
		if (o->fd >= 0 && fstat(o->fd, &a) == 0 &&
		    fstatat(o->dir, o->tmp, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			unlinkat(o->dir, o->tmp, 0);
	}
	if (o->fd >= 0)
		close(o->fd);
	if (o->dir >= 0)
		close(o->dir);
	free(o->base);
	*o = (struct sl_outfile){ .fd = -1, .dir = -1 };
}
