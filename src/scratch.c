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
#include <unistd.h>

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
	snprintf(dir, len, "%s/sandlock.XXXXXX", base);
	if (!mkdtemp(dir)) {
		sl_seterr(res, "isolate-tmp: cannot create a directory in %s: %s", base,
			  strerror(errno));
		free(dir);
		return SANDLOCK_ESETUP;
	}
	if (run->drop_privs && chown(dir, run->uid, run->gid) != 0) {
		sl_seterr(res, "isolate-tmp: cannot chown %s: %s", dir, strerror(errno));
		rmdir(dir);
		free(dir);
		return SANDLOCK_ESETUP;
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
}
