/*
 * The run's own cgroup (v2), where the host has delegated one to us: the
 * kernel then counts the CPU of every process that was ever in it (also
 * those the kernel reaped itself, which no rusage and no sample sees),
 * holds the run to --mem where the memory controller is delegated, and
 * kills the whole run in one write.
 *
 * Where: under policy->cgroup, or else under the cgroup we are in, when we
 * may create a directory there (a root grader on a host with cgroup v2, a
 * user service with Delegate=yes).  The child joins first thing after it
 * is created, by writing to a cgroup.procs we opened (the kernel checks
 * the opener's rights): a child that cannot join leaves the run to the
 * supervisor's sampling, which is what every other host gets.
 *
 * A run's directory is named sandlock-PID-N and held with flock while the
 * run lasts; one left by a supervisor that was killed is removed by the
 * next run that creates one beside it.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t keyed(const char *buf, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ' ')
			return strtoull(p + k + 1, NULL, 10);
	return 0;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;
	for (char *i = s; *i; i++) {
		if (i[0] == '\\' && i[1] >= '0' && i[1] <= '3' && i[2] && i[3]) {
			*o++ = (char)((i[1] - '0') * 64 + (i[2] - '0') * 8 + (i[3] - '0'));
			i += 3;
		} else {
			*o++ = *i;
		}
	}
	*o = 0;
}

int sl_cgroup_self(char *path, size_t len, char *why, size_t whylen)
{
	char own[4096] = "", line[8192];
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f) {
		snprintf(why, whylen, "/proc/self/cgroup: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			if (strlen(line + 3) < sizeof(own))
				memcpy(own, line + 3, strlen(line + 3) + 1);
		}
	fclose(f);
	if (!own[0]) {
		snprintf(why, whylen, "not in a cgroup v2 hierarchy");
		return -1;
	}
	if (!(f = fopen("/proc/self/mountinfo", "re"))) {
		snprintf(why, whylen, "/proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		/* id parent dev root mountpoint opts [optional...] - type src super */
		char *dash = strstr(line, " - ");
		if (!dash || strncmp(dash + 3, "cgroup2 ", 8))
			continue;
		char *save = NULL, *fld[5];
		int n = 0;
		for (char *t = strtok_r(line, " ", &save); t && n < 5; t = strtok_r(NULL, " ", &save))
			fld[n++] = t;
		if (n < 5)
			continue;
		unescape(fld[3]);
		unescape(fld[4]);
		/* the mount shows the hierarchy from fld[3] down */
		size_t r = strlen(fld[3]);
		const char *rel = own;
		if (strcmp(fld[3], "/")) {
			if (strncmp(own, fld[3], r) || (own[r] && own[r] != '/'))
				continue;
			rel = own + r;
		}
		snprintf(path, len, "%s%s", fld[4], strcmp(rel, "/") ? rel : "");
		found = true;
	}
	fclose(f);
	if (!found)
		snprintf(why, whylen, "no cgroup2 file system mounted here");
	return found ? 0 : -1;
}

/* Remove what runs whose supervisor is gone left in dir. */
static void sweep(int dir)
{
	DIR *d = fdopendir(dup(dir));
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		/* ours only: sandlock-PID-HEX, nothing an operator named */
		int pid, end = 0;
		unsigned long long t;
		if (sscanf(e->d_name, "sandlock-%d-%llx%n", &pid, &t, &end) != 2 ||
		    e->d_name[end])
			continue;
		int fd = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			sl_write_file(fd, "cgroup.kill", "1");
			unlinkat(dir, e->d_name, AT_REMOVEDIR);
		}
		close(fd);
	}
	closedir(d);
}

void sl_cgroup_init(struct sl_cgroup *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->dir = cg->procs = -1;
}

