/*
 * The supervisor: prepares a run, creates the child, and stays until every
 * process of the run is gone.  It waits on descriptors only (pidfd, timerfd,
 * the seccomp listener, output pipes, the caller's cancel descriptor): no
 * signal handlers, no SIGALRM, nothing process-wide but the child subreaper
 * flag and non-dumpability, so many runs can go on at once in one process.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Open an output file for the program: created 0600, never through a
 * symlink at the last component. */
static bool same_file(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && S_ISREG(a.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void add_rusage(struct sandlock_result *r, const struct rusage *ru)
{
	r->user_us += (uint64_t)ru->ru_utime.tv_sec * 1000000u + ru->ru_utime.tv_usec;
	r->sys_us += (uint64_t)ru->ru_stime.tv_sec * 1000000u + ru->ru_stime.tv_usec;
	if ((uint64_t)ru->ru_maxrss > r->peak_kb)
		r->peak_kb = ru->ru_maxrss;
}

/* Kill every process of the run and reap those that come back to us.
 * setsid/setpgid are refused by the filter, so the process group holds the
 * whole tree; in a pid namespace the kernel kills it with its first
 * process anyway. */
static void kill_tree(struct sl_run *run, pid_t pgid, struct sandlock_result *res)
{
	sl_cgroup_kill(&run->cg);
	struct timespec pause = { 0, 200000 };
	for (int i = 0; i < 20000; i++) {
		kill(-pgid, SIGKILL);
		struct rusage ru;
		int st;
		pid_t w;
		while ((w = wait4(-pgid, &st, WNOHANG | __WALL, &ru)) > 0)
			add_rusage(res, &ru);
		if (kill(-pgid, 0) != 0 && errno == ESRCH)
			return;
		nanosleep(&pause, NULL);
	}
}

static bool crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGABRT || sig == SIGTRAP;
}

/* How the run ended, as the supervisor saw it. */
struct ending {
	bool violated, timed_out, over_output, cancelled;
	bool over_cpu, over_mem;  /* the whole run passed --cpu / --mem */
	bool over_fsize;          /* a write past --fsize, SIGXFSZ blocked */
	bool mem_refused;         /* a large allocation was refused */
	bool exec_too_big;        /* killed in execve: static data past --mem */
	bool kernel_kills_violations;
	uint64_t floor_kb;        /* our own peak before exec */
#define SL_FLOOR_SLACK_KB 256
};

static void judge(const struct sandlock_policy *p, struct sandlock_result *r, int st,
		  const struct ending *e)
{
	if (WIFEXITED(st)) {
		r->exit_code = WEXITSTATUS(st);
		r->signal = 0;
		r->status = r->exit_code;
	} else if (WIFSIGNALED(st)) {
		r->exit_code = -1;
		r->signal = WTERMSIG(st);
		r->status = 128 + r->signal;
	}
	uint64_t cpu_ms = (r->user_us + r->sys_us) / 1000;
	uint64_t mem_kb = p->mem_mb * 1024;
	bool failed = r->exit_code != 0;
	if (e->violated) {
		r->verdict = SANDLOCK_SYSCALL_BLOCKED;
		r->exit_code = -1;
		r->signal = SIGSYS;
		r->status = 128 + SIGSYS;
	} else if (e->timed_out) {
		r->verdict = SANDLOCK_WALL_LIMIT;
		r->status = SANDLOCK_EXIT_TIMEOUT;
	} else if (e->over_output) {
		/* whatever the program did after, its output was cut */
		r->verdict = SANDLOCK_OUTPUT_LIMIT;
		r->status = 128 + SIGXFSZ;
	} else if (e->cancelled) {
		r->verdict = SANDLOCK_SIGNALED;
		if (r->cancel_signal)
			r->status = 128 + r->cancel_signal;
	} else if (e->over_cpu || (p->cpu_ms && cpu_ms >= p->cpu_ms)) {
		/* the whole run used it, whoever stopped it (us, a backstop, the
		 * program itself); a limit verdict needs the limit reached:
		 * raise(SIGXCPU) at 0 ms is only a signal */
		r->verdict = SANDLOCK_CPU_LIMIT;
		r->status = 128 + SIGXCPU; /* whatever killed it */
	} else if (e->over_mem || (e->exec_too_big && r->signal)) {
		r->verdict = SANDLOCK_MEMORY_LIMIT;
		/* seen as it ended (files left in its tmpfs, an OOM kill of
		 * one of its processes): not a success to a caller's shell */
		if (r->status == 0)
			r->status = 128 + SIGKILL;
	} else if ((r->signal == SIGXFSZ || e->over_fsize) && (p->fsize_mb || p->fsize_bytes)) {
		r->verdict = SANDLOCK_FILE_SIZE_LIMIT;
		r->status = 128 + SIGXFSZ; /* whatever killed it */
	} else if (r->signal == SIGSYS && e->kernel_kills_violations) {
		r->verdict = SANDLOCK_SYSCALL_BLOCKED;
	} else if (failed && mem_kb &&
		   (e->mem_refused || (r->peak_kb > e->floor_kb && r->peak_kb * 10 >= mem_kb * 8)) &&
		   (r->signal == 0 || crash_signal(r->signal) || r->signal == SIGKILL)) {
		/* The kernel refused an allocation: a large one we saw coming
		 * (mem_refused), or the last of many small ones, after which
		 * most of the limit is in use.  The peak the kernel reports
		 * includes our own memory before exec (floor_kb): a program
		 * that never held more than that did not run out. */
		r->verdict = SANDLOCK_MEMORY_LIMIT;
	} else if (r->signal == 0) {
		r->verdict = r->exit_code == 0 ? SANDLOCK_OK_VERDICT : SANDLOCK_RUNTIME_ERROR;
	} else if (crash_signal(r->signal) || r->signal == SIGSYS) {
		r->verdict = SANDLOCK_RUNTIME_ERROR;
	} else {
		r->verdict = SANDLOCK_SIGNALED;
	}
}

static int setup_failed(struct sandlock_result *res, int err)
{
	res->verdict = SANDLOCK_SETUP_FAILED;
	res->status = SANDLOCK_EXIT_FAILURE;
	res->exit_code = -1;
	return err;
}

static int prepare_stdio(const struct sandlock_policy *p, struct sl_run *run,
			 struct sandlock_result *res)
{
	const char *paths[3] = { p->stdin_path, p->stdout_path, p->stderr_path };
	const int fds[3] = { p->stdin_fd, p->stdout_fd, p->stderr_fd };
	for (int i = 0; i < 3; i++) {
		run->stdio[i] = -1;
		if (paths[i] && i == 2 && run->stdio[1] >= 0 &&
		    (sl_outfile_same(&run->out[1], paths[i]) || same_file(run->stdio[1], paths[i]))) {
			/* --stdout F --stderr F is >F 2>&1: one open file, one
			 * offset, neither overwriting the other */
			run->stdio[2] = fcntl(run->stdio[1], F_DUPFD_CLOEXEC, 3);
		} else if (paths[i]) {
			int fd = i == 0 ? open(paths[i], O_RDONLY | O_CLOEXEC)
					: sl_outfile_open(&run->out[i], paths[i]);
			if (fd >= 0 && i > 0)
				fd = fcntl(fd, F_DUPFD_CLOEXEC, 3); /* out[i] keeps its own */
			if (fd < 0) {
				sl_seterr(res, "cannot open %s: %s", paths[i], strerror(errno));
				return SANDLOCK_ESETUP;
			}
			run->stdio[i] = sl_fd_above_stdio(fd);
		} else if (fds[i] >= 0) {
			run->stdio[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
		}
	}
	/* The supervisor sits between the program and the grader's terminal
	 * (see relay.c), and between the program and wherever its output
	 * goes under an output cap. */
	for (int i = 0; i < 3; i++) {
		int grader = run->stdio[i] >= 0 ? run->stdio[i] : i;
		if (!isatty(grader) && (i == 0 || !p->max_output))
			continue;
		int pp[2];
		if (pipe2(pp, O_CLOEXEC) != 0) {
			sl_seterr(res, "pipe: %s", strerror(errno));
			return SANDLOCK_ESYSTEM;
		}
		pp[0] = sl_fd_above_stdio(pp[0]);
		pp[1] = sl_fd_above_stdio(pp[1]);
		int mine = sl_relay_reopen(grader, i == 0 ? O_RDONLY : O_WRONLY);
		int from = i == 0 ? mine : pp[0], to = i == 0 ? pp[1] : mine;
		if (mine < 0 || sl_relay_init(&run->relay[i], from, to, i == 0) != 0) {
			int e = errno;
			close(pp[0]);
			close(pp[1]);
			if (mine >= 0)
				close(mine);
			free(run->relay[i].buf);
			run->relay[i] = (struct sl_relay){ .from = -1, .to = -1 };
			sl_seterr(res, "standard stream %d: %s", i, strerror(e));
			return SANDLOCK_ESYSTEM;
		}
		fcntl(i == 0 ? to : from, F_SETFL, O_NONBLOCK); /* our own pipe end */
		close_fd(&run->stdio[i]);
		run->stdio[i] = i == 0 ? pp[0] : pp[1];
	}
	return 0;
}

/* --stdout/--stderr FILE, in place now that nothing of the run is left
 * (outfile.c); under --max-output what the program could have written
 * past the supervisor is cut off. */
static int place_outputs(const struct sandlock_policy *p, struct sl_run *run,
			 struct sandlock_result *res)
{
	bool shared = run->out[2].fd < 0 && p->stderr_path && run->out[1].fd >= 0;
	int64_t size[3] = { -1, -1, -1 };
	if (p->max_output) {
		size[1] = (int64_t)(res->stdout_bytes + (shared ? res->stderr_bytes : 0));
		size[2] = (int64_t)res->stderr_bytes;
	}
	for (int i = 1; i < 3; i++) {
		if (sl_outfile_place(&run->out[i], size[i]) != 0) {
			sl_seterr(res, "cannot put %s in place: %s",
				  i == 1 ? p->stdout_path : p->stderr_path, strerror(errno));
			return SANDLOCK_ESYSTEM;
		}
	}
	return 0;
}

static void release_run(struct sl_run *run)
{
	for (int i = 0; i < 3; i++)
		sl_outfile_release(&run->out[i]);
	for (int i = 0; i < 3; i++)
		close_fd(&run->stdio[i]);
	for (int i = 0; i < 3; i++)
		sl_relay_close(&run->relay[i]);
	close_fd(&run->landlock_fd);
	sl_landlock_close_paths(run);
	sl_environ_free(run->envp);
	run->envp = NULL;
	sl_guard_release(run);
	free(run->filter_copy);
	sl_spawn_release(run);
	run->filter_copy = NULL;
	if (run->tmpfs_fd >= 0)
		close(run->tmpfs_fd);
	run->tmpfs_fd = -1;
	sl_lifeline_stop(run);
	sl_cgroup_remove(&run->cg);
	sl_scratch_remove(run);
	sl_uidpool_release(run);
}

/* The option that turns a layer on, for messages. */
static const char *layer_option(unsigned bit)
{
	switch (bit) {
	case SANDLOCK_LAYER_LANDLOCK: case SANDLOCK_LAYER_LANDLOCK_NET:
	case SANDLOCK_LAYER_LANDLOCK_SCOPE: return "--landlock";
	case SANDLOCK_LAYER_ISOLATE_TMP: return "--isolate-tmp";
	case SANDLOCK_LAYER_STRICT: return "--strict";
	case SANDLOCK_LAYER_PRIVDROP: return "starting as root";
	case SANDLOCK_LAYER_USERNS: case SANDLOCK_LAYER_PIDNS: case SANDLOCK_LAYER_MOUNTNS:
	case SANDLOCK_LAYER_IPCNS: case SANDLOCK_LAYER_NETNS: case SANDLOCK_LAYER_UTSNS:
		return "--unshare on";
	}
	return NULL;
}

/* One line: the first layer in `missing`, and why this host lacks it
 * (from a full probe: only on this failure path). */
static void explain_missing(const struct sandlock_policy *p, unsigned missing,
			    const char *what, struct sandlock_result *res)
{
	struct sandlock_features full;
	sl_probe_features(&full, true);
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		if (!(missing & bit))
			continue;
		if (full.state[i] != SANDLOCK_AVAILABLE) {
			sl_seterr(res, "%s %s is %s on this host (%s); %s", what,
				  sandlock_layer_name(bit), sandlock_state_name(full.state[i]),
				  full.why[i], sandlock_feature_remedy(&full, bit));
		} else if (layer_option(bit) && (p->require & bit)) {
			sl_seterr(res, "required layer %s is available here but was not asked for: add %s",
				  sandlock_layer_name(bit), layer_option(bit));
		} else {
			continue; /* the caller says what failed */
		}
		return;
	}
}

/* Check that every layer the caller required is going to be active. */
static int check_required(const struct sandlock_policy *p, unsigned active,
			  struct sandlock_result *res)
{
	unsigned missing = p->require & ~active;
	if (!missing)
		return 0;
	explain_missing(p, missing, "required layer", res);
	return SANDLOCK_ENOSYS;
}

/* What the run went without, each with why: written out at the end as
 * one line, names that share a reason together ("a, b (why), c (other)"),
 * so that a host lacking most layers still fits in the report's field. */
#define SL_MISSING_MAX (SANDLOCK_LAYER_COUNT + 4)
struct missing {
	const char *name[SL_MISSING_MAX];
	char why[SL_MISSING_MAX][96];
	int n;
};

static void missing_add(struct missing *m, const char *name, const char *why)
{
	if (m->n < SL_MISSING_MAX) {
		m->name[m->n] = name;
		snprintf(m->why[m->n++], sizeof(m->why[0]), "%s", why);
	}
}

static void missing_write(const struct missing *m, char *line, size_t size)
{
	size_t n = 0;
	bool done[SL_MISSING_MAX] = { false };
	line[0] = 0;
	for (int i = 0; i < m->n && n < size; i++) {
		if (done[i])
			continue;
		for (int j = i; j < m->n && n < size; j++)
			if (!done[j] && !strcmp(m->why[j], m->why[i])) {
				done[j] = true;
				n += (size_t)snprintf(line + n, size - n, "%s%s", n ? ", " : "",
						      m->name[j]);
			}
		if (n < size)
			n += (size_t)snprintf(line + n, size - n, " (%s)", m->why[i]);
	}
}

/* The layers this host could not give the run. */
static void note_missing(struct missing *m, const struct sandlock_features *f,
			 unsigned active, unsigned dropped, int dropped_errno)
{
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		if (!(active & bit) && f->state[i] != SANDLOCK_AVAILABLE)
			missing_add(m, sandlock_layer_name(bit), sandlock_state_name(f->state[i]));
	}
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		unsigned bit = 1u << i;
		if (dropped & bit & ~active && f->state[i] == SANDLOCK_AVAILABLE)
			missing_add(m, sandlock_layer_name(bit), strerror(dropped_errno));
	}
}

