/* Paths as the kernel walks them: from the cwd or the dirfd, one component
 * at a time, each symlink replaced by its target (the last one only where
 * the call follows it), ".." taken from where the walk really is, so
 * /tmp/link/.. with link -> /etc is "/", and /tmp/../etc is /etc.  The
 * /proc magic links (/proc/PID/root, cwd, exe, fd/N) read as the path of
 * what they point at.  Stack buffers and raw calls only: this runs in
 * vfork children and in any thread. */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

#define MAXLINKS 40
#define DELETED " (deleted)"

static long readlink_raw(const char *path, char *buf, size_t len)
{
	return sl_sys(SYS_readlinkat, AT_FDCWD, (long)path, (long)buf, (long)len, 0, 0);
}

/* A descriptor's path; 0, or -EBADF for what has none (a pipe...) */
int sl_fd_path(int fd, char *out)
{
	char proc[32] = "/proc/self/fd/";
	char digits[12];
	int n = 0;
	if (fd < 0)
		return -EBADF;
	do
		digits[n++] = (char)('0' + fd % 10);
	while ((fd /= 10) && n < 11);
	size_t at = strlen(proc);
	while (n)
		proc[at++] = digits[--n];
	proc[at] = 0;
	long l = readlink_raw(proc, out, PATH_MAX - 1);
	if (l < 0)
		return (int)l;
	out[l] = 0;
	if (out[0] != '/')
		return -EBADF;
	size_t dl = strlen(DELETED);
	if ((size_t)l > dl && !strcmp(out + l - dl, DELETED))
		out[l - dl] = 0;
	return 0;
}

static void pop(char *out, size_t *len)
{
	while (*len > 1 && out[*len - 1] != '/')
		(*len)--;
	if (*len > 1)
		(*len)--;
	out[*len] = 0;
}

/* out is /proc/<our pid>/... */
static int ours(const char *out)
{
	char self[32];
	size_t l = sl_proc_pid(self, sl_getpid());
	return !strncmp(out, self, l) && out[l] == '/';
}

int sl_resolve(int dirfd, const char *path, int flags, char *out, int *own)
{
	char rest[3 * PATH_MAX];	/* what is left to walk, kept at the end */
	char link[PATH_MAX];
	size_t plen = strlen(path);
	int links = 0;
	*own = 0;
	if (plen >= PATH_MAX)
		return -ENAMETOOLONG;
	if (plen == 0 && !(flags & SL_EMPTY))
		return -ENOENT;
	int follow_last = !(flags & SL_NOFOLLOW) || (plen && path[plen - 1] == '/');
	if (path[0] == '/') {
		strcpy(out, "/");
	} else if (dirfd == AT_FDCWD) {
		long r = sl_sys(SYS_getcwd, (long)out, PATH_MAX, 0, 0, 0, 0);
		if (r < 0)
			return (int)r;
		if (out[0] != '/')
			return -ENOENT;	/* "(unreachable)": outside our root */
	} else {
		int r = sl_fd_path(dirfd, out);
		if (r < 0)
			return r;
	}
	size_t olen = strlen(out);
	size_t pos = sizeof(rest) - plen - 1;
	memcpy(rest + pos, path, plen + 1);
	for (;;) {
		while (rest[pos] == '/')
			pos++;
		if (!rest[pos])
			break;
		const char *comp = rest + pos;
		size_t clen = strcspn(comp, "/");
		pos += clen;
		size_t p2 = pos;
		while (rest[p2] == '/')
			p2++;
		int last = !rest[p2];
		if (clen == 1 && comp[0] == '.')
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			pop(out, &olen);
			continue;
		}
		if (olen + 1 + clen >= PATH_MAX)
			return -ENAMETOOLONG;
		if (olen > 1)
			out[olen++] = '/';
		memcpy(out + olen, comp, clen);
		olen += clen;
		out[olen] = 0;
		if (last && !follow_last)
			break;
		long n = readlink_raw(out, link, sizeof(link) - 1);
		if (n < 0)
			continue;	/* not a link, or not there: the call itself will say */
		link[n] = 0;
		if (++links > MAXLINKS)
			return -ELOOP;
		if (link[0] != '/' && !strncmp(out, "/proc/", 6) && strchr(link, ':')) {
			/* a magic link to something without a path: judged as
			 * the link itself, or as our own descriptor */
			if (last && ours(out))
				*own = 1;
			continue;
		}
		size_t dl = strlen(DELETED);
		if (link[0] == '/' && !strncmp(out, "/proc/", 6) && (size_t)n > dl &&
		    !strcmp(link + n - dl, DELETED))
			link[n -= (long)dl] = 0;
		if (link[0] == '/') {
			strcpy(out, "/");
			olen = 1;
		} else {
			pop(out, &olen);
		}
		if ((size_t)n + 1 > pos)
			return -ENAMETOOLONG;
		rest[--pos] = '/';
		pos -= (size_t)n;
		memcpy(rest + pos, link, (size_t)n);
	}
	return 0;
}
