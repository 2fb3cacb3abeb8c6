/*
 * The watchdog: what kills the run when the supervisor dies, on hosts
 * where nothing else would.
 *
 * On a full host the child has a parent-death signal, and a run that may
 * fork lives in a pid namespace whose processes all die with its first.
 * A container's seccomp profile refuses the namespace, some hosts refuse
 * PR_SET_PDEATHSIG, and then a supervisor killed by SIGKILL (the grader's
 * timeout, the OOM killer) would leave the program and its children
 * running.  The watchdog is a small process of the supervisor's, in a
 * session of its own (so the signals a grader sends to the supervisor's
 * process group do not reach it) with every signal blocked, holding the
 * read end of a pipe whose only write end is the supervisor's.  When the
 * supervisor dies the kernel closes that end, the read returns 0, and the
 * watchdog kills the run's process group (the filter refuses setsid and
 * setpgid, so the group holds the whole run).  When the run ends normally
 * the supervisor says so first and the watchdog only exits.
 *
 * It shares the supervisor's memory (CLONE_VM, like the child): no page
 * tables are copied, and it reads the run's process group from the run
 * itself, written by the child before exec, so there is no window in which
 * the group is unknown.  It has its own descriptor table (it closes all
 * but its pipe, so it holds none of the program's pipes open) and makes
 * raw system calls only (errno is the supervisor's thread's).
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>


#define LIFELINE_STACK (64 * 1024)

SL_CHILD static int watchdog(void *arg)
{
	struct sl_run *run = arg;
	int rfd = run->lifeline.rfd;
	sl_raw(SYS_setsid, 0, 0, 0, 0);
	uint64_t all = ~0ull;
	sl_raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, 0, 8);
	/* hold nothing else: not the write end, not the program's pipes */
	/* (one by one where close_range is missing or refused: a copy of
	 * an output pipe kept here would keep the supervisor from its EOF) */
	if (rfd > 0 && sl_raw(SYS_close_range, 0, rfd - 1, 0, 0) != 0)
		for (long fd = 0; fd < rfd; fd++)
			sl_raw(SYS_close, fd, 0, 0, 0);
	if (sl_raw(SYS_close_range, rfd + 1, ~0U, 0, 0) != 0)
		for (long fd = rfd + 1; fd < 65536; fd++)
			sl_raw(SYS_close, fd, 0, 0, 0);
	char c;
	long n;
	do
		n = sl_raw(SYS_read, rfd, (long)&c, 1, 0);
	while (n == -EINTR);
	if (!__atomic_load_n(&run->lifeline.done, __ATOMIC_ACQUIRE)) {
		pid_t pgid = __atomic_load_n(&run->pgid, __ATOMIC_ACQUIRE);
		/* again until the group is gone: a fork racing the first kill */
		/* never a group of 1 or less: kill(-1) would be everything */
		for (int i = 0; pgid > 1 && i < 1000; i++)
			if (sl_raw(SYS_kill, -pgid, SIGKILL, 0, 0) == -ESRCH)
				break;
	}
	sl_raw(SYS_exit, 0, 0, 0, 0);
	return 0;
}

int sl_lifeline_start(struct sl_run *run)
{
	struct sl_lifeline *l = &run->lifeline;
	if (l->pid > 0)
		return 0;
	int pp[2];
	if (pipe2(pp, O_CLOEXEC) != 0)
		return -1;
	l->stack = mmap(NULL, LIFELINE_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (l->stack == MAP_FAILED) {
		l->stack = NULL;
		close(pp[0]);
		close(pp[1]);
		return -1;
	}
	l->rfd = pp[0];
	l->wfd = pp[1];
	l->done = 0;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t pid = clone(watchdog, (char *)l->stack + LIFELINE_STACK, CLONE_VM | SIGCHLD, run);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* l->rfd keeps its number: the watchdog may not have read it yet */
	close(l->rfd);
	if (pid < 0) {
		close(l->wfd);
		munmap(l->stack, LIFELINE_STACK);
		l->stack = NULL;
		errno = e;
		return -1;
	}
	l->pid = pid;
	return 0;
}

/* The run is over and its processes are gone: the watchdog exits without
 * killing, while the supervisor finishes (it is reaped at the end). */
void sl_lifeline_release(struct sl_run *run)
{
	struct sl_lifeline *l = &run->lifeline;
	if (l->pid <= 0 || l->wfd < 0)
		return;
	__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	close(l->wfd);
	l->wfd = -1;
}

void sl_lifeline_stop(struct sl_run *run)
{
	struct sl_lifeline *l = &run->lifeline;
	if (l->pid <= 0)
		return;
	sl_lifeline_release(run);
	int st;
	while (waitpid(l->pid, &st, __WALL) < 0 && errno == EINTR)
		;
	l->pid = 0;
	munmap(l->stack, LIFELINE_STACK);
	l->stack = NULL;
}
