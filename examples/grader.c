/*
 * grader - an example autograder built on libsandlock's public API.
 *
 *     grader TESTDIR COMMAND [ARGS...]
 *     grader tests python3 sum.py
 *
 * TESTDIR holds test cases NN.in (the program's stdin) and NN.out (the
 * expected stdout).  Each test runs COMMAND once under the original
 * sandbox_exec profile (no fork, no network, clean environment, 5 s of CPU,
 * 256 MB) plus a 10 s wall clock, with stdin from NN.in and stdout into a
 * private temporary file, which is then compared with NN.out (trailing
 * white space at the ends of lines and blank lines at the end are
 * ignored).  Two worker threads run the tests, two sandboxes at a time,
 * from one process: the library keeps no global state.
 *
 * One line per test, in order:
 *     01 accepted        cpu 21 ms  peak 9012 KB  wall 25 ms
 *     02 wrong_answer    cpu 20 ms  peak 9004 KB  wall 24 ms
 *     03 syscall_blocked cpu 22 ms  peak 9100 KB  wall 26 ms  (clone)
 * "accepted" and "wrong_answer" are for programs whose sandbox verdict is
 * ok; otherwise the sandbox verdict is shown.  Exit status: 0 if every test
 * was accepted, 1 if not, 2 on a usage error or a sandbox failure.
 *
 * Build: make -C examples (links ../build/libsandlock.a).
 */
#define _GNU_SOURCE
#include <sandlock.h>

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 2

struct test {
	char name[64];          /* "01" */
	char *in, *out;         /* paths of NN.in and NN.out */
	char *got;              /* where the program's stdout goes */
	int rc;                 /* sandlock_run's return value */
	bool accepted;
	struct sandlock_result r;
};

struct job {
	struct test *tests;
	size_t n;
	size_t next;            /* next test to take (under lock) */
	pthread_mutex_t lock;
	char **argv;            /* the submission's command */
};

static char *join(const char *a, const char *b, const char *c)
{
	char *s;
	if (asprintf(&s, "%s%s%s", a, b, c) < 0) {
		perror("grader");
		exit(2);
	}
	return s;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n + 4096 > cap) {
			cap = cap ? 2 * cap : 65536;
			char *b = realloc(buf, cap);
			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Drop white space before each newline and at the very end. */
static size_t normalize(char *s, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			while (o > 0 && (s[o - 1] == ' ' || s[o - 1] == '\t' || s[o - 1] == '\r'))
				o--;
		s[o++] = s[i];
	}
	while (o > 0 && (s[o - 1] == '\n' || s[o - 1] == ' ' || s[o - 1] == '\t' ||
			 s[o - 1] == '\r'))
		o--;
	return o;
}

static bool same_output(const char *got_path, const char *want_path)
{
	size_t gl = 0, wl = 0;
	char *got = slurp(got_path, &gl), *want = slurp(want_path, &wl);
	bool same = false;
	if (got && want) {
		gl = normalize(got, gl);
		wl = normalize(want, wl);
		same = gl == wl && memcmp(got, want, gl) == 0;
	}
	free(got);
	free(want);
	return same;
}

/* One test: its own policy, its own result; nothing shared but the job. */
static void run_test(struct test *t, char **argv)
{
	struct sandlock_policy p;
	sandlock_policy_init(&p);   /* cpu 5 s, mem 256 MB, ... */
	p.no_fork = true;
	p.no_network = true;
	p.clean_env = true;
	p.cpu_ms = 5000;
	p.mem_mb = 256;
	p.timeout_ms = 10000;
	if (sandlock_policy_set_str(&p.stdin_path, t->in) != 0 ||
	    sandlock_policy_set_str(&p.stdout_path, t->got) != 0) {
		t->rc = SANDLOCK_ENOMEM;
		snprintf(t->r.error, sizeof(t->r.error), "%s", sandlock_strerror(t->rc));
	} else {
		t->rc = sandlock_run(&p, argv, &t->r);
		t->accepted = t->rc == 0 && t->r.verdict == SANDLOCK_OK_VERDICT &&
			      same_output(t->got, t->out);
	}
	sandlock_policy_release(&p);
}

