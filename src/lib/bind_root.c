/*
 * The allow-list where the kernel has no Landlock but the run has a mount
 * namespace of its own: a root of the run's own, a small tmpfs holding only
 * the allowed paths, each bound at its place (read-only unless allowed for
 * writing), into which the child moves (pivot_root) before the program
 * starts; the host's root is then detached, out of reach.  It is what
 * --landlock, --ro and --rw ask for (and what nsjail's --bindmount is),
 * made by the mount table instead of a ruleset, from the same list
 * (landlock.c notes each rule here instead of adding it).
 *
 * Where it differs from Landlock (docs/filesystem.md): a path outside the
 * list does not exist (Landlock: it exists and is refused), and a symbolic
 * link whose target is outside it dangles.  The links on the way to an
 * allowed path are made again in the new root, so that /bin -> usr/bin and
 * /etc/localtime -> /usr/share/zoneinfo/... resolve there as on the host.
 *
 * The supervisor resolves the paths (it may allocate memory and call
 * realpath); the child only makes directories, links and mounts.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* One more operation (duplicates are merged once all are known). */
static int push(struct sl_run *run, const char *path, const char *target, bool rw,
		bool must_exist, bool as_is)
{
	if (run->n_mops == run->cap_mops) {
		int cap = run->cap_mops ? 2 * run->cap_mops : 64;
		struct sl_mount_op *m = realloc(run->mops, (size_t)cap * sizeof(*m));
		if (!m)
			return -1;
		run->mops = m;
		run->cap_mops = cap;
	}
	struct sl_mount_op *op = &run->mops[run->n_mops];
	memset(op, 0, sizeof(*op));
	op->path = strdup(path);
	op->target = target ? strdup(target) : NULL;
	if (!op->path || (target && !op->target)) {
		free(op->path);
		free(op->target);
		return -1;
	}
	op->rw = rw;
	op->must_exist = must_exist;
	op->as_is = as_is;
	op->cover = -1;
	run->n_mops++;
	return 0;
}

int sl_bind_root_note(struct sl_run *run, const char *path, bool rw, bool must_exist,
		      bool child_view)
{
	/* under the run's own /tmp, /var/tmp or /dev/shm the child sees only
	 * what was bound back (namespaces.c): there as with a ruleset, a
	 * path it cannot see is no failure */
	static const char *const own[] = { "/tmp/", "/var/tmp/", "/dev/shm/" };
	for (size_t i = 0; run->mount_tmp && i < sizeof(own) / sizeof(own[0]); i++)
		if (!strncmp(path, own[i], strlen(own[i])))
			must_exist = false;
	/* the child's own places (its /tmp, /dev/shm, /var/tmp, /proc, the
	 * policy's binds): as the child will see them */
	if (child_view)
		return push(run, path, NULL, rw, must_exist, false);
	char cur[PATH_MAX] = "";
	size_t pl = strlen(path);
	if (path[0] != '/' || strstr(path, "/./") || strstr(path, "/../") ||
	    (pl >= 2 && !strcmp(path + pl - 2, "/.")) || (pl >= 3 && !strcmp(path + pl - 3, "/.."))) {
		/* a relative path (the working directory, ".") or one
		 * written with dots: its canonical form, without the links
		 * on the way */
		if (!realpath(path, cur))
			return must_exist ? -1 : 0;
		return push(run, cur, NULL, rw, must_exist, false);
	}
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchrnul(p, '/');
		size_t cl = strlen(cur), n = (size_t)(e - p);
		if (cl + 1 + n >= sizeof(cur)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		cur[cl] = '/';
		memcpy(cur + cl + 1, p, n);
		cur[cl + 1 + n] = 0;
		p = e;
		struct stat st;
		if (lstat(cur, &st) != 0)
			return must_exist ? -1 : 0;
		if (!S_ISLNK(st.st_mode))
			continue;
		char target[PATH_MAX], real[PATH_MAX];
		ssize_t len = readlink(cur, target, sizeof(target) - 1);
		if (len < 0)
			return -1;
		target[len] = 0;
		if (push(run, cur, target, false, false, false) != 0)
			return -1;
		if (!realpath(cur, real))
			return must_exist ? -1 : 0; /* a link to nothing */
		strcpy(cur, real);
	}
	return push(run, cur[0] ? cur : "/", NULL, rw, must_exist, false);
}

