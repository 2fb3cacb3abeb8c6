/*
 * The end of a run: every process of it found from the run itself (the
 * children lists of the processes it started, the supervisor being their
 * subreaper) and killed, never by a walk of every process of the host.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

void sl_add_rusage(struct sandlock_result *r, const struct rusage *ru)
{
	r->user_us += (uint64_t)ru->ru_utime.tv_sec * 1000000u + ru->ru_utime.tv_usec;
	r->sys_us += (uint64_t)ru->ru_stime.tv_sec * 1000000u + ru->ru_stime.tv_usec;
	if ((uint64_t)ru->ru_maxrss > r->peak_kb)
		r->peak_kb = ru->ru_maxrss;
}

/* When pid started, in clock ticks since boot (0: unknown). */
uint64_t sl_start_ticks(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (sl_read_small(AT_FDCWD, path, buf, sizeof(buf)) <= 0)
		return 0;
	const char *p = strrchr(buf, ')'); /* the name may hold anything */
	if (!p)
		return 0;
	/* field 22; p is at the end of field 2 */
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* The children of one task.  Its list is read to the end: one read
 * returns a page at most, about 680 pids, and a process that started more
 * than that hid the rest from every walk of the run (its memory and CPU
 * from the accounting, its processes from the kill below). */
static void task_children(const char *path, sl_child_fn fn, void *ctx)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[4096];
	size_t have = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = 0;
		/* each pid ends with a space; one cut by the page waits for
		 * the next read */
		char *s = buf, *end;
		for (;;) {
			long c = strtol(s, &end, 10);
			if (end == s || !*end)
				break;
			if (c > 0)
				fn(ctx, (pid_t)c);
			s = end;
		}
		have = (size_t)(buf + have - s);
		memmove(buf, s, have);
	}
	buf[have] = 0;
	char *end;
	long c = strtol(buf, &end, 10);
	if (end != buf && c > 0)
		fn(ctx, (pid_t)c);
	close(fd);
}

void sl_each_child(pid_t pid, long threads, sl_child_fn fn, void *ctx)
{
	char path[320];
	if (threads == 1) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
		task_children(path, fn, ctx);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children", (int)pid, de->d_name);
		task_children(path, fn, ctx);
	}
	closedir(d);
}

static void append(void *set, pid_t pid)
{
	sl_pidset_add(set, pid, 0);
}

/* Without a pid namespace a process that left the group (setsid, where no
 * filter refuses it: serverless hosts) outlives a kill of the group.  We
 * are the run's subreaper: its orphans are our children, and the rest
 * hang below them or below the program.  Every descendant found so (our
 * children started with the run or after it, never the caller's older
 * ones, nor the watchdog) is killed, until a walk finds none; dead
 * children of ours are reaped.  Not a walk of every process of the host,
 * and no cap on what a walk sees: the run's size sets it. */
static void kill_descendants(struct sl_run *run, pid_t first, struct sandlock_result *res)
{
	if (!run->start_ticks)
		return; /* whose children are whose, unknown: the group only */
	struct sl_pidset ours = { 0 }, run_set = { 0 };
	for (int round = 0; round < 100; round++) {
		sl_pidset_clear(&ours);
		sl_pidset_clear(&run_set);
		sl_each_child(getpid(), 0, append, &ours);
		for (size_t i = 0; i < ours.n; i++) {
			pid_t pid = ours.v[i];
			uint64_t t = sl_start_ticks(pid);
			if (pid == run->lifeline.pid || (pid != first && (!t || t < run->start_ticks)))
				continue;
			sl_pidset_add(&run_set, pid, 0);
		}
		/* their descendants, breadth first (the set grows as it is read) */
		for (size_t i = 0; i < run_set.n; i++)
			sl_each_child(run_set.v[i], 0, append, &run_set);
		size_t alive = 0;
		for (size_t i = 0; i < run_set.n; i++)
			if (kill(run_set.v[i], SIGKILL) == 0)
				alive++;
		struct rusage ru;
		int st;
		for (size_t i = 0; i < run_set.n; i++)
			if (wait4(run_set.v[i], &st, WNOHANG | __WALL, &ru) > 0)
				sl_add_rusage(res, &ru);
		if (!alive)
			break;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	sl_pidset_free(&ours);
	sl_pidset_free(&run_set);
}

/* Kill every process of the run and reap those that come back to us.
 * Where the filter refuses setsid/setpgid the process group holds the
 * whole tree; in a pid namespace the kernel kills it with its first
 * process anyway; elsewhere (no filter: a serverless host) the
 * descendants are looked for too.  Only there: among our children are
 * the first processes of runs other threads of ours started after this
 * one, which the search by start time would kill too (sandlock(3): where
 * the host has no seccomp filters, threads of one process run sandboxes
 * one at a time, or each under sandlock_spawn). */
void sl_kill_tree(struct sl_run *run, pid_t pgid, struct sandlock_result *res)
{
	sl_cgroup_kill(&run->cg);
	struct timespec pause = { 0, 200000 };
	for (int i = 0; i < 20000; i++) {
		kill(-pgid, SIGKILL);
		struct rusage ru;
		int st;
		pid_t w;
		while ((w = wait4(-pgid, &st, WNOHANG | __WALL, &ru)) > 0)
			sl_add_rusage(res, &ru);
		if (kill(-pgid, 0) != 0 && errno == ESRCH)
			break;
		nanosleep(&pause, NULL);
	}
	if (!run->in_pidns && !run->use_seccomp)
		kill_descendants(run, pgid, res);
}
