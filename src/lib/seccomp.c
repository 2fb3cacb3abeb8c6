/*
 * The syscall filter at run time.  The policy was compiled to BPF at build
 * time (src/lib/seccomp_policy.c, tools/genfilter.c); a run picks its variant,
 * and the child patches a private copy with what is known only then (its
 * own pid, the action for a violation) and installs it last, just before
 * exec.
 *
 * A violation in kill mode goes to the supervisor through seccomp user
 * notification: the supervisor learns the call and its arguments from the
 * kernel (the program cannot forge them), never lets it run, and kills the
 * whole run.  Where the kernel lacks notification the filter kills the
 * process itself (SECCOMP_RET_KILL_PROCESS) and the report has no name.
 */
#include "internal.h"
#include "seccomp_filters.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif

int sl_seccomp_prepare(struct sl_run *run, const struct sandlock_features *f,
		       struct sandlock_result *res)
{
	const struct sandlock_policy *p = run->p;
	run->use_seccomp = f->seccomp;
	if (!f->seccomp) {
		/* The syscall filter is what every run stands on (ptrace,
		 * --no-fork, --no-network, signals): never without it, unless
		 * the caller said --best-effort and asked for nothing that
		 * only the filter gives. */
		unsigned needs = SANDLOCK_LAYER_SECCOMP | SANDLOCK_LAYER_SECCOMP_NOTIFY |
				 SANDLOCK_LAYER_STRICT;
		if (p->best_effort && !(p->require & needs) && !p->strict)
			return 0;
		sl_seterr(res, "seccomp filters are %s here (%s); refusing to run without them: "
			       "--best-effort runs with what this host offers, reported",
			  sandlock_state_name(f->state[0]), f->why[0]);
		return SANDLOCK_ENOSYS;
	}
	free(run->filter_copy);
	run->filter_copy = NULL;
	unsigned v = 0;
	if (p->no_network)
		v |= SL_FV_NO_NETWORK;
	if (p->no_fork)
		v |= SL_FV_NO_FORK;
	/* the kernel confines positive pids: to the run's pid namespace, its
	 * Landlock domain, or a uid that no other process has */
	if (run->in_pidns || (f->landlock_abi >= 6) || run->uid_lock >= 0)
		v |= SL_FV_SIG_WIDE;
	if (p->strict)
		v |= SL_FV_STRICT;
	run->filter = sl_filters[v].insns;
	run->filter_len = sl_filters[v].len;
	run->want_listener = false;
	/* requests above a quarter of the memory limit are shown to us */
	run->big_alloc = p->mem_mb ? ((p->mem_mb << 20) / 4) : (uint64_t)INT64_MAX;
	run->probe_action = SECCOMP_RET_ALLOW;
	/* (without a shared descriptor table the probe says it is refused) */
	if (f->seccomp_notify) {
		/* errno mode too: the supervisor answers EPERM and learns the name */
		run->violation_action = SECCOMP_RET_USER_NOTIF;
		run->want_listener = true;
		if (p->mem_mb)
			run->probe_action = SECCOMP_RET_USER_NOTIF;
	} else if (p->violation == SANDLOCK_VIOLATION_ERRNO) {
		run->violation_action = SECCOMP_RET_ERRNO | EPERM;
	} else if (f->seccomp_kill_process) {
		run->violation_action = SECCOMP_RET_KILL_PROCESS;
	} else {
		run->violation_action = SECCOMP_RET_KILL_THREAD;
	}
	/* an exec of the program's own: refused under --no-exec; shown to us
	 * in a --no-fork run outside a pid namespace, where an exec from a
	 * thread would take the parent-death signal away (we start the
	 * watchdog then, see sl_seccomp_handle); else allowed */
	run->exec_watched = false;
	if (p->no_exec) {
		run->exec_action = run->violation_action;
	} else if (p->no_fork && !run->in_pidns && run->want_listener) {
		run->exec_action = SECCOMP_RET_USER_NOTIF;
		run->exec_watched = true;
	} else {
		run->exec_action = SECCOMP_RET_ALLOW;
	}
	/* --fsize: a pending SIGXFSZ is looked for as a process ends */
	run->xfsz_action = run->want_listener && (p->fsize_mb || p->fsize_bytes)
				   ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ALLOW;
	/* hard links only where the kernel keeps them to the program's own
	 * files (fs.protected_hardlinks = 1; unknown: no) */
	char hl[8] = "";
	sl_read_small(AT_FDCWD, "/proc/sys/fs/protected_hardlinks", hl, sizeof(hl));
	run->link_action = hl[0] == '1' ? SECCOMP_RET_ALLOW : run->violation_action;
	if ((p->require & SANDLOCK_LAYER_SECCOMP_NOTIFY) && !run->want_listener) {
		sl_seterr(res, "required layer seccomp_notify is %s on this host (%s); %s",
				  sandlock_state_name(f->state[1]), f->why[1],
				  sandlock_feature_remedy(f, SANDLOCK_LAYER_SECCOMP_NOTIFY));
		return SANDLOCK_ENOSYS;
	}
	run->filter_copy = malloc(run->filter_len * sizeof(struct sock_filter));
	if (!run->filter_copy) {
		sl_seterr(res, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	return 0;
}

/* In the child: patch and install.  The listener (if any) lands in the
 * descriptor table the child still shares with the supervisor. */
SL_CHILD int sl_seccomp_install(struct sl_run *run)
{
	uint32_t self = (uint32_t)syscall(SYS_getpid);
	/* what our exec will pass (spawn.c): nothing else is ours */
	uint64_t argv = (uint64_t)(uintptr_t)run->argv, envp = (uint64_t)(uintptr_t)run->envp;
	struct sock_filter *f = run->filter_copy;
	memcpy(f, run->filter, run->filter_len * sizeof(*f));
	for (size_t i = 0; i < run->filter_len; i++) {
		if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_VIOLATION)
			f[i].k = run->violation_action;
		else if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_MEMPROBE)
			f[i].k = run->probe_action;
		else if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_EXECMEM)
			f[i].k = run->p->no_jit ? (SECCOMP_RET_ERRNO | EACCES) : SECCOMP_RET_ALLOW;
		else if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_EXEC)
			f[i].k = run->exec_action;
		else if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_LINK)
			f[i].k = run->link_action;
		else if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_XFSZ)
			f[i].k = run->xfsz_action;
		else if (BPF_CLASS(f[i].code) == BPF_RET && f[i].k == SL_PH_TASK)
			f[i].k = run->count_tasks == SL_TASKS_LISTENER ? SECCOMP_RET_USER_NOTIF
								       : SECCOMP_RET_ALLOW;
		else if (BPF_CLASS(f[i].code) == BPF_JMP && BPF_SRC(f[i].code) == BPF_K) {
			if (f[i].k == SL_PH_SELF)
				f[i].k = self;
			else if (f[i].k == SL_PH_NEG_SELF)
				f[i].k = 0u - self;
			else if (f[i].k == SL_PH_BIG_ALLOC_HI)
				f[i].k = (uint32_t)(run->big_alloc >> 32);
			else if (f[i].k == SL_PH_BIG_ALLOC_LO)
				f[i].k = (uint32_t)run->big_alloc;
			else if (f[i].k == (uint32_t)(SL_PH_EXEC_ARGV >> 32))
				f[i].k = (uint32_t)(argv >> 32);
			else if (f[i].k == (uint32_t)SL_PH_EXEC_ARGV)
				f[i].k = (uint32_t)argv;
			else if (f[i].k == (uint32_t)(SL_PH_EXEC_ENVP >> 32))
				f[i].k = (uint32_t)(envp >> 32);
			else if (f[i].k == (uint32_t)SL_PH_EXEC_ENVP)
				f[i].k = (uint32_t)envp;
		}
	}
	struct sock_fprog prog = { .len = (unsigned short)run->filter_len, .filter = f };
	unsigned long flags = run->want_listener ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0;
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (r < 0)
		return -1;
	run->listener_fd = run->want_listener ? (int)r : -1;
	return 0;
}

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS _IOW('!', 4, uint64_t)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1ULL
#endif
/* A task that waits for our answer (a counted clone, a large mmap) hands
 * its CPU to us and we hand it back (Linux 6.6: the wake-up is synchronous,
 * on the same CPU), instead of two wake-ups through the scheduler: the
 * round trip each new thread costs where the supervisor counts them.
 * Older kernels refuse it and nothing changes. */