int sl_bind_root_note_bind(struct sl_run *run, const char *dst)
{
	return push(run, dst, NULL, false, true, true);
}

/* Landlock lets a link anywhere lead into an allowed path; a root of
 * binds has only the links made in it.  The ones at the top of the
 * host's root that lead into a bound path are made too: merged /usr's
 * /bin, /sbin, /lib, /lib64, without which no dynamically linked program
 * finds its loader.  (One directory, about twenty entries: the host's
 * size does not change it.) */
static int top_links(struct sl_run *run)
{
	DIR *d = opendir("/");
	if (!d)
		return 0;
	int n = run->n_mops, r = 0;
	struct dirent *e;
	while (!r && (e = readdir(d))) {
		char path[PATH_MAX], target[PATH_MAX], real[PATH_MAX];
		if (e->d_type != DT_LNK || strlen(e->d_name) + 2 > sizeof(path))
			continue;
		snprintf(path, sizeof(path), "/%s", e->d_name);
		ssize_t len = readlink(path, target, sizeof(target) - 1);
		if (len < 0 || !realpath(path, real))
			continue;
		target[len] = 0;
		for (int i = 0; i < n; i++) {
			const char *b = run->mops[i].path;
			size_t l = strlen(b);
			if (!run->mops[i].target && b[0] == '/' &&
			    (l == 1 || (!strncmp(real, b, l) && (real[l] == '/' || real[l] == 0)))) {
				r = push(run, path, target, false, false, false);
				break;
			}
		}
	}
	closedir(d);
	return r;
}

/* Parents before what they hold: shorter paths first, then by name (so
 * that equal ones meet and are merged). */
static int by_length(const void *a, const void *b)
{
	const struct sl_mount_op *x = a, *y = b;
	size_t lx = strlen(x->path), ly = strlen(y->path);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	int c = strcmp(x->path, y->path);
	return c ? c : (!x->target) - (!y->target);
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct sl_mount_op *m = arg;
	return strcmp(m[*(const int *)a].path, m[*(const int *)b].path);
}

static int cmp_key(const void *key, const void *elem, void *arg)
{
	const struct sl_mount_op *m = arg;
	return strcmp(key, m[*(const int *)elem].path);
}

