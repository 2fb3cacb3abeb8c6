/*
 * `sandlock interactive`: an interactive problem's two programs, the
 * problem's interactor and the submission, each in a sandbox of its own,
 * each one's standard output fed to the other's standard input.
 *
 *   sandlock interactive [BOTH-OPTIONS] --interactor [OPTIONS] -- INTERACTOR [ARGS...]
 *                                       --submission [OPTIONS] -- SUBMISSION [ARGS...]
 *
 * Each side runs in a process of its own that calls sandlock_run() with its
 * policy (sandlock_run changes its caller for good: a child subreaper, not
 * dumpable, so one process per run) and sends its result back through a
 * pipe.  This process relays the two directions itself instead of joining
 * the programs with two pipes: it sees every byte, which is what the idle
 * rule (no byte either way and no CPU used), the transcript and the end of
 * either stream need, and neither program ever holds a descriptor the
 * other holds.  It keeps the one wall budget of the pair, stops both sides
 * when either ends abnormally (closing the pipe each side's run takes as
 * its cancel descriptor), and decides one verdict from the two results.
 * Relaying costs latency per exchange; both sides and this process are put
 * on one CPU where the host allows (bench/interactive.sh measures both).
 */
#include "interactive.h"

#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

const char *const ia_side_name[2] = { "interactor", "submission" };

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "sandlock: %s\n", msg);
	return SANDLOCK_EXIT_FAILURE;
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* ---- the transcript ---- */

static void tr_put(struct transcript *t, char c)
{
	if (t->len < t->cap)
		t->buf[t->len++] = c;
	else
		t->truncated = true;
}

/* Each line of what a side sent, with the tag of the direction; a line the
 * other side's bytes cut is ended first. */
static void tr_add(struct transcript *t, char tag, const char *data, size_t n)
{
	if (!t->on)
		return;
	for (size_t i = 0; i < n && !t->truncated; i++) {
		if (t->line_start || t->last != tag) {
			if (!t->line_start)
				tr_put(t, '\n');
			tr_put(t, tag);
			tr_put(t, ' ');
			t->line_start = false;
			t->last = tag;
		}
		tr_put(t, data[i]);
		if (data[i] == '\n')
			t->line_start = true;
	}
}

/* ---- the relay ---- */

/* The relay saw side s end (or stop talking): the other side can learn of
 * it from now on, not before, since every byte and every end of stream
 * passes through here.  The first time counts. */
static void saw_end(struct pair *pp, int s)
{
	if (!pp->s[s].seen_end)
		pp->s[s].seen_end = pp->turn;
}

/* Copy what can be copied now.  *progress when a byte moved. */
static void dir_read(struct pair *pp, struct dir *d, bool *progress)
{
	if (d->from < 0 || d->len == RELAY_BUF)
		return;
	if (d->len == 0)
		d->off = 0;
	size_t room = RELAY_BUF - d->off - d->len;
	if (room == 0) {
		memmove(d->buf, d->buf + d->off, d->len);
		d->off = 0;
		room = RELAY_BUF - d->len;
	}
	ssize_t n = read(d->from, d->buf + d->off + d->len, room);
	if (n > 0) {
		*progress = true;
		d->bytes += (uint64_t)n;
		tr_add(&pp->tr, d->tag, d->buf + d->off + d->len, (size_t)n);
		if (d->sink_gone) {
			/* a write into a reader that is gone: the next fails
			 * (EPIPE, SIGPIPE) as it would on a direct pipe */
			d->wrote_after_gone = true;
			close_fd(&d->from);
			return;
		}
		d->len += (size_t)n;
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		saw_end(pp, d == &pp->d[SIDE_I] ? SIDE_I : SIDE_S);
		close_fd(&d->from); /* the writer closed its stdout */
		if (d->len == 0)
			close_fd(&d->to); /* and the reader sees the end */
	}
}

/* The reader of d (the other side's stdin) went away. */
static void dir_gone(struct pair *pp, struct dir *d)
{
	saw_end(pp, d == &pp->d[SIDE_I] ? SIDE_S : SIDE_I);
	d->sink_gone = true;
	d->len = d->off = 0;
	close_fd(&d->to);
}