static void *worker(void *arg)
{
	struct job *job = arg;
	for (;;) {
		pthread_mutex_lock(&job->lock);
		size_t i = job->next < job->n ? job->next++ : job->n;
		pthread_mutex_unlock(&job->lock);
		if (i == job->n)
			return NULL;
		run_test(&job->tests[i], job->argv);
	}
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_input(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 3 && n < 64 && !strcmp(e->d_name + n - 3, ".in");
}

int main(int argc, char **argv)
{
	if (argc < 3 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: %s TESTDIR COMMAND [ARGS...]\n"
				"  runs COMMAND once per TESTDIR/NN.in, compares with NN.out\n",
			argv[0]);
		return 2;
	}
	const char *dir = argv[1];
	char **cmd = argv + 2;
	if (!strcmp(cmd[0], "--") && cmd[1])
		cmd++;

	struct dirent **ents;
	int ne = scandir(dir, &ents, is_input, by_name);
	if (ne < 0) {
		fprintf(stderr, "grader: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	if (ne == 0) {
		fprintf(stderr, "grader: no test cases (*.in) in %s\n", dir);
		free(ents);
		return 2;
	}

	/* The program's outputs go to a private directory of ours. */
	const char *tmp = getenv("TMPDIR");
	char *scratch = join(tmp && *tmp ? tmp : "/tmp", "/grader.XXXXXX", "");
	if (!mkdtemp(scratch)) {
		fprintf(stderr, "grader: mkdtemp: %s\n", strerror(errno));
		return 2;
	}

	struct test *tests = calloc((size_t)ne, sizeof(*tests));
	if (!tests) {
		perror("grader");
		return 2;
	}
	for (int i = 0; i < ne; i++) {
		struct test *t = &tests[i];
		size_t len = strlen(ents[i]->d_name) - 3;
		memcpy(t->name, ents[i]->d_name, len);
		t->name[len] = 0;
		char *base = join(dir, "/", t->name);
		t->in = join(base, ".in", "");
		t->out = join(base, ".out", "");
		t->got = join(scratch, "/", t->name);
		free(base);
		free(ents[i]);
	}
	free(ents);

	struct job job = { .tests = tests, .n = (size_t)ne, .next = 0, .argv = cmd };
	pthread_mutex_init(&job.lock, NULL);
	pthread_t th[THREADS];
	int started = 0;
	for (int i = 0; i < THREADS; i++) {
		int e = pthread_create(&th[i], NULL, worker, &job);
		if (e) {
			fprintf(stderr, "grader: pthread_create: %s\n", strerror(e));
			break;
		}
		started++;
	}
	if (started == 0)
		worker(&job);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&job.lock);

	int accepted = 0, errors = 0;
	for (int i = 0; i < ne; i++) {
		struct test *t = &tests[i];
		const struct sandlock_result *r = &t->r;
		if (t->rc != 0) {
			printf("%s sandbox_error: %s\n", t->name, r->error);
			errors++;
		} else {
			const char *v = t->accepted ? "accepted"
				: r->verdict == SANDLOCK_OK_VERDICT ? "wrong_answer"
				: sandlock_verdict_name(r->verdict);
			printf("%s %-15s cpu %llu ms  peak %llu KB  wall %llu ms", t->name, v,
			       (unsigned long long)((r->user_us + r->sys_us) / 1000),
			       (unsigned long long)r->peak_kb,
			       (unsigned long long)(r->wall_us / 1000));
			if (r->blocked_syscall[0])
				printf("  (%s)", r->blocked_syscall);
			else if (r->status == SANDLOCK_EXIT_NOTFOUND ||
				 r->status == SANDLOCK_EXIT_NOEXEC)
				printf("  (%s)", r->error);
			printf("\n");
			accepted += t->accepted;
		}
		unlink(t->got);
		free(t->in);
		free(t->out);
		free(t->got);
	}
	rmdir(scratch);
	free(scratch);
	free(tests);
	printf("%d/%d accepted\n", accepted, ne);
	return errors ? 2 : accepted == ne ? 0 : 1;
}