/* Create the child, with the namespaces asked for; where the host refuses
 * them and they were not required (--unshare auto, the default of a run
 * that may fork), without them: the report says so.  The watchdog is
 * started first where nothing else would kill the run if we died. */
static pid_t spawn_with_fallbacks(struct sl_run *run, const struct sandlock_features *f,
				  int *pidfd, struct sandlock_result *res, int *err)
{
	const struct sandlock_policy *p = run->p;
	const unsigned ns_required = SANDLOCK_LAYER_USERNS | SANDLOCK_LAYER_PIDNS |
				     SANDLOCK_LAYER_MOUNTNS | SANDLOCK_LAYER_IPCNS |
				     SANDLOCK_LAYER_NETNS | SANDLOCK_LAYER_UTSNS;
	for (int attempt = 0; attempt < 2; attempt++) {
		/* outside a pid namespace the parent-death signal is not
		 * enough even where the host allows it: a thread that calls
		 * exec takes the process over without it */
		/* ... unless no exec can come from a thread: a --no-fork run's
		 * execs come to us first (seccomp.c starts one then), or none
		 * is allowed */
		bool exec_safe = p->no_fork && (run->exec_watched || p->no_exec);
		bool need_watchdog = !run->use_pdeathsig || (!run->in_pidns && !exec_safe) ||
				     !f->pidfd || /* the init's check (spawn.c) */
				     (p->require & SANDLOCK_LAYER_WATCHDOG);
		if (need_watchdog && sl_lifeline_start(run) != 0) {
			sl_seterr(res, "cannot start the watchdog: %s", strerror(errno));
			*err = SANDLOCK_ESYSTEM;
			return -1;
		}
		pid_t pid = sl_spawn(run, pidfd);
		struct rusage self;
		if (getrusage(RUSAGE_SELF, &self) == 0)
			run->floor_kb = (uint64_t)self.ru_maxrss;
		bool ns_failed = run->clone_ns_flags &&
				 (pid < 0 || run->fail_step == SL_STEP_MOUNTS ||
				  run->fail_step == SL_STEP_USERNS);
		if (!ns_failed || attempt)
			return pid;
		if (sl_unshare_mode(p) != SANDLOCK_UNSHARE_AUTO || (p->require & ns_required)) {
			int e = errno;
			if (pid > 0) {
				kill(pid, SIGKILL);
				while (waitpid(pid, &(int){ 0 }, __WALL) < 0 && errno == EINTR)
					;
			}
			explain_missing(p, ns_required & res->layers, "namespace", res);
			if (!res->error[0])
				sl_seterr(res, "namespaces could not be set up here: %s%s%s",
					  pid < 0 ? "clone" : sl_step_name(run->fail_step),
					  ": ", strerror(pid < 0 ? e : run->fail_errno));
			*err = SANDLOCK_ENOSYS;
			return -1;
		}
		int spawn_errno = errno;
		if (pid > 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &(int){ 0 }, __WALL) < 0 && errno == EINTR)
				;
			if (*pidfd >= 0)
				close(*pidfd);
			*pidfd = -1;
			if (run->listener_fd >= 0)
				close(run->listener_fd);
			run->listener_fd = -1;
		}
		run->ns_errno = pid < 0 ? spawn_errno : run->fail_errno;
		unsigned before = res->layers;
		if (run->tmpfs_fd >= 0) /* of the first try's mount, if any */
			close(run->tmpfs_fd);
		run->tmpfs_fd = -1;
		sl_spawn_release(run);
		sl_namespaces_disable(run, res);
		run->ns_dropped = before & ~res->layers;
		/* --disk is a tmpfs of the run's own: no mount namespace, no cap */
		if (p->disk_mb && !p->best_effort) {
			sl_seterr(res, "--disk needs a mount namespace of the run's own, which this "
				       "host refuses (%s); without it what the run stores is bounded "
				       "by --fsize per file only (--best-effort runs so, reported)",
				  strerror(run->ns_errno));
			*err = SANDLOCK_ENOSYS;
			return -1;
		}
		if (p->disk_mb)
			run->disk_dropped = true;
		if ((*err = sl_seccomp_prepare(run, f, res)))
			return -1;
		/* an unprivileged run's scratch directory was hidden by its
		 * fresh /tmp, and its terminals by a devpts of its own:
		 * Landlock hides them instead (a ruleset made again for a
		 * run without namespaces), or the layer is not there */
		bool hide_tmp = p->isolate_tmp && geteuid() != 0 && run->tmp_dir;
		if (hide_tmp && f->landlock_abi < 1) {
			res->layers &= ~SANDLOCK_LAYER_ISOLATE_TMP;
			run->ns_dropped |= SANDLOCK_LAYER_ISOLATE_TMP;
			if (p->require & SANDLOCK_LAYER_ISOLATE_TMP) {
				sl_seterr(res, "required layer isolate_tmp needs a mount namespace "
					       "or Landlock to hide other runs' directories; "
					       "this host refuses both");
				*err = SANDLOCK_ENOSYS;
				return -1;
			}
		} else if (f->landlock_abi >= 1 && !(p->landlock || p->strict || p->ro.n || p->rw.n)) {
			sl_landlock_close_paths(run);
			if (run->landlock_fd >= 0)
				close(run->landlock_fd);
			run->landlock_fd = -1;
			res->layers &= ~(SANDLOCK_LAYER_LANDLOCK_NET | SANDLOCK_LAYER_LANDLOCK_SCOPE);
			run->n_proc_rules = 0;
			run->hide_scratch = hide_tmp;
			if (hide_tmp)
				sl_namespaces_keep_paths(run);
			if ((*err = sl_landlock_prepare(run, f, res)))
				return -1;
		}
	}
	return -1;
}

