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
#include "cli.h"
#include "internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
"Usage: sandlock interactive [BOTH-OPTIONS] --interactor [OPTIONS] -- INTERACTOR [ARGS...]\n"
"                            --submission [OPTIONS] -- SUBMISSION [ARGS...]\n"
"Run an interactive problem's interactor and a submission, each in a sandbox\n"
"of its own, the standard output of each fed to the standard input of the\n"
"other (stderr inherited), and give one verdict.\n"
"\n"
"BOTH-OPTIONS: any run option of sandlock (see sandlock --help), applied to\n"
"both sides first; a side's own OPTIONS then change them (there --timeout is\n"
"that side's own wall limit).  And, for the pair:\n"
"  --timeout SEC        the one wall budget of the pair (default: none)\n"
"  --idle SEC           verdict idle when no byte went either way and no\n"
"                       program used CPU for SEC (default 5; 0: off)\n"
"  --transcript FILE    what each side sent: lines prefixed '< ' (interactor\n"
"                       to submission) or '> ' (submission to interactor)\n"
"  --transcript-cap BYTES  at most BYTES of transcript (default 64k)\n"
"  --pin auto|off       both sides and the relay on one CPU (default auto:\n"
"                       where the host allows)\n"
"  --report FILE, --report-fd N   the JSON report of the pair\n"
"  -q, -v, -h\n"
"\n"
"Verdicts: ok, wrong_answer (the interactor exited non-zero), idle,\n"
"interactor_failed, or the submission's own (runtime_error, cpu_limit, ...).\n"
"Exit status: 0 ok, 1 wrong_answer, 124 wall_limit or idle, 125 setup failure\n"
"or interactor_failed, else sandlock's for the submission's verdict (a\n"
"runtime_error whose status would read as one of these is 2).\n";

enum { SIDE_I, SIDE_S };
static const char *const side_name[2] = { "interactor", "submission" };

#define RELAY_BUF 65536
#define DEFAULT_IDLE_MS 5000
#define DEFAULT_TRANSCRIPT_CAP 65536

/* One direction: a side's stdout, read here, written into the other's stdin. */
struct dir {
	int from, to;            /* our ends, non-blocking; -1 once closed */
	char tag;                /* '<' interactor to submission, '>' back */
	char *buf;
	size_t off, len;
	bool sink_gone;          /* the reader of `to` went away */
	bool wrote_after_gone;   /* the writer sent bytes after that: the write
				    that follows fails as on a direct pipe */
	uint64_t bytes;
};

struct side {
	struct sl_cli cli;
	bool parsed;
	char **argv;             /* the argv sl_cli_parse read (ours) */
	pid_t pid;               /* the process running sandlock_run, 0 */
	int cancel_w;            /* closed: the run is stopped */
	int result_r;            /* its result comes back here */
	int in_r, out_w;         /* the program's stdin and stdout (its ends) */
	char *rbuf;
	size_t rlen, rcap;
	bool done;
	uint64_t seen_end;       /* the relay's turn in which this side's end
				    was first seen (its stdout's end, its
				    stdin's reader gone, or its result); 0 */
	bool cancelled;          /* we stopped it */
	int rc;                  /* sandlock_run's return */
	struct sandlock_result res;
	char *json;              /* its report (without the newline) */
};

struct transcript {
	bool on;
	char *buf;
	size_t len, cap;
	bool truncated;
	bool line_start;
	char last;
};

struct pair {
	struct side s[2];
	struct dir d[2];         /* d[SIDE_I]: interactor's stdout; d[SIDE_S] */
	uint64_t timeout_ms, idle_ms, transcript_cap;
	bool pin;
	char *report_path, *transcript_path;
	int report_fd;
	bool quiet, verbose, help;
	struct transcript tr;
	bool timed_out, idle, hangup;
	int signal;
	uint64_t turn;           /* the relay loop's turns, from 1 */
};

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

/* ---- the command line ---- */

/* Options of the pair; those with a value. */
static const char *const pair_valued[] = { "timeout", "idle", "transcript", "transcript-cap",
					   "report", "report-fd", "pin", NULL };
/* What a side may not be given alone: the pair's, and its stdin/stdout,
 * which are the other side. */
static const char *const side_refused[] = { "idle", "transcript", "transcript-cap", "report",
					    "report-fd", "pin", "quiet", "features", "json", "help",
					    "version", "show-profile", "pipe-io", NULL };

