/*
 * Creating the child and setting it up, in a fixed order, failing closed.
 *
 * The child is created with clone(CLONE_VM | CLONE_VFORK), as posix_spawn
 * does: no page tables are copied, and the supervisor sleeps until the
 * child has called exec (or failed).  Everything was prepared before the
 * clone, so the child only makes system calls, and reports a failing step
 * and its errno by writing into the shared run structure.
 *
 * The child also shares the supervisor's descriptor table (CLONE_FILES)
 * until the filter is installed: the seccomp listener it creates then lands
 * in the supervisor's table, where nothing the program runs can reach it.
 * It then takes a private copy of the table (close_range with
 * CLOSE_RANGE_UNSHARE, or unshare(CLONE_FILES) where a container's profile
 * refuses unshare or the kernel predates close_range), closes everything
 * above 2, and calls exec.  Where both are refused the table is never
 * shared and the run goes without a listener (the filter kills instead).  No untrusted code runs before exec, so closing descriptors
 * after the filter is as safe as before it.
 *
 * Order: signals reset; new session; parent-death signal (and a check that
 * the parent still lives); no-new-privs; rlimits; namespaces; Landlock;
 * working directory; privilege drop; seccomp; private descriptor table and
 * stdio; exec.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

#define STACK_SIZE (256 * 1024)

#if defined(__x86_64__)
#include <linux/sched.h>
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
/*
 * clone3 with the child on its own stack, as glibc's clone() does for
 * clone: libc has no wrapper that takes CLONE_INTO_CGROUP.  The kernel puts
 * the child into the run's cgroup as it creates it, which a write to
 * cgroup.procs afterwards does only after an RCU grace period (about a
 * millisecond a run).  The child calls fn(arg) and exits with its value.
 */
static long clone3_run(struct clone_args *ca, int (*fn)(void *), void *arg)
{
	long ret;
	register long r_fn asm("r12") = (long)fn;
	register long r_arg asm("r13") = (long)arg;
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov %%eax, %%edi\n\t"
			 "mov $60, %%eax\n\t" /* exit */
			 "syscall\n\t"
			 "hlt\n"
			 "1:\n\t"
			 : "=a"(ret)
			 : "0"(435L /* clone3 */), "D"(ca), "S"(sizeof(*ca)), "r"(r_fn), "r"(r_arg)
			 : "rcx", "r11", "memory");
	return ret;
}
#define HAVE_CLONE3_RUN 1
#endif

/* Once the filter is on, exit and exit_group may wait for the supervisor
 * (--fsize, see seccomp.c), which is itself waiting for this exec: a
 * child that fails then dies by a signal instead (its status is not read:
 * the supervisor learns the failure from run). */
SL_CHILD static __attribute__((noreturn)) void child_exit(struct sl_run *run, int code)
{
	if (run->filter_on)
		syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
	_exit(code);
}

SL_CHILD static __attribute__((noreturn)) void fail(struct sl_run *run, enum sl_step step)
{
	run->fail_errno = errno ? errno : EPERM;
	run->fail_step = step;
	child_exit(run, SANDLOCK_EXIT_FAILURE);
}

/* All but 0, 1, 2 and the preload guard's library, which becomes 3 (its
 * LD_PRELOAD is /proc/self/fd/3). */
SL_CHILD static void close_above_2(struct sl_run *run)
{
	unsigned first = 3;
	if (run->preload_fd >= 0) {
		if (dup2(run->preload_fd, 3) != 3)
			fail(run, SL_STEP_FDS);
		first = 4;
	}
	if (syscall(SYS_close_range, first, ~0U, 0U) == 0)
		return;
	/* kernels before 5.9 */
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = first; fd < max && fd < 65536; fd++)
		close((int)fd);
}

/* Die with the supervisor; and if it died before this took effect, stop.
 * Where the host refuses the signal, the watchdog (lifeline.c) covers it. */