int sl_cgroup_create(struct sl_cgroup *cg, const struct sandlock_policy *p,
		     char *why, size_t whylen)
{
	char parent[4096];
	if (strcmp(p->cgroup, "auto"))
		snprintf(parent, sizeof(parent), "%s", p->cgroup);
	else if (sl_cgroup_self(parent, sizeof(parent), why, whylen) != 0)
		return -1;
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0 || faccessat(pfd, "cgroup.controllers", F_OK, 0) != 0 ||
	    faccessat(pfd, ".", W_OK, AT_EACCESS) != 0) {
		snprintf(why, whylen, "%s: %s", parent,
			 pfd >= 0 && errno == ENOENT ? "not a cgroup v2 directory" : strerror(errno));
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	sweep(pfd);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(cg->name, sizeof(cg->name), "sandlock-%d-%llx", (int)getpid(),
		 (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec);
	int r = mkdirat(pfd, cg->name, 0755);
	if (r == 0)
		cg->dir = openat(pfd, cg->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	int e = errno;
	close(pfd);
	if (r != 0) {
		snprintf(why, whylen, "%s: %s", parent, strerror(e));
		cg->name[0] = 0;
		return -1;
	}
	/* kept: the directory (its lock, cgroup.kill, the files read) and,
	 * until the child is in, its cgroup.procs */
	if (cg->dir < 0 || flock(cg->dir, LOCK_EX | LOCK_NB) != 0 ||
	    (cg->procs = openat(cg->dir, "cgroup.procs", O_WRONLY | O_CLOEXEC)) < 0 ||
	    faccessat(cg->dir, "cpu.stat", R_OK, 0) != 0) {
		snprintf(why, whylen, "%s/%s: %s", parent, cg->name, strerror(cg->dir < 0 ? e : errno));
		return -1;
	}
	cg->has_kill = faccessat(cg->dir, "cgroup.kill", W_OK, AT_EACCESS) == 0;
	char ctl[512] = "";
	sl_read_small(cg->dir, "cgroup.controllers", ctl, sizeof(ctl));
	bool memory = false;
	for (char *sv = NULL, *t = strtok_r(ctl, " \n", &sv); t; t = strtok_r(NULL, " \n", &sv))
		memory |= !strcmp(t, "memory");
	if (memory && p->mem_mb) {
		char v[32];
		snprintf(v, sizeof(v), "%llu", (unsigned long long)p->mem_mb << 20);
		/* swap would hold what RAM may not; one OOM ends the run */
		if (sl_write_file(cg->dir, "memory.max", v) == 0) {
			if (sl_write_file(cg->dir, "memory.swap.max", "0") != 0 && errno != ENOENT)
				memory = false;
			sl_write_file(cg->dir, "memory.oom.group", "1");
		} else {
			memory = false;
		}
	}
	cg->memory = memory && p->mem_mb && faccessat(cg->dir, "memory.events", R_OK, 0) == 0;
	cg->ok = true;
	return 0;
}

SL_CHILD void sl_cgroup_join(struct sl_cgroup *cg)
{
	if (cg->procs >= 0)
		cg->joined = write(cg->procs, "0", 1) == 1;
}

void sl_cgroup_started(struct sl_cgroup *cg)
{
	if (cg->procs >= 0)
		close(cg->procs);
	cg->procs = -1;
}

uint64_t sl_cgroup_cpu_us(const struct sl_cgroup *cg)
{
	char buf[1024];
	return sl_read_small(cg->dir, "cpu.stat", buf, sizeof(buf)) > 0 ? keyed(buf, "usage_usec") : 0;
}

uint64_t sl_cgroup_mem_kb(struct sl_cgroup *cg)
{
	char buf[1024];
	if (!cg->memory)
		return 0;
	uint64_t kb = sl_read_small(cg->dir, "memory.current", buf, sizeof(buf)) > 0
		      ? strtoull(buf, NULL, 10) / 1024 : 0;
	if (sl_read_small(cg->dir, "memory.events", buf, sizeof(buf)) > 0 &&
	    (keyed(buf, "oom_kill") || keyed(buf, "oom_group_kill")))
		cg->oom = true;
	return kb;
}

uint64_t sl_cgroup_peak_kb(const struct sl_cgroup *cg)
{
	char buf[64];
	if (!cg->memory || sl_read_small(cg->dir, "memory.peak", buf, sizeof(buf)) <= 0)
		return 0;
	return strtoull(buf, NULL, 10) / 1024;
}

void sl_cgroup_kill(const struct sl_cgroup *cg)
{
	if (!cg->joined)
		return;
	if (cg->has_kill && sl_write_file(cg->dir, "cgroup.kill", "1") == 0)
		return;
	/* before 5.14: each process it holds (none can join it by itself) */
	char buf[4096];
	if (sl_read_small(cg->dir, "cgroup.procs", buf, sizeof(buf)) > 0)
		for (char *s = NULL, *t = strtok_r(buf, "\n", &s); t; t = strtok_r(NULL, "\n", &s))
			kill((pid_t)atoi(t), SIGKILL);
}

void sl_cgroup_remove(struct sl_cgroup *cg)
{
	sl_cgroup_started(cg);
	int parent = cg->dir >= 0 ? openat(cg->dir, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (cg->name[0] && parent >= 0) {
		/* the last process may still be on its way out */
		struct timespec pause = { 0, 200000 };
		for (int i = 0; i < 5000; i++) {
			if (unlinkat(parent, cg->name, AT_REMOVEDIR) == 0 || errno != EBUSY)
				break;
			sl_cgroup_kill(cg);
			nanosleep(&pause, NULL);
		}
	}
	if (parent >= 0)
		close(parent);
	if (cg->dir >= 0)
		close(cg->dir);
	cg->dir = -1;
	cg->name[0] = 0;
	cg->ok = cg->joined = false;
}

/* For --features: where the runs' cgroups would be made, or why none. */
bool sl_cgroup_describe(char *dir, size_t len, bool *memory, char *why, size_t whylen)
{
	*memory = false;
	if (sl_cgroup_self(dir, len, why, whylen) != 0)
		return false;
	if (access(dir, W_OK) != 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return false;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char ctl[512] = "";
	if (fd >= 0) {
		sl_read_small(fd, "cgroup.subtree_control", ctl, sizeof(ctl));
		close(fd);
	}
	for (char *s = NULL, *t = strtok_r(ctl, " \n", &s); t; t = strtok_r(NULL, " \n", &s))
		*memory |= !strcmp(t, "memory");
	return true;
}
