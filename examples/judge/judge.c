/*
 * An example judge over the Sandlock library (see README.md):
 *
 *     judge [-v] [--sandlock PATH] [--best-effort] PROBLEM_DIR SUBMISSION
 *
 * Standard and checker problems: one manifest handed to sandlock_batch_parse()
 * and run in this process by sandlock_batch_run() (compile once, every test
 * after).  Interactive problems: the submission compiled with sandlock_run(),
 * then `sandlock interactive` per test (a pair of sandboxes is the command's
 * job), its report read from a pipe.
 *
 * Build: cc -Iinclude examples/judge/judge.c build/libsandlock.a -o judge
 *
 * problem.json is the judge's own, trusted file: it is read with a few
 * string searches, not a JSON parser (judge.py has a real one).
 */
#define _GNU_SOURCE
#include <sandlock.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct args {
	bool verbose, best_effort;
	const char *sandlock;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* The value after "key": within text (NULL if absent). */
static const char *field(const char *text, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	const char *p = text ? strstr(text, pat) : NULL;
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ':')
		p++;
	return p;
}

/* A JSON string at p (no escapes in problem.json's strings). */
static char *str_at(const char *p)
{
	if (!p || *p != '"')
		return NULL;
	const char *e = strchr(p + 1, '"');
	return e ? strndup(p + 1, (size_t)(e - p - 1)) : NULL;
}

static double num_field(const char *text, const char *key, double dflt)
{
	const char *p = field(text, key);
	return p ? strtod(p, NULL) : dflt;
}

/* ["a", "b"] at p, appended to v (NULL-terminated, n entries). */
static void strs_at(const char *p, char ***v, size_t *n)
{
	if (!p || *p != '[')
		return;
	for (p++; *p && *p != ']'; p++) {
		if (*p != '"')
			continue;
		char *s = str_at(p);
		*v = realloc(*v, (*n + 2) * sizeof(**v));
		(*v)[(*n)++] = s;
		(*v)[*n] = NULL;
		p = strchr(p + 1, '"');
	}
}