static bool in_list(const char *const *l, const char *name)
{
	for (; *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

/* "--name" or "--name=value" into name (without dashes); the inline value. */
static const char *split_long(const char *tok, char *name, size_t len)
{
	const char *eq = strchr(tok + 2, '=');
	size_t n = eq ? (size_t)(eq - tok - 2) : strlen(tok + 2);
	if (n >= len)
		n = len - 1;
	memcpy(name, tok + 2, n);
	name[n] = 0;
	return eq ? eq + 1 : NULL;
}

/* Does the policy option (or --profile) take a value?  -1: not one. */
static int policy_arity(const char *name)
{
	if (!strcmp(name, "profile"))
		return 1;
	const struct sl_policy_option *o = sl_policy_option(name);
	return o ? (o->value ? 1 : 0) : -1;
}

/* Options up to the first word that is not one (or "--", skipped).  Each
 * option with its value is copied to out; *profile is set when one of them
 * is --profile.  For the pair's own options (both == true) they are taken
 * out here.  Returns the index after them, or -1 with err. */
static int scan_options(char **argv, int argc, int i, bool both, struct pair *pp,
			char **out, int *nout, bool *profile, const char *who,
			char *err, size_t errlen)
{
	for (; i < argc; i++) {
		const char *t = argv[i];
		if (both && (!strcmp(t, "--interactor") || !strcmp(t, "--submission")))
			return i;
		if (!strcmp(t, "--"))
			return i + 1;
		if (t[0] != '-' || !t[1])
			return i;
		if (!strcmp(t, "-h") || !strcmp(t, "--help")) {
			if (!both) {
				snprintf(err, errlen, "%s%s is not an option of one side", who, t);
				return -1;
			}
			pp->help = true;
			return argc;
		}
		if (!strcmp(t, "-q") || !strcmp(t, "--quiet")) {
			if (!both) {
				snprintf(err, errlen, "%s-q is an option of the pair, before "
					 "--interactor", who);
				return -1;
			}
			pp->quiet = true;
			continue;
		}
		if (!strcmp(t, "-v") || !strcmp(t, "--verbose") || !strcmp(t, "--output-stats")) {
			if (both)
				pp->verbose = true;
			out[(*nout)++] = argv[i];
			continue;
		}
		if (t[1] != '-') {
			snprintf(err, errlen, "%sunknown option '%s' (see sandlock interactive --help)",
				 who, t);
			return -1;
		}
		char name[64];
		const char *val = split_long(t, name, sizeof(name));
		bool ours = both && in_list(pair_valued, name);
		if (!both && (in_list(side_refused, name) ||
			      (sl_policy_option(name) && (!strcmp(sl_policy_option(name)->name, "stdin") ||
							  !strcmp(sl_policy_option(name)->name, "stdout"))))) {
			snprintf(err, errlen, "%s%s cannot be given to one side (its stdin and "
				 "stdout are the other side; the pair's options come before "
				 "--interactor)", who, t);
			return -1;
		}
		if (both && sl_policy_option(name) && (!strcmp(sl_policy_option(name)->name, "stdin") ||
						      !strcmp(sl_policy_option(name)->name, "stdout"))) {
			snprintf(err, errlen, "%s cannot be given: each side's stdin and stdout "
				 "are the other side", t);
			return -1;
		}
		int arity = ours ? 1 : policy_arity(name);
		if (arity < 0) {
			snprintf(err, errlen, "%sunknown option '%s' (see sandlock interactive --help)",
				 who, t);
			return -1;
		}
		if (arity == 0 && val) {
			snprintf(err, errlen, "%soption --%s takes no value", who, name);
			return -1;
		}
		if (arity == 1 && !val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%soption %s needs a value", who, t);
				return -1;
			}
			val = argv[i + 1];
		}
		if (!strcmp(name, "profile"))
			*profile = true;
		if (!ours) {
			out[(*nout)++] = argv[i];
			if (arity == 1 && !strchr(t, '='))
				out[(*nout)++] = argv[++i];
			continue;
		}
		if (!strchr(t, '='))
			i++;
		uint64_t v;
		if (!strcmp(name, "timeout") || !strcmp(name, "idle")) {
			if (sl_parse_seconds_ms(val, &v) != 0) {
				snprintf(err, errlen, "invalid value for --%s: '%s' (seconds, e.g. 2 or 0.5)",
					 name, val);
				return -1;
			}
			*(name[0] == 't' ? &pp->timeout_ms : &pp->idle_ms) = v;
		} else if (!strcmp(name, "transcript-cap")) {
			/* the size syntax of --max-output, through its own parser */
			struct sandlock_policy tmp;
			sandlock_policy_init(&tmp);
			char m[256];
			int bad = sandlock_policy_set(&tmp, "max-output", val, m, sizeof(m));
			v = tmp.max_output;
			sandlock_policy_release(&tmp);
			if (bad || v > (1u << 30)) {
				snprintf(err, errlen, "invalid value for --transcript-cap: '%s' (bytes, "
					 "or a size such as 64k, 1M; at most 1G)", val);
				return -1;
			}
			pp->transcript_cap = v;
		} else if (!strcmp(name, "report") || !strcmp(name, "transcript")) {
			if (!*val) {
				snprintf(err, errlen, "invalid value for --%s: empty path", name);
				return -1;
			}
			*(name[0] == 'r' ? &pp->report_path : &pp->transcript_path) = (char *)val;
		} else if (!strcmp(name, "report-fd")) {
			if (sl_parse_u64(val, 1u << 20, &v) != 0) {
				snprintf(err, errlen, "invalid value for --report-fd: '%s'", val);
				return -1;
			}
			pp->report_fd = (int)v;
		} else if (!strcmp(name, "pin")) {
			if (strcmp(val, "auto") && strcmp(val, "off")) {
				snprintf(err, errlen, "invalid value for --pin: '%s' (auto or off)", val);
				return -1;
			}
			pp->pin = !strcmp(val, "auto");
		}
	}
	return i;
}

/* Drop --profile (and its value) from the options common to both, where a
 * side names its own. */
static int drop_profile(char **in, int n, char **out)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (!strcmp(in[i], "--profile")) {
			i++;
			continue;
		}
		if (!strncmp(in[i], "--profile=", 10))
			continue;
		out[m++] = in[i];
	}
	return m;
}