static void dir_write(struct pair *pp, struct dir *d)
{
	if (d->to < 0 || d->len == 0)
		return;
	ssize_t n = write(d->to, d->buf + d->off, d->len);
	if (n > 0) {
		d->off += (size_t)n;
		d->len -= (size_t)n;
		if (d->len == 0 && d->from < 0)
			close_fd(&d->to);
	} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
		dir_gone(pp, d);
	}
}

/* ---- the sides ---- */

static void cancel(struct pair *pp, int s)
{
	if (!pp->s[s].done && pp->s[s].cancel_w >= 0)
		pp->s[s].cancelled = true;
	close_fd(&pp->s[s].cancel_w);
}

/* The side's process: run, then send the result and the report back. */
static void side_main(struct pair *pp, int s, int *all, int nall, int cancel_r, int result_w)
{
	struct side *sd = &pp->s[s];
	for (int i = 0; i < nall; i++)
		if (all[i] >= 0 && all[i] != cancel_r && all[i] != result_w && all[i] != sd->in_r &&
		    all[i] != sd->out_w)
			close(all[i]);
	struct sandlock_policy *p = &sd->cli.policy;
	p->stdin_fd = sd->in_r;
	p->stdout_fd = sd->out_w;
	p->cancel_fd = cancel_r;
	struct sandlock_result r;
	int rc = sandlock_run(p, sd->cli.argv, &r);
	/* the parent writes the report from these, with the policy it has */
	struct part {
		const void *b;
		size_t n;
	} parts[] = { { &rc, sizeof(rc) }, { &r, sizeof(r) } };
	for (size_t k = 0; k < 2; k++) {
		const char *b = parts[k].b;
		size_t left = parts[k].n;
		while (left) {
			ssize_t w = write(result_w, b, left);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(1);
			b += w;
			left -= (size_t)w;
		}
	}
	_exit(0);
}

static void side_result(struct pair *pp, int s)
{
	struct side *sd = &pp->s[s];
	for (;;) {
		if (sd->rlen == sd->rcap) {
			size_t nc = sd->rcap ? sd->rcap * 2 : 8192;
			char *nb = realloc(sd->rbuf, nc);
			if (!nb)
				break; /* what came so far is all we will have */
			sd->rbuf = nb;
			sd->rcap = nc;
		}
		ssize_t n = read(sd->result_r, sd->rbuf + sd->rlen, sd->rcap - sd->rlen);
		if (n > 0) {
			sd->rlen += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		break;
	}
	close_fd(&sd->result_r);
	int st = 0;
	while (waitpid(sd->pid, &st, 0) < 0 && errno == EINTR)
		;
	sd->done = true;
	saw_end(pp, s);
	size_t head = sizeof(int) + sizeof(struct sandlock_result);
	if (sd->rlen >= head) {
		memcpy(&sd->rc, sd->rbuf, sizeof(int));
		memcpy(&sd->res, sd->rbuf + sizeof(int), sizeof(sd->res));
	} else {
		/* its process died before it could say anything */
		memset(&sd->res, 0, sizeof(sd->res));
		sd->rc = SANDLOCK_ESYSTEM;
		sd->res.verdict = SANDLOCK_SETUP_FAILED;
		sd->res.status = SANDLOCK_EXIT_FAILURE;
		sd->res.exit_code = -1;
		sd->res.uid = SANDLOCK_UID_UNKNOWN;
		snprintf(sd->res.error, sizeof(sd->res.error), "the %s's supervising process %s",
			 ia_side_name[s], WIFSIGNALED(st) ? "was killed" : "failed");
	}
	sd->json = sl_report_object(&sd->cli.policy, &sd->res);
	free(sd->rbuf);
	sd->rbuf = NULL;
}

/* ---- the run ---- */

static int pin_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 2)
		return -1;
	int cpu = sched_getcpu();
	if (cpu < 0 || !CPU_ISSET(cpu, &set))
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? cpu : -1;
}

static int make_pipe(int fds[2])
{
	return pipe2(fds, O_CLOEXEC);
}

