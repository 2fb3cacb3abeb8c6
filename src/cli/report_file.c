/* --report FILE: where the report goes, decided before the run and written
 * after it, so that nothing the program does in between can change what the
 * grader reads.
 *
 * A regular file (or a new one) is written under a temporary name in the
 * same directory once every process of the run is gone, then renamed over
 * FILE: a file the program renamed away, replaced or edited in a directory
 * it may write is simply replaced.  The directory is held open from the
 * start, so renaming it does not redirect the report either.  /dev/stdout,
 * /dev/stderr and /dev/fd/N are the caller's own descriptors, taken as they
 * are (never resolved through /proc or a link); any other existing file that
 * is not a regular one (a pipe, /dev/null) is opened once, without following
 * a link.  A link at FILE is refused: the program or another user may have
 * planted it. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int caller_fd(const char *path)
{
	uint64_t n;
	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	if (!strncmp(path, "/dev/fd/", 8) && sl_parse_u64(path + 8, 1u << 20, &n) == 0)
		return (int)n;
	return -1;
}

int sl_report_file_open(struct sl_report_file *rf, const char *path, char *err, size_t errlen)
{
	rf->fd = rf->dir = -1;
	rf->base = NULL;
	rf->keep_owner = false;
	int n = caller_fd(path);
	if (n >= 0) {
		rf->fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
		if (rf->fd < 0 || (fcntl(rf->fd, F_GETFL) & O_ACCMODE) == O_RDONLY) {
			snprintf(err, errlen, "cannot write report %s: %s", path,
				 rf->fd < 0 ? "not an open descriptor" : "open for reading only");
			return -1;
		}
		return 0;
	}
	struct stat st;
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen, "cannot write report %s: it is a symbolic link", path);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "cannot write report %s: it is a directory", path);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			rf->fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
			if (rf->fd < 0) {
				snprintf(err, errlen, "cannot write report %s: %s", path, strerror(errno));
				return -1;
			}
			return 0;
		}
		rf->keep_owner = true;
		rf->uid = st.st_uid;
		rf->gid = st.st_gid;
		rf->mode = st.st_mode;
	} else if (errno != ENOENT) {
		snprintf(err, errlen, "cannot write report %s: %s", path, strerror(errno));
		return -1;
	}
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	rf->base = strdup(slash ? slash + 1 : path);
	if (!dir || !rf->base || !*rf->base) {
		free(dir);
		snprintf(err, errlen, "cannot write report %s: %s", path,
			 rf->base && !*rf->base ? "no file name" : "out of memory");
		return -1;
	}
	rf->dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int e = errno;
	if (rf->dir >= 0 && faccessat(rf->dir, ".", W_OK | X_OK, AT_EACCESS) != 0)
		e = errno, close(rf->dir), rf->dir = -1;
	free(dir);
	if (rf->dir < 0) {
		snprintf(err, errlen, "cannot write report %s: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -ENOSPC;
		off += (size_t)w;
	}
	return 0;
}

int sl_report_file_write(struct sl_report_file *rf, const char *buf, size_t len,
			 char *err, size_t errlen)
{
	int e;
	if (rf->fd >= 0) {
		e = write_all(rf->fd, buf, len);
		if (e < 0)
			snprintf(err, errlen, "cannot write report: %s", strerror(-e));
		return e < 0 ? -1 : 0;
	}
	char tmp[64];
	int fd = -1;
	for (int i = 0; i < 100 && fd < 0; i++) {
		snprintf(tmp, sizeof(tmp), ".sandlock-report.%d.%d", (int)getpid(), i);
		fd = openat(rf->dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot write report %s: %s", rf->base, strerror(errno));
		return -1;
	}
	/* A file the caller made before the run keeps its owner and mode
	 * (never writable by others); where it cannot, the report stays ours. */
	if (rf->keep_owner) {
		if (fchown(fd, rf->uid, rf->gid) == 0 || geteuid() != 0)
			fchmod(fd, rf->mode & 0644);
	}
	e = write_all(fd, buf, len);
	if (close(fd) != 0 && e == 0 && errno != EINTR)
		e = -errno;
	if (e == 0 && renameat(rf->dir, tmp, rf->dir, rf->base) != 0)
		e = -errno;
	if (e < 0) {
		unlinkat(rf->dir, tmp, 0);
		snprintf(err, errlen, "cannot write report %s: %s", rf->base, strerror(-e));
		return -1;
	}
	return 0;
}

void sl_report_file_close(struct sl_report_file *rf)
{
	if (rf->fd >= 0)
		close(rf->fd);
	if (rf->dir >= 0)
		close(rf->dir);
	free(rf->base);
	rf->fd = rf->dir = -1;
	rf->base = NULL;
	rf->keep_owner = false;
}
