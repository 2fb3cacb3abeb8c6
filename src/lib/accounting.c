/*
 * Whole-run accounting: the CPU and the memory of every process and thread
 * of the run together, against --cpu and --mem, where the rlimits only see
 * one process at a time.
 *
 * One interface, for the supervisor's loop: start, sample when the interval
 * says so, finish; two sources behind it.  Where the run has a cgroup of
 * its own (cgroup.c: "accounting": "cgroup", or "cgroup_cpu" where only
 * its CPU is ours to read), the kernel's figures: cpu.stat counts every
 * process that was ever in it, memory.max holds the run to --mem and
 * memory.events says when it did.  Otherwise, and for what the cgroup
 * does not hold, samples from /proc without any privilege ("accounting":
 * "supervisor"):
 *
 *  - the run's processes are found by walking the children lists from its
 *    first process (whatever their session: where no filter refuses
 *    setsid, a program may leave it), and from our own (we are the
 *    subreaper of the run's orphans: those in its session), or, where the
 *    kernel has no children lists, by reading the session of every process
 *    in /proc (the filter refuses setsid and setpgid, so nothing leaves it
 *    there);
 *  - CPU: each live process's own clock (every thread, nanoseconds) plus
 *    what its reaped children used (cutime, cstime).  A process reaped
 *    inside the run moves its time into its parent's, so the sum only grows
 *    by what was used; the highest sum seen is the run's;
 *  - memory: what the processes hold at once, private and shared
 *    (RssAnon + RssShmem of each: counters the kernel keeps, cheap to
 *    read).  A shared page counts once per process that maps it, so past
 *    the limit the sum is taken again by proportional share (smaps_rollup,
 *    which walks page tables: only then), and that one decides.
 *
 *  - files in the run's own tmpfs (its /tmp and /dev/shm, and with --disk
 *    its scratch directory): RAM too, from statfs;
 *  - a write past --fsize with SIGXFSZ blocked: the signal stays pending,
 *    and the run is stopped as file_size_limit (the filter keeps the
 *    program from ignoring or catching it).
 *
 * What a sample cannot see it cannot stop in time: CPU used between two
 * samples (the interval shrinks as the limit comes near), memory held for
 * less than an interval, and the CPU of a process the kernel reaped itself
 * (its parent ignored SIGCHLD: nobody's rusage gets it); the cgroup sees
 * the last.  The per-process rlimits stay as backstops.
 */
#include "internal.h"

#include <dirent.h>
#include <linux/magic.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define SL_ACCT_STEP_MIN 10000 /* us */
#define SL_ACCT_STEP_MAX 50000

static uint64_t now_us(clockid_t c)
{
	struct timespec ts;
	if (clock_gettime(c, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000;
}

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* The fields of /proc/PID/stat after the command name. */
bool sl_proc_stat(pid_t pid, struct sl_pstat *s)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	/* the name may hold spaces and parentheses: the last ')' ends it */
	char *p = strrchr(buf, ')');
	if (!p)
		return false;
	unsigned long long f[28];
	int field = 3; /* the state is field 3 */
	int got = 0;
	char *save = NULL;
	s->state = p[1] == ' ' ? p[2] : 0;
	for (char *tok = strtok_r(p + 2, " ", &save); tok && field <= 31;
	     tok = strtok_r(NULL, " ", &save), field++)
		if (field >= 4)
			f[got++] = strtoull(tok, NULL, 10);
	if (got < 19)
		return false;
	/* f[k] is field k + 4 */
	s->ppid = (pid_t)f[4 - 4];
	s->session = (pid_t)f[6 - 4];
	s->flags = (unsigned long)f[9 - 4];
	s->own_ticks = f[14 - 4] + f[15 - 4];
	s->child_ticks = f[16 - 4] + f[17 - 4];
	s->threads = (long)f[20 - 4];
	s->faults = f[10 - 4] + f[12 - 4];
	s->rss = f[24 - 4];
	s->start = f[22 - 4];
	/* the main thread's own pending signals (as status's SigPnd) */
	s->pending = got >= 28 ? f[31 - 4] : 0;
	return true;
}

static uint64_t status_kb(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Is sig pending (in the mask after key, in hexadecimal)? */
static bool status_pending(const char *buf, const char *key, int sig)
{
	const char *p = strstr(buf, key);
	return p && (strtoull(p + strlen(key), NULL, 16) >> (sig - 1)) & 1;
}

/* RssAnon + RssShmem of one process, in kB.  *xfsz: SIGXFSZ is pending in
 * it, unseen because blocked (the kernel sent it for a write past
 * --fsize: the write failed with EFBIG and the program went on). */
static uint64_t resident_kb(pid_t pid, bool *xfsz)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return 0;
	if (status_pending(buf, "\nSigPnd:", SIGXFSZ) || status_pending(buf, "\nShdPnd:", SIGXFSZ))
		*xfsz = true;
	return status_kb(buf, "\nRssAnon:") + status_kb(buf, "\nRssShmem:");
}

/* The same, read again only where it may have changed.  A process's
 * resident memory grows by its own page faults (a touch, a populate, a
 * swap-in: each counted in its fault counts, every thread's) and
 * otherwise changes its resident total (stat's rss: an unmap, a swap-out,
 * the kernel's huge-page collapse, which fills a region's pages with no
 * fault of the process); what a process of the run does not fault itself
 * in (another's write through process_vm_writev or /proc/PID/mem,
 * userfaultfd's copies) the filter refuses.  So a process whose faults
 * and resident total are what they were at the last walk (and whose
 * start, with its pid, says it is the same process) holds what it held
 * then, and its status (the dearest read of a walk) is not read again: a
 * walk of 4,240 idle processes reads three files of each instead of four.
 * Every 5 s, and at a forced sample (the last), every status is read
 * anyway; a sum over the limit is read again in full before it counts. */
struct sl_acct_mem {
	uint64_t faults, rss, start, kb;
};

/* Its proportional share of the same, or resident_kb where the kernel
 * keeps no split (before 5.9) or will not show it to us. */
static uint64_t share_kb(pid_t pid, bool *refused)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	ssize_t n = read_small(path, buf, sizeof(buf));
	*refused = n < 0 && (errno == EACCES || errno == EPERM);
	if (n <= 0 || !strstr(buf, "\nPss_Anon:"))
		return resident_kb(pid, &(bool){ false });
	return status_kb(buf, "\nPss_Anon:") + status_kb(buf, "\nPss_Shmem:");
}