static int run_pair(struct pair *pp, char *err, size_t errlen)
{
	/* prog_in[s]: the side's stdin (read end, theirs; write end, ours);
	 * prog_out[s]: its stdout (write end, theirs; read end, ours) */
	int prog_in[2][2], prog_out[2][2], canc[2][2], resp[2][2];
	int all[16], nall = 0;
	for (int s = 0; s < 2; s++) {
		if (make_pipe(prog_in[s]) || make_pipe(prog_out[s]) || make_pipe(canc[s]) ||
		    make_pipe(resp[s])) {
			snprintf(err, errlen, "pipe: %s", strerror(errno));
			for (int k = 0; k < nall; k++)
				close(all[k]);
			return -1;
		}
		all[nall++] = prog_in[s][0];
		all[nall++] = prog_in[s][1];
		all[nall++] = prog_out[s][0];
		all[nall++] = prog_out[s][1];
		all[nall++] = canc[s][0];
		all[nall++] = canc[s][1];
		all[nall++] = resp[s][0];
		all[nall++] = resp[s][1];
	}
	for (int s = 0; s < 2; s++) {
		struct side *sd = &pp->s[s];
		sd->in_r = prog_in[s][0];
		sd->out_w = prog_out[s][1];
		sd->cancel_w = canc[s][1];
		sd->result_r = resp[s][0];
		/* d[s] carries side s's stdout to the other's stdin */
		pp->d[s].from = prog_out[s][0];
		pp->d[s].to = prog_in[1 - s][1];
		fcntl(pp->d[s].from, F_SETFL, O_NONBLOCK);
		fcntl(pp->d[s].to, F_SETFL, O_NONBLOCK);
		fcntl(sd->result_r, F_SETFL, O_NONBLOCK);
	}
	for (int s = 0; s < 2; s++) {
		pid_t pid = fork();
		if (pid < 0) {
			snprintf(err, errlen, "fork: %s", strerror(errno));
			/* the side already started stops (its cancel pipe) */
			return -1;
		}
		if (pid == 0) {
			/* the sides' ends of the other pipes, and ours, are closed
			 * there; what the caller gave us is closed by the sandbox */
			side_main(pp, s, all, nall, canc[s][0], resp[s][1]);
		}
		pp->s[s].pid = pid;
	}
	/* ours: the relay ends, the cancel write ends, the result read ends */
	for (int s = 0; s < 2; s++) {
		close(prog_in[s][0]);
		close(prog_out[s][1]);
		close(canc[s][0]);
		close(resp[s][1]);
		pp->s[s].in_r = pp->s[s].out_w = -1;
	}
	return 0;
}