static int parse(int argc, char **argv, struct pair *pp, char *err, size_t errlen)
{
	/* every word goes into at most one side's argv: both lists, a side's
	 * options, "--", its command */
	char **both = calloc((size_t)argc + 1, sizeof(char *));
	char **opts[2] = { calloc((size_t)argc + 1, sizeof(char *)),
			   calloc((size_t)argc + 1, sizeof(char *)) };
	int nboth = 0, nopts[2] = { 0, 0 };
	bool both_profile = false, side_profile[2] = { false, false };
	int rc = -1;
	if (!both || !opts[0] || !opts[1]) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	int i = scan_options(argv, argc, 1, true, pp, both, &nboth, &both_profile, "", err, errlen);
	if (i < 0)
		goto out;
	if (pp->help) {
		rc = 0;
		goto out;
	}
	if (i >= argc || strcmp(argv[i], "--interactor")) {
		snprintf(err, errlen, "%s (usage: sandlock interactive [OPTIONS] --interactor "
			 "[OPTIONS] -- INTERACTOR [ARGS...] --submission [OPTIONS] -- SUBMISSION "
			 "[ARGS...])", i < argc ? "expected --interactor" : "no --interactor given");
		goto out;
	}
	int cmd[2], ncmd[2];
	for (int s = 0; s < 2; s++) {
		char who[32];
		snprintf(who, sizeof(who), "%s: ", side_name[s]);
		i = scan_options(argv, argc, i + 1, false, pp, opts[s], &nopts[s], &side_profile[s],
				 who, err, errlen);
		if (i < 0)
			goto out;
		cmd[s] = i;
		while (i < argc && (s == SIDE_S || strcmp(argv[i], "--submission")))
			i++;
		ncmd[s] = i - cmd[s];
		if (ncmd[s] == 0 || !argv[cmd[s]][0]) {
			snprintf(err, errlen, "%s: no command given", side_name[s]);
			goto out;
		}
		if (s == SIDE_I && i >= argc) {
			snprintf(err, errlen, "no --submission given (usage: sandlock interactive "
				 "[OPTIONS] --interactor [OPTIONS] -- INTERACTOR [ARGS...] --submission "
				 "[OPTIONS] -- SUBMISSION [ARGS...])");
			goto out;
		}
	}
	/* the options of both, checked once on their own, so that an error
	 * there is not blamed on a side */
	{
		char **chk = calloc((size_t)nboth + 4, sizeof(char *));
		if (!chk) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		int n = 0;
		chk[n++] = argv[0];
		for (int k = 0; k < nboth; k++)
			chk[n++] = both[k];
		chk[n++] = "--";
		chk[n++] = "true";
		struct sl_cli c;
		int bad = sl_cli_parse(n, chk, &c, err, errlen);
		sl_cli_release(&c);
		free(chk);
		if (bad)
			goto out;
	}
	for (int s = 0; s < 2; s++) {
		struct side *sd = &pp->s[s];
		sd->argv = calloc((size_t)nboth + (size_t)nopts[s] + (size_t)ncmd[s] + 3, sizeof(char *));
		if (!sd->argv) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		int n = 0;
		sd->argv[n++] = argv[0];
		if (both_profile && side_profile[s])
			n += drop_profile(both, nboth, sd->argv + n);
		else
			for (int k = 0; k < nboth; k++)
				sd->argv[n++] = both[k];
		for (int k = 0; k < nopts[s]; k++)
			sd->argv[n++] = opts[s][k];
		sd->argv[n++] = "--";
		for (int k = 0; k < ncmd[s]; k++)
			sd->argv[n++] = argv[cmd[s] + k];
		sd->argv[n] = NULL;
		char e2[512];
		sd->parsed = true;
		if (sl_cli_parse(n, sd->argv, &sd->cli, e2, sizeof(e2)) != 0) {
			snprintf(err, errlen, "%s: %s", side_name[s], e2);
			goto out;
		}
	}
	rc = 0;
out:
	free(both);
	free(opts[0]);
	free(opts[1]);
	return rc;
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

/* ---- CPU of the programs, for the idle rule ---- */

struct proc_ent {
	pid_t pid, ppid;
	uint64_t ticks;
	signed char root;        /* the side it descends from, -1: none (yet) */
};

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_ent *)a)->pid, y = ((const struct proc_ent *)b)->pid;
	return (x > y) - (x < y);
}