/* What the files in the run's own tmpfs take (they are RAM), in kB: seen
 * through the root of one of its processes (an unprivileged supervisor may
 * not look through the init's, which is not dumpable: the program's then).
 * Once the run's own mount is there (another device than ours) it is held
 * open, so that what is left in it is still seen when the run is over. */
static uint64_t tmpfs_kb(struct sl_acct *a, const pid_t *pids, size_t n)
{
	if (!a->tmpfs_dir)
		return 0;
	struct statfs st;
	if (a->tmpfs_fd >= 0)
		return fstatfs(a->tmpfs_fd, &st) == 0 ? sl_fs_used_kb(&st) : 0;
	for (long i = -1; i < (long)n; i++) {
		pid_t pid = i < 0 ? a->tmpfs_pid : pids[i];
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/root/%s", (int)pid, a->tmpfs_dir);
		int fd = pid > 0 ? open(path, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
		struct stat sb;
		if (fd < 0)
			continue;
		if (fstatfs(fd, &st) == 0 && fstat(fd, &sb) == 0) {
			a->tmpfs_pid = pid;
			if (sb.st_dev != a->host_tmpfs_dev && st.f_type == TMPFS_MAGIC) {
				a->tmpfs_fd = fd; /* the run's own, mounted */
				return sl_fs_used_kb(&st);
			}
			close(fd);
			return 0; /* not mounted yet: ours */
		}
		close(fd);
	}
	return 0;
}

/* What the run holds in a shared /dev/shm (shm.c), where that could
 * decide: only when all the tmpfs holds (a page per file at least), with
 * the run's other memory (other_kb), passes --mem or the run's share is
 * /dev/shm walked for the run's own files; not gated, it is walked (the
 * watch saw a file of the run's made or grow: its length, not yet its
 * pages, may be what passes). */
static uint64_t shared_shm_kb(struct sl_acct *a, uint64_t other_kb, const pid_t *pids, size_t n,
			      bool gated)
{
	struct statfs st;
	if (a->shm_dir < 0 || fstatfs(a->shm_dir, &st) != 0)
		return 0;
	uint64_t all = sl_fs_used_kb(&st);
	if (st.f_files > st.f_ffree)
		all += (uint64_t)(st.f_files - st.f_ffree) * 4;
	/* samples come faster while the tmpfs fills (see the step below) */
	a->shm_near = all * 2 >= a->shm_share_kb;
	if (gated && all <= a->shm_share_kb && (!a->mem_limit_kb || other_kb + all <= a->mem_limit_kb))
		return a->shm_kb = 0;
	uint64_t named = 0;
	a->shm_kb = sl_shm_sweep(a->shm_dir, a->shm_uid, false, NULL, &named);
	/* and what its processes unlinked and still hold; a run that hides
	 * them from us is charged with all the tmpfs holds unnamed */
	bool hidden = false;
	uint64_t unnamed = sl_shm_unlinked_kb(a->shm_dev, a->shm_uid, pids, n, &hidden);
	uint64_t used = sl_fs_used_kb(&st);
	if (hidden && used > named && used - named > unnamed)
		unnamed = used - named;
	a->shm_kb += unnamed;
	if (a->shm_kb > a->shm_share_kb)
		a->over_mem = true;
	return a->shm_kb;
}

/* What the run holds in the places of its on one file system (st): what
 * a walk finds there as the program could reach them, and what its
 * processes removed and still hold (read as we may read their /proc: root
 * with CAP_SYS_PTRACE, a pid namespace's init is ours, not the program's;
 * else as the program's uid, a container's root).  *hidden: some of it
 * was closed to us. */
static uint64_t run_holds(struct sl_acct *a, const struct sl_stored_place *pl, const pid_t *pids,
			  size_t n, bool *hidden)
{
	struct sl_as as;
	if (a->as_run)
		sl_as_run(a->run_uid, a->run_gid, &as);
	bool held_hidden = false;
	*hidden = false;
	uint64_t kb = sl_stored_walk(a->stored, pl->dev, pl->disk ? -1 : a->watch, hidden);
	if (a->as_run)
		sl_as_self(&as);
	bool refused = false;
	uint64_t held = sl_unlinked_kb(pl->dev, pids, n, &held_hidden, &refused);
	if (refused && a->as_run) {
		held_hidden = false;
		sl_as_run(a->run_uid, a->run_gid, &as);
		held = sl_unlinked_kb(pl->dev, pids, n, &held_hidden, &refused);
		sl_as_self(&as);
	}
	*hidden = *hidden || held_hidden;
	return kb + held;
}

/* A disk the run may write (a container's overlay /tmp, a working
 * directory): looked at when it grew, by anyone, by more than what is left
 * of the run's share since the last look (a statfs per sample until
 * then); past the share the run is stopped (file_size_limit).  A run that
 * hides some of what it stores is charged with all the disk grew by since
 * it began. */
static void disk_look(struct sl_acct *a, struct sl_stored_place *pl, const struct statfs *st,
		      const pid_t *pids, size_t n)
{
	uint64_t used = sl_fs_used_kb(st);
	uint64_t grown = used > pl->base_kb ? used - pl->base_kb : 0;
	if (grown <= pl->share_kb) {
		if (grown * 2 >= pl->share_kb)
			a->stored_near = true; /* (another place's may be too) */
		return;
	}
	bool hidden;
	uint64_t kb = run_holds(a, pl, pids, n, &hidden);
	if (hidden && used > pl->start_kb && used - pl->start_kb > kb)
		kb = used - pl->start_kb;
	pl->base_kb = used > kb ? used - kb : 0;
	if (kb * 2 >= pl->share_kb)
		a->stored_near = true;
	if (kb > pl->share_kb)
		a->over_disk = true;
}

/* What the run stores on file systems of the host's it may write
 * (stored.c), per file system.  A tmpfs is gated as a shared /dev/shm is
 * (above): walked when all it holds, with the run's other memory, could
 * pass --mem or the run's share of it; not gated, as a file is made or
 * written in one of its places.  Returned: what it holds on tmpfs (RAM). */
static uint64_t stored_kb(struct sl_acct *a, uint64_t other_kb, const pid_t *pids, size_t n,
			  bool gated)
{
	struct sl_stored *s = a->stored;
	uint64_t total = 0;
	if (!s)
		return 0;
	a->stored_near = false;
	for (int i = 0; i < s->n; i++) {
		struct sl_stored_place *pl = &s->place[i];
		bool first = true;
		for (int j = 0; j < i && first; j++)
			first = s->place[j].dev != pl->dev; /* one look per file system */
		struct statfs st;
		if (!first || fstatfs(pl->fd, &st) != 0)
			continue;
		if (pl->disk) {
			disk_look(a, pl, &st, pids, n);
			continue;
		}
		uint64_t all = sl_fs_used_kb(&st);
		if (st.f_files > st.f_ffree)
			all += (uint64_t)(st.f_files - st.f_ffree) * 4;
		if (all * 2 >= pl->share_kb)
			a->stored_near = true;
		if (gated && all <= pl->share_kb &&
		    (!a->mem_limit_kb || other_kb + all <= a->mem_limit_kb))
			continue;
		bool hidden;
		uint64_t kb = run_holds(a, pl, pids, n, &hidden);
		/* a run that hides some of it is charged with all it holds */
		if (hidden && sl_fs_used_kb(&st) > kb)
			kb = sl_fs_used_kb(&st);
		if (kb > pl->share_kb)
			a->over_mem = true;
		total += kb;
	}
	return a->stored_kb = total;
}

/* The process's own CPU clock (all its threads), or its ticks. */
static uint64_t proc_cpu_us(pid_t pid, const struct sl_pstat *s, long hz)
{
	clockid_t c = (clockid_t)((~(unsigned)pid << 3) | 2); /* CPUCLOCK_SCHED */
	uint64_t us = now_us(c);
	if (!us)
		us = s->own_ticks * 1000000u / (uint64_t)hz;
	return us + s->child_ticks * 1000000u / (uint64_t)hz;
}

/* What one walk found: the run's processes in order (aux: threads) and
 * what each held, by its place there. */
struct sl_acct_found {
	struct sl_pidset set;
	struct sl_acct_mem *mem;
	size_t mem_cap;
	bool mem_ok;            /* an entry for each process found */
};

struct sl_acct_walk {
	struct sl_acct_found now, last; /* this walk's, the one before */
	bool full;              /* every status read again */
	uint64_t full_us;       /* when they last were */
	uint64_t cpu_us, mem_kb;
	bool xfsz;
};

static uint64_t memo_kb(struct sl_acct_walk *w, pid_t pid, const struct sl_pstat *s)
{
	struct sl_acct_found *f = &w->now, *l = &w->last;
	long j = w->full || !l->mem_ok ? -1 : sl_pidset_index(&l->set, pid);
	uint64_t kb;
	if (j >= 0 && l->mem[j].start == s->start && l->mem[j].faults == s->faults &&
	    l->mem[j].rss == s->rss)
		kb = l->mem[j].kb;
	else
		kb = resident_kb(pid, &w->xfsz);
	if (f->mem_cap < f->set.cap) {
		struct sl_acct_mem *m = realloc(f->mem, f->set.cap * sizeof(*m));
		if (!m) {
			f->mem_ok = false; /* the next walk reads every status */
			return kb;
		}
		f->mem = m;
		f->mem_cap = f->set.cap;
	}
	/* pid was just added: its place is the last */
	f->mem[f->set.n - 1] = (struct sl_acct_mem){ s->faults, s->rss, s->start, kb };
	return kb;
}

/* A pid namespace's init is ours (a copy of the supervisor that reaps):
 * what it holds is the sandbox's footprint, not the run's. */
static bool holds_for_run(const struct sl_acct *a, pid_t pid)
{
	return !(a->in_pidns && pid == a->session);
}

/* Add pid if it is the run's and new; it is then walked in its turn.  A
 * child of a process of the run is the run's in whatever session: where no
 * filter refuses setsid (a serverless host) a program that left the
 * session held memory no sample saw.  One of ours (`orphan`: the run's
 * orphans come back to us, its subreaper) only in the run's session: our
 * other children are the watchdog and, where threads run sandboxes at once,
 * the other runs (an orphan that left the session is not told from them;
 * the kill at the end finds it by its start). */
static void add(struct sl_acct *a, pid_t pid, bool orphan)
{
	struct sl_acct_walk *w = a->walk;
	struct sl_pstat s;
	if (pid <= 0 || sl_pidset_has(&w->now.set, pid) || !sl_proc_stat(pid, &s) ||
	    (orphan && s.session != a->session))
		return;
	if (sl_pidset_add(&w->now.set, pid, s.threads) != 1)
		return;
	w->cpu_us += proc_cpu_us(pid, &s, a->hz);
	if (s.pending & (1ull << (SIGXFSZ - 1)))
		w->xfsz = true;
	uint64_t kb = memo_kb(w, pid, &s);
	if (holds_for_run(a, pid))
		w->mem_kb += kb;
}

static void add_child(void *a, pid_t pid)
{
	add(a, pid, false);
}

static void add_orphan(void *a, pid_t pid)
{
	add(a, pid, true);
}

/* Without children lists: every process there is, by its session. */
static void add_session(struct sl_acct *a, pid_t pid)
{
	struct sl_pstat s;
	if (sl_proc_stat(pid, &s) && s.session == a->session)
		add(a, pid, false);
}

static void walk_run(struct sl_acct *a, bool full)
{
	struct sl_acct_walk *w = a->walk;
	/* this walk's set starts empty; the last one's is kept to look up */
	struct sl_acct_found t = w->last;
	w->last = w->now;
	w->now = t;
	w->now.mem_ok = true;
	sl_pidset_clear(&w->now.set);
	uint64_t now = now_us(CLOCK_MONOTONIC);
	w->full = full || now - w->full_us >= 5000000;
	if (w->full)
		w->full_us = now;
	w->cpu_us = w->mem_kb = 0;
	w->xfsz = false;
	if (!a->children_lists) {
		/* the session of every process there is */
		DIR *d = opendir("/proc");
		struct dirent *e;
		while (d && (e = readdir(d)))
			if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
				add_session(a, (pid_t)atoi(e->d_name));
		if (d)
			closedir(d);
		return;
	}
	add(a, a->session, true);
	/* orphans of the run, which came back to us as their subreaper (in a
	 * pid namespace they go to its init, the run's first process) */
	struct sl_pstat self;
	pid_t me = getpid();
	if (!a->in_pidns && sl_proc_stat(me, &self))
		sl_each_child(me, self.threads, add_orphan, a);
	/* the set grows as children are found */
	for (size_t i = 0; i < w->now.set.n; i++)
		sl_each_child(w->now.set.v[i], w->now.set.aux[i], add_child, a);
}

/* The first sample: the run is visible in /proc, or nothing is counted. */
static bool probe(struct sl_acct *a)
{
	char path[64];
	struct sl_pstat s;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)a->session, (int)a->session);
	a->children_lists = access(path, R_OK) == 0;
	if (!sl_proc_stat(a->session, &s) || s.session != a->session ||
	    !(a->walk = calloc(1, sizeof(*a->walk)))) {
		/* the run's cgroup still counts what it can */
		a->need_walk = false;
		a->active = a->cg != NULL;
		return false;
	}
	a->probed = true;
	return true;
}