/* bsearch with a context (glibc's has none) */
static const int *find(const char *key, const int *base, size_t n, const struct sl_mount_op *m)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmp_key(key, &base[mid], (void *)m);
		if (!c)
			return &base[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The links that lead into the list; the order (parents first), one
 * operation per path (two rules for one path: the wider, as Landlock's
 * rights on one inode add up); and for each, the closest bind above it,
 * which shows it already (found by its parents' names: the cost grows
 * with the list, not with its square). */
int sl_bind_root_finish(struct sl_run *run)
{
	if (top_links(run) != 0)
		return -1;
	struct sl_mount_op *m = run->mops;
	if (!run->n_mops)
		return 0;
	qsort(m, (size_t)run->n_mops, sizeof(*m), by_length);
	int n = 1;
	for (int i = 1; i < run->n_mops; i++) {
		struct sl_mount_op *last = &m[n - 1];
		if (!strcmp(last->path, m[i].path) && !last->target == !m[i].target) {
			last->rw |= m[i].rw;
			last->must_exist |= m[i].must_exist;
			last->as_is |= m[i].as_is;
			free(m[i].path);
			free(m[i].target);
			continue;
		}
		m[n++] = m[i];
	}
	run->n_mops = n;
	int *binds = malloc((size_t)n * sizeof(*binds)), nb = 0;
	if (!binds)
		return -1;
	for (int i = 0; i < n; i++)
		if (!m[i].target)
			binds[nb++] = i;
	qsort_r(binds, (size_t)nb, sizeof(*binds), by_name, m);
	char buf[PATH_MAX];
	for (int i = 0; i < n; i++) {
		m[i].cover = -1;
		snprintf(buf, sizeof(buf), "%s", m[i].path);
		for (char *slash = strrchr(buf, '/'); slash && m[i].cover < 0 && buf[0] == '/';
		     slash = strrchr(buf, '/')) {
			if (slash == buf) {
				/* "/" itself, unless this is "/" */
				const int *f = strcmp(m[i].path, "/") ? find("/", binds, (size_t)nb, m) : NULL;
				if (f)
					m[i].cover = *f;
				break;
			}
			*slash = 0;
			const int *f = find(buf, binds, (size_t)nb, m);
			if (f)
				m[i].cover = *f;
		}
	}
	free(binds);
	return 0;
}

void sl_bind_root_release(struct sl_run *run)
{
	for (int i = 0; i < run->n_mops; i++) {
		free(run->mops[i].path);
		free(run->mops[i].target);
	}
	free(run->mops);
	run->mops = NULL;
	run->n_mops = run->cap_mops = 0;
}

/* Read-only with every mount below it (mount_setattr, 5.12); before that,
 * the top mount only. */
SL_CHILD static int readonly(const char *dst)
{
	struct { uint64_t set, clr, propagation, userns_fd; } a = { 1 /* MOUNT_ATTR_RDONLY */, 0, 0, 0 };
	if (syscall(SYS_mount_setattr, AT_FDCWD, dst, AT_RECURSIVE, &a, sizeof(a)) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	return sl_remount_ro(dst);
}

/* In the child, after every other mount of its namespace: the new root,
 * then into it.  have_tmp: the run's own /tmp is mounted (else its own
 * /dev/shm holds the new root while it is made). */
SL_CHILD int sl_bind_root_enter(const struct sl_run *run, bool have_tmp)
{
	const char *nr = have_tmp ? "/tmp/.sandlock-root" : "/dev/shm/.sandlock-root";
	size_t nl = strlen(nr);
	char cwd[PATH_MAX];
	bool have_cwd = getcwd(cwd, sizeof(cwd)) != NULL;
	/* unbindable: a bind of the run's /tmp (which holds it) into the new
	 * root leaves it out, so that no view of it stays writable */
	/* an inode for each path and each directory on the way (a bind's
	 * mount point, a link, the parents they need: a few per rule) */
	char opts[64];
	snprintf(opts, sizeof(opts), "mode=0755,size=1m,nr_inodes=%d", 4 * run->n_mops + 256);
	if (mkdir(nr, 0700) != 0 || mount("tmpfs", nr, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0 ||
	    mount(NULL, nr, NULL, MS_UNBINDABLE, NULL) != 0)
		return -1;
	for (int i = 0; i < run->n_mops; i++) {
		const struct sl_mount_op *op = &run->mops[i];
		char dst[PATH_MAX + 32];
		if ((size_t)snprintf(dst, sizeof(dst), "%s%s", nr, strcmp(op->path, "/") ? op->path : "") >=
		    sizeof(dst)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		/* the closest bind that shows this path already */
		int cov = op->cover;
		if (op->target) {
			if (cov >= 0)
				continue; /* there, as on the host */
			if (sl_make_parents(dst, nl + 1) != 0 ||
			    (symlink(op->target, dst) != 0 && errno != EEXIST))
				return -1;
			continue;
		}
		struct stat st, there;
		if (stat(op->path, &st) != 0) {
			if (op->must_exist)
				return -1;
			continue;
		}
		if (cov >= 0) {
			/* shown by a bind with the same access: nothing to do;
			 * else a bind of its own over what that one shows */
			if ((run->mops[cov].rw == op->rw && !op->as_is) || lstat(dst, &there) != 0)
				continue;
		} else if (sl_mount_point(dst, nl + 1, S_ISDIR(st.st_mode)) != 0) {
			return -1;
		}
		struct statvfs sv;
		bool ro = op->as_is ? statvfs(op->path, &sv) == 0 && (sv.f_flag & ST_RDONLY) : !op->rw;
		if (mount(op->path, dst, NULL, MS_BIND | MS_REC, NULL) != 0 || (ro && readonly(dst) != 0))
			return -1;
	}
	/* nothing more is made in it (whatever is mounted on top) */
	if (mount(NULL, nr, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
		return -1;
	/* pivot_root(".", "."): the old root ends up on top of the new one,
	 * and goes with its whole tree; no directory of ours is needed for it */
	if (chdir(nr) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 ||
	    chdir("/") != 0)
		return -1;
	/* the working directory, where the new root has it (a relative
	 * --workdir is taken from there) */
	if (have_cwd && chdir(cwd) != 0 && chdir("/") != 0)
		return -1;
	return 0;
}
