/*
 * Asynchronous runs: sandlock_spawn(), sandlock_handle_fd(), sandlock_wait(),
 * sandlock_kill().
 *
 * sandlock_run() blocks its thread and changes the calling process (child
 * subreaper, not dumpable).  A run here gets a supervisor process of its
 * own instead: the caller forks, the child calls sandlock_run() and writes
 * the result, in one write, into a pipe whose read end is the handle's
 * pollable descriptor.  So the caller stays as it was, a run's crash
 * cannot take the caller's other runs with it, and any number of runs are
 * driven from one thread with poll().
 *
 * The supervisor stops its run (as cancelled) when any of these becomes
 * readable, all in one epoll set given to sandlock_run() as cancel_fd:
 *   - the handle's eventfd: sandlock_kill();
 *   - a signalfd for SIGTERM, SIGINT, SIGHUP, SIGQUIT, as the CLI has
 *     (a Ctrl-C to the grader's process group ends the runs cleanly);
 *   - a pidfd of the caller: the caller process is gone (all its threads:
 *     unlike PR_SET_PDEATHSIG, which fires when the forking *thread* ends,
 *     so a grader spawning from short-lived worker threads would lose its
 *     runs);
 *   - the result pipe's write end reporting EPOLLERR: nobody holds the
 *     read end any more (the caller died, or called exec: the read end is
 *     close-on-exec); this also covers kernels without pidfd_open (5.3).
 * The caller's own cancel_fd, if the policy has one, joins the set.
 */
#include "lib/internal.h"

#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>


struct sandlock_handle {
	pid_t pid;     /* the supervisor process; 0 when it could not be made */
	int fd;        /* the result pipe's read end */
	int kill_fd;   /* eventfd read by the supervisor; -1 when none */
};

/* What the supervisor writes: one record, one write. */
#define SL_ASYNC_MAGIC 0x534c4152u /* "SLAR" */
struct sl_async_record {
	uint32_t magic;
	int32_t rc;
	struct sandlock_result r;
};
/* a write of at most PIPE_BUF bytes to a pipe is atomic: the reader sees
 * all of it or nothing, never half a result */
_Static_assert(sizeof(struct sl_async_record) <= PIPE_BUF, "result record must fit in PIPE_BUF");

static void failed_result(struct sandlock_result *r)
{
	r->verdict = SANDLOCK_SETUP_FAILED;
	r->status = SANDLOCK_EXIT_FAILURE;
	r->exit_code = -1;
	r->uid = SANDLOCK_UID_UNKNOWN;
}

static void write_record(int fd, int rc, const struct sandlock_result *r)
{
	struct sl_async_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.magic = SL_ASYNC_MAGIC;
	rec.rc = rc;
	rec.r = *r;
	ssize_t n;
	do
		n = write(fd, &rec, sizeof(rec));
	while (n < 0 && errno == EINTR);
	/* EPIPE: the caller is gone, nobody wants it */
}