void sl_acct_start(struct sl_acct *a, const struct sandlock_policy *p, pid_t session,
		   bool in_pidns, bool private_tmpfs, struct sl_cgroup *cg, bool cg_alone)
{
	memset(a, 0, sizeof(*a));
	a->cg = cg && cg->joined ? cg : NULL;
	a->cg_alone = a->cg && cg_alone;
	/* the run's /tmp, which holds its /dev/shm too (namespaces.c), seen
	 * through its first process's root */
	struct stat st;
	a->tmpfs_fd = -1;
	a->shm_dir = -1;
	a->watch = -1;
	a->shm_wd = -1;
	if (private_tmpfs) {
		a->tmpfs_dir = stat("/tmp", &st) == 0 ? "tmp" : "dev/shm";
		if (a->tmpfs_dir[0] == 'd' && stat("/dev/shm", &st) != 0)
			a->tmpfs_dir = NULL;
		else
			a->host_tmpfs_dev = st.st_dev;
	}
	a->tmpfs_pid = session;
	a->session = session;
	a->in_pidns = in_pidns;
	a->cpu_limit_us = p->cpu_ms * 1000;
	a->mem_limit_kb = p->mem_mb * 1024;
	a->fsize_limit = p->fsize_mb || p->fsize_bytes;
	a->hz = sysconf(_SC_CLK_TCK);
	if (a->hz <= 0)
		a->hz = 100;
	/* the CPUs online (a file of /sys) at the first sample: most runs
	 * end before it */
	a->ncpu = 0;
	/* what /proc offers is probed at the first sample: most runs of a
	 * judge end before it, and pay nothing */
	a->active = a->cpu_limit_us || a->mem_limit_kb;
	/* /proc is still read for what the cgroup does not hold: memory where
	 * its controller is not ours, a pending SIGXFSZ, and everything when
	 * the program could move itself out (it runs as our uid) */
	a->need_walk = !a->cg_alone || a->fsize_limit ||
		       (a->mem_limit_kb && !a->cg->memory);
	a->self_start_us = now_us(CLOCK_THREAD_CPUTIME_ID);
	a->step_us = SL_ACCT_STEP_MIN;
	a->next_us = now_us(CLOCK_MONOTONIC) + a->step_us;
}