void sl_seccomp_listener_ready(int listener)
{
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
}

const char *sl_syscall_name(uint32_t arch, int nr, char *buf, size_t len)
{
	const char *name = NULL, *prefix = "";
	if (arch == AUDIT_ARCH_X86_64 && nr >= 0x40000000) {
		prefix = "x32:";
		nr -= 0x40000000;
		if (nr < 1024)
			name = sl_names_x32[nr];
	} else if (arch == AUDIT_ARCH_X86_64) {
		if (nr >= 0 && nr < 1024)
			name = sl_names_native[nr];
	} else if (arch == AUDIT_ARCH_I386) {
		prefix = "i386:";
		if (nr >= 0 && nr < 1024)
			name = sl_names_i386[nr];
	} else {
		prefix = "arch?:";
	}
	if (name)
		snprintf(buf, len, "%s%s", prefix, name);
	else
		snprintf(buf, len, "%s%d", prefix, nr);
	return buf;
}

/* Open a /proc file of the program's that takes ptrace-read access.  Root
 * without CAP_SYS_PTRACE (a container's root) may not read a process of
 * another uid's; the kernel checks the opener's filesystem ids for these
 * files, so this thread takes the program's for the open (setfsuid is per
 * thread and changes nothing else). */
static FILE *open_as_owner(pid_t pid, const char *file)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	FILE *f = fopen(path, "re");
	if (f || errno != EACCES || geteuid() != 0)
		return f;
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (stat(path, &st) != 0)
		return NULL;
	syscall(SYS_setfsgid, st.st_gid);
	syscall(SYS_setfsuid, st.st_uid);
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "re");
	int e = errno;
	syscall(SYS_setfsuid, 0);
	syscall(SYS_setfsgid, 0);
	errno = e;
	return f;
}