/* Clock ticks used by every descendant of the sides' processes (the
 * programs, and what they started), from /proc: user and system time of
 * each, and of its reaped children.  *seen: a descendant of each live side
 * was found (else the figure says nothing: /proc hidden, or a program
 * between its end and its side's). */
static uint64_t tree_ticks(const struct pair *pp, bool *seen)
{
	struct proc_ent *e = NULL;
	size_t n = 0, cap = 0;
	uint64_t sum = 0;
	*seen = false;
	DIR *dir = opendir("/proc");
	if (!dir)
		return 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char path[300], buf[1024];
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = 0;
		/* after the command's name, which may hold anything */
		char *p = strrchr(buf, ')');
		if (!p)
			continue;
		char st;
		int ppid;
		unsigned long long f[13];
		/* state ppid pgrp session tty tpgid flags minflt cminflt majflt
		 * cmajflt utime stime cutime cstime */
		if (sscanf(p + 1, " %c %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &st, &ppid, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8],
			   &f[9], &f[10], &f[11], &f[12]) != 15)
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			void *ne = realloc(e, nc * sizeof(*e));
			if (!ne)
				break;
			e = ne;
			cap = nc;
		}
		e[n++] = (struct proc_ent){ (pid_t)atoi(de->d_name), ppid,
					    f[9] + f[10] + f[11] + f[12], -1 };
	}
	closedir(dir);
	if (n)
		qsort(e, n, sizeof(*e), by_pid);
	/* a pass per generation: the trees are a few levels deep */
	bool found[2] = { false, false };
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			if (e[i].root >= 0)
				continue;
			int root = -1;
			for (int s = 0; s < 2; s++)
				if (pp->s[s].pid > 0 && e[i].ppid == pp->s[s].pid)
					root = s;
			if (root < 0) {
				struct proc_ent key = { .pid = e[i].ppid };
				const struct proc_ent *par = bsearch(&key, e, n, sizeof(*e), by_pid);
				if (par)
					root = par->root;
			}
			if (root >= 0) {
				e[i].root = (signed char)root;
				changed = true;
				sum += e[i].ticks;
				found[root] = true;
			}
		}
	}
	free(e);
	*seen = (found[0] || pp->s[0].done) && (found[1] || pp->s[1].done);
	return sum;
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
	char *line = NULL;
	size_t len = 0;
	if (sandlock_report_json_buf(p, &r, &line, &len) != 0) {
		line = NULL;
		len = 0;
	}
	struct part {
		const void *b;
		size_t n;
	} parts[] = { { &rc, sizeof(rc) }, { &r, sizeof(r) }, { line, len } };
	for (size_t k = 0; k < 3; k++) {
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
		size_t jl = sd->rlen - head;
		while (jl && (sd->rbuf[head + jl - 1] == '\n'))
			jl--;
		sd->json = strndup(sd->rbuf + head, jl);
	} else {
		/* its process died before it could say anything */
		memset(&sd->res, 0, sizeof(sd->res));
		sd->rc = SANDLOCK_ESYSTEM;
		sd->res.verdict = SANDLOCK_SETUP_FAILED;
		sd->res.status = SANDLOCK_EXIT_FAILURE;
		sd->res.exit_code = -1;
		snprintf(sd->res.error, sizeof(sd->res.error), "the %s's supervising process %s",
			 side_name[s], WIFSIGNALED(st) ? "was killed" : "failed");
	}
	if (!sd->json || !sd->json[0]) {
		free(sd->json);
		char *line = NULL;
		size_t len = 0;
		if (sandlock_report_json_buf(&sd->cli.policy, &sd->res, &line, &len) == 0) {
			while (len && line[len - 1] == '\n')
				line[--len] = 0;
			sd->json = line;
		} else {
			sd->json = strdup("{}");
		}
	}
	free(sd->rbuf);
	sd->rbuf = NULL;
}