int sl_acct_timeout_ms(const struct sl_acct *a)
{
	if (!a->active)
		return -1;
	uint64_t now = now_us(CLOCK_MONOTONIC);
	uint64_t next = a->next_us;
	if (a->shm_next_us > now && a->shm_next_us < next)
		next = a->shm_next_us; /* the watch is polled again then */
	return now >= next ? 0 : (int)((next - now + 999) / 1000);
}

bool sl_acct_sample(struct sl_acct *a, bool force)
{
	if (!a->active)
		return false;
	uint64_t now = now_us(CLOCK_MONOTONIC);
	if (!force && now < a->next_us)
		return false;
	uint64_t cpu = 0, mem = 0, files_kb = 0;
	bool walked = false;
	if (a->need_walk && (a->walk || probe(a))) {
		struct sl_acct_walk *w = a->walk;
		walk_run(a, force);
		files_kb = tmpfs_kb(a, w->now.set.v, w->now.set.n);
		files_kb += shared_shm_kb(a, w->mem_kb + files_kb, w->now.set.v, w->now.set.n, true);
		files_kb += stored_kb(a, w->mem_kb + files_kb, w->now.set.v, w->now.set.n, true);
		cpu = w->cpu_us;
		mem = w->mem_kb + files_kb;
		walked = true;
		if (a->fsize_limit && w->xfsz)
			a->over_fsize = true;
	} else if ((a->shm_dir >= 0 || a->stored) && a->cg) {
		/* the cgroup holds the run's memory (tmpfs pages are charged
		 * to who wrote them), not its share of a shared tmpfs */
		shared_shm_kb(a, 0, NULL, 0, true);
		stored_kb(a, 0, NULL, 0, true);
	} else if (!a->cg) {
		return false;
	}
	if (walked && a->mem_limit_kb && mem > a->mem_limit_kb) {
		/* shared pages were counted once per process: share them out */
		struct sl_acct_walk *w = a->walk;
		mem = files_kb;
		/* smaps_rollup wants ptrace read access: root has it where it
		 * holds CAP_SYS_PTRACE or owns the run's user namespace (made
		 * before the program's uid was taken), the run's uid where root
		 * has neither (a container's root: no CAP_SYS_PTRACE); unread,
		 * a process counts its resident size whole.  The one refused is
		 * left for the other, which is kept for the next time. */
		struct sl_as as;
		bool as_on = a->as_run && a->read_as_run;
		if (as_on)
			sl_as_run(a->run_uid, a->run_gid, &as);
		for (size_t i = 0; i < w->now.set.n; i++) {
			pid_t pid = w->now.set.v[i];
			if (!holds_for_run(a, pid))
				continue;
			bool refused;
			uint64_t kb = share_kb(pid, &refused);
			if (refused && a->as_run) {
				if (as_on)
					sl_as_self(&as);
				else
					sl_as_run(a->run_uid, a->run_gid, &as);
				a->read_as_run = as_on = !as_on;
				kb = share_kb(pid, &refused);
			}
			mem += kb;
		}
		if (as_on)
			sl_as_self(&as);
	}
	/* what the samples saw decides, unless the cgroup holds it all */
	if (walked && a->mem_limit_kb && mem > a->mem_limit_kb)
		a->over_mem = true;
	if (a->cg) {
		/* every process that was ever in it, reaped by anyone or not */
		uint64_t c = sl_cgroup_cpu_us(a->cg);
		if (c > cpu)
			cpu = c;
		if (a->cg->memory) {
			/* the kernel holds it to memory.max: an OOM kill says */
			uint64_t m = sl_cgroup_mem_kb(a->cg);
			if (m > mem)
				mem = m;
			if (a->cg->oom)
				a->over_mem = true;
		}
	}
	a->samples++;
	cpu += a->charged_us;
	if (cpu > a->cpu_us)
		a->cpu_us = cpu;
	if (mem > a->peak_kb)
		a->peak_kb = mem;
	if (a->cpu_limit_us && a->cpu_us >= a->cpu_limit_us)
		a->over_cpu = true;
	/* The next sample: the interval grows while the run holds less than
	 * half its memory limit, and a shared /dev/shm it may write is less
	 * than half full of its share (from 10 to 50 ms: what it costs us is
	 * measured in supervisor_cpu_ms), and is never longer than half the
	 * time the run needs to reach its CPU limit on every CPU at once. */
	bool far = (!a->mem_limit_kb || mem * 2 < a->mem_limit_kb) && !a->shm_near &&
		   !a->stored_near;
	a->step_us = far ? a->step_us + a->step_us / 2 : SL_ACCT_STEP_MIN;
	if (a->step_us > SL_ACCT_STEP_MAX)
		a->step_us = SL_ACCT_STEP_MAX;
	uint64_t step = a->step_us;
	if (a->cpu_limit_us && a->cpu_us < a->cpu_limit_us) {
		if (a->ncpu <= 0 && (a->ncpu = sysconf(_SC_NPROCESSORS_ONLN)) <= 0)
			a->ncpu = 1;
		uint64_t left = (a->cpu_limit_us - a->cpu_us) / (uint64_t)a->ncpu / 2;
		if (left < step)
			step = left < 1000 ? 1000 : left;
	}
	/* A walk of a run of thousands of processes takes longer than the
	 * step (a few microseconds per process): timed from its start, the
	 * next one was due at once, and the supervisor did nothing else, so
	 * the requests the run waits on (each counted clone) came one per
	 * walk.  Its time to the next is at least one walk: half of ours at
	 * most goes to sampling (more would delay what a sample catches, a
	 * burst of memory across the run's processes). */
	uint64_t end = now_us(CLOCK_MONOTONIC);
	if (end > now && step < end - now)
		step = end - now;
	a->next_us = end + step;
	return a->over_cpu || a->over_mem || a->over_fsize || a->over_disk;
}