/* The run's own cgroup, when asked for and it has limits to count: under
 * the directory the caller named (which must work, unless best effort), or
 * ("auto") under our own where we may (else the supervisor counts, as on
 * most hosts), then only for a run that may fork: one process's clock and
 * memory are all a --no-fork run has, and the samples read them exactly. */
static int cgroup_prepare(const struct sandlock_policy *p, struct sl_run *run, char *why,
			  size_t whylen, struct sandlock_result *res)
{
	bool automatic = p->cgroup && !strcmp(p->cgroup, "auto");
	if (!p->cgroup || !(p->cpu_ms || p->mem_mb) || (p->no_fork && automatic))
		return 0;
	if (sl_cgroup_create(&run->cg, p, why, whylen) == 0)
		return 0;
	sl_cgroup_remove(&run->cg);
	if (!automatic && !p->best_effort) {
		sl_seterr(res, "cgroup: %s (--cgroup needs a cgroup v2 directory this user "
			       "may write; --cgroup auto or off leaves it to the supervisor)", why);
		return SANDLOCK_ESETUP;
	}
	if (automatic)
		why[0] = 0;
	return 0;
}

static int wait_loop(const struct sandlock_policy *p, struct sl_run *run, pid_t pid,
		     int pidfd, struct sandlock_result *res)
{
	int tfd = -1, listener = run->listener_fd;
	if (p->timeout_ms) {
		tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		struct itimerspec its = { { 0, 0 }, { (time_t)(p->timeout_ms / 1000),
						      (long)(p->timeout_ms % 1000) * 1000000L } };
		if (tfd < 0 || timerfd_settime(tfd, 0, &its, NULL) != 0) {
			kill_tree(run, pid, res);
			close_fd(&tfd);
			sl_seterr(res, "timerfd: %s", strerror(errno));
			return SANDLOCK_ESYSTEM;
		}
	}
	struct sl_relay *rel = run->relay;
	rel[1].count = &res->stdout_bytes;
	rel[2].count = &res->stderr_bytes;
	uint64_t total = 0;
	/* ... and what a pid namespace's init (a copy of us) and the child
	 * before its exec touched on top of it: a few dozen pages, which
	 * vary from run to run (seen: 100 kB more than our own peak) */
	struct ending e = { .floor_kb = run->floor_kb + SL_FLOOR_SLACK_KB };
	bool violated = false, timed_out = false, over = false, cancelled = false;
	bool exited = false;
	struct sl_acct acct;
	/* a program under another uid than ours cannot leave its cgroup */
	sl_acct_start(&acct, p, pid, run->in_pidns, run->mount_tmp, &run->cg,
		      run->drop_privs && run->uid != 0);
	sl_acct_tmpfs(&acct, run->tmpfs_fd);
	run->tmpfs_fd = -1;
	struct sl_notify_state nstate = { .mem_refused = false, .run = run };
	int st = 0;
	struct rusage ru;

	while (!exited) {
		struct pollfd pf[8];
		int n = 0, ipid = -1, itimer = -1, ilisten = -1, icancel = -1, ihangup = -1;
		int irel[3] = { -1, -1, -1 };
		if (pidfd >= 0) { ipid = n; pf[n++] = (struct pollfd){ pidfd, POLLIN, 0 }; }
		if (tfd >= 0) { itimer = n; pf[n++] = (struct pollfd){ tfd, POLLIN, 0 }; }
		if (listener >= 0) { ilisten = n; pf[n++] = (struct pollfd){ listener, POLLIN, 0 }; }
		if (p->cancel_fd >= 0) { icancel = n; pf[n++] = (struct pollfd){ p->cancel_fd, POLLIN, 0 }; }
		if (p->hangup_fd >= 0) { ihangup = n; pf[n++] = (struct pollfd){ p->hangup_fd, 0, 0 }; }
		for (int i = 0; i < 3; i++) {
			int fd;
			short ev = sl_relay_events(&rel[i], &fd);
			if (ev) { irel[i] = n; pf[n++] = (struct pollfd){ fd, ev, 0 }; }
		}
		int wait_ms = pidfd >= 0 ? -1 : 10, sample_ms = sl_acct_timeout_ms(&acct);
		if (sample_ms >= 0 && (wait_ms < 0 || sample_ms < wait_ms))
			wait_ms = sample_ms;
		int r = poll(pf, n, wait_ms);
		if (r < 0 && errno != EINTR) {
			kill_tree(run, pid, res);
			sl_seterr(res, "poll: %s", strerror(errno));
			close_fd(&tfd);
			sl_acct_finish(&acct, res);
			return SANDLOCK_ESYSTEM;
		}
		bool stop = false;
		if (ilisten >= 0 && (pf[ilisten].revents & POLLIN)) {
			if (sl_seccomp_handle(listener, res, p, &nstate)) {
				violated = true;
				stop = true;
			}
			sl_acct_charge(&acct, nstate.charged_us);
		} else if (ilisten >= 0 && (pf[ilisten].revents & (POLLHUP | POLLERR))) {
			listener = -1; /* every filtered process is gone */
		}
		if (itimer >= 0 && (pf[itimer].revents & POLLIN)) {
			timed_out = true;
			stop = true;
		}
		if (icancel >= 0 && (pf[icancel].revents & (POLLIN | POLLHUP))) {
			struct signalfd_siginfo si;
			if (read(p->cancel_fd, &si, sizeof(si)) == sizeof(si))
				res->cancel_signal = (int)si.ssi_signo;
			cancelled = true;
			stop = true;
		}
		if (ihangup >= 0 && (pf[ihangup].revents & (POLLERR | POLLHUP))) {
			cancelled = true; /* nobody is left to read what we say */
			stop = true;
		}
		for (int i = 0; i < 3; i++) {
			if (irel[i] < 0 || !pf[irel[i]].revents)
				continue;
			if (!sl_relay_move(&rel[i], i ? p->max_output : 0, i ? &total : NULL)) {
				over = true;
				stop = true;
			}
		}
		if (!stop && sl_acct_sample(&acct, false))
			stop = true; /* over --cpu or --mem, the whole run */
		else if (stop)
			sl_acct_sample(&acct, true); /* what it used until now */
		if (stop) {
			sl_cgroup_kill(&run->cg);
			kill(-pid, SIGKILL);
		}
		if (stop || pidfd < 0 || (ipid >= 0 && (pf[ipid].revents & POLLIN))) {
			pid_t w = wait4(pid, &st, stop ? __WALL : (WNOHANG | __WALL), &ru);
			if (w == pid) {
				add_rusage(res, &ru);
				exited = true;
			} else if (w < 0 && errno != EINTR) {
				/* not our child to wait for: SIGCHLD is ignored
				 * in this process and the kernel reaped it */
				kill_tree(run, pid, res);
				close_fd(&tfd);
				sl_acct_finish(&acct, res);
				sl_seterr(res, "cannot wait for the program: %s (is SIGCHLD ignored?)",
					  strerror(errno));
				return SANDLOCK_ESYSTEM;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &run->end_time);
	/* In a pid namespace our child is the init; the program's own status
	 * came through shared memory. */
	if (run->in_pidns && __atomic_load_n(&run->ns_status_valid, __ATOMIC_ACQUIRE))
		st = run->ns_status;
	/* Whatever is left (grandchildren, processes that left their work
	 * running) dies now, then the pipes drain to EOF. */
	kill_tree(run, pid, res);
	sl_lifeline_release(run);
	for (int i = 0; i < 3; i++)
		sl_relay_finish(&rel[i], i ? p->max_output : 0, i ? &total : NULL, &over);
	close_fd(&tfd);
	sl_acct_finish(&acct, res);
	e.violated = violated;
	e.timed_out = timed_out;
	e.over_output = over;
	e.cancelled = cancelled;
	e.over_cpu = acct.over_cpu;
	e.over_mem = acct.over_mem;
	e.over_fsize = acct.over_fsize;
	e.mem_refused = nstate.mem_refused;
	/* SIGSEGV (or SIGKILL) with nothing run: was it execve that could
	 * not map the program within RLIMIT_DATA / RLIMIT_AS? */
	uint64_t wkb, tkb;
	int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	int xi = run->exec_index;
	if (p->mem_mb && (sig == SIGSEGV || sig == SIGKILL) && xi >= 0 && xi < run->n_exec_paths &&
	    sl_elf_sizes(run->exec_paths[xi], &wkb, &tkb))
		e.exec_too_big = wkb > p->mem_mb * 1024 || tkb > sl_as_limit(p->mem_mb) / 1024;
	e.kernel_kills_violations = run->use_seccomp && !run->want_listener &&
				    p->violation == SANDLOCK_VIOLATION_KILL;
	judge(p, res, st, &e);
	return 0;
}

int sandlock_run(const struct sandlock_policy *p, char *const argv[],
		 struct sandlock_result *res)
{
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	if (!argv || !argv[0] || !argv[0][0]) {
		sl_seterr(res, "no command given");
		return setup_failed(res, SANDLOCK_EINVAL);
	}
	int err = sandlock_policy_validate(p, res->error, sizeof(res->error));
	if (err)
		return setup_failed(res, err);

	struct sl_run run;
	memset(&run, 0, sizeof(run));
	run.p = p;
	run.argv = argv;
	run.landlock_fd = -1;
	run.listener_fd = -1;
	run.tmpfs_fd = -1;
	run.preload_fd = -1;
	for (int i = 0; i < 3; i++)
		run.stdio[i] = -1;
	for (int i = 0; i < 3; i++)
		run.relay[i] = (struct sl_relay){ .from = -1, .to = -1 };
	for (int i = 0; i < 3; i++)
		run.out[i] = (struct sl_outfile){ .fd = -1, .dir = -1 };
	run.supervisor_pid = getpid();
	run.workdir = p->workdir;
	run.drop_privs = geteuid() == 0;
	run.uid = p->uid;
	run.gid = p->gid;
	run.uid_lock = -1;
	run.tmp_lock = -1;
	sl_cgroup_init(&run.cg);

	/* The supervisor's memory holds what the program must not see (the
	 * grader's answers, its environment): not dumpable means neither
	 * ptrace nor /proc/<pid>/{mem,environ,maps} work for its uid. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* Orphans of the run come back to us to be reaped and counted. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);

	/* With SIGCHLD ignored the kernel reaps our child itself, and its
	 * status is lost: refuse rather than guess. */
	struct sigaction chld;
	if (sigaction(SIGCHLD, NULL, &chld) == 0 && chld.sa_handler == SIG_IGN) {
		sl_seterr(res, "SIGCHLD is ignored in this process: the program's status "
			       "could not be read (restore SIG_DFL)");
		return setup_failed(res, SANDLOCK_EINVAL);
	}
	struct sandlock_features f;
	sl_probe_features(&f, false);
	/* one path per mechanism, from the probe */
	run.fd_mode = f.close_range ? SL_FD_CLOSE_RANGE
		      : f.unshare_files ? SL_FD_UNSHARE : SL_FD_PRIVATE;
	run.use_pdeathsig = f.pdeathsig;
	run.nnp_optional = p->best_effort && !(p->require & SANDLOCK_LAYER_NO_NEW_PRIVS);
	char cwd[4096];
	run.cwd = getcwd(cwd, sizeof(cwd));
	char *path_storage = NULL;
	int pidfd = -1;
	pid_t pid = -1;

	if ((err = sl_uidpool_claim(&run, res)) ||
	    (err = sl_scratch_create(&run, &f, res)))
		goto failed;
	char wd[4096];
	const char *wtmp = NULL;
	if ((p->landlock || p->strict) && !p->isolate_tmp)
		wtmp = !p->workdir ? run.cwd
		       : p->workdir[0] == '/' ? p->workdir
		       : realpath(p->workdir, wd);
	if (!(run.envp = sl_environ_build(p, run.tmp_dir, wtmp))) {
		sl_seterr(res, "out of memory");
		err = SANDLOCK_ENOMEM;
		goto failed;
	}
	if (sl_exec_paths_prepare(&run, &path_storage) != 0) {
		sl_seterr(res, "out of memory");
		err = SANDLOCK_ENOMEM;
		goto failed;
	}
	/* before the filter is made: it knows our exec by argv and envp */
	char guard_why[160];
	if ((err = sl_guard_prepare(&run, res, guard_why, sizeof(guard_why))))
		goto failed;
	if (run.guard_argv)
		run.argv = run.guard_argv;
	if ((err = sl_namespaces_prepare(&run, res)))
		goto failed;
	sl_rlimits_prepare(&run);
	run.own_userns = run.set_nproc;
	if ((err = prepare_stdio(p, &run, res)) ||
	    (err = sl_landlock_prepare(&run, &f, res)) ||
	    (err = sl_seccomp_prepare(&run, &f, res)))
		goto failed;
	res->layers |= SANDLOCK_LAYER_NO_NEW_PRIVS | SANDLOCK_LAYER_RLIMITS |
		       (run.use_seccomp ? SANDLOCK_LAYER_SECCOMP : 0) |
		       (run.want_listener ? SANDLOCK_LAYER_SECCOMP_NOTIFY : 0) |
		       (run.drop_privs ? SANDLOCK_LAYER_PRIVDROP : 0) |
		       (run.use_pdeathsig ? SANDLOCK_LAYER_PDEATHSIG : 0) |
		       (p->strict && run.use_seccomp ? SANDLOCK_LAYER_STRICT : 0);
	if (!run.drop_privs && (p->require & SANDLOCK_LAYER_PRIVDROP))
		res->layers &= ~SANDLOCK_LAYER_PRIVDROP;
	/* the watchdog is started with the program, whenever required */
	if ((err = check_required(p, res->layers | (p->require & SANDLOCK_LAYER_WATCHDOG), res)))
		goto failed;

	char cg_why[160] = "";
	if ((err = cgroup_prepare(p, &run, cg_why, sizeof(cg_why), res)))
		goto failed;
	pid = spawn_with_fallbacks(&run, &f, &pidfd, res, &err);
	if (pid < 0) {
		if (!err) {
			sl_seterr(res, "cannot create the sandboxed process: %s", strerror(errno));
			err = SANDLOCK_ESYSTEM;
		}
		goto failed;
	}
	/* The child has called exec, or failed. */
	for (int i = 0; i < 3; i++)
		close_fd(&run.stdio[i]);
	sl_cgroup_started(&run.cg);
	sl_landlock_close_paths(&run);
	if (run.listener_fd >= 0)
		fcntl(run.listener_fd, F_SETFD, FD_CLOEXEC);
	if (run.fail_step != SL_STEP_NONE || run.exec_errno) {
		struct rusage ru;
		int st;
		kill_tree(&run, pid, res);
		while (wait4(pid, &st, __WALL, &ru) < 0 && errno == EINTR)
			;
		if (run.fail_step != SL_STEP_NONE) {
			sl_seterr(res, "setup failed at %s: %s", sl_step_name(run.fail_step),
				  strerror(run.fail_errno));
			err = SANDLOCK_ESETUP;
			goto failed;
		}
		sl_seterr(res, "%s: %s", argv[0], strerror(run.exec_errno));
		res->verdict = SANDLOCK_SETUP_FAILED;
		res->status = (run.exec_errno == ENOENT || run.exec_errno == ENOTDIR)
				      ? SANDLOCK_EXIT_NOTFOUND : SANDLOCK_EXIT_NOEXEC;
		err = 0;
		goto done;
	}
	if (run.own_userns_ok)
		res->layers |= SANDLOCK_LAYER_USERNS;
	if (!run.nnp_ok)
		res->layers &= ~SANDLOCK_LAYER_NO_NEW_PRIVS;
	if (run.lifeline.pid > 0)
		res->layers |= SANDLOCK_LAYER_WATCHDOG;
	struct missing miss = { .n = 0 };
	note_missing(&miss, &f, res->layers, run.ns_dropped, run.ns_errno);
	if (run.cg.ok && !run.cg.joined && strcmp(p->cgroup, "auto"))
		snprintf(cg_why, sizeof(cg_why), "the program could not join it");
	if (cg_why[0])
		missing_add(&miss, "cgroup", cg_why);
	if (run.disk_dropped)
		missing_add(&miss, "disk", "no mount namespace");
	if (guard_why[0])
		missing_add(&miss, "guard", guard_why);
	missing_write(&miss, res->missing, sizeof(res->missing));
	res->uid = run.drop_privs ? run.uid : geteuid();
	err = wait_loop(p, &run, pid, pidfd, res);
	res->wall_us = sl_ts_us(&run.end_time) - sl_ts_us(&run.exec_time);
	if (err)
		goto failed;
	goto done;

failed:
	setup_failed(res, err);
done:
	if (!err && (err = place_outputs(p, &run, res)))
		setup_failed(res, err); /* what the grader would read is not ours */
	if (run.listener_fd >= 0)
		close(run.listener_fd);
	if (pidfd >= 0)
		close(pidfd);
	free(path_storage);
	release_run(&run);
	return err;
}