/* ---- the verdict ---- */

static bool limit_verdict(enum sandlock_verdict v)
{
	return v == SANDLOCK_CPU_LIMIT || v == SANDLOCK_MEMORY_LIMIT || v == SANDLOCK_WALL_LIMIT ||
	       v == SANDLOCK_FILE_SIZE_LIMIT || v == SANDLOCK_OUTPUT_LIMIT ||
	       v == SANDLOCK_SYSCALL_BLOCKED;
}

static bool setup_failed(const struct side *sd)
{
	return sd->rc != 0 || sd->res.verdict == SANDLOCK_SETUP_FAILED;
}

/* The side's own failure is the other side's going: killed by SIGPIPE, or
 * a non-zero exit (EPIPE), after writing to a reader that was gone. */
static bool broken_pipe(const struct pair *pp, int s)
{
	const struct sandlock_result *r = &pp->s[s].res;
	return pp->d[s].wrote_after_gone &&
	       ((r->verdict == SANDLOCK_SIGNALED && r->signal == SIGPIPE) ||
		(r->verdict == SANDLOCK_RUNTIME_ERROR && r->signal == 0));
}

/* Did the submission fail by itself (crash, non-zero exit, a signal it
 * raised), not as a consequence of the interactor's end? */
static bool submission_failed(const struct pair *pp)
{
	const struct side *sd = &pp->s[SIDE_S];
	enum sandlock_verdict v = sd->res.verdict;
	if (v == SANDLOCK_OK_VERDICT || broken_pipe(pp, SIDE_S))
		return false;
	if (v == SANDLOCK_SIGNALED && sd->cancelled)
		return false;
	return v == SANDLOCK_RUNTIME_ERROR || v == SANDLOCK_SIGNALED;
}

/* The submission's end was seen no later than the interactor's: the
 * interactor could not have ended because of anything but it (the end of
 * its input, a broken pipe, our cancel).  Results come back in any order
 * (a supervisor slowed by the machine's load reports late); the ends of
 * the streams, which pass through the relay, tell the order. */
static bool submission_first(const struct pair *pp)
{
	uint64_t s = pp->s[SIDE_S].seen_end, i = pp->s[SIDE_I].seen_end;
	return s && (!i || s <= i);
}

/* submission_failed(), for the verdict: a run we cancelled whose program
 * had already ended by itself (a crash signal, or a non-zero exit: a run
 * we stop ends by SIGKILL) failed by itself too when its end came first. */
static bool submission_failed_itself(const struct pair *pp)
{
	const struct sandlock_result *r = &pp->s[SIDE_S].res;
	if (submission_failed(pp))
		return true;
	return r->verdict == SANDLOCK_SIGNALED && pp->s[SIDE_S].cancelled &&
	       submission_first(pp) && !broken_pipe(pp, SIDE_S) && r->signal != SIGKILL &&
	       (r->signal != 0 || r->exit_code != 0);
}

/* An end that stops the other side at once. */
static bool abnormal(const struct pair *pp, int s)
{
	const struct side *sd = &pp->s[s];
	if (setup_failed(sd) || limit_verdict(sd->res.verdict))
		return true;
	if (s == SIDE_I)
		return sd->res.verdict != SANDLOCK_OK_VERDICT;
	return submission_failed(pp);
}

