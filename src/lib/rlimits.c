/*
 * Resource limits.
 *
 * Memory: RLIMIT_DATA carries the limit.  Since Linux 4.7 it counts every
 * private writable mapping (heap, anonymous mmap, thread stacks) but not
 * address space that is only reserved: glibc's per-thread malloc arenas
 * (64 MB reservations each) and runtimes that reserve large virtual ranges
 * stay usable, so four Python threads or an OpenBLAS pool do not fail under
 * --mem 256 while using far less.  RLIMIT_AS is set as a backstop for what
 * DATA does not count (shared mappings) at max(4 x limit, 16 GB): address
 * space is not memory, and runtimes reserve much of it (glibc's arenas,
 * 64 MB each, up to 8 per CPU; the JVM's class space and code cache; 670 MB
 * per V8 isolate), so a tighter one broke honest programs at random (a JVM
 * under -Xmx128m with its seventh arena); what shared memory the run holds
 * is counted by the whole-run accounting and, with a seccomp listener,
 * refused past the limit as it is asked for (seccomp.c).
 */
#include "internal.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static void add(struct sl_run *run, int resource, uint64_t soft, uint64_t hard)
{
	run->rl[run->n_rl].resource = resource;
	run->rl[run->n_rl].lim = (struct rlimit){ soft, hard };
	run->n_rl++;
}

static uint64_t mb(uint64_t v)
{
	return v << 20;
}

/* The address-space backstop for a memory limit (see above). */
uint64_t sl_as_limit(uint64_t mem_mb)
{
	uint64_t as = mb(mem_mb) * 4;
	return as < mb(16384) ? mb(16384) : as;
}

/* Only limited resources are listed: unlimited means "leave what was
 * inherited" (an unprivileged process cannot raise a hard limit anyway). */
void sl_rlimits_prepare(struct sl_run *run)
{
	const struct sandlock_policy *p = run->p;
	run->n_rl = 0;
	/* RLIMIT_CPU, a backstop to the whole-run count (accounting.c): SIGXCPU
	 * a second past the limit, SIGKILL one more second later. */
	if (p->cpu_ms) {
		rlim_t s = (rlim_t)((p->cpu_ms + 999) / 1000) + 1;
		add(run, RLIMIT_CPU, s, s + 1);
	}
	if (p->mem_mb) {
		add(run, RLIMIT_DATA, mb(p->mem_mb), mb(p->mem_mb));
		add(run, RLIMIT_AS, sl_as_limit(p->mem_mb), sl_as_limit(p->mem_mb));
	}
	uint64_t fsize = p->fsize_bytes ? p->fsize_bytes : mb(p->fsize_mb);
	if (fsize)
		add(run, RLIMIT_FSIZE, fsize, fsize);
	/* processes: applied after the run has its own user namespace, so
	 * that only the run's processes count (see sl_userns_own_count) */
	run->set_nproc = p->nproc != 0;
	run->nproc.rlim_cur = run->nproc.rlim_max = p->nproc;
	if (p->stack_mb)
		add(run, RLIMIT_STACK, mb(p->stack_mb), mb(p->stack_mb));
	add(run, RLIMIT_CORE, 0, 0);
	/* open files: applied last (after the descriptor table is private and
	 * closed down), so the sandbox's own setup never hits it */
	run->set_nofile = p->nofile != 0;
	run->nofile.rlim_cur = run->nofile.rlim_max = p->nofile;
}

/*
 * --nproc bounds the run's own tasks (processes and threads), whatever
 * other processes of the same uid do.  Three ways, the first the host
 * allows:
 *
 *  1. a user namespace of the run's own (namespaces.c): the kernel keeps
 *     RLIMIT_NPROC per user namespace, and counts the run's tasks only;
 *  2. else the seccomp listener: every clone, fork and vfork of the run
 *     comes to the supervisor, which counts the run's live tasks from the
 *     run itself and refuses the one past the limit with EAGAIN, as the
 *     kernel would (seccomp.c); RLIMIT_NPROC is left as inherited, out of
 *     the way;
 *  3. the last resort (no listener: serverless hosts, kernels before 5.0,
 *     hosts that refuse a private descriptor table): RLIMIT_NPROC, which
 *     the kernel counts per uid.  The limit is then what the uid has now
 *     plus the allowance, counted below from every process of the host
 *     (its cost grows with the host; only this path pays it), and
 *     concurrent runs of that uid share what is left: the report names it
 *     in `missing`.  Tasks of the uid in other pid namespaces (other
 *     containers) are counted by the kernel but not seen here.  A uid of
 *     the pool (uidpool.c) is the run's alone: the limit is then --nproc
 *     itself, with no walk and nothing shared.
 *
 * The count below: raw reads (this is the child, before exec, without
 * malloc).
 */
