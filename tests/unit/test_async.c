/* The asynchronous API: sandlock_spawn, sandlock_handle_fd, sandlock_wait,
 * sandlock_kill.  Real runs (sh, sleep): evidence from pids, poll() and
 * the clock, not only from the results.  On a host without kernel layers
 * (the serverless simulation) set SANDLOCK_EXTRA_FLAGS=--best-effort, as
 * tests/hosts.sh does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandlock.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void policy(struct sandlock_policy *p)
{
	sandlock_policy_init(p);
	const char *extra = getenv("SANDLOCK_EXTRA_FLAGS");
	p->best_effort = extra && strstr(extra, "--best-effort");
}

/* A directory the program may write to (as root it runs as 65534). */
static char *shared_dir(void)
{
	char *d = strdup("/tmp/sandlock-async-XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	chmod(d, 0777);
	return d;
}

static void remove_dir(char *d)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", d);
	free(d);
}

/* Alive and not a zombie. */
static int alive(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *rp = strrchr(buf, ')');
	return rp && rp[1] && rp[2] != 'Z';
}

static int gone_within(pid_t pid, double secs)
{
	for (double end = now() + secs; now() < end;) {
		if (!alive(pid))
			return 1;
		usleep(20000);
	}
	return !alive(pid);
}

/* The pid the program wrote into file, waiting up to secs for it. */
static pid_t read_pid(const char *file, double secs)
{
	for (double end = now() + secs; now() < end; usleep(20000)) {
		FILE *f = fopen(file, "r");
		if (!f)
			continue;
		int pid = 0;
		int ok = fscanf(f, "%d", &pid);
		fclose(f);
		if (ok == 1 && pid > 0)
			return pid;
	}
	return 0;
}

static int readable(int fd, int ms)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	return poll(&pf, 1, ms) == 1 && (pf.revents & (POLLIN | POLLHUP));
}

static void bad_arguments(void **state)
{
	(void)state;
	struct sandlock_policy p;
	struct sandlock_handle *h = (struct sandlock_handle *)&h;
	char *argv[] = { "/bin/true", NULL }, *none[] = { NULL }, *empty[] = { "", NULL };
	policy(&p);
	assert_int_equal(sandlock_spawn(NULL, argv, &h), SANDLOCK_EINVAL);
	assert_null(h);
	assert_int_equal(sandlock_spawn(&p, NULL, &h), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_spawn(&p, none, &h), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_spawn(&p, empty, &h), SANDLOCK_EINVAL);
	assert_null(h);
	assert_int_equal(sandlock_spawn(&p, argv, NULL), SANDLOCK_EINVAL);
	p.violation = 42;
	assert_int_equal(sandlock_spawn(&p, argv, &h), SANDLOCK_EINVAL);
	assert_null(h);
	assert_int_equal(sandlock_handle_fd(NULL), -1);
	struct sandlock_result r;
	assert_int_equal(sandlock_wait(NULL, &r), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_kill(NULL), SANDLOCK_EINVAL);
	/* no process was made for any of them */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	sandlock_policy_release(&p);
}

/* poll() says readable only once the run is over; the descriptor is
 * close-on-exec. */
static void fd_readable_at_the_end(void **state)
{
	(void)state;
	struct sandlock_policy p;
	policy(&p);
	char *argv[] = { "/bin/sleep", "0.5", NULL };
	struct sandlock_handle *h;
	double t0 = now();
	assert_int_equal(sandlock_spawn(&p, argv, &h), 0);
	sandlock_policy_release(&p); /* spawn made its own copy */
	int fd = sandlock_handle_fd(h);
	assert_true(fd > 2);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_false(readable(fd, 0));
	assert_false(readable(fd, 250));
	assert_true(readable(fd, 10000));
	double el = now() - t0;
	assert_true(el >= 0.45);
	struct sandlock_result r;
	assert_int_equal(sandlock_wait(h, &r), 0);
	assert_int_equal(r.verdict, SANDLOCK_OK_VERDICT);
	assert_int_equal(r.status, 0);
	assert_true(r.wall_us >= 450000);
}

/* One thread, eight runs at once: they overlap.  Judged against the runs'
 * own walls, not a fixed bound: one after another, the whole would take
 * at least the sum of their walls; at once, about the longest (a fixed
 * 1.6 s failed under the sanitizer build on a loaded machine, where each
 * start alone took 0.1 s). */