/* Shared anonymous mappings of a process, as /proc/<pid>/maps shows them
 * ("s" permission, backed by the deleted /dev/zero the kernel uses); -1 if
 * they cannot be read (the caller then refuses what it cannot count). */
static int64_t shared_anon_bytes(pid_t pid)
{
	char line[512];
	FILE *f = open_as_owner(pid, "maps");
	if (!f)
		return -1;
	uint64_t total = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;
		char perms[8];
		int off = 0;
		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &lo, &hi, perms, &off) < 3)
			continue;
		if (perms[3] == 's' && off && !strncmp(line + off, "/dev/zero", 9))
			total += hi - lo;
	}
	fclose(f);
	return (int64_t)total;
}

/* A large allocation: will the kernel refuse it?  RLIMIT_DATA counts
 * private writable mappings, RLIMIT_AS everything (see rlimits.c). */
static bool refused_allocation(const struct seccomp_notif *n, uint64_t mem_mb,
			       bool *shared_anon)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%u/statm", n->pid);
	if (sl_read_small(AT_FDCWD, path, buf, sizeof(buf)) < 0)
		return false;
	unsigned long long size, res, shared, text, lib, data;
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu", &size, &res, &shared, &text,
		   &lib, &data) != 6)
		return false;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t limit = mem_mb << 20, as = sl_as_limit(mem_mb);
	uint64_t grow;
	bool counts_as_data;
	*shared_anon = false;
	if (n->data.nr == __NR_mmap) {
		grow = n->data.args[1];
		counts_as_data = (n->data.args[2] & PROT_WRITE) && !(n->data.args[3] & MAP_SHARED);
		*shared_anon = (n->data.args[3] & (MAP_SHARED | MAP_ANONYMOUS)) ==
			       (MAP_SHARED | MAP_ANONYMOUS);
	} else { /* mremap(old, old_len, new_len, ...) */
		grow = n->data.args[2] > n->data.args[1] ? n->data.args[2] - n->data.args[1] : 0;
		counts_as_data = true;
	}
	/* Shared anonymous memory is counted by no rlimit: we count what the
	 * process has mapped of it now, with the data segment, against the
	 * limit.  Its whole address space is an upper bound of both, read in
	 * O(1): only where that is past the limit is the map read (its cost
	 * grows with the number of mappings, and is charged to the run). */
	if (size * page + grow <= limit)
		return false;
	if (!*shared_anon && !counts_as_data)
		return size * page + grow > as;
	int64_t counted = shared_anon_bytes(n->pid);
	if (counted < 0 && *shared_anon)
		return true; /* what cannot be counted is not granted */
	uint64_t shm_now = counted < 0 ? 0 : (uint64_t)counted;
	if (*shared_anon)
		return data * page + shm_now + grow > limit;
	return (counts_as_data && data * page + shm_now + grow > limit) ||
	       size * page + grow > as;
}

