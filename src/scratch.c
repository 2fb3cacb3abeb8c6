/*
 * --isolate-tmp: a private scratch directory per run, with an unpredictable
 * name, mode 0700, owned by the identity the program runs as, exported as
 * TMPDIR and HOME, and removed with everything in it when the run ends,
 * however it ends.  Removal never follows a link the program planted.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <unistd.h>

/* Root's shared parent of scratch directories: root-owned, 0711 (nobody
 * else can list it), created once and reused; anything else found under
 * that name (another owner, other permissions, a symlink) is not used. */
static bool root_parent(const char *path)
{
	if (mkdir(path, 0711) != 0 && errno != EEXIST)
		return false;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0711;
	close(fd);
	return ok;
}

static char *random_name(const char *parent)
{
	unsigned char rnd[16];
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return NULL;
	char *name = malloc(strlen(parent) + 2 + 2 * sizeof(rnd) + 1);
	if (!name)
		return NULL;
	char *o = name + sprintf(name, "%s/", parent);
	for (size_t i = 0; i < sizeof(rnd); i++)
		o += sprintf(o, "%02x", rnd[i]);
	return name;
}

int sl_scratch_create(struct sl_run *run, struct sandlock_result *res)
{
	if (!run->p->isolate_tmp)
		return 0;
	const char *base = getenv("TMPDIR");
	if (!base || base[0] != '/')
		base = "/tmp";
	size_t len = strlen(base) + 32;
	char *dir = malloc(len);
	if (!dir)
		return SANDLOCK_ENOMEM;
	if (run->drop_privs) {
		/* Root: every run's program is 65534, so ownership cannot keep
		 * runs apart.  The scratch directory has a 128-bit random name
		 * that only its own run is told, in a directory of root's that
		 * nobody else can list. */
		snprintf(dir, len, "%s/sandlock-root", base);
		if (!root_parent(dir)) {
			snprintf(dir, len, "%s/sandlock.XXXXXX", base);
			if (!mkdtemp(dir) || chmod(dir, 0711) != 0) {
				sl_seterr(res, "isolate-tmp: cannot create a directory in %s: %s",
					  base, strerror(errno));
				free(dir);
				return SANDLOCK_ESETUP;
			}
			run->tmp_parent = dir; /* ours alone: removed at the end */
		}
		char *inner = random_name(dir);
		if (!run->tmp_parent)
			free(dir);
		if (!inner || mkdir(inner, 0700) != 0 || chown(inner, run->uid, run->gid) != 0) {
			sl_seterr(res, "isolate-tmp: cannot create a scratch directory: %s",
				  strerror(errno));
			if (inner)
				rmdir(inner);
			free(inner);
			return SANDLOCK_ESETUP;
		}
		dir = inner;
	} else {
		snprintf(dir, len, "%s/sandlock.XXXXXX", base);
		if (!mkdtemp(dir)) {
			sl_seterr(res, "isolate-tmp: cannot create a directory in %s: %s", base,
				  strerror(errno));
			free(dir);
			return SANDLOCK_ESETUP;
		}
	}
	run->tmp_dir = dir;
	res->layers |= SANDLOCK_LAYER_ISOLATE_TMP;
	return 0;
}

/* Remove the contents of the directory open at dfd, depth first, without
 * following symlinks (unlinkat removes the link, not its target). */
static void remove_tree(int dfd, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			continue;
		if (depth < 256) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				/* a directory the program made unreadable */
				fchmod(sub, 0700);
				remove_tree(sub, depth + 1);
			}
		}
		unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

void sl_scratch_remove(struct sl_run *run)
{
	if (!run->tmp_dir)
		return;
	int fd = open(run->tmp_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		fchmod(fd, 0700);
		remove_tree(fd, 0);
	}
	rmdir(run->tmp_dir);
	free(run->tmp_dir);
	run->tmp_dir = NULL;
	if (run->tmp_parent)
		rmdir(run->tmp_parent);
	free(run->tmp_parent);
	run->tmp_parent = NULL;
}