static const char *decide(const struct pair *pp, int *status)
{
	const struct side *in = &pp->s[SIDE_I], *su = &pp->s[SIDE_S];
	const struct sandlock_result *ir = &in->res, *sr = &su->res;
	if (pp->signal) {
		*status = 128 + pp->signal;
		return "signaled";
	}
	if (pp->hangup) {
		*status = SANDLOCK_EXIT_FAILURE;
		return "signaled";
	}
	if (setup_failed(in)) {
		*status = SANDLOCK_EXIT_FAILURE;
		return "interactor_failed";
	}
	if (setup_failed(su)) {
		*status = sr->status ? sr->status : SANDLOCK_EXIT_FAILURE;
		return "setup_failed";
	}
	if (pp->timed_out) {
		*status = SANDLOCK_EXIT_TIMEOUT;
		return "wall_limit";
	}
	if (pp->idle) {
		*status = SANDLOCK_EXIT_TIMEOUT;
		return "idle";
	}
	if (limit_verdict(sr->verdict) && !(su->cancelled && sr->verdict == SANDLOCK_SIGNALED)) {
		*status = sr->status;
		return sandlock_verdict_name(sr->verdict);
	}
	/* the submission's own crash or non-zero exit, when its end came
	 * first: whatever the interactor did after (read the end of its input,
	 * was cut by a broken pipe or by us, crashed on it) is not held
	 * against it, nor the crash against the interactor */
	bool s_failed = submission_failed_itself(pp), s_first = submission_first(pp);
	bool runtime_error = s_failed && s_first;
	/* the interactor ended as no judge should: the judge's fault */
	bool i_rejected = ir->verdict == SANDLOCK_RUNTIME_ERROR && ir->signal == 0;
	bool i_cut = broken_pipe(pp, SIDE_I) || (in->cancelled && ir->verdict == SANDLOCK_SIGNALED);
	if (!runtime_error && ir->verdict != SANDLOCK_OK_VERDICT && !i_rejected && !i_cut) {
		*status = SANDLOCK_EXIT_FAILURE;
		return "interactor_failed";
	}
	/* or whenever the interactor accepted; not when the interactor had
	 * already rejected it (its end first) */
	if (runtime_error || (s_failed && ir->verdict == SANDLOCK_OK_VERDICT)) {
		int st = sr->status;
		if (st == 0 || st == 1 || st == SANDLOCK_EXIT_TIMEOUT || st == SANDLOCK_EXIT_FAILURE)
			st = 2;
		*status = st;
		return "runtime_error";
	}
	if (ir->verdict != SANDLOCK_OK_VERDICT) {
		*status = 1;
		return "wrong_answer";
	}
	*status = 0;
	return "ok";
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
				if (pp->s[s].done && abnormal(pp, s))
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
				uint64_t c = tree_ticks(pp, &seen);
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
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	fprintf(f, "{\"verdict\":\"%s\",\"status\":%d,\"idle\":%s,\"transcript_bytes\":%zu,"
		   "\"transcript_truncated\":%s,\"interactor\":%s,\"submission\":%s}\n",
		verdict, status, pp->idle ? "true" : "false", pp->tr.on ? pp->tr.len : 0,
		pp->tr.truncated ? "true" : "false", pp->s[SIDE_I].json ? pp->s[SIDE_I].json : "{}",
		pp->s[SIDE_S].json ? pp->s[SIDE_S].json : "{}");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void release(struct pair *pp, char **copy, int argc)
{
	for (int s = 0; s < 2; s++) {
		if (pp->s[s].parsed)
			sl_cli_release(&pp->s[s].cli);
		free(pp->s[s].argv);
		free(pp->s[s].json);
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
	if (parse(argc, copy, &pp, err, sizeof(err)) != 0) {
		release(&pp, copy, argc);
		return fail("%s", err);
	}
	if (pp.help) {
		fputs(usage, stdout);
		release(&pp, copy, argc);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		memset(argv[i], 0, strlen(argv[i]));
	if (pp.verbose)
		for (int s = 0; s < 2; s++)
			pp.s[s].cli.policy.verbose = true;

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
	verdict = decide(&pp, &status);

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
		if (setup_failed(sd) && !(pp.quiet && reported))
			fprintf(stderr, "sandlock: %s: %s\n", side_name[s],
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