static void many_runs_from_one_thread(void **state)
{
	(void)state;
	enum { N = 8 };
	struct sandlock_policy p;
	policy(&p);
	p.no_fork = true;
	char *argv[] = { "/bin/sleep", "0.3", NULL };
	struct sandlock_handle *h[N];
	double t0 = now();
	for (int i = 0; i < N; i++)
		assert_int_equal(sandlock_spawn(&p, argv, &h[i]), 0);
	sandlock_policy_release(&p);
	int left = N;
	bool done[N] = { false };
	double walls = 0;
	while (left) {
		struct pollfd pf[N];
		int idx[N], n = 0;
		for (int i = 0; i < N; i++)
			if (!done[i]) {
				idx[n] = i;
				pf[n++] = (struct pollfd){ sandlock_handle_fd(h[i]), POLLIN, 0 };
			}
		int k = poll(pf, (nfds_t)n, 20000);
		assert_true(k > 0);
		for (int j = 0; j < n; j++) {
			if (!pf[j].revents)
				continue;
			struct sandlock_result r;
			int i = idx[j];
			assert_int_equal(sandlock_wait(h[i], &r), 0);
			done[i] = true;
			left--;
			if (r.verdict != SANDLOCK_OK_VERDICT)
				fail_msg("run %d: %s %d %s", i, sandlock_verdict_name(r.verdict),
					 r.status, r.error);
			assert_true(r.wall_us >= 280000);
			walls += (double)r.wall_us / 1e6;
		}
	}
	double el = now() - t0;
	if (el >= walls)
		fail_msg("8 concurrent runs of sleep 0.3 took %.2f s, their walls %.2f s in all: "
			 "one after another", el, walls);
}

/* sandlock_kill stops a long run: verdict signaled, status 143 (the CLI's
 * SIGTERM), the program's process gone, quickly. */
static void kill_stops_the_run(void **state)
{
	(void)state;
	char *d = shared_dir(), pidfile[300];
	snprintf(pidfile, sizeof(pidfile), "%s/pid", d);
	struct sandlock_policy p;
	policy(&p);
	p.cpu_ms = 200000;
	p.unshare = SANDLOCK_UNSHARE_OFF; /* the pid the shell writes is ours */
	char *argv[] = { "/bin/sh", "-c", "echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; exec sleep 100",
			 pidfile, NULL };
	struct sandlock_handle *h;
	assert_int_equal(sandlock_spawn(&p, argv, &h), 0);
	pid_t pid = read_pid(pidfile, 10);
	assert_true(pid > 0);
	assert_true(alive(pid));
	assert_false(readable(sandlock_handle_fd(h), 0));
	double t0 = now();
	assert_int_equal(sandlock_kill(h), 0);
	assert_int_equal(sandlock_kill(h), 0); /* twice is once */
	assert_true(readable(sandlock_handle_fd(h), 5000));
	struct sandlock_result r;
	assert_int_equal(sandlock_wait(h, &r), 0);
	assert_true(now() - t0 < 3);
	assert_int_equal(r.verdict, SANDLOCK_SIGNALED);
	assert_int_equal(r.status, 128 + SIGTERM);
	assert_int_equal(r.cancel_signal, SIGTERM);
	assert_true(gone_within(pid, 2));

	/* a run that is over is left as it ended */
	char *quick[] = { "/bin/true", NULL };
	assert_int_equal(sandlock_spawn(&p, quick, &h), 0);
	assert_true(readable(sandlock_handle_fd(h), 10000));
	assert_int_equal(sandlock_kill(h), 0);
	assert_int_equal(sandlock_wait(h, &r), 0);
	assert_int_equal(r.verdict, SANDLOCK_OK_VERDICT);
	assert_int_equal(r.status, 0);
	sandlock_policy_release(&p);
	remove_dir(d);
}

/* The policy's own cancel_fd still stops the run. */
static void own_cancel_fd(void **state)
{
	(void)state;
	int pp[2];
	assert_int_equal(pipe(pp), 0);
	struct sandlock_policy p;
	policy(&p);
	p.cancel_fd = pp[0];
	char *argv[] = { "/bin/sleep", "100", NULL };
	struct sandlock_handle *h;
	assert_int_equal(sandlock_spawn(&p, argv, &h), 0);
	assert_false(readable(sandlock_handle_fd(h), 300));
	double t0 = now();
	assert_int_equal(write(pp[1], "x", 1), 1);
	struct sandlock_result r;
	assert_int_equal(sandlock_wait(h, &r), 0);
	assert_true(now() - t0 < 3);
	assert_int_equal(r.verdict, SANDLOCK_SIGNALED);
	close(pp[0]);
	close(pp[1]);
	sandlock_policy_release(&p);
}