void sl_acct_tmpfs(struct sl_acct *a, int fd)
{
	if (fd < 0)
		return;
	struct statfs st;
	if (a->tmpfs_fd < 0 && a->tmpfs_dir && fstatfs(fd, &st) == 0 && st.f_type == TMPFS_MAGIC) {
		a->tmpfs_fd = fd;
		return;
	}
	close(fd);
}

void sl_acct_shm(struct sl_acct *a, int dir, uid_t uid, const struct timespec *since)
{
	if (dir < 0)
		return;
	a->shm_dir = dir;
	a->shm_uid = uid;
	a->shm_since = *since;
	a->shm_share_kb = sl_shm_share_kb(dir);
	struct stat st;
	a->shm_dev = fstat(dir, &st) == 0 ? st.st_dev : 0;
	/* No watch (the uid's inotify instances are used up:
	 * max_user_instances): the samples alone */
	if (a->watch < 0)
		a->watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (a->watch >= 0)
		a->shm_wd = sl_shm_watch(a->watch);
	a->active = true;
}

void sl_acct_stored(struct sl_acct *a, struct sl_stored *s)
{
	if (!s->n)
		return;
	a->stored = s;
	a->active = true;
	bool ram = false;
	for (int i = 0; i < s->n; i++)
		ram = ram || !s->place[i].disk;
	if (!ram)
		return; /* disks are sampled (stored.c) */
	if (a->watch < 0)
		a->watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (a->watch >= 0)
		sl_stored_watch(s, a->watch);
}