static void respond(int listener, uint64_t id, int error, bool cont)
{
	struct seccomp_notif_resp resp;
	memset(&resp, 0, sizeof(resp));
	resp.id = id;
	resp.error = error;
	resp.flags = cont ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

/* Is SIGXFSZ pending in tid (its own set or its process's)?  Only the
 * kernel sends it, for a write past RLIMIT_FSIZE: pending means blocked.
 * *tgid, *threads (if asked): its process, and how many threads it has. */
static bool xfsz_pending(uint32_t tid, long *tgid, long *threads)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	if (sl_read_small(AT_FDCWD, path, buf, sizeof(buf)) < 0)
		return false;
	const char *t = strstr(buf, "\nTgid:"), *h = strstr(buf, "\nThreads:");
	if (tgid)
		*tgid = t ? strtol(t + 6, NULL, 10) : 0;
	if (threads)
		*threads = h ? strtol(h + 9, NULL, 10) : 0;
	static const char *const keys[] = { "\nSigPnd:", "\nShdPnd:" };
	for (int i = 0; i < 2; i++) {
		const char *k = strstr(buf, keys[i]);
		if (k && (strtoull(k + strlen(keys[i]), NULL, 16) >> (SIGXFSZ - 1)) & 1)
			return true;
	}
	return false;
}

/* ... in tid or in any other thread of its process, which ends with it
 * (exit_group): a thread that wrote and lives on keeps the signal in its
 * own set, where the caller's status does not show it. */
static bool xfsz_pending_process(uint32_t tid)
{
	long tgid = 0, threads = 0;
	if (xfsz_pending(tid, &tgid, &threads))
		return true;
	if (threads <= 1 || tgid <= 0)
		return false;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/task", tgid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && strtoul(e->d_name, NULL, 10) != tid)
			found = xfsz_pending((uint32_t)strtoul(e->d_name, NULL, 10), NULL, NULL);
	closedir(d);
	return found;
}

/* Is tid the first thread of its process?  tgkill finds tid in the thread
 * group tid only if it is that group's leader (EPERM: found, not ours to
 * signal).  Unknown: no, the safe side.  No /proc entry is looked up:
 * one made for a thread's id makes that thread's end flush it, which cut
 * a create-and-join loop from 16,000-25,000 to 3,600-12,800 threads/s on
 * a shared 2-core machine. */
static bool thread_leader(uint32_t tid)
{
	return syscall(SYS_tgkill, (pid_t)tid, (pid_t)tid, 0) == 0 || errno == EPERM;
}

/* A new task the filter shows us only to be counted (SL_PH_TASK): a clone
 * without namespace flags (and, under --no-fork, with CLONE_THREAD), or a
 * fork or vfork where processes are allowed.  The same call can come as a
 * violation (the filter's other rules for it): that one is not ours to
 * count. */
static bool counted_task(const struct seccomp_notif *n, const struct sandlock_policy *p)
{
	const uint64_t ns = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
			    CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | 0x00000080 /* NEWTIME */;
	if (n->data.arch != AUDIT_ARCH_X86_64)
		return false;
	if (n->data.nr == __NR_clone)
		return !(n->data.args[0] & ns & 0xffffffffu) &&
		       (!p->no_fork || (n->data.args[0] & CLONE_THREAD));
	return (n->data.nr == __NR_fork || n->data.nr == __NR_vfork) && !p->no_fork;
}

/*
 * --nproc without a user namespace of the run's own (rlimits.c): a new
 * task is allowed while the run has fewer than the limit.  The count is an
 * upper bound kept in O(1) (each grant adds one; exits are not seen), taken
 * again exactly from the run's own processes (accounting.c) only when the
 * bound reaches the limit, so that an honest run's threads cost one round
 * trip each and never a walk below the limit.  A clone granted an instant
 * before a count may not show in it yet (its task is still in the kernel):
 * the run can pass the limit by the clones in flight at that instant, each
 * made by a task of its own, and no further (the next count sees them).
 */
static int task_answer(struct sl_notify_state *ns, const struct sandlock_policy *p)
{
	long limit = (long)p->nproc;
	if (ns->tasks < limit) {
		ns->tasks++;
		return 0;
	}
	long live = sl_run_tasks(ns->run->pgid, ns->run->in_pidns);
	if (live < 0)
		return EAGAIN; /* cannot be counted: not granted */
	ns->tasks = live;
	if (ns->tasks < limit) {
		ns->tasks++;
		return 0;
	}
	return EAGAIN;
}