/* SIGINT to the grader's process group (a Ctrl-C): the grader handles it
 * and lives on; its runs stop as the CLI stops on it (status 130). */
static void noop(int sig)
{
	(void)sig;
}

static void group_sigint_stops_runs(void **state)
{
	(void)state;
	pid_t grader = fork();
	assert_true(grader >= 0);
	if (grader == 0) {
		setpgid(0, 0);
		signal(SIGINT, noop);
		struct sandlock_policy p;
		policy(&p);
		char *argv[] = { "/bin/sleep", "100", NULL };
		struct sandlock_handle *h;
		if (sandlock_spawn(&p, argv, &h) != 0)
			_exit(10);
		if (readable(sandlock_handle_fd(h), 300))
			_exit(11);
		kill(0, SIGINT);
		if (!readable(sandlock_handle_fd(h), 5000))
			_exit(12);
		struct sandlock_result r;
		if (sandlock_wait(h, &r) != 0)
			_exit(13);
		if (r.verdict != SANDLOCK_SIGNALED || r.status != 128 + SIGINT ||
		    r.cancel_signal != SIGINT)
			_exit(14);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(grader, &st, 0), grader);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* A grader that dies (SIGKILL) takes its runs with it: the program's
 * process is gone soon after, though it would sleep for 100 s. */
static void caller_death_kills_runs(void **state)
{
	(void)state;
	char *d = shared_dir(), pidfile[300];
	snprintf(pidfile, sizeof(pidfile), "%s/pid", d);
	pid_t grader = fork();
	assert_true(grader >= 0);
	if (grader == 0) {
		struct sandlock_policy p;
		policy(&p);
		p.cpu_ms = 200000;
		p.unshare = SANDLOCK_UNSHARE_OFF;
		char *argv[] = { "/bin/sh", "-c",
				 "echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; exec sleep 100", pidfile, NULL };
		char *other[] = { "/bin/sleep", "100", NULL };
		struct sandlock_handle *h, *h2;
		/* a second run spawned after it: its supervisor must not keep
		 * the first run's pipe open */
		if (sandlock_spawn(&p, argv, &h) != 0 || sandlock_spawn(&p, other, &h2) != 0)
			_exit(3);
		pause();
		_exit(0);
	}
	pid_t pid = read_pid(pidfile, 10);
	if (!pid) {
		kill(grader, SIGKILL);
		waitpid(grader, NULL, 0);
		fail_msg("the grader's run never started");
	}
	assert_true(alive(pid));
	kill(grader, SIGKILL);
	assert_int_equal(waitpid(grader, NULL, 0), grader);
	if (!gone_within(pid, 5)) {
		kill(pid, SIGKILL);
		fail_msg("pid %d outlived its grader", (int)pid);
	}
	remove_dir(d);
}

/* The thread that spawned a run may end before it: the run goes on (a
 * parent-death signal would have stopped it: it follows the thread). */
static void *spawn_and_exit(void *arg)
{
	struct sandlock_policy p;
	policy(&p);
	char *argv[] = { "/bin/sleep", "0.4", NULL };
	if (sandlock_spawn(&p, argv, (struct sandlock_handle **)arg) != 0)
		*(struct sandlock_handle **)arg = NULL;
	sandlock_policy_release(&p);
	return NULL;
}

static void spawning_thread_may_end(void **state)
{
	(void)state;
	struct sandlock_handle *h = NULL;
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, spawn_and_exit, &h), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_non_null(h);
	struct sandlock_result r;
	assert_int_equal(sandlock_wait(h, &r), 0);
	if (r.verdict != SANDLOCK_OK_VERDICT)
		fail_msg("%s, status %d", sandlock_verdict_name(r.verdict), r.status);
	assert_true(r.wall_us >= 380000);
}