SL_CHILD static long uid_tasks(uid_t uid)
{
	int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	long total = 0;
	char buf[4096], st[2048];
	for (;;) {
		long n = syscall(SYS_getdents64, dir, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct { uint64_t ino; int64_t off; unsigned short reclen;
				 unsigned char type; char name[]; } *d = (void *)(buf + off);
			off += d->reclen;
			if (d->name[0] < '1' || d->name[0] > '9')
				continue;
			/* the owner of /proc/PID is its effective uid, or root
			 * when it is not dumpable (the supervisor, its watchdog
			 * and this child are not): a stat skips the others
			 * without opening their status */
			struct stat pst;
			if (fstatat(dir, d->name, &pst, 0) != 0 || (pst.st_uid != uid && pst.st_uid != 0))
				continue;
			char path[64];
			snprintf(path, sizeof(path), "%s/status", d->name);
			if (sl_read_small(dir, path, st, sizeof(st)) < 0)
				continue;
			const char *u = strstr(st, "\nUid:\t"), *t = strstr(st, "\nThreads:\t");
			if (u && t && strtoul(u + 6, NULL, 10) == uid)
				total += strtol(t + 10, NULL, 10);
		}
	}
	close(dir);
	return total;
}

/* In the child: the tasks of the uid the program will run as, on the last
 * resort's path only (no user namespace made with the child, no
 * listener).  Taken after the user namespace step (`early` false), where
 * one made then makes it unneeded; before Landlock (`early`), which may
 * hide /proc, only where a ruleset will be applied and no user namespace
 * is expected. */
SL_CHILD void sl_rlimits_count_nproc(struct sl_run *run, bool early)
{
	if (!run->set_nproc || (run->clone_ns_flags & CLONE_NEWUSER) || run->want_listener ||
	    run->nproc_have >= 0 || run->own_userns_ok || run->uid_lock >= 0)
		return;
	if (early && (run->landlock_fd < 0 || run->userns_expected))
		return;
	run->nproc_have = uid_tasks(run->drop_privs ? run->uid : (uid_t)syscall(SYS_getuid));
}

/* In the child, after the user namespace step. */
SL_CHILD int sl_rlimits_apply_nproc(struct sl_run *run)
{
	run->count_tasks = 0;
	if (!run->set_nproc)
		return 0;
	struct rlimit l = run->nproc, cur;
	if (!run->own_userns_ok && run->want_listener) {
		run->count_tasks = SL_TASKS_LISTENER;
		return 0;
	}
	if (!run->own_userns_ok && run->uid_lock < 0) {
		run->count_tasks = SL_TASKS_SHARED;
		long have = run->nproc_have;
		if (have > 1) /* ourselves included, and counted in the allowance */
			l.rlim_cur = l.rlim_max = run->nproc.rlim_cur + (rlim_t)(have - 1);
	}
	if (getrlimit(RLIMIT_NPROC, &cur) != 0)
		return -1;
	if (l.rlim_max > cur.rlim_max)
		l.rlim_max = l.rlim_cur = cur.rlim_max;
	return setrlimit(RLIMIT_NPROC, &l);
}

/* In the child. */
SL_CHILD int sl_rlimits_apply(const struct sl_run *run)
{
	for (int i = 0; i < run->n_rl; i++) {
		struct rlimit l = run->rl[i].lim;
		if (setrlimit(run->rl[i].resource, &l) != 0) {
			/* never raise: lower to the smaller of ours and the
			 * inherited hard limit */
			struct rlimit cur;
			if (getrlimit(run->rl[i].resource, &cur) != 0)
				return -1;
			if (l.rlim_max > cur.rlim_max)
				l.rlim_max = cur.rlim_max;
			if (l.rlim_cur > l.rlim_max)
				l.rlim_cur = l.rlim_max;
			if (setrlimit(run->rl[i].resource, &l) != 0)
				return -1;
		}
	}
	return 0;
}