void sl_acct_as(struct sl_acct *a, uid_t uid, gid_t gid)
{
	a->as_run = true;
	a->run_uid = uid;
	a->run_gid = gid;
}

int sl_acct_watch_fd(const struct sl_acct *a)
{
	/* not polled for SL_SHM_LOOK_US after a look: what comes meanwhile
	 * waits in the queue (the kernel merges a write loop's events
	 * there), and neither we nor the writer pay per event */
	if (a->watch < 0 || (a->shm_next_us && now_us(CLOCK_MONOTONIC) < a->shm_next_us))
		return -1;
	return a->watch;
}

bool sl_acct_watch_event(struct sl_acct *a)
{
	if (a->watch < 0)
		return false;
	a->shm_next_us = now_us(CLOCK_MONOTONIC) + SL_SHM_LOOK_US;
	/* every event queued is read now; an event's name is looked up
	 * once per read */
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool shm = false, stored = false;
	ssize_t n;
	while ((n = read(a->watch, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *e = (const struct inotify_event *)p;
			p += sizeof(*e) + e->len;
			bool overflow = e->mask & IN_Q_OVERFLOW;
			if (!shm && a->shm_dir >= 0 && (overflow || e->wd == a->shm_wd))
				shm = sl_shm_event_mine(a->shm_dir, e, a->shm_uid);
			if (!stored && a->stored && (overflow || e->wd != a->shm_wd))
				stored = true;
		}
	}
	/* its share only: --mem is the samples' to judge (they share out
	 * the pages the run's processes share) */
	const struct sl_acct_walk *w = a->walk;
	const pid_t *pids = w ? w->now.set.v : NULL;
	size_t np = w ? w->now.set.n : 0;
	if (shm)
		shared_shm_kb(a, 0, pids, np, false);
	if (stored) {
		/* a walk costs with the files of the places (a grader's working
		 * directory may hold thousands): the watch waits four times as
		 * long as it took before the next, so that a program writing
		 * in a loop keeps the supervisor busy a fifth of the time at most */
		uint64_t t0 = now_us(CLOCK_MONOTONIC);
		stored_kb(a, 0, pids, np, false);
		uint64_t t1 = now_us(CLOCK_MONOTONIC);
		if (t0 + (t1 - t0) * 5 > a->shm_next_us)
			a->shm_next_us = t0 + (t1 - t0) * 5;
	}
	return a->over_mem;
}

void sl_acct_charge(struct sl_acct *a, uint64_t total_us)
{
	a->charged_us = total_us;
}

void sl_acct_finish(struct sl_acct *a, struct sandlock_result *res)
{
	res->accounting = !a->active ? SANDLOCK_ACCOUNTING_NONE
			  : !a->cg ? SANDLOCK_ACCOUNTING_SUPERVISOR
			  : a->cg->memory ? SANDLOCK_ACCOUNTING_CGROUP
			  : SANDLOCK_ACCOUNTING_CGROUP_CPU;
	if (a->active && a->cg) {
		/* the run is over: the cgroup's figures are final and exact */
		uint64_t c = sl_cgroup_cpu_us(a->cg) + a->charged_us;
		uint64_t peak = sl_cgroup_peak_kb(a->cg);
		if (c > a->cpu_us)
			a->cpu_us = c;
		if (a->cpu_limit_us && a->cpu_us >= a->cpu_limit_us)
			a->over_cpu = true;
		if (peak > a->peak_kb)
			a->peak_kb = peak;
		sl_cgroup_mem_kb(a->cg);
		if (a->cg->oom)
			a->over_mem = true;
	}
	if (a->tmpfs_fd >= 0) {
		/* Files the run left in its tmpfs are RAM it held as it
		 * ended, also when that was before the next sample */
		struct statfs st;
		uint64_t left = fstatfs(a->tmpfs_fd, &st) == 0 ? sl_fs_used_kb(&st) : 0;
		if (left > a->peak_kb)
			a->peak_kb = left;
		if (a->mem_limit_kb && left > a->mem_limit_kb)
			a->over_mem = true;
		close(a->tmpfs_fd);
		a->tmpfs_fd = -1;
	}
	if (a->shm_dir >= 0) {
		/* the run is over: what it left in the shared /dev/shm is
		 * memory it held as it ended, and goes now (nothing was made
		 * or removed there since it began: nothing to look for) */
		struct stat st;
		bool changed = fstat(a->shm_dir, &st) != 0 ||
			       st.st_mtim.tv_sec > a->shm_since.tv_sec ||
			       (st.st_mtim.tv_sec == a->shm_since.tv_sec &&
				st.st_mtim.tv_nsec >= a->shm_since.tv_nsec);
		a->shm_clean = true;
		uint64_t left = changed ? sl_shm_sweep(a->shm_dir, a->shm_uid, true, &a->shm_clean, NULL)
				: 0;
		if (left > a->peak_kb)
			a->peak_kb = left;
		if (left > a->shm_share_kb || (a->mem_limit_kb && left > a->mem_limit_kb))
			a->over_mem = true;
		close(a->shm_dir);
		a->shm_dir = -1;
	}
	if (a->stored) {
		/* what the run left in them is memory it held as it ended */
		uint64_t left = stored_kb(a, 0, NULL, 0, true);
		if (left > a->peak_kb)
			a->peak_kb = left;
		if (a->mem_limit_kb && left > a->mem_limit_kb)
			a->over_mem = true;
		a->stored = NULL;
	}
	if (a->watch >= 0) {
		close(a->watch);
		a->watch = -1;
	}
	res->supervisor_cpu_us = now_us(CLOCK_THREAD_CPUTIME_ID) - a->self_start_us;
	/* the kernel's figures of reaped processes are exact; samples see
	 * the processes nobody reaped (a pid namespace's init killed first) */
	uint64_t reaped = res->user_us + res->sys_us;
	if (a->cpu_us > reaped)
		res->user_us += a->cpu_us - reaped;
	if (a->peak_kb > res->peak_kb)
		res->peak_kb = a->peak_kb;
	if (a->walk) {
		sl_pidset_free(&a->walk->now.set);
		sl_pidset_free(&a->walk->last.set);
		free(a->walk->now.mem);
		free(a->walk->last.mem);
	}
	free(a->walk);
	a->walk = NULL;
}

/*
 * The live tasks (processes and threads) of the run whose session is
 * `session`, for --nproc where no user namespace of the run's own counts
 * them (seccomp.c): found from the run itself (the children lists of its
 * processes, and of ours for its orphans), so that the cost is the run's
 * size, never the host's.  A pid namespace's init is ours, not counted.
 * -1: the kernel keeps no children lists (then nothing short of every
 * process of the host would tell; the caller decides).
 */
struct task_walk {
	struct sl_pidset found;
	long tasks;
	pid_t session, init;
};

static void task_add(struct task_walk *t, pid_t pid)
{
	struct sl_pstat s;
	if (pid <= 0 || sl_pidset_has(&t->found, pid) || !sl_proc_stat(pid, &s) ||
	    s.session != t->session || sl_pidset_add(&t->found, pid, 0) != 1)
		return;
	if (pid != t->init)
		t->tasks += s.threads > 0 ? s.threads : 1;
}

static void task_child(void *t, pid_t pid)
{
	task_add(t, pid);
}

long sl_run_tasks(pid_t session, bool in_pidns)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)session, (int)session);
	if (access(path, R_OK) != 0)
		return -1;
	struct task_walk *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->session = session;
	t->init = in_pidns ? session : 0;
	task_add(t, session);
	/* orphans of the run come back to us, its subreaper */
	if (!in_pidns)
		sl_each_child(getpid(), 0, task_child, t);
	for (size_t i = 0; i < t->found.n; i++) /* it grows as children are found */
		sl_each_child(t->found.v[i], 0, task_child, t);
	long n = t->tasks;
	sl_pidset_free(&t->found);
	free(t);
	return n;
}