static void relay_loop(struct pair *pp, int sigfd, int hangup_fd)
{
	uint64_t start = now_ms(), last = start;
	uint64_t step = pp->idle_ms / 4;
	if (step > 250)
		step = 250;
	if (step < 20)
		step = 20;
	uint64_t cpu_base = 0, cpu_at = 0;
	bool cpu_valid = false;
	while (!pp->s[0].done || !pp->s[1].done) {
		struct pollfd pf[10];
		int n = 0, isig = -1, ihup = -1, ires[2] = { -1, -1 }, ifrom[2] = { -1, -1 },
		    ito[2] = { -1, -1 };
		if (sigfd >= 0) { isig = n; pf[n++] = (struct pollfd){ sigfd, POLLIN, 0 }; }
		if (hangup_fd >= 0) { ihup = n; pf[n++] = (struct pollfd){ hangup_fd, 0, 0 }; }
		for (int s = 0; s < 2; s++) {
			struct dir *d = &pp->d[s];
			if (pp->s[s].result_r >= 0) {
				ires[s] = n;
				pf[n++] = (struct pollfd){ pp->s[s].result_r, POLLIN, 0 };
			}
			if (d->from >= 0 && d->len < RELAY_BUF) {
				ifrom[s] = n;
				pf[n++] = (struct pollfd){ d->from, POLLIN, 0 };
			}
			if (d->to >= 0) {
				/* POLLERR tells a reader that went away, even
				 * with nothing to write */
				ito[s] = n;
				pf[n++] = (struct pollfd){ d->to, d->len ? POLLOUT : 0, 0 };
			}
		}
		uint64_t t = now_ms();
		int64_t wait = -1;
		if (pp->timeout_ms && !pp->timed_out)
			wait = (int64_t)(start + pp->timeout_ms) - (int64_t)t;
		if (pp->idle_ms) {
			int64_t w = (int64_t)step;
			if (wait < 0 || w < wait)
				wait = w;
		}
		if (wait < 0 && pp->timeout_ms && !pp->timed_out)
			wait = 0;
		int r = poll(pf, (nfds_t)n, wait > INT32_MAX ? INT32_MAX : (int)wait);
		if (r < 0 && errno != EINTR)
			break;
		t = now_ms();
		pp->turn++; /* what this poll told: ends seen together tie */
		bool progress = false;
		if (r > 0) {
			if (isig >= 0 && (pf[isig].revents & POLLIN)) {
				struct signalfd_siginfo si;
				if (read(sigfd, &si, sizeof(si)) == sizeof(si) && !pp->signal)
					pp->signal = (int)si.ssi_signo;
				cancel(pp, SIDE_I);
				cancel(pp, SIDE_S);
			}
			if (ihup >= 0 && (pf[ihup].revents & (POLLERR | POLLHUP))) {
				pp->hangup = true; /* nobody is left to read what we say */
				hangup_fd = -1;
				cancel(pp, SIDE_I);
				cancel(pp, SIDE_S);
			}
			for (int s = 0; s < 2; s++) {
				struct dir *d = &pp->d[s];
				if (ito[s] >= 0 && (pf[ito[s]].revents & POLLERR))
					dir_gone(pp, d);
				else if (ito[s] >= 0 && (pf[ito[s]].revents & POLLOUT))
					dir_write(pp, d);
				if (ifrom[s] >= 0 && pf[ifrom[s]].revents) {
					dir_read(pp, d, &progress);
					dir_write(pp, d);
				}
			}
			for (int s = 0; s < 2; s++) {
				if (ires[s] < 0 || !pf[ires[s]].revents)
					continue;
				side_result(pp, s);
				if (pp->s[s].done && ia_abnormal(pp, s))
					cancel(pp, 1 - s);
			}
		}
		if (progress) {
			last = t;
			cpu_valid = false;
		}
		if (pp->timeout_ms && t >= start + pp->timeout_ms && !pp->timed_out &&
		    (!pp->s[0].done || !pp->s[1].done)) {
			pp->timed_out = true;
			cancel(pp, SIDE_I);
			cancel(pp, SIDE_S);
		}
		/* idle: no byte either way for a step, then the programs' CPU
		 * is sampled every step; CPU used is progress too */
		if (pp->idle_ms && !pp->idle && !pp->timed_out && !pp->signal && !progress &&
		    t - last >= step) {
			if (!cpu_valid || t - cpu_at >= step) {
				bool seen;
				uint64_t c = ia_tree_ticks(pp, &seen);
				if (!seen || (cpu_valid && c != cpu_base))
					last = t;
				cpu_base = c;
				cpu_at = t;
				cpu_valid = true;
			}
			if (t - last >= pp->idle_ms && (!pp->s[0].done || !pp->s[1].done)) {
				pp->idle = true;
				cancel(pp, SIDE_I);
				cancel(pp, SIDE_S);
			}
		}
	}
	for (int s = 0; s < 2; s++) {
		close_fd(&pp->d[s].from);
		close_fd(&pp->d[s].to);
		close_fd(&pp->s[s].cancel_w);
	}
}

static char *pair_report(const struct pair *pp, const char *verdict, int status, size_t *len)
{
	/* a side that never ran: {} */
	json_t *side[2];
	for (int k = 0; k < 2; k++)
		side[k] = pp->s[k].json ? json_incref(pp->s[k].json) : json_object();
	json_t *o = json_pack("{s:s,s:i,s:b,s:I,s:b,s:o,s:o}", "verdict", verdict, "status", status,
			      "idle", (int)pp->idle, "transcript_bytes",
			      (json_int_t)(pp->tr.on ? pp->tr.len : 0), "transcript_truncated",
			      (int)pp->tr.truncated, "interactor", side[SIDE_I],
			      "submission", side[SIDE_S]);
	char *buf = NULL;
	if (o && sl_json_dump(o, SL_JSON_NEWLINE, &buf, len) != 0)
		buf = NULL;
	json_decref(o);
	return buf;
}