/* JSON string body with quotes and backslashes escaped (paths). */
static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void jarr(FILE *f, char *const *v)
{
	fputc('[', f);
	for (size_t i = 0; v && v[i]; i++) {
		if (i)
			fputc(',', f);
		jstr(f, v[i]);
	}
	fputc(']', f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* tests/NAME.in, in name order */
static char **list_tests(const char *pdir, size_t *n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests", pdir);
	DIR *d = opendir(path);
	char **v = NULL;
	*n = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 4 || strcmp(de->d_name + l - 3, ".in"))
			continue;
		v = realloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = strndup(de->d_name, l - 3);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

struct lang {
	const char *ext, *source, *compile_profile, *run_profile;
	const char *compile[9], *run[3];
};
static const struct lang langs[] = {
	{ ".c", "sol.c", "c:compile", "c:run",
	  { "gcc", "-O2", "-std=gnu11", "-o", "prog", "sol.c", "-lm", NULL }, { "./prog", NULL } },
	{ ".py", "sol.py", NULL, "python:run", { NULL }, { "python3", "sol.py", NULL } },
};

static const char *own_profile(const char *argv0)
{
	const char *b = strrchr(argv0, '/');
	return !strncmp(b ? b + 1 : argv0, "python", 6) ? "python:run" : "c:run";
}

struct tally {
	const struct args *a;
	const char *problem;
	char verdict[64];
	size_t passed, total;
	bool judge_failed;
	char why[256];
};

static int on_line(void *ctx, const struct sandlock_batch_event *ev)
{
	struct tally *t = ctx;
	if (!strcmp(ev->step, "summary")) {
		snprintf(t->verdict, sizeof(t->verdict), "%s", ev->verdict);
		/* the summary's counts, from its line */
		const char *p = strstr(ev->json, "\"passed\":");
		t->passed = p ? strtoul(p + 9, NULL, 10) : 0;
		if (!strcmp(ev->verdict, "setup_failed") || !strcmp(ev->verdict, "checker_failed")) {
			t->judge_failed = true;
			snprintf(t->why, sizeof(t->why), "%s", ev->why ? ev->why : ev->verdict);
		}
		return 0;
	}
	if (!t->a->verbose)
		return 0;
	if (!strcmp(ev->step, "compile")) {
		if (strcmp(ev->verdict, "ok"))
			printf("%s compile compile_error\n", t->problem);
	} else if (!strcmp(ev->verdict, "skipped")) {
		printf("%s %s skipped\n", t->problem, ev->name);
	} else {
		printf("%s %s %s %llu ms cpu, %llu ms wall, %llu KiB\n", t->problem, ev->name,
		       ev->verdict, (unsigned long long)ev->cpu_ms, (unsigned long long)ev->wall_ms,
		       (unsigned long long)ev->peak_kb);
	}
	return 0;
}

static int judge_batch(const struct args *a, const char *pdir, const char *text,
		       const char *sub, const struct lang *l, char **tests, size_t ntests,
		       struct tally *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char *cmp = str_at(field(text, "compare"));
	fprintf(m, "{\"settings\":{\"stop_on_failure\":true,\"compare\":\"%s\"%s}}\n",
		cmp ? cmp : "tokens", a->best_effort ? ",\"options\":[\"--best-effort\"]" : "");
	free(cmp);
	if (l->compile_profile) {
		fprintf(m, "{\"compile\":{\"argv\":");
		jarr(m, (char *const *)l->compile);
		fprintf(m, ",\"options\":[\"--profile\",\"%s\"],\"files\":{\"%s\":", l->compile_profile,
			l->source);
		jstr(m, sub);
		fprintf(m, "}}}\n");
	}
	double cpu = num_field(text, "cpu", 1);
	fprintf(m, "{\"run\":{\"argv\":");
	jarr(m, (char *const *)l->run);
	fprintf(m, ",\"options\":[\"--profile\",\"%s\",\"--cpu\",\"%g\",\"--mem\",\"%g\","
		"\"--timeout\",\"%g\"]", l->run_profile, cpu, num_field(text, "mem", 256),
		num_field(text, "timeout", 3 * cpu + 1));
	if (!l->compile_profile) {
		fprintf(m, ",\"files\":{\"%s\":", l->source);
		jstr(m, sub);
		fputc('}', m);
	}
	fprintf(m, "}}\n");
	const char *chk = field(text, "checker");
	if (chk) {
		char **argv = NULL, **opts = NULL;
		size_t na = 0, no = 0;
		strs_at(field(chk, "argv"), &argv, &na);
		const char *o = field(chk, "options");
		/* the checker's options, if they are its own (before "expect") */
		if (o && (!field(chk, "expect") || o < field(chk, "expect")))
			strs_at(o, &opts, &no);
		if (!na) {
			fprintf(stderr, "judge: %s: checker.argv is missing\n", pdir);
			return -1;
		}
		fprintf(m, "{\"checker\":{\"argv\":");
		jarr(m, argv);
		fprintf(m, ",\"options\":[\"--profile\",\"%s\"", own_profile(argv[0]));
		for (size_t i = 0; i < no; i++) {
			fputc(',', m);
			jstr(m, opts[i]);
		}
		fprintf(m, "],\"workdir\":");
		jstr(m, pdir);
		fprintf(m, "}}\n");
		for (size_t i = 0; i < na; i++)
			free(argv[i]);
		for (size_t i = 0; i < no; i++)
			free(opts[i]);
		free(argv);
		free(opts);
	}
	for (size_t i = 0; i < ntests; i++) {
		char in[4096], out[4096];
		snprintf(in, sizeof(in), "%s/tests/%s.in", pdir, tests[i]);
		snprintf(out, sizeof(out), "%s/tests/%s.out", pdir, tests[i]);
		fprintf(m, "{\"test\":{\"name\":");
		jstr(m, tests[i]);
		fprintf(m, ",\"stdin\":");
		jstr(m, in);
		if (access(out, R_OK) == 0) {
			fprintf(m, ",\"expected\":");
			jstr(m, out);
		}
		fprintf(m, "}}\n");
	}
	fclose(m);
	struct sandlock_batch *b;
	char err[512];
	int rc = sandlock_batch_parse(buf, len, pdir, &b, err, sizeof(err));
	free(buf);
	if (rc != 0) {
		fprintf(stderr, "judge: %s\n", err);
		return -1;
	}
	rc = sandlock_batch_run(b, on_line, t, err, sizeof(err));
	sandlock_batch_free(b);
	if (t->judge_failed) {
		fprintf(stderr, "judge: %s: %s\n", t->problem, t->why);
		return -1;
	}
	return 0;
}

/* Run the sandlock command with a report pipe; the report's text. */
static char *run_reported(const struct args *a, char **argv, int report_w, int report_r)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, report_r);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawnp(&pid, a->sandlock, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(report_w);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	char chunk[4096];
	ssize_t n;
	while (rc == 0 && (n = read(report_r, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)n, m);
	fclose(m);
	close(report_r);
	if (rc == 0)
		waitpid(pid, NULL, 0);
	return text;
}

static int judge_interactive(const struct args *a, const char *pdir, const char *text,
			     const char *sub, const struct lang *l, char **tests, size_t ntests,
			     struct tally *t)
{
	char tmpl[] = "/tmp/judge-XXXXXX", build[64], src[128];
	if (!mkdtemp(tmpl))
		return -1;
	snprintf(build, sizeof(build), "%s/build", tmpl);
	snprintf(src, sizeof(src), "%s/%s", build, l->source);
	bool root = geteuid() == 0;
	int rc = -1;
	mkdir(build, 0755);
	/* the programs run as another uid under root: they must reach it */
	chmod(tmpl, 0711);
	chmod(build, root ? 0777 : 0755);
	char *code = slurp(sub);
	FILE *f = code ? fopen(src, "w") : NULL;
	if (!f) {
		fprintf(stderr, "judge: cannot copy %s\n", sub);
		free(code);
		goto out;
	}
	fputs(code, f);
	fclose(f);
	free(code);
	chmod(src, 0644);
	if (l->compile_profile) {
		struct sandlock_policy p;
		struct sandlock_result r;
		char err[256];
		sandlock_policy_init(&p);
		if (sandlock_policy_apply_profile(&p, "c", "compile", err, sizeof(err)) ||
		    sandlock_policy_set(&p, "workdir", build, err, sizeof(err)) ||
		    (a->best_effort && sandlock_policy_set(&p, "best-effort", NULL, err, sizeof(err)))) {
			fprintf(stderr, "judge: %s\n", err);
			sandlock_policy_release(&p);
			goto out;
		}
		int null = open("/dev/null", O_RDWR);
		p.stdin_fd = p.stdout_fd = p.stderr_fd = null;
		int r0 = sandlock_run(&p, (char *const *)l->compile, &r);
		close(null);
		sandlock_policy_release(&p);
		if (r0 < 0) {
			fprintf(stderr, "judge: compile step: %s\n", r.error);
			goto out;
		}
		if (r.verdict != SANDLOCK_OK_VERDICT) {
			snprintf(t->verdict, sizeof(t->verdict), "compile_error");
			if (a->verbose)
				printf("%s compile compile_error\n", t->problem);
			rc = 0;
			goto out;
		}
	}
	if (root)
		chmod(build, 0755);
	const char *inter = field(text, "interactor");
	char **iargv = NULL, **iopts = NULL;
	size_t nia = 0, nio = 0;
	strs_at(field(inter, "argv"), &iargv, &nia);
	const char *o = field(inter, "options");
	if (o && (!field(inter, "expect") || o < field(inter, "expect")))
		strs_at(o, &iopts, &nio);
	if (!nia) {
		fprintf(stderr, "judge: %s: interactor.argv is missing\n", pdir);
		goto out;
	}
	double cpu = num_field(text, "cpu", 1), tmo = num_field(text, "timeout", 3 * cpu + 1);
	snprintf(t->verdict, sizeof(t->verdict), "ok");
	for (size_t i = 0; i < ntests; i++) {
		if (strcmp(t->verdict, "ok")) {
			if (a->verbose)
				printf("%s %s skipped\n", t->problem, tests[i]);
			continue;
		}
		int pfd[2];
		if (pipe(pfd) != 0)
			goto out;
		char fdnum[16], tmos[32], cpus[32], mems[32], input[4096];
		snprintf(fdnum, sizeof(fdnum), "%d", pfd[1]);
		snprintf(tmos, sizeof(tmos), "%g", 2 * tmo);
		snprintf(cpus, sizeof(cpus), "%g", cpu);
		snprintf(mems, sizeof(mems), "%g", num_field(text, "mem", 256));
		snprintf(input, sizeof(input), "tests/%s.in", tests[i]);
		char *argv[128];
		int n = 0;
		argv[n++] = (char *)a->sandlock;
		argv[n++] = "interactive";
		if (a->best_effort)
			argv[n++] = "--best-effort";
		char idle[32];
		snprintf(idle, sizeof(idle), "%g", tmo);
		/* each side --timeout 0 after its profile: the run profiles'
		 * own wall clock (6 s) would end a side at the pair's budget or
		 * before it (an interactor ended so is interactor_failed) */
		char *head[] = { "--timeout", tmos, "--idle", idle, "--report-fd", fdnum, "-q",
				 "--interactor",
				 "--profile", (char *)own_profile(iargv[0]), "--timeout", "0" };
		for (size_t k = 0; k < sizeof(head) / sizeof(*head); k++)
			argv[n++] = head[k];
		for (size_t k = 0; k < nio && n < 100; k++)
			argv[n++] = iopts[k];
		argv[n++] = "--workdir";
		argv[n++] = (char *)pdir;
		argv[n++] = "--";
		for (size_t k = 0; k < nia && n < 110; k++)
			argv[n++] = iargv[k];
		argv[n++] = input;
		char *mid[] = { "--submission", "--profile", (char *)l->run_profile, "--timeout", "0",
				"--cpu", cpus, "--mem", mems, "--workdir", build, "--" };
		for (size_t k = 0; k < sizeof(mid) / sizeof(*mid); k++)
			argv[n++] = mid[k];
		for (size_t k = 0; l->run[k]; k++)
			argv[n++] = (char *)l->run[k];
		argv[n] = NULL;
		char *rep = run_reported(a, argv, pfd[1], pfd[0]);
		char *v = str_at(field(rep, "verdict"));
		free(rep);
		if (!v || !strcmp(v, "interactor_failed") || !strcmp(v, "setup_failed")) {
			fprintf(stderr, "judge: %s test %s: %s\n", t->problem, tests[i],
				v ? v : "no report from sandlock interactive");
			free(v);
			goto out;
		}
		if (a->verbose)
			printf("%s %s %s\n", t->problem, tests[i], v);
		if (!strcmp(v, "ok"))
			t->passed++;
		else
			snprintf(t->verdict, sizeof(t->verdict), "%s", v);
		free(v);
	}
	rc = 0;
	for (size_t k = 0; k < nia; k++)
		free(iargv[k]);
	for (size_t k = 0; k < nio; k++)
		free(iopts[k]);
	free(iargv);
	free(iopts);
out:
	unlink(src);
	char prog[128];
	snprintf(prog, sizeof(prog), "%s/prog", build);
	unlink(prog);
	rmdir(build);
	rmdir(tmpl);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { false, false, getenv("SANDLOCK") ? getenv("SANDLOCK") : "sandlock" };
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v"))
			a.verbose = true;
		else if (!strcmp(argv[i], "--best-effort"))
			a.best_effort = true;
		else if (!strcmp(argv[i], "--sandlock") && i + 1 < argc)
			a.sandlock = argv[++i];
		else
			break;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: judge [-v] [--sandlock PATH] [--best-effort] "
				"PROBLEM_DIR SUBMISSION\n");
		return 125;
	}
	char *pdir = realpath(argv[i], NULL), *sub = realpath(argv[i + 1], NULL);
	char path[4096];
	snprintf(path, sizeof(path), "%s/problem.json", pdir ? pdir : argv[i]);
	char *text = pdir && sub ? slurp(path) : NULL;
	const char *ext = sub ? strrchr(sub, '.') : NULL;
	const struct lang *l = NULL;
	for (size_t k = 0; ext && k < sizeof(langs) / sizeof(*langs); k++)
		if (!strcmp(ext, langs[k].ext))
			l = &langs[k];
	if (!text || !l) {
		fprintf(stderr, "judge: %s\n", !text ? "cannot read the problem or the submission"
						     : "unknown language (.c, .py)");
		return 125;
	}
	size_t ntests;
	char **tests = list_tests(pdir, &ntests);
	const char *slash = strrchr(pdir, '/');
	struct tally t = { .a = &a, .problem = slash ? slash + 1 : pdir, .total = ntests };
	char *type = str_at(field(text, "type"));
	int rc;
	if (!ntests || !type)
		rc = (fprintf(stderr, "judge: %s: no tests or no type\n", pdir), -1);
	else if (!strcmp(type, "interactive"))
		rc = judge_interactive(&a, pdir, text, sub, l, tests, ntests, &t);
	else
		rc = judge_batch(&a, pdir, text, sub, l, tests, ntests, &t);
	if (rc == 0)
		printf("%s %s %zu/%zu\n", t.problem, t.verdict, t.passed, t.total);
	for (size_t k = 0; k < ntests; k++)
		free(tests[k]);
	free(tests);
	free(type);
	free(text);
	free(pdir);
	free(sub);
	return rc != 0 ? 125 : strcmp(t.verdict, "ok") ? 1 : 0;
}
