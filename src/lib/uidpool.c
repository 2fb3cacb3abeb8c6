/*
 * A uid of its own for each concurrent run, from a range the operator
 * gives (--uid-pool FIRST-LAST, root only), as isolate gives each box one.
 *
 * Where a run cannot have a user namespace of its own (a container's
 * profile refuses them), the kernel counts RLIMIT_NPROC per uid, and every
 * run as 65534 would share one count; distinct uids also keep runs from
 * signalling or reading each other by the kernel's own rules.  A uid is
 * taken by holding an exclusive lock on its file under a root-owned 0700
 * directory for the whole run; the kernel drops the lock if the supervisor
 * dies (its watchdog or pid namespace kills the run then).
 */
#include "internal.h"

#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The lock directory: ours alone (root, 0700, not a link). */
static int lock_dir(void)
{
	const char *dirs[2] = { "/run/sandlock-uids", NULL };
	char alt[4096];
	const char *tmp = getenv("TMPDIR");
	snprintf(alt, sizeof(alt), "%s/sandlock-uids", tmp && tmp[0] == '/' ? tmp : "/tmp");
	dirs[1] = alt;
	for (int i = 0; i < 2; i++) {
		if (mkdir(dirs[i], 0700) != 0 && errno != EEXIST)
			continue;
		int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == 0 &&
		    (st.st_mode & 077) == 0)
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

/*
 * What a run of this uid may leave in a shared /dev/shm goes at its end
 * (shm.c).  The lock file holds a mark from the claim until that sweep: a
 * supervisor killed on the way left it, and the next run of the uid sweeps
 * first, so that it never finds its predecessor's files as its own.
 */
static void claimed(struct sl_run *run)
{
	clock_gettime(CLOCK_REALTIME_COARSE, &run->shm_since);
	run->shm_clean = false;
	struct stat st;
	if (fstat(run->uid_lock, &st) == 0 && st.st_size > 0) {
		int dir = sl_shm_open_dir();
		bool clean = true; /* no /dev/shm: nothing was left */
		if (dir >= 0) {
			sl_shm_sweep(dir, run->uid, true, &clean, NULL);
			close(dir);
		}
		if (clean && ftruncate(run->uid_lock, 0) != 0)
			clean = false;
		if (!clean)
			return; /* the mark stays for the next run */
	}
	if (pwrite(run->uid_lock, "1", 1, 0) != 1)
		return;
}

/*
 * The default pool: as root with the default identity, where the run can
 * make no namespaces of its own (without CAP_SYS_ADMIN: a container's
 * root), unless the working directory is the default identity's.  There every run as 65534 would share /dev/shm, /proc, signals
 * and the kernel's process count with the others; on a host that gives
 * each run a user and pid namespace they are apart already, and the
 * program keeps the uid graders expect.
 */
static bool pool_default(const struct sandlock_policy *p)
{
	if (p->uid_pool_first || p->uid_pool_off || p->uid != 65534 || p->gid != 65534 ||
	    geteuid() != 0 || sl_cap_effective(CAP_SYS_ADMIN))
		return false;
	/* A grader that handed the working directory to the default identity
	 * (chown 65534, as this tool's warnings and docs said to) expects the
	 * program to be that uid: it keeps it, and the report's missing
	 * names what such runs share. */
	struct stat st;
	return stat(p->workdir ? p->workdir : ".", &st) != 0 || st.st_uid != p->uid;
}

void sandlock_policy_program_uids(const struct sandlock_policy *p, uid_t *first, uid_t *last)
{
	if (geteuid() != 0) {
		*first = *last = geteuid();
	} else if (p->uid_pool_first) {
		*first = p->uid_pool_first;
		*last = p->uid_pool_last;
	} else if (pool_default(p)) {
		*first = SANDLOCK_UID_POOL_FIRST;
		*last = SANDLOCK_UID_POOL_LAST;
	} else {
		*first = *last = p->uid;
	}
}

/* The default pool leaves out the uids of the machine's accounts (an
 * image's users): a run must share its uid with nobody.  /etc/passwd
 * only, read once per claim; a range the operator gives is theirs. */
static bool *named_uids(uid_t first, uid_t last)
{
	bool *named = calloc((size_t)(last - first) + 1, 1);
	FILE *f = named ? fopen("/etc/passwd", "re") : NULL;
	char line[1024];
	while (f && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');
		c = c ? strchr(c + 1, ':') : NULL;
		if (!c)
			continue;
		unsigned long u = strtoul(c + 1, NULL, 10);
		if (u >= first && u <= last)
			named[u - first] = true;
	}
	if (f)
		fclose(f);
	return named;
}

int sl_uidpool_claim(struct sl_run *run, struct sandlock_result *res)
{
	const struct sandlock_policy *p = run->p;
	run->uid_lock = -1;
	bool dflt = run->drop_privs && pool_default(p);
	if (!p->uid_pool_first && !dflt)
		return 0;
	if (geteuid() != 0) {
		sl_seterr(res, "--uid-pool needs root (an unprivileged caller cannot change uid)");
		return SANDLOCK_EINVAL;
	}
	uid_t first = dflt ? SANDLOCK_UID_POOL_FIRST : p->uid_pool_first;
	uid_t last = dflt ? SANDLOCK_UID_POOL_LAST : p->uid_pool_last;
	int dir = lock_dir();
	if (dir < 0 && dflt) {
		run->pool_missed = "no private lock directory (/run/sandlock-uids, $TMPDIR)";
		return 0;
	}
	if (dir < 0) {
		sl_seterr(res, "--uid-pool: no private lock directory (/run/sandlock-uids)");
		return SANDLOCK_ESYSTEM;
	}
	bool *named = dflt ? named_uids(first, last) : NULL;
	if (dflt && !named) {
		close(dir);
		sl_seterr(res, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	uint64_t n = (uint64_t)last - first + 1;
	/* start where this supervisor's pid points: concurrent runs rarely
	 * try the same uids first */
	uint64_t start = (uint64_t)getpid() % n;
	for (uint64_t i = 0; i < n; i++) {
		uid_t uid = (uid_t)(first + (start + i) % n);
		if (named && named[uid - first])
			continue;
		char name[32];
		snprintf(name, sizeof(name), "%u", uid);
		int fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			close(dir);
			free(named);
			run->uid_lock = fd;
			run->uid = uid;
			run->gid = uid;
			claimed(run);
			return 0;
		}
		close(fd);
	}
	close(dir);
	free(named);
	if (dflt) {
		/* never refuse where the shared identity was allowed */
		run->pool_missed = "every uid of the default pool is taken";
		return 0;
	}
	sl_seterr(res, "--uid-pool: all %llu uids are in use by other runs", (unsigned long long)n);
	return SANDLOCK_ESYSTEM;
}

void sl_uidpool_release(struct sl_run *run)
{
	/* its files were swept (shm.c), or it had a /dev/shm of its own */
	if (run->uid_lock >= 0 && (run->shm_clean || run->mount_tmp))
		if (ftruncate(run->uid_lock, 0) != 0)
			run->shm_clean = false;
	if (run->uid_lock >= 0)
		close(run->uid_lock);
	run->uid_lock = -1;
}