int sl_seccomp_handle(int listener, struct sandlock_result *res,
		      const struct sandlock_policy *p, struct sl_notify_state *ns)
{
	union {
		struct seccomp_notif n;
		char pad[512]; /* newer kernels may send more */
	} u;
	memset(&u, 0, sizeof(u));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &u.n) != 0)
		return 0; /* the task died meanwhile, or spurious wake-up */
	const struct seccomp_notif *n = &u.n;
	if (n->data.arch == AUDIT_ARCH_X86_64 &&
	    (n->data.nr == __NR_mmap || n->data.nr == __NR_mremap)) {
		/* Large allocations and shared anonymous memory come here.
		 * What RLIMIT_DATA/AS will refuse anyway may run (the kernel
		 * refuses it); shared memory over the limit we refuse. */
		bool shared = false;
		struct timespec t0, t1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		if (!p->mem_mb) {
			respond(listener, n->id, 0, true);
		} else if (refused_allocation(n, p->mem_mb, &shared)) {
			ns->mem_refused = true;
			respond(listener, n->id, shared ? -ENOMEM : 0, !shared);
		} else {
			respond(listener, n->id, 0, true);
		}
		/* what a stream of requests makes us spend is the run's CPU:
		 * it cannot buy a core of ours for the price of its calls */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		ns->charged_us += (uint64_t)(sl_ts_us(&t1) - sl_ts_us(&t0));
		return 0;
	}
	if (n->data.arch == AUDIT_ARCH_X86_64 && ns->run && ns->run->exec_watched &&
	    (n->data.nr == __NR_execve ||
	     (n->data.nr == __NR_execveat && !(n->data.args[4] & AT_EMPTY_PATH)))) {
		/* An exec of the program's own in a --no-fork run: from a
		 * thread it takes the process over without the parent-death
		 * signal, so the watchdog takes its place before it runs. */
		bool leader = thread_leader(n->pid);
		int fail = !leader && sl_lifeline_start(ns->run) != 0;
		if (!leader && !fail)
			res->layers |= SANDLOCK_LAYER_WATCHDOG;
		respond(listener, n->id, fail ? -EAGAIN : 0, !fail);
		return 0;
	}
	if (n->data.arch == AUDIT_ARCH_X86_64 &&
	    (n->data.nr == __NR_exit || n->data.nr == __NR_exit_group ||
	     n->data.nr == __NR_rt_sigtimedwait)) {
		/* --fsize with SIGXFSZ blocked: the last moment the pending
		 * signal is there to see (the thread is held in the call,
		 * so its id is still its own while the notification is).
		 * A thread's own exit is looked at where it is its process's
		 * first thread (a single-threaded program's raw exit ends the
		 * process): any other thread that ends alone takes its signal
		 * with it unseen (the price of reading every thread's status,
		 * see thread_leader). */
		uint64_t id = n->id;
		bool pending;
		if (n->data.nr == __NR_exit_group)
			pending = xfsz_pending_process(n->pid);
		else if (n->data.nr == __NR_exit)
			pending = thread_leader(n->pid) && xfsz_pending(n->pid, NULL, NULL);
		else
			pending = xfsz_pending(n->pid, NULL, NULL);
		if (pending && ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0)
			ns->xfsz = true;
		respond(listener, n->id, 0, true);
		return 0;
	}
	if (ns->run && ns->run->count_tasks == SL_TASKS_LISTENER && counted_task(n, p)) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		int e = task_answer(ns, p);
		respond(listener, n->id, e ? -e : 0, !e);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		ns->charged_us += (uint64_t)(sl_ts_us(&t1) - sl_ts_us(&t0));
		return 0;
	}
	if (!res->blocked_syscall[0]) {
		sl_syscall_name(n->data.arch, n->data.nr, res->blocked_syscall,
				sizeof(res->blocked_syscall));
		for (int i = 0; i < 6; i++)
			res->blocked_args[i] = n->data.args[i];
	}
	if (p->violation == SANDLOCK_VIOLATION_ERRNO) {
		respond(listener, n->id, -EPERM, false);
		return 0;
	}
	/* Never answered: the caller kills the run, which ends the call. */
	return 1;
}