SL_CHILD static void parent_death_signal(struct sl_run *run)
{
	if (run->use_pdeathsig && prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
		fail(run, SL_STEP_PDEATHSIG);
	bool gone;
	if (!run->in_pidns)
		gone = syscall(SYS_getppid) != run->supervisor_pid;
	else {
		/* our parent is outside the namespace (getppid() is 0): ask
		 * its pidfd, which is readable once it has exited */
		struct pollfd pf = { .fd = run->supervisor_pidfd, .events = POLLIN };
		struct timespec now = { 0, 0 };
		gone = run->supervisor_pidfd >= 0 &&
		       syscall(SYS_ppoll, &pf, 1, &now, NULL, 8) > 0 &&
		       (pf.revents & (POLLIN | POLLHUP));
	}
	if (gone) {
		errno = ESRCH;
		fail(run, SL_STEP_PARENT_GONE);
	}
}

/* The program's own setup, from Landlock to exec.  Never returns. */
SL_CHILD static __attribute__((noreturn)) void program_setup(struct sl_run *run)
{
	run->nproc_have = -1;
	sl_rlimits_count_nproc(run, true);
	if (run->workdir && chdir(run->workdir) != 0)
		fail(run, SL_STEP_WORKDIR);
	if (sl_privileges_drop(run) != 0)
		fail(run, SL_STEP_PRIVDROP);
	sl_userns_own_count(run);
	sl_rlimits_count_nproc(run, false);
	/* after the user namespace's maps, which are files of /proc/self
	 * that no allow-list grants (no-new-privs is set: no capability is
	 * needed to enforce it) */
	if (sl_landlock_apply(run) != 0)
		fail(run, SL_STEP_LANDLOCK);
	if (sl_rlimits_apply_nproc(run) != 0)
		fail(run, SL_STEP_RLIMITS);
	/* A change of credentials clears the parent-death signal. */
	parent_death_signal(run);
	if (run->use_seccomp && sl_seccomp_install(run) != 0)
		fail(run, SL_STEP_SECCOMP);
	run->filter_on = run->use_seccomp;

	/* From here on the filter applies to us too.  A table of our own
	 * (the listener stays in the supervisor's): the empty range ~0..~0
	 * closes nothing and only unshares. */
	if (run->fd_mode == SL_FD_CLOSE_RANGE &&
	    syscall(SYS_close_range, ~0U, ~0U, CLOSE_RANGE_UNSHARE) != 0)
		fail(run, SL_STEP_FDS);
	if (run->fd_mode == SL_FD_UNSHARE && syscall(SYS_unshare, CLONE_FILES) != 0)
		fail(run, SL_STEP_FDS);
	for (int i = 0; i < 3; i++)
		if (run->stdio[i] >= 0 && dup2(run->stdio[i], i) != i)
			fail(run, SL_STEP_FDS);
	close_above_2(run);
	if (run->set_nofile && setrlimit(RLIMIT_NOFILE, &run->nofile) != 0) {
		struct rlimit cur;
		if (getrlimit(RLIMIT_NOFILE, &cur) != 0 || cur.rlim_max > run->nofile.rlim_max)
			fail(run, SL_STEP_RLIMITS);
	}
	sigset_t none;
	sigemptyset(&none);
	clock_gettime(CLOCK_MONOTONIC, &run->exec_time);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int err = ENOENT;
	for (int i = 0; i < run->n_exec_paths; i++) {
		run->exec_index = i;
		execve(run->exec_paths[i], run->argv, run->envp);
		int e = errno;
		struct stat st;
		/* EACCES for a file we cannot even see (a PATH directory we
		 * may not search) is "not found", as in shells */
		if (e == EACCES && stat(run->exec_paths[i], &st) != 0)
			e = ENOENT;
		/* the kernel says EACCES for a directory: say what it is */
		else if (e == EACCES && S_ISDIR(st.st_mode))
			e = EISDIR;
		if (e == ENOENT || e == ENOTDIR)
			continue;
		err = e;
		if (e != EACCES && e != EISDIR)
			break;
	}
	run->exec_errno = err;
	child_exit(run, err == ENOENT || err == ENOTDIR ? SANDLOCK_EXIT_NOTFOUND : SANDLOCK_EXIT_NOEXEC);
}

SL_CHILD static int program_main(void *arg)
{
	program_setup(arg);
}

SL_CHILD static void setup_done(struct sl_run *run)
{
	__atomic_store_n(&run->setup_done, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &run->setup_done, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/*
 * In a pid namespace the first process is an init of our own, so that the
 * program is not pid 1 (which the kernel shields from its own signals:
 * raise(SIGTERM) would do nothing).  It creates the program the same way
 * the supervisor created it, then only reaps, and hands the program's
 * status to the supervisor through the memory they share.  When it exits,
 * the kernel kills whatever is left in the namespace.
 */
SL_CHILD static __attribute__((noreturn)) void become_init(struct sl_run *run)
{
	char *stack = (char *)run->stack + STACK_SIZE; /* the lower half */
	pid_t prog = clone(program_main, stack,
			   CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, run);
	if (prog < 0)
		fail(run, SL_STEP_EXEC);
	/* The program has called exec, or failed. */
	bool failed = run->fail_step != SL_STEP_NONE || run->exec_errno;
	/* Hold nothing of the supervisor's: not the listener, not the
	 * program's output pipes. */
	if (run->fd_mode == SL_FD_CLOSE_RANGE)
		syscall(SYS_close_range, 0U, ~0U, CLOSE_RANGE_UNSHARE);
	else {
		if (run->fd_mode == SL_FD_UNSHARE)
			syscall(SYS_unshare, CLONE_FILES);
		close_above_2(run);
		for (int fd = 0; fd < 3; fd++)
			close(fd);
	}
	setup_done(run);
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, __WALL);
		if (w == prog) {
			run->ns_status = st;
			__atomic_store_n(&run->ns_status_valid, !failed, __ATOMIC_RELEASE);
			_exit(0);
		}
		if (w < 0 && errno == ECHILD)
			_exit(0);
	}
}

/* The hexadecimal mask after "\nKEY:\t" in buf, or all bits. */
SL_CHILD static uint64_t status_mask(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);
	if (!p)
		return UINT64_MAX;
	p += strlen(key);
	while (*p == '\t' || *p == ' ')
		p++;
	uint64_t m = 0;
	int digits = 0;
	for (;; p++, digits++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else
			break;
		m = m << 4 | d;
	}
	return digits == 16 && *p == '\n' ? m : UINT64_MAX;
}

