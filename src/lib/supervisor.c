/*
 * The supervisor: prepares a run, creates the child, and stays until every
 * process of the run is gone.  It waits on descriptors only (pidfd, timerfd,
 * the seccomp listener, output pipes, the caller's cancel descriptor): no
 * signal handlers, no SIGALRM, nothing process-wide but the child subreaper
 * flag and non-dumpability, so many runs can go on at once in one process.
 */
#include "internal.h"
#include "guards/guards.h"
#include "wasm/backend.h"
#include "wasm/glue.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

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
	if (run->drop_privs && run->uid_lock >= 0)
		sl_stored_sweep(&run->stored, run->uid, run->argv); /* before the uid is free */
	sl_stored_reset(&run->stored);
	sl_environ_free(run->envp);
	run->envp = NULL;
	sl_guard_release(run);
	sl_wasm_release(run);
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
		/* a host name, bind or tmpfs mounts asked for: their namespace
		 * is required */
		bool list_lost = run->fs_by_mounts && !p->best_effort;
		bool mounts = p->binds.n || p->tmpfs.n;
		if (sl_unshare_mode(p, f) != SANDLOCK_UNSHARE_AUTO || (p->require & ns_required) ||
		    p->hostname || mounts || list_lost) {
			int e = errno;
			if (pid > 0) {
				kill(pid, SIGKILL);
				while (waitpid(pid, &(int){ 0 }, __WALL) < 0 && errno == EINTR)
					;
			}
			if (list_lost && !p->hostname && !mounts && !(p->require & ns_required))
				sl_seterr(res, "the allow-list asked for (--landlock, --ro, --rw): this host has "
					       "no Landlock, and a root of bind mounts in its place needs a "
					       "mount namespace, which it refuses (%s); --best-effort runs "
					       "without the list, reported",
					  strerror(pid < 0 ? e : run->fail_errno));
			else
				sl_explain_missing(p, ns_required & res->layers, "namespace", false, res);
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
		/* --best-effort: no Landlock and no mount namespace, so no
		 * allow-list at all (the report names landlock missing) */
		if (run->fs_by_mounts) {
			run->fs_by_mounts = false;
			sl_bind_root_release(run);
			res->layers &= ~SANDLOCK_LAYER_BIND_ROOT;
		}
		/* the run's own /tmp was to be its HOME: a directory of its
		 * own on the host's instead, before the filter that knows the
		 * environment's address and the ruleset that allows it */
		if (run->home_in_tmp) {
			run->home_in_tmp = false;
			if ((*err = sl_scratch_create(run, f, res)))
				return -1;
			if (sl_environ_set(&run->envp, "TMPDIR", run->tmp_dir) != 0 ||
			    sl_environ_set(&run->envp, "HOME", run->tmp_dir) != 0) {
				sl_seterr(res, "out of memory");
				*err = SANDLOCK_ENOMEM;
				return -1;
			}
		}
		/* --disk is a tmpfs of the run's own: no mount namespace, no cap
		 * (the wasm backend's host counts the guest's files itself) */
		bool disk_ns = p->disk_mb && p->runtime != SANDLOCK_RUNTIME_WASM;
		if (disk_ns && !p->best_effort) {
			sl_seterr(res, "--disk needs a mount namespace of the run's own, which this "
				       "host refuses (%s); without it what the run stores is bounded "
				       "by --fsize per file only (--best-effort runs so, reported)",
				  strerror(run->ns_errno));
			*err = SANDLOCK_ENOSYS;
			return -1;
		}
		if (disk_ns)
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
		} else if (f->landlock_abi >= 1 && !(p->landlock || p->strict)) {
			/* the default allow-list gave the private /tmp, /dev/shm
			 * and /proc of the namespaces: made again without */
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

/* A shared /dev/shm that the default allow-list keeps closed, since
 * nothing there tells this run's files from its neighbours' (one uid for
 * all: shm.c): POSIX semaphores and shared memory (Python's
 * multiprocessing) fail.  Or one the caller opened (--rw), shared. */
static bool shm_closed(const struct sandlock_policy *p, const struct sl_run *run,
		       unsigned layers, char *why, size_t len)
{
	if (!(layers & SANDLOCK_LAYER_LANDLOCK) || p->landlock || p->strict || run->mount_tmp ||
	    sl_shm_shared(run) || access("/dev/shm", F_OK) != 0)
		return false;
	unsigned uid = (unsigned)(run->drop_privs ? run->uid : geteuid());
	for (size_t i = 0; i < p->rw.n; i++) {
		size_t n = strlen(p->rw.v[i]);
		while (n > 1 && p->rw.v[i][n - 1] == '/')
			n--;
		if (!strncmp(p->rw.v[i], "/dev/shm", n) && (n == 1 || !"/dev/shm"[n] || "/dev/shm"[n] == '/')) {
			snprintf(why, len, "/dev/shm open (--rw) to every run of uid %u, "
				 "its files neither counted nor removed", uid);
			return true;
		}
	}
	snprintf(why, len, "/dev/shm closed: every run is uid %u%s", uid,
		 geteuid() == 0 ? "; --uid-pool gives each its own" : "");
	return true;
}

/* The accounting's last figures; a shared /dev/shm swept (shm.c) */
static void finish_acct(struct sl_run *run, struct sl_acct *acct, struct sandlock_result *res)
{
	bool shm = acct->shm_dir >= 0;
	sl_acct_finish(acct, res);
	if (shm)
		run->shm_clean = acct->shm_clean;
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
			sl_kill_tree(run, pid, res);
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
	struct sl_ending e = { .floor_kb = run->floor_kb + SL_FLOOR_SLACK_KB };
	bool violated = false, timed_out = false, over = false, cancelled = false;
	bool exited = false;
	struct sl_acct acct;
	/* a program under another uid than ours cannot leave its cgroup */
	sl_acct_start(&acct, p, pid, run->in_pidns, run->mount_tmp, &run->cg,
		      run->drop_privs && run->uid != 0);
	if (run->drop_privs && run->uid != geteuid())
		sl_acct_as(&acct, run->uid, run->gid);
	sl_acct_tmpfs(&acct, run->tmpfs_fd);
	run->tmpfs_fd = -1;
	/* a shared /dev/shm the run may write as a uid of its own: its files
	 * there are counted, and swept at the end (shm.c) */
	if (sl_shm_shared(run)) {
		int shm = sl_shm_open_dir();
		sl_acct_shm(&acct, shm, run->uid, &run->shm_since);
		run->shm_clean = shm < 0; /* no /dev/shm: nothing to leave */
	}
	/* the places on a host's tmpfs it may write: what it stores there is
	 * counted (stored.c) */
	run->stored.uid = run->drop_privs ? run->uid : geteuid();
	run->stored.own_uid = run->drop_privs && run->uid_lock >= 0;
	sl_acct_stored(&acct, &run->stored);
	/* the program alone, at its exec (a pid namespace's init is ours) */
	struct sl_notify_state nstate = { .mem_refused = false, .run = run, .tasks = 1 };
	int st = 0;
	struct rusage ru;

	while (!exited) {
		struct pollfd pf[9];
		int n = 0, ipid = -1, itimer = -1, ilisten = -1, icancel = -1, ihangup = -1, ishm = -1;
		int irel[3] = { -1, -1, -1 };
		if (pidfd >= 0) { ipid = n; pf[n++] = (struct pollfd){ pidfd, POLLIN, 0 }; }
		if (tfd >= 0) { itimer = n; pf[n++] = (struct pollfd){ tfd, POLLIN, 0 }; }
		if (listener >= 0) { ilisten = n; pf[n++] = (struct pollfd){ listener, POLLIN, 0 }; }
		if (p->cancel_fd >= 0) { icancel = n; pf[n++] = (struct pollfd){ p->cancel_fd, POLLIN, 0 }; }
		if (p->hangup_fd >= 0) { ihangup = n; pf[n++] = (struct pollfd){ p->hangup_fd, 0, 0 }; }
		int wfd = sl_acct_watch_fd(&acct);
		if (wfd >= 0) { ishm = n; pf[n++] = (struct pollfd){ wfd, POLLIN, 0 }; }
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
			sl_kill_tree(run, pid, res);
			sl_seterr(res, "poll: %s", strerror(errno));
			close_fd(&tfd);
			finish_acct(run, &acct, res);
			return SANDLOCK_ESYSTEM;
		}
		bool stop = false;
		if (ilisten >= 0 && (pf[ilisten].revents & POLLIN)) {
			if (sl_seccomp_handle(listener, res, p, &nstate)) {
				violated = true;
				stop = true;
			}
			sl_acct_charge(&acct, nstate.charged_us);
			if (nstate.xfsz)
				stop = true; /* a write past --fsize, as a sample would see */
		} else if (ilisten >= 0 && (pf[ilisten].revents & (POLLHUP | POLLERR))) {
			listener = -1; /* every filtered process is gone */
		}
		if (ishm >= 0 && (pf[ishm].revents & POLLIN) && sl_acct_watch_event(&acct))
			stop = true; /* past its share of a shared tmpfs */
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
				sl_add_rusage(res, &ru);
				exited = true;
			} else if (w < 0 && errno != EINTR) {
				/* not our child to wait for: SIGCHLD is ignored
				 * in this process and the kernel reaped it */
				sl_kill_tree(run, pid, res);
				close_fd(&tfd);
				finish_acct(run, &acct, res);
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
	sl_kill_tree(run, pid, res);
	sl_lifeline_release(run);
	for (int i = 0; i < 3; i++)
		sl_relay_finish(&rel[i], i ? p->max_output : 0, i ? &total : NULL, &over);
	close_fd(&tfd);
	finish_acct(run, &acct, res);
	e.violated = violated;
	e.timed_out = timed_out;
	e.over_output = over;
	e.cancelled = cancelled;
	e.over_cpu = acct.over_cpu;
	e.over_mem = acct.over_mem;
	e.over_fsize = acct.over_fsize || nstate.xfsz;
	e.over_disk = acct.over_disk;
	e.mem_refused = nstate.mem_refused;
	e.wasm_mem = (res->layers & SANDLOCK_LAYER_WASM) && WIFSIGNALED(st) &&
		     WTERMSIG(st) == SL_WASM_MEMORY_SIGNAL;
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
	sl_judge(p, res, st, &e);
	return 0;
}

/* The phases of a run, up to now (see sandlock_result): the program's
 * starts when the child reads the clock just before its execve (the
 * clock the wall time starts at), and ends when it was reaped. */
static void phases(struct sandlock_result *res, const struct timespec *t0, bool started,
		   const struct timespec *t_exec, const struct timespec *end)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t a = sl_ts_us(t0), z = sl_ts_us(&now);
	if (!started) {
		res->setup_us = z - a;
		return;
	}
	uint64_t x = sl_ts_us(t_exec), e = sl_ts_us(end);
	if (e < x) /* a run stopped before its wait: no end read */
		e = x;
	res->setup_us = x - a;
	res->run_us = e - x;
	res->teardown_us = z - e;
}