static bool keep_fd(int fd, const int *keep, int nkeep)
{
	for (int i = 0; i < nkeep; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

/* Close every descriptor of the forked caller but those in keep: the
 * read ends of the caller's other runs above all, which would otherwise
 * keep those runs' "caller gone" from being seen. */
static void close_others(const int *keep, int nkeep)
{
	int sorted[16], n = 0;
	for (int i = 0; i < nkeep; i++)
		if (keep[i] >= 0 && !keep_fd(keep[i], sorted, n))
			sorted[n++] = keep[i];
	for (int i = 1; i < n; i++) /* insertion sort: a handful */
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	unsigned lo = 0;
	bool ok = true;
	for (int i = 0; i <= n && ok; i++) {
		unsigned hi = i < n ? (unsigned)sorted[i] : ~0u;
		if (hi > lo)
			ok = syscall(SYS_close_range, lo, hi - 1, 0) == 0;
		if (i < n)
			lo = (unsigned)sorted[i] + 1;
	}
	if (ok)
		return;
	/* before 5.9: what /proc says is open, read without allocating */
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		long max = sysconf(_SC_OPEN_MAX);
		for (long fd = 0; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
			if (!keep_fd((int)fd, keep, nkeep))
				close((int)fd);
		return;
	}
	char buf[4096];
	long got;
	while ((got = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			const char *name = buf + off + 19;
			if (name[0] >= '0' && name[0] <= '9') {
				int fd = atoi(name);
				if (fd != dir && !keep_fd(fd, keep, nkeep))
					close(fd);
			}
			off += reclen;
		}
	}
	close(dir);
}

static int epoll_add(int ep, int fd, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* The supervisor process: never returns. */
__attribute__((noreturn)) static void supervise(const struct sandlock_policy *p, char *const argv[],
						int wfd, int kill_fd, pid_t caller)
{
	struct sandlock_result res;
	memset(&res, 0, sizeof(res));
	/* The caller's handlers must not run here (a Python handler would
	 * write into the caller's wakeup descriptor); what it ignores stays
	 * ignored (nohup), but SIGCHLD, which sandlock_run() needs to wait
	 * for the program, and SIGPIPE, which a vanished reader of the
	 * program's output must not turn into our death, as in the CLI. */
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (s == SIGKILL || s == SIGSTOP || sigaction(s, NULL, &sa) != 0)
			continue;
		if (s == SIGCHLD || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) ||
		    (sa.sa_flags & SA_SIGINFO)) {
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = SIG_DFL;
			sigaction(s, &sa, NULL);
		}
	}
	signal(SIGPIPE, SIG_IGN);

	int keep[] = { 0, 1, 2, p->stdin_fd, p->stdout_fd, p->stderr_fd, p->cancel_fd,
		       p->hangup_fd, wfd, kill_fd };
	close_others(keep, (int)(sizeof(keep) / sizeof(keep[0])));

	/* the stop signals come through a descriptor, as in the CLI; the
	 * rest are unblocked (the caller's mask was all-blocked for the fork) */
	sigset_t stop;
	sl_stop_signals(&stop);
	sigprocmask(SIG_SETMASK, &stop, NULL);
	int sfd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	/* before 5.3 (or refused by a container's filter): the pipe alone */
	int pidfd = (int)syscall(SYS_pidfd_open, caller, 0);
	if (getppid() != caller)
		_exit(0); /* the caller died before we could watch it */
	if (sfd < 0 || ep < 0 || epoll_add(ep, sfd, EPOLLIN) != 0 ||
	    epoll_add(ep, kill_fd, EPOLLIN) != 0 || epoll_add(ep, wfd, 0) != 0 ||
	    (pidfd >= 0 && epoll_add(ep, pidfd, EPOLLIN) != 0)) {
		sl_seterr(&res, "cannot watch for the run's cancellation: %s", strerror(errno));
		failed_result(&res);
		write_record(wfd, SANDLOCK_ESYSTEM, &res);
		_exit(0);
	}
	if (p->cancel_fd >= 0 && epoll_add(ep, p->cancel_fd, EPOLLIN) != 0) {
		sl_seterr(&res, "cancel_fd %d cannot be watched: %s", p->cancel_fd, strerror(errno));
		failed_result(&res);
		write_record(wfd, SANDLOCK_EINVAL, &res);
		_exit(0);
	}
	struct sandlock_policy q = *p; /* shallow: its strings are our copies */
	q.cancel_fd = ep;
	int rc = sandlock_run(&q, argv, &res);
	/* The run reads its cancel descriptor as a signalfd to name the
	 * signal; ours is an epoll set: name it here, as the CLI would (a
	 * stop signal, or sandlock_kill as its SIGTERM). */
	if (rc == 0 && res.verdict == SANDLOCK_SIGNALED && !res.cancel_signal) {
		struct signalfd_siginfo si;
		uint64_t count;
		if (read(sfd, &si, sizeof(si)) == sizeof(si))
			res.cancel_signal = (int)si.ssi_signo;
		else if (read(kill_fd, &count, sizeof(count)) == sizeof(count))
			res.cancel_signal = SIGTERM;
		if (res.cancel_signal)
			res.status = 128 + res.cancel_signal;
	}
	write_record(wfd, rc, &res);
	/* _exit: never the caller's atexit handlers nor its stdio buffers */
	_exit(0);
}

int sandlock_spawn(const struct sandlock_policy *p, char *const argv[],
		   struct sandlock_handle **h)
{
	if (h)
		*h = NULL;
	char err[256];
	if (!p || !argv || !argv[0] || !argv[0][0] || !h)
		return SANDLOCK_EINVAL;
	int rc = sandlock_policy_validate(p, err, sizeof(err));
	if (rc)
		return rc;
	struct sandlock_handle *hd = calloc(1, sizeof(*hd));
	if (!hd)
		return SANDLOCK_ENOMEM;
	int pp[2];
	if (pipe2(pp, O_CLOEXEC) != 0) {
		free(hd);
		return SANDLOCK_ESYSTEM;
	}
	hd->fd = pp[0];
	hd->kill_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (hd->kill_fd < 0) {
		int e = errno;
		close(pp[0]);
		close(pp[1]);
		free(hd);
		errno = e;
		return SANDLOCK_ESYSTEM;
	}
	pid_t caller = getpid();
	/* No handler of the caller's may run in the child before it has
	 * reset them: every signal blocked across the fork. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t pid = fork();
	if (pid == 0)
		supervise(p, argv, pp[1], hd->kill_fd, caller);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		/* as sandlock_run() reports a refused clone: in the result */
		struct sandlock_result res;
		memset(&res, 0, sizeof(res));
		sl_seterr(&res, "cannot create the run's supervisor process: %s", strerror(e));
		failed_result(&res);
		write_record(pp[1], SANDLOCK_ESYSTEM, &res);
		close(hd->kill_fd);
		hd->kill_fd = -1;
	}
	hd->pid = pid > 0 ? pid : 0;
	close(pp[1]);
	*h = hd;
	return 0;
}