/* The signals (bit s-1 for signal s) whose disposition is not SIG_DFL in
 * this process: ignored or caught, from /proc/self/status (one read, ~10
 * us here, instead of 62 sigactions, ~60 us).  This child has its own copy
 * of the dispositions (no CLONE_SIGHAND) and installs none, so the answer
 * cannot change before they are reset.  Without /proc: every signal. */
SL_CHILD static uint64_t not_default_signals(void)
{
	char buf[4096];
	if (sl_read_small(AT_FDCWD, "/proc/self/status", buf, sizeof(buf)) <= 0)
		return UINT64_MAX;
	uint64_t ign = status_mask(buf, "\nSigIgn:"), cgt = status_mask(buf, "\nSigCgt:");
	return ign | cgt;
}

SL_CHILD static int child_main(void *arg)
{
	struct sl_run *run = arg;

	/* Handlers the supervisor's process installed must not run here; an
	 * ignored signal would stay ignored across exec.  Only the signals
	 * not at their default are reset (a handler-free CLI has a few; a Go
	 * grader all of them). */
	/* by the system call: the C library's sigaction refuses the two
	 * signals it keeps for itself (32 and 33), and a caller that ignores
	 * them would leave them ignored in the program */
	struct { void (*handler)(int); unsigned long flags; void (*restorer)(void);
		 uint64_t mask; } dfl = { SIG_DFL, 0, NULL, 0 };
	uint64_t set = not_default_signals();
	for (int s = 1; s <= 64; s++)
		if (s != SIGKILL && s != SIGSTOP && (set >> (s - 1) & 1))
			syscall(SYS_rt_sigaction, s, &dfl, NULL, sizeof(dfl.mask));
	/* before anything can fork: every process of the run is in it
	 * (unless clone3 put us there) */
	if (!run->cg.joined)
		sl_cgroup_join(&run->cg);

	pid_t sid = (pid_t)syscall(SYS_setsid);
	if (sid < 0)
		fail(run, SL_STEP_SESSION);
	/* the watchdog's target, known before anything can fork; in a pid
	 * namespace our id is 1 there, and the supervisor writes it instead */
	if (!run->in_pidns)
		__atomic_store_n(&run->pgid, sid, __ATOMIC_RELEASE);
	parent_death_signal(run);
	run->nnp_ok = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
	if (!run->nnp_ok && !run->nnp_optional)
		fail(run, SL_STEP_NO_NEW_PRIVS);
	if (sl_rlimits_apply(run) != 0)
		fail(run, SL_STEP_RLIMITS);
	if (sl_namespaces_apply(run, &run->tmpfs_fd) != 0)
		fail(run, SL_STEP_MOUNTS);
	if (sl_hostname_apply(run) != 0)
		fail(run, SL_STEP_HOSTNAME);
	if (run->in_pidns)
		become_init(run);
	program_setup(run);
}

/* Wait until the child (or, in a pid namespace, the program) has called
 * exec or failed.  Only needed without CLONE_VFORK. */
static void wait_setup(struct sl_run *run, pid_t pid)
{
	struct timespec ts = { 0, 50 * 1000000 };
	while (!__atomic_load_n(&run->setup_done, __ATOMIC_ACQUIRE)) {
		syscall(SYS_futex, &run->setup_done, FUTEX_WAIT, 0, &ts, NULL, 0);
		siginfo_t si;
		si.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid)
			return; /* died before it said so */
	}
}