int sandlock_run(const struct sandlock_policy *p, char *const argv[],
		 struct sandlock_result *res)
{
	struct timespec t0;
	bool started = false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	res->uid = SANDLOCK_UID_UNKNOWN; /* until the program's uid is known */
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
	for (int i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		if ((1u << i) == SANDLOCK_LAYER_USERNS)
			run.userns_expected = f.state[i] == SANDLOCK_AVAILABLE;
	run.nnp_optional = p->best_effort && !(p->require & SANDLOCK_LAYER_NO_NEW_PRIVS);
	char cwd[4096];
	run.cwd = getcwd(cwd, sizeof(cwd));
	char *path_storage = NULL;
	int pidfd = -1;
	pid_t pid = -1;

	bool ran = false; /* the program was started: every layer was set up */
	/* Root that may not change uid (a container without CAP_SETUID and
	 * CAP_SETGID) would run the program as root: fail closed, or with
	 * --best-effort run it so and say so (missing: privdrop). */
	const int pd = __builtin_ctz(SANDLOCK_LAYER_PRIVDROP);
	if (run.drop_privs && f.state[pd] != SANDLOCK_AVAILABLE) {
		if (!p->best_effort || (p->require & SANDLOCK_LAYER_PRIVDROP)) {
			sl_seterr(res, "root cannot change uid here (%s); %s", f.why[pd],
				  sandlock_feature_remedy(&f, SANDLOCK_LAYER_PRIVDROP));
			err = SANDLOCK_ENOSYS;
			goto failed;
		}
		run.drop_privs = false;
	}
	if ((run.drop_privs || geteuid() != 0) && (err = sl_uidpool_claim(&run, res)))
		goto failed;
	res->uid = run.drop_privs ? run.uid : geteuid();
	char wd[4096]; /* PATH_MAX: realpath's */
	const char *wtmp = NULL;
	if (sl_landlock_workdir_tmp(&run, &f, wd))
		wtmp = wd;
	else if (!(run.home_in_tmp = sl_namespaces_home_in_tmp(&run, &f)) &&
		 (err = sl_scratch_create(&run, &f, res)))
		goto failed;
	if ((p->landlock || p->strict) && !p->isolate_tmp)
		wtmp = !p->workdir ? run.cwd
		       : p->workdir[0] == '/' ? p->workdir
		       : realpath(p->workdir, wd);
	if (!(run.envp = sl_environ_build(p, run.home_in_tmp ? "/tmp" : run.tmp_dir, wtmp))) {
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
	char guard_why[160] = "";
	if (p->runtime == SANDLOCK_RUNTIME_WASM) {
		/* the guest has no process to guard: the host is the boundary */
		if ((err = sl_wasm_prepare(&run, res)))
			goto failed;
	} else if ((err = sl_guard_prepare(&run, res, guard_why, sizeof(guard_why)))) {
		goto failed;
	}
	if (run.guard_argv)
		run.argv = run.guard_argv;
	if ((err = sl_namespaces_prepare(&run, &f, res)))
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
	if ((err = sl_check_required(p, res->layers | (p->require & SANDLOCK_LAYER_WATCHDOG), res)))
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
	run.start_ticks = sl_start_ticks(pid);
	for (int i = 0; i < 3; i++)
		close_fd(&run.stdio[i]);
	sl_cgroup_started(&run.cg);
	sl_landlock_close_paths(&run);
	if (run.listener_fd >= 0) {
		fcntl(run.listener_fd, F_SETFD, FD_CLOEXEC);
		sl_seccomp_listener_ready(run.listener_fd);
	}
	if (run.fail_step != SL_STEP_NONE || run.exec_errno) {
		struct rusage ru;
		int st;
		sl_kill_tree(&run, pid, res);
		while (wait4(pid, &st, __WALL, &ru) < 0 && errno == EINTR)
			;
		if (run.fail_step == SL_STEP_WORKDIR) {
			sl_seterr(res, "cannot enter the working directory %s: %s", run.workdir,
				  strerror(run.fail_errno));
			err = SANDLOCK_ESETUP;
			goto failed;
		} else if (run.fail_step == SL_STEP_HOSTNAME) {
			/* the namespace was made; the call is what the host
			 * refuses (a container profile that allows it only with
			 * CAP_SYS_ADMIN, as the runtimes' defaults do) */
			sl_seterr(res, "cannot set the host name %s in the run's uts namespace: %s%s",
				  p->hostname, strerror(run.fail_errno),
				  run.fail_errno == EPERM ? " (the host's seccomp profile refuses "
				  "sethostname; contrib/seccomp allows it, or leave the host name out)" : "");
			err = SANDLOCK_ESETUP;
			goto failed;
		} else if (run.fail_step != SL_STEP_NONE) {
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
	started = true;
	if (run.own_userns_ok)
		res->layers |= SANDLOCK_LAYER_USERNS;
	if (!run.nnp_ok)
		res->layers &= ~SANDLOCK_LAYER_NO_NEW_PRIVS;
	if (run.lifeline.pid > 0)
		res->layers |= SANDLOCK_LAYER_WATCHDOG;
	struct sl_missing miss = { .n = 0 };
	sl_note_missing(&miss, &f, res->layers, run.ns_dropped, run.ns_errno);
	if (run.cg.ok && !run.cg.joined && strcmp(p->cgroup, "auto"))
		snprintf(cg_why, sizeof(cg_why), "the program could not join it");
	if (cg_why[0])
		sl_missing_add(&miss, "cgroup", cg_why);
	if (run.disk_dropped)
		sl_missing_add(&miss, "disk", "no mount namespace");
	char nproc_why[96];
	if (run.count_tasks == SL_TASKS_SHARED) {
		/* the last resort (rlimits.c): the kernel's count per uid */
		snprintf(nproc_why, sizeof(nproc_why),
			 "RLIMIT_NPROC counts uid %u's tasks: shared with its other processes and runs",
			 (unsigned)(run.drop_privs ? run.uid : geteuid()));
		sl_missing_add(&miss, "nproc", nproc_why);
	}
	if (run.pool_missed)
		sl_missing_add(&miss, "uid_pool", run.pool_missed);
	if (guard_why[0])
		sl_missing_add(&miss, "guard", guard_why);
	if (run.workdir_dropped)
		sl_missing_add(&miss, "landlock_workdir",
			    "the working directory holds the system's; give --workdir");
	/* neither an allow-list nor a /tmp of its own: what every run of
	 * this uid shares (see docs/hosts.md, "Host classes") */
	/* (a uid of its own does not close what every uid may read: a
	 * working directory, a file of mode 0644) */
	if (res->layers & SANDLOCK_LAYER_BIND_ROOT)
		; /* a root of its own holding only what is allowed */
	else if (!(res->layers & (SANDLOCK_LAYER_LANDLOCK | SANDLOCK_LAYER_MOUNTNS)))
		sl_missing_add(&miss, "neighbours",
			    "/tmp, /dev/shm, working dirs, /proc shared with same-uid runs");
	else if (!(res->layers & SANDLOCK_LAYER_LANDLOCK) && !p->no_landlock)
		/* a mount namespace gives the run its own /tmp and /dev/shm
		 * (and a pid namespace its own /proc), not other directories */
		sl_missing_add(&miss, "neighbours",
			    (res->layers & SANDLOCK_LAYER_PIDNS)
				    ? "working dirs shared with same-uid runs"
				    : "working dirs, /proc shared with same-uid runs");
	char shm_why[128];
	if (shm_closed(p, &run, res->layers, shm_why, sizeof(shm_why)))
		sl_missing_add(&miss, "shm", shm_why);
	sl_missing_write(&miss, res->missing, sizeof(res->missing));
	ran = true;
	err = wait_loop(p, &run, pid, pidfd, res);
	res->wall_us = sl_ts_us(&run.end_time) - sl_ts_us(&run.exec_time);
	if (err)
		goto failed;
	goto done;

failed:
	if (!ran)
		res->layers = sl_layers_set_up(res->layers, run.fail_step);
	setup_failed(res, err);
done:
	if (!err && (err = place_outputs(p, &run, res)))
		setup_failed(res, err); /* what the grader would read is not ours */
	if (run.listener_fd >= 0)
		close(run.listener_fd);
	if (pidfd >= 0)
		close(pidfd);
	free(path_storage);
	if (!started)
		run.shm_clean = true; /* the program never ran: nothing to leave */
	release_run(&run);
	phases(res, &t0, started, &run.exec_time, &run.end_time);
	return err;
}