/* Threads spawning and waiting at the same time. */
static void *worker(void *arg)
{
	int *bad = arg;
	struct sandlock_policy p;
	policy(&p);
	p.no_fork = true;
	for (int i = 0; i < 3; i++) {
		char code[16];
		snprintf(code, sizeof(code), "%d", i);
		char *argv[] = { "/bin/sh", "-c", "exit $0", code, NULL };
		struct sandlock_handle *h;
		struct sandlock_result r;
		if (sandlock_spawn(&p, argv, &h) != 0 || sandlock_wait(h, &r) != 0 ||
		    r.status != i || r.exit_code != i)
			(*bad)++;
	}
	sandlock_policy_release(&p);
	return NULL;
}

static void threaded_callers(void **state)
{
	(void)state;
	enum { T = 4 };
	pthread_t t[T];
	int bad[T] = { 0 };
	for (int i = 0; i < T; i++)
		assert_int_equal(pthread_create(&t[i], NULL, worker, &bad[i]), 0);
	for (int i = 0; i < T; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(bad[i], 0);
	}
}

/* fork refused (EAGAIN): a handle whose result says so, readable at once. */
static void fork_refused(void **state)
{
	(void)state;
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		/* as 65534 (root's capabilities would pass the limit) */
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(10);
		struct rlimit zero = { 0, 0 };
		if (setrlimit(RLIMIT_NPROC, &zero) != 0)
			_exit(11);
		struct sandlock_policy p;
		policy(&p);
		char *argv[] = { "/bin/true", NULL };
		struct sandlock_handle *h;
		if (sandlock_spawn(&p, argv, &h) != 0)
			_exit(12);
		if (!readable(sandlock_handle_fd(h), 0))
			_exit(13);
		if (sandlock_kill(h) != 0)
			_exit(14);
		struct sandlock_result r;
		if (sandlock_wait(h, &r) != SANDLOCK_ESYSTEM)
			_exit(15);
		if (r.verdict != SANDLOCK_SETUP_FAILED || r.status != 125 ||
		    !strstr(r.error, strerror(EAGAIN)))
			_exit(16);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* A caller that ignores SIGCHLD (the kernel reaps its children itself)
 * still gets the result; sandlock_run() refuses to run there. */
static void caller_ignoring_sigchld(void **state)
{
	(void)state;
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		signal(SIGCHLD, SIG_IGN);
		struct sandlock_policy p;
		policy(&p);
		char *argv[] = { "/bin/sh", "-c", "exit 3", NULL };
		struct sandlock_handle *h;
		struct sandlock_result r;
		if (sandlock_spawn(&p, argv, &h) != 0)
			_exit(10);
		if (sandlock_wait(h, &r) != 0)
			_exit(11);
		if (r.verdict != SANDLOCK_RUNTIME_ERROR || r.status != 3)
			_exit(12);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Nothing leaks: descriptors, children. */
static void no_leaks(void **state)
{
	(void)state;
	int before = 0, after = 0;
	char path[64];
	for (int fd = 0; fd < 1024; fd++)
		before += fcntl(fd, F_GETFD) >= 0;
	struct sandlock_policy p;
	policy(&p);
	p.no_fork = true;
	char *argv[] = { "/bin/true", NULL };
	for (int i = 0; i < 10; i++) {
		struct sandlock_handle *h;
		struct sandlock_result r;
		assert_int_equal(sandlock_spawn(&p, argv, &h), 0);
		assert_int_equal(sandlock_wait(h, &r), 0);
		assert_int_equal(r.verdict, SANDLOCK_OK_VERDICT);
	}
	sandlock_policy_release(&p);
	for (int fd = 0; fd < 1024; fd++)
		after += fcntl(fd, F_GETFD) >= 0;
	assert_int_equal(before, after);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	(void)path;
}

/* The same result as sandlock_run for the same policy: verdict, status,
 * exit code, signal, blocked call; CPU alike.  Last: sandlock_run makes
 * this process a subreaper for good. */
struct cmp_case {
	const char *name;
	char *argv[6];
	bool no_fork;
	uint64_t cpu_ms;
};

static void same_as_sandlock_run(void **state)
{
	(void)state;
	static const struct cmp_case cases[] = {
		{ "ok", { "/bin/true", NULL }, false, 0 },
		{ "exit 3", { "/bin/sh", "-c", "exit 3", NULL }, false, 0 },
		{ "crash", { "/bin/sh", "-c", "kill -SEGV $$", NULL }, false, 0 },
		{ "blocked fork", { "/bin/sh", "-c", "/bin/true; echo", NULL }, true, 0 },
		{ "cpu limit", { "/bin/sh", "-c", "while :; do :; done", NULL }, false, 300 },
		{ "not found", { "/nonexistent/prog", NULL }, false, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cmp_case *c = &cases[i];
		struct sandlock_policy p;
		policy(&p);
		p.no_fork = c->no_fork;
		if (c->cpu_ms)
			p.cpu_ms = c->cpu_ms;
		p.stderr_path = strdup("/dev/null");
		struct sandlock_handle *h;
		struct sandlock_result a, b;
		assert_int_equal(sandlock_spawn(&p, c->argv, &h), 0);
		int rca = sandlock_wait(h, &a);
		int rcb = sandlock_run(&p, c->argv, &b);
		sandlock_policy_release(&p);
		if (rca != rcb || a.verdict != b.verdict || a.status != b.status ||
		    a.exit_code != b.exit_code || a.signal != b.signal ||
		    strcmp(a.blocked_syscall, b.blocked_syscall) || a.layers != b.layers)
			fail_msg("%s: spawn %d %s %d exit %d sig %d %s layers %x, run %d %s %d exit %d "
				 "sig %d %s layers %x", c->name,
				 rca, sandlock_verdict_name(a.verdict), a.status, a.exit_code, a.signal,
				 a.blocked_syscall, a.layers, rcb, sandlock_verdict_name(b.verdict),
				 b.status, b.exit_code, b.signal, b.blocked_syscall, b.layers);
		uint64_t ca = (a.user_us + a.sys_us) / 1000, cb = (b.user_us + b.sys_us) / 1000;
		if (c->cpu_ms && (ca < c->cpu_ms || cb < c->cpu_ms || ca > 3 * cb || cb > 3 * ca))
			fail_msg("%s: cpu %llu ms (spawn) vs %llu ms (run)", c->name,
				 (unsigned long long)ca, (unsigned long long)cb);
	}
}

/* Threads of one process running sandboxes at once, with no pid
 * namespace (as in a container): the end of the first run leaves the
 * second alone (its search for the run's orphans once killed the other
 * run's program, started after it: signaled 137, or reaped it from under
 * its own wait).  Where the host has no seccomp filter, the runs may leave
 * their process group and that search is needed: not meaningful there. */
struct at_once {
	char *argv[4];
	useconds_t delay;
	struct sandlock_result r;
	int rc;
};

static void *run_one(void *arg)
{
	struct at_once *o = arg;
	usleep(o->delay);
	struct sandlock_policy p;
	policy(&p);
	p.unshare = SANDLOCK_UNSHARE_OFF;
	o->rc = sandlock_run(&p, o->argv, &o->r);
	sandlock_policy_release(&p);
	return NULL;
}

static void threads_run_at_once(void **state)
{
	(void)state;
	struct at_once o[2] = {
		{ { "/bin/sh", "-c", "sleep 0.3", NULL }, 0, { 0 }, -1 },
		{ { "/bin/sh", "-c", "sleep 1.2; exit 7", NULL }, 100000, { 0 }, -1 },
	};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run_one, &o[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (!(o[1].r.layers & SANDLOCK_LAYER_SECCOMP))
		skip();
	for (int i = 0; i < 2; i++)
		if (o[i].rc != 0 || o[i].r.verdict != (i ? SANDLOCK_RUNTIME_ERROR : SANDLOCK_OK_VERDICT) ||
		    o[i].r.exit_code != (i ? 7 : 0))
			fail_msg("run %d: rc %d, %s, status %d, exit %d, signal %d: %s", i, o[i].rc,
				 sandlock_verdict_name(o[i].r.verdict), o[i].r.status, o[i].r.exit_code,
				 o[i].r.signal, o[i].r.error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(fd_readable_at_the_end),
		cmocka_unit_test(many_runs_from_one_thread),
		cmocka_unit_test(kill_stops_the_run),
		cmocka_unit_test(own_cancel_fd),
		cmocka_unit_test(group_sigint_stops_runs),
		cmocka_unit_test(caller_death_kills_runs),
		cmocka_unit_test(spawning_thread_may_end),
		cmocka_unit_test(threaded_callers),
		cmocka_unit_test(fork_refused),
		cmocka_unit_test(caller_ignoring_sigchld),
		cmocka_unit_test(no_leaks),
		cmocka_unit_test(same_as_sandlock_run),
		cmocka_unit_test(threads_run_at_once),
	};
	return cmocka_run_group_tests_name("async", tests, NULL, NULL);
}