int sandlock_handle_fd(const struct sandlock_handle *h)
{
	return h ? h->fd : -1;
}

int sandlock_kill(struct sandlock_handle *h)
{
	if (!h)
		return SANDLOCK_EINVAL;
	if (h->kill_fd < 0)
		return 0; /* nothing was started */
	uint64_t one = 1;
	/* EAGAIN: the counter is full, it was asked already */
	if (write(h->kill_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		return SANDLOCK_ESYSTEM;
	return 0;
}

int sandlock_wait(struct sandlock_handle *h, struct sandlock_result *r)
{
	if (!h || !r)
		return SANDLOCK_EINVAL;
	struct sl_async_record rec;
	size_t got = 0;
	while (got < sizeof(rec)) {
		ssize_t n = read(h->fd, (char *)&rec + got, sizeof(rec) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	int st = 0;
	bool reaped = false;
	if (h->pid > 0) {
		pid_t w;
		while ((w = waitpid(h->pid, &st, __WALL)) < 0 && errno == EINTR)
			;
		/* ECHILD: reaped by someone else (SIGCHLD ignored, a handler
		 * waiting for any child); the record says what happened */
		reaped = w == h->pid;
	}
	int rc;
	if (got == sizeof(rec) && rec.magic == SL_ASYNC_MAGIC) {
		*r = rec.r;
		rc = rec.rc;
	} else {
		memset(r, 0, sizeof(*r));
		failed_result(r);
		if (reaped && WIFSIGNALED(st))
			sl_seterr(r, "the run's supervisor process (%d) was killed by signal %d "
				     "before it gave a result", (int)h->pid, WTERMSIG(st));
		else if (reaped)
			sl_seterr(r, "the run's supervisor process (%d) exited %d without a result",
				  (int)h->pid, WEXITSTATUS(st));
		else
			sl_seterr(r, "the run's supervisor process (%d) ended without a result",
				  (int)h->pid);
		rc = SANDLOCK_ESYSTEM;
	}
	close(h->fd);
	if (h->kill_fd >= 0)
		close(h->kill_fd);
	free(h);
	return rc;
}