static void release(struct pair *pp, char **copy, int argc)
{
	for (int s = 0; s < 2; s++) {
		if (pp->s[s].parsed)
			sl_cli_release(&pp->s[s].cli);
		free(pp->s[s].argv);
		json_decref(pp->s[s].json);
		free(pp->s[s].rbuf);
		free(pp->d[s].buf);
		close_fd(&pp->s[s].result_r);
		close_fd(&pp->s[s].cancel_w);
	}
	free(pp->tr.buf);
	if (copy)
		for (int i = 0; i < argc; i++)
			free(copy[i]);
	free(copy);
}

int sl_interactive_main(int argc, char **argv)
{
	struct pair pp;
	memset(&pp, 0, sizeof(pp));
	pp.idle_ms = DEFAULT_IDLE_MS;
	pp.transcript_cap = DEFAULT_TRANSCRIPT_CAP;
	pp.report_fd = -1;
	pp.pin = true;
	for (int s = 0; s < 2; s++) {
		pp.s[s].cancel_w = pp.s[s].result_r = pp.s[s].in_r = pp.s[s].out_w = -1;
		pp.d[s].from = pp.d[s].to = -1;
		pp.d[s].tag = s == SIDE_I ? '<' : '>';
	}
	/* The command line may carry what the programs must not see (the
	 * test's answer as the interactor's argument), and /proc/<pid>/cmdline
	 * is readable by everyone: work on a copy, blank the original. */
	char **copy = calloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; copy && i < argc; i++)
		if (!(copy[i] = strdup(argv[i]))) {
			release(&pp, copy, argc);
			return fail("out of memory");
		}
	if (!copy)
		return fail("out of memory");
	char err[700];
	if (ia_parse(argc, copy, &pp, err, sizeof(err)) != 0) {
		release(&pp, copy, argc);
		return fail("%s", err);
	}
	if (pp.help) {
		fputs(ia_usage, stdout);
		release(&pp, copy, argc);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		memset(argv[i], 0, strlen(argv[i]));
	if (pp.verbose)
		for (int s = 0; s < 2; s++)
			pp.s[s].cli.policy.verbose = true;
	/* --cpus: the pair, its relay and both sides on these CPUs (auto:
	 * one of its own, held until we exit), set before anything forks;
	 * --pin then keeps them on one of those */
	int cpu_lock = -1, cpu_auto = -1;
	char cpu_note[96];
	if (sl_cpus_apply(pp.cpus, &cpu_lock, &cpu_auto, cpu_note, sizeof(cpu_note), err,
			  sizeof(err)) != 0) {
		release(&pp, copy, argc);
		return fail("%s", err);
	}
	if (pp.verbose && cpu_note[0])
		fprintf(stderr, "sandlock: interactive: %s\n", cpu_note);

	struct sl_report_file rf = { .fd = -1, .dir = -1 }, tf = { .fd = -1, .dir = -1 };
	if (pp.report_fd >= 0) {
		if (fcntl(pp.report_fd, F_GETFD) < 0) {
			release(&pp, copy, argc);
			return fail("--report-fd %d is not an open descriptor", pp.report_fd);
		}
		rf.fd = pp.report_fd;
	} else if (pp.report_path && sl_report_file_open(&rf, pp.report_path, err, sizeof(err)) != 0) {
		sl_report_file_close(&rf);
		release(&pp, copy, argc);
		return fail("%s", err);
	}
	if (pp.transcript_path &&
	    sl_report_file_open(&tf, pp.transcript_path, err, sizeof(err)) != 0) {
		if (rf.fd == pp.report_fd)
			rf.fd = -1;
		sl_report_file_close(&rf);
		sl_report_file_close(&tf);
		release(&pp, copy, argc);
		/* the helper's words are the report's */
		const char *w = strncmp(err, "cannot write report ", 20) ? NULL : err + 20;
		return w ? fail("cannot write transcript %s", w) : fail("transcript: %s", err);
	}
	pp.tr.on = pp.transcript_path != NULL;
	pp.tr.cap = (size_t)pp.transcript_cap;
	pp.tr.line_start = true;
	pp.tr.buf = malloc(pp.tr.cap ? pp.tr.cap : 1);
	for (int s = 0; s < 2; s++)
		pp.d[s].buf = malloc(RELAY_BUF);
	if (!pp.tr.buf || !pp.d[0].buf || !pp.d[1].buf) {
		release(&pp, copy, argc);
		return fail("out of memory");
	}

	/* SIGTERM, SIGINT, SIGHUP, SIGQUIT: both sides stopped, then 128+sig */
	sigset_t stop;
	sl_stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN); /* a side that went away is an EPIPE to us */
	signal(SIGCHLD, SIG_DFL);
	int sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	int hangup_fd = -1;
	struct stat rst;
	if (pp.report_fd >= 0 && fstat(pp.report_fd, &rst) == 0 &&
	    (S_ISFIFO(rst.st_mode) || S_ISSOCK(rst.st_mode)))
		hangup_fd = pp.report_fd;
	/* Every exchange wakes three processes in turn (a program, us, the
	 * other): on one CPU no wake-up crosses CPUs.  Set on ourselves
	 * before the sides are forked, so that they and their programs
	 * inherit it. */
	int cpu = pp.pin ? pin_cpu() : -1;
	if (pp.verbose && pp.pin)
		fprintf(stderr, "sandlock: interactive: %s\n",
			cpu >= 0 ? "both sides on one CPU" : "not pinned (the host refused, or one CPU)");

	int status = 0;
	const char *verdict;
	if (run_pair(&pp, err, sizeof(err)) != 0) {
		/* a side that started is stopped, and its end awaited */
		for (int s = 0; s < 2; s++)
			close_fd(&pp.s[s].cancel_w);
		for (int s = 0; s < 2; s++)
			if (pp.s[s].pid > 0)
				waitpid(pp.s[s].pid, NULL, 0);
		if (sigfd >= 0)
			close(sigfd);
		if (rf.fd == pp.report_fd)
			rf.fd = -1;
		sl_report_file_close(&rf);
		sl_report_file_close(&tf);
		release(&pp, copy, argc);
		return fail("%s", err);
	}
	relay_loop(&pp, sigfd, hangup_fd);
	if (sigfd >= 0)
		close(sigfd);
	verdict = ia_decide(&pp, &status);

	int failed = 0;
	if (tf.fd >= 0 || tf.dir >= 0) {
		if (sl_report_file_write(&tf, pp.tr.buf, pp.tr.len, err, sizeof(err)) != 0) {
			fprintf(stderr, "sandlock: transcript: %s\n", err);
			failed = 1;
		}
	}
	sl_report_file_close(&tf);
	bool reported = false;
	if (rf.fd >= 0 || rf.dir >= 0) {
		size_t len = 0;
		char *line = pair_report(&pp, verdict, status, &len);
		if (!line) {
			fprintf(stderr, "sandlock: cannot write report: out of memory\n");
			failed = 1;
		} else if (sl_report_file_write(&rf, line, len, err, sizeof(err)) != 0) {
			fprintf(stderr, "sandlock: %s\n", err);
			failed = 1;
		} else {
			reported = true;
		}
		free(line);
	}
	if (rf.fd == pp.report_fd)
		rf.fd = -1; /* the caller's, left open */
	sl_report_file_close(&rf);
	/* a side that could not be set up, or whose command is missing, is
	 * said on stderr unless -q and the report says it */
	for (int s = 0; s < 2; s++) {
		const struct side *sd = &pp.s[s];
		if (ia_setup_failed(sd) && !(pp.quiet && reported))
			fprintf(stderr, "sandlock: %s: %s\n", ia_side_name[s],
				sd->res.error[0] ? sd->res.error : sandlock_strerror(sd->rc));
	}
	if (pp.verbose) {
		const struct sandlock_result *ir = &pp.s[SIDE_I].res, *sr = &pp.s[SIDE_S].res;
		fprintf(stderr, "sandlock: interactive verdict %s, status %d; interactor %s (status %d), "
				"submission %s (status %d, cpu %llu ms, wall %llu ms, peak %llu KB); "
				"%llu bytes to the submission, %llu back\n",
			verdict, status, sandlock_verdict_name(ir->verdict), ir->status,
			sandlock_verdict_name(sr->verdict), sr->status,
			(unsigned long long)((sr->user_us + sr->sys_us) / 1000),
			(unsigned long long)(sr->wall_us / 1000), (unsigned long long)sr->peak_kb,
			(unsigned long long)pp.d[SIDE_I].bytes, (unsigned long long)pp.d[SIDE_S].bytes);
	}
	release(&pp, copy, argc);
	return failed ? SANDLOCK_EXIT_FAILURE : status;
}