pid_t sl_spawn(struct sl_run *run, int *pidfd)
{
	/* two stacks: the init's above, the program's below (pid namespace) */
	void *stack = mmap(NULL, 2 * STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	run->stack = stack;
	run->setup_done = 0;
	run->maps_state = 0;
	run->pgid = 0;
	run->ns_status_valid = 0;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	run->fail_step = SL_STEP_NONE;
	run->filter_on = false;
	run->listener_fd = -1;
	run->exec_errno = 0;
	*pidfd = -1;
	/* The init of a pid namespace never calls exec: no CLONE_VFORK then,
	 * it says when the program is running instead. */
	int vfork = run->in_pidns ? 0 : CLONE_VFORK;
	/* kept open until the init has said it runs (it shares or copies our
	 * table); without pidfd_open (before 5.3) the init cannot tell */
	run->supervisor_pidfd = run->in_pidns ? (int)syscall(SYS_pidfd_open, getpid(), 0) : -1;
	int files = run->fd_mode == SL_FD_PRIVATE ? 0 : CLONE_FILES;
	int flags = CLONE_VM | vfork | files | CLONE_PIDFD | SIGCHLD | run->clone_ns_flags;
	char *top = (char *)stack + 2 * STACK_SIZE;
	pid_t pid = -1;
	errno = ENOSYS;
#ifdef HAVE_CLONE3_RUN
	if (run->cg.ok && !run->cg.joined && run->cg.dir >= 0) {
		/* the same flags, one field each; the kernel checks the cgroup */
		struct clone_args ca;
		memset(&ca, 0, sizeof(ca));
		int pfd = -1;
		ca.flags = (uint64_t)(flags & ~(CLONE_PIDFD | CSIGNAL)) | CLONE_INTO_CGROUP;
		if (run->in_pidns) {
			ca.flags |= CLONE_PARENT_SETTID;
			ca.parent_tid = (uint64_t)(uintptr_t)&run->pgid;
		} else {
			ca.flags |= CLONE_PIDFD;
			ca.pidfd = (uint64_t)(uintptr_t)&pfd;
		}
		ca.exit_signal = SIGCHLD;
		ca.stack = (uint64_t)(uintptr_t)stack + (run->in_pidns ? STACK_SIZE : 0);
		ca.stack_size = run->in_pidns ? STACK_SIZE : 2 * STACK_SIZE;
		ca.cgroup = (uint64_t)run->cg.dir;
		run->cg.joined = true; /* read by the child: it need not write */
		long r = clone3_run(&ca, child_main, run);
		if (r < 0) {
			run->cg.joined = false;
			errno = (int)-r;
		} else {
			pid = (pid_t)r;
			*pidfd = pfd;
		}
	}
#endif
	if (pid > 0)
		; /* in its cgroup from the start */
	else if (run->in_pidns)
		/* The watchdog's target is the init's id here, which the init
		 * cannot learn (it is 1 to itself): the kernel writes it into
		 * the memory we share before the init first runs, so a
		 * supervisor killed on its way out of clone() leaves it known.
		 * That field is CLONE_PIDFD's too: pidfd_open below instead. */
		pid = clone(child_main, top, (flags & ~CLONE_PIDFD) | CLONE_PARENT_SETTID,
			    run, &run->pgid);
	else
		pid = clone(child_main, top, flags, run, pidfd);
	if (pid < 0 && errno == EINVAL && !run->in_pidns) {
		/* kernels without CLONE_PIDFD (before 5.2) */
		flags &= ~CLONE_PIDFD;
		*pidfd = -1;
		pid = clone(child_main, top, flags, run, NULL);
	}
	int e = errno;
	/* no CLONE_PIDFD: pidfd_open (5.3), else the supervisor polls */
	if (pid > 0 && *pidfd < 0) {
		long fd = syscall(SYS_pidfd_open, pid, 0);
		*pidfd = fd >= 0 ? (int)fd : -1;
		if (*pidfd >= 0)
			fcntl(*pidfd, F_SETFD, FD_CLOEXEC);
	}
	if (pid > 0 && run->parent_maps)
		sl_namespaces_parent_maps(run, pid);
	if (pid > 0 && !vfork)
		wait_setup(run, pid);
	if (run->supervisor_pidfd >= 0)
		close(run->supervisor_pidfd);
	run->supervisor_pidfd = -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (vfork || pid < 0) {
		munmap(stack, 2 * STACK_SIZE);
		run->stack = NULL;
	}
	errno = e;
	return pid;
}

/* After the init has been reaped: its stack goes. */
void sl_spawn_release(struct sl_run *run)
{
	if (run->stack)
		munmap(run->stack, 2 * STACK_SIZE);
	run->stack = NULL;
}
