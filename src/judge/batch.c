/*
 * Batches: compile once, run many tests (docs/batch.md).
 *
 * A manifest (JSON lines) names an optional compile step, the run step, an
 * optional checker and the tests.  Everything happens in a "box" directory
 * of the batch's own: work/ is the program's working directory, out/ holds
 * what the judge reads back.  Each step is one sandlock_run() in this
 * process: no sandlock binary is started per test, which is what makes a
 * test cheaper than a run of the command line.
 *
 * The working directory carries the compiled program over from test to
 * test, and every test must find it as the compile step left it.  So once
 * the compile step ends, the batch reads the tree into memory (regular
 * files and directories only, size-capped) and writes it back fresh:
 * owned by the caller, without write permission, no links of any kind.
 * Before each later test the tree is compared with what was written (the
 * inode, owner, mode, size and change time of every entry: a write, a
 * chmod, an entry added or removed all change one of them, and a program
 * cannot set a change time back); a tree that differs is removed and
 * written again from memory.  Nothing on disk is trusted for the restore:
 * a program of the same uid without Landlock could change any file there.
 *
 * Reading back: the program's stdout is a memfd of the batch's (nothing of
 * it has a name the program could replace); an output file it writes in
 * its working directory ("output") is opened relative to the directory's
 * descriptor with O_NOFOLLOW, must be a regular file with one link, and is
 * read up to a cap.  Files copied in are written with O_CREAT|O_EXCL|
 * O_NOFOLLOW relative to the directory's descriptor, size-capped.
 */
#include "batch.h"
#include "lib/json_out.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* Output, comparison, JSON lines.                                     */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* 0 equal, 1 different */
static int compare(int mode, const char *a, size_t an, const char *b, size_t bn)
{
	if (mode == CMP_EXACT)
		return !(an == bn && !memcmp(a, b, an));
	size_t i = 0, j = 0;
	for (;;) {
		while (i < an && is_space(a[i]))
			i++;
		while (j < bn && is_space(b[j]))
			j++;
		if (i == an || j == bn)
			return !(i == an && j == bn);
		size_t si = i, sj = j;
		while (i < an && !is_space(a[i]))
			i++;
		while (j < bn && !is_space(b[j]))
			j++;
		if (i - si != j - sj || memcmp(a + si, b + sj, i - si))
			return 1;
	}
}

struct runstate {
	const struct sandlock_batch *b;
	sandlock_batch_fn fn;
	void *ctx;
	char box[PATH_MAX];
	char work[PATH_MAX + 8];
	char check[PATH_MAX + 8];
	int boxfd, workfd, checkfd;
	struct tree tree;
	bool stopped;               /* the callback asked to stop */
	unsigned restores;
};

/* Emit one line; the report of the run (or none) embedded, extra's
 * members (the checker, the summary's counts) before it. */
static int emit(struct runstate *rs, const char *step, const char *name, const char *verdict,
		int status, const struct sandlock_policy *p, const struct sandlock_result *r,
		const char *why, const char *log, size_t loglen, json_t *extra)
{
	uint64_t cpu = r ? (r->user_us + r->sys_us) / 1000 : 0;
	uint64_t wall = r ? r->wall_us / 1000 : 0;
	uint64_t peak = r ? r->peak_kb : 0;
	json_t *o = json_object();
	bool ok = sl_json_set(o, "step", json_string(step));
	if (name)
		ok = sl_json_set(o, "name", sl_json_str(name)) && ok;
	ok = sl_json_set(o, "verdict", json_string(verdict)) && ok;
	ok = sl_json_set(o, "status", json_integer(status)) && ok;
	if (r) {
		ok = sl_json_set(o, "cpu_ms", sl_json_u64(cpu)) && ok;
		ok = sl_json_set(o, "wall_ms", sl_json_u64(wall)) && ok;
		ok = sl_json_set(o, "peak_kb", sl_json_u64(peak)) && ok;
	}
	if (why)
		ok = sl_json_set(o, "why", sl_json_str(why)) && ok;
	if (log)
		ok = sl_json_set(o, "log", sl_json_strn(log, loglen)) && ok;
	const char *k;
	json_t *v;
	json_object_foreach(extra, k, v)
		ok = o && json_object_set(o, k, v) == 0 && ok;
	if (r && p)
		ok = sl_json_set(o, "report", sl_report_object(p, r)) && ok;
	char *buf;
	size_t len;
	if (!ok || sl_json_dump(o, 0, &buf, &len) != 0) {
		json_decref(o);
		return -1;
	}
	json_decref(o);
	struct sandlock_batch_event ev = {
		.step = step, .name = name, .verdict = verdict, .status = status,
		.cpu_ms = cpu, .wall_ms = wall, .peak_kb = peak, .result = r, .why = why,
		.json = buf, .json_len = len,
	};
	int rc = rs->fn ? rs->fn(rs->ctx, &ev) : 0;
	free(buf);
	if (rc != 0)
		rs->stopped = true;
	return 0;
}

/* A fresh memfd for a stream of the program's (nothing on disk to swap). */
static int new_memfd(const char *name)
{
	return memfd_create(name, MFD_CLOEXEC);
}

/* Copy a file of the manifest's into dirfd/name: the source is the
 * judge's (opened normally), the target created afresh, never through a
 * link, and both size-capped. */
static int copy_in(int dirfd, const char *name, const char *src, uint64_t cap, char *err,
		   size_t errlen)
{
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = in < 0 ? errno : EINVAL;
		if (in >= 0)
			close(in);
		FAIL("cannot copy %s: %s", src, e == EINVAL ? "not a regular file" : strerror(e));
	}
	char *data = NULL;
	size_t len = 0;
	bool over = false;
	int rc = sl_batch_read_fd(in, cap, &data, &len, &over);
	close(in);
	if (rc != 0 || over) {
		free(data);
		FAIL("cannot copy %s: %s", src, over ? "larger than max_copy" : strerror(errno));
	}
	int out = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	rc = out < 0 ? -1 : sl_batch_write_all(out, data, len);
	int e = errno;
	if (out >= 0)
		close(out);
	free(data);
	if (rc != 0)
		FAIL("cannot copy %s into the working directory: %s", src, strerror(e));
	return 0;
fail:
	return -1;
}

static int read_path_capped(const char *path, uint64_t cap, char **out, size_t *len, bool *over)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = sl_batch_read_fd(fd, cap, out, len, over);
	close(fd);
	return rc;
}

static int write_file_at(int dirfd, const char *name, const char *data, size_t len)
{
	unlinkat(dirfd, name, 0);
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = sl_batch_write_all(fd, data, len);
	if (fchmod(fd, 0644) != 0)
		rc = -1;
	close(fd);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Running.                                                            */

static void box_remove(struct runstate *rs)
{
	if (rs->boxfd >= 0) {
		sl_batch_empty_dir(rs->boxfd);
		close(rs->boxfd);
		rs->boxfd = -1;
		rmdir(rs->box);
	}
}

static int box_make(struct runstate *rs, char *err, size_t errlen)
{
	const char *parent = rs->b->dir;
	if (!parent)
		parent = getenv("TMPDIR");
	if (!parent || parent[0] != '/')
		parent = "/tmp";
	if ((size_t)snprintf(rs->box, sizeof(rs->box), "%s/sandlock-batch-XXXXXX", parent) >=
	    sizeof(rs->box))
		FAIL("the box directory's path is too long");
	if (!mkdtemp(rs->box))
		FAIL("cannot make a directory under %s: %s", parent, strerror(errno));
	/* others may pass through (a root's program runs as another uid),
	 * not list it */
	rs->boxfd = open(rs->box, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rs->boxfd < 0 || fchmod(rs->boxfd, 0711) != 0)
		FAIL("cannot open %s: %s", rs->box, strerror(errno));
	snprintf(rs->work, sizeof(rs->work), "%s/work", rs->box);
	snprintf(rs->check, sizeof(rs->check), "%s/check", rs->box);
	if (mkdirat(rs->boxfd, "work", 0755) != 0 || mkdirat(rs->boxfd, "check", 0755) != 0)
		FAIL("cannot make the box's directories: %s", strerror(errno));
	rs->workfd = openat(rs->boxfd, "work", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	rs->checkfd = openat(rs->boxfd, "check", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* check: passed through to each checker's own directory, not listed */
	if (rs->workfd < 0 || rs->checkfd < 0 || fchmod(rs->workfd, 0755) != 0 ||
	    fchmod(rs->checkfd, 0711) != 0)
		FAIL("cannot open the box's directories: %s", strerror(errno));
	return 0;
fail:
	return -1;
}

/* As root the program runs as another uid: the working directory is
 * handed to it while it must write there, and taken back after. */
static int hand_workdir(struct runstate *rs, const struct sandlock_policy *p, bool to_program)
{
	if (geteuid() != 0)
		return fchmod(rs->workfd, to_program ? 0755 : 0555);
	if (to_program)
		return fchown(rs->workfd, p->uid, p->gid) || fchmod(rs->workfd, 0755) ? -1 : 0;
	return fchown(rs->workfd, 0, 0) || fchmod(rs->workfd, 0555) ? -1 : 0;
}

static void verdict_of(const struct sandlock_result *r, const char **v, int *status)
{
	*v = sandlock_verdict_name(r->verdict);
	*status = r->status;
}

/* Read the program's answer: its stdout (ours) or a file it wrote in its
 * working directory, which may be anything the program made it. */
static int read_answer(struct runstate *rs, int outfd, const char *output, char **data,
		       size_t *len, const char **why, bool *over)
{
	*over = false;
	if (!output) {
		if (lseek(outfd, 0, SEEK_SET) != 0)
			return -1;
		return sl_batch_read_fd(outfd, rs->b->max_copy, data, len, over);
	}
	int fd = openat(rs->workfd, output, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0) {
		*why = errno == ELOOP ? "the output file is a symbolic link" : "no output file";
		return 1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		*why = "the output file is not a regular file of one link";
		return 1;
	}
	int rc = sl_batch_read_fd(fd, rs->b->max_copy, data, len, over);
	close(fd);
	return rc;
}

struct totals {
	uint64_t cpu_ms, wall_ms;
	size_t passed, failed, skipped;
	const char *verdict;        /* the first failing test's */
	bool budget_exceeded;
	int exit;
};

static int run_checker(struct runstate *rs, const struct test *t, const char *answer,
		       size_t alen, bool *accepted, struct sandlock_result *cr,
		       struct sandlock_policy *cp, char *err, size_t errlen)
{
	const struct sandlock_batch *b = rs->b;
	char *inbuf = NULL, *exbuf = NULL;
	size_t inlen = 0, exlen = 0;
	bool over = false;
	int rc = -1, outfd = -1, dfd = -1;
	char **argv = NULL;
	char dir[PATH_MAX + 32];
	dir[0] = 0;
	if (sl_batch_policy(b, &b->checker.opts, NULL, cp, err, errlen) != 0)
		return -1;
	/* The copies exist only while the checker runs, in a directory of
	 * their own that the program's uid cannot enter: without Landlock a
	 * later test's program would read this test's expected output there
	 * (as root the originals may be closed to it).  As root the checker
	 * runs as cp->uid, which owns it; under a uid pool its uid is not
	 * known yet: it may pass through (0711), not list the parent. */
	if ((size_t)snprintf(dir, sizeof(dir), "%s/run-XXXXXX", rs->check) >= sizeof(dir) ||
	    !mkdtemp(dir)) {
		dir[0] = 0;
		FAIL("cannot make the checker's directory: %s", strerror(errno));
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		FAIL("cannot open the checker's directory: %s", strerror(errno));
	if (geteuid() == 0 && !cp->uid_pool_first) {
		if (fchown(dfd, cp->uid, cp->gid) != 0 || fchmod(dfd, 0500) != 0)
			FAIL("cannot hand the checker its directory: %s", strerror(errno));
	} else if (fchmod(dfd, geteuid() == 0 ? 0711 : 0700) != 0) {
		FAIL("cannot hand the checker its directory: %s", strerror(errno));
	}
	if (t->stdin_path && (read_path_capped(t->stdin_path, b->max_copy, &inbuf, &inlen, &over) ||
			      over))
		FAIL("test '%s': cannot read %s", t->name, t->stdin_path);
	if (t->expected && (read_path_capped(t->expected, b->max_copy, &exbuf, &exlen, &over) ||
			    over))
		FAIL("test '%s': cannot read %s", t->name, t->expected);
	if (write_file_at(dfd, "input", inbuf ? inbuf : "", inlen) ||
	    write_file_at(dfd, "expected", exbuf ? exbuf : "", exlen) ||
	    write_file_at(dfd, "output", answer, alen))
		FAIL("cannot write the checker's files: %s", strerror(errno));
	cp->isolate_tmp = true;
	if (sandlock_policy_add_ro(cp, dir) != 0 ||
	    sandlock_policy_set_str(&cp->workdir, b->checker.workdir ? b->checker.workdir : b->base) != 0)
		FAIL("out of memory");
	size_t n = 0;
	while (b->checker.argv[n])
		n++;
	argv = calloc(n + 4, sizeof(*argv));
	if (!argv)
		FAIL("out of memory");
	for (size_t i = 0; i < n; i++)
		argv[i] = b->checker.argv[i];
	char in[PATH_MAX + 32], ex[PATH_MAX + 32], out[PATH_MAX + 32];
	if (snprintf(in, sizeof(in), "%s/input", dir) >= (int)sizeof(in) ||
	    snprintf(ex, sizeof(ex), "%s/expected", dir) >= (int)sizeof(ex) ||
	    snprintf(out, sizeof(out), "%s/output", dir) >= (int)sizeof(out))
		FAIL("the checker's directory name is too long");
	argv[n] = in;
	argv[n + 1] = ex;
	argv[n + 2] = out;
	outfd = open("/dev/null", O_RDWR | O_CLOEXEC);
	cp->stdin_fd = outfd;
	cp->stdout_fd = outfd;
	cp->stderr_fd = outfd;
	int r = sandlock_run(cp, argv, cr);
	if (r != 0 || cr->verdict != SANDLOCK_OK_VERDICT) {
		if (cr->verdict == SANDLOCK_RUNTIME_ERROR && cr->exit_code == 1) {
			*accepted = false;
			rc = 0;
			goto out;
		}
		rc = 1; /* the checker failed */
		goto out;
	}
	*accepted = true;
	rc = 0;
	goto out;
fail:
	rc = -1;
out:
	if (outfd >= 0)
		close(outfd);
	if (dfd >= 0)
		sl_batch_empty_dir(dfd), close(dfd);
	if (dir[0] && rmdir(dir) != 0 && errno != ENOENT && rc >= 0) {
		snprintf(err, errlen, "cannot remove the checker's directory %s: %s", dir,
			 strerror(errno));
		rc = -1;
	}
	free(argv);
	free(inbuf);
	free(exbuf);
	return rc;
}

static int run_test(struct runstate *rs, const struct test *t, struct totals *tot,
		    char *err, size_t errlen)
{
	const struct sandlock_batch *b = rs->b;
	struct sandlock_policy p, cp;
	struct sandlock_result r, cr;
	bool have_cp = false;
	int infd = -1, outfd = -1, errfd = -1, rc = -1;
	char *answer = NULL, *expected = NULL;
	size_t alen = 0, elen = 0;
	const char *output = t->output ? t->output : b->run.output;
	const char *verdict = NULL, *why = NULL;
	int status = 0;
	json_t *extra = NULL;
	memset(&r, 0, sizeof(r));
	memset(&cr, 0, sizeof(cr));

	if (sl_batch_policy(b, &b->run.opts, &t->opts, &p, err, errlen) != 0) {
		sandlock_policy_release(&p);
		return -1;
	}
	/* the budget: what is left of it is this test's limit when smaller */
	bool cap_cpu = false, cap_wall = false;
	if (b->budget_cpu_ms) {
		uint64_t left = b->budget_cpu_ms - tot->cpu_ms;
		if (!p.cpu_ms || p.cpu_ms > left)
			p.cpu_ms = left, cap_cpu = true;
	}
	if (b->budget_wall_ms) {
		uint64_t left = b->budget_wall_ms - tot->wall_ms;
		if (!p.timeout_ms || p.timeout_ms > left)
			p.timeout_ms = left, cap_wall = true;
	}
	p.isolate_tmp = true;
	if (sandlock_policy_set_str(&p.workdir, rs->work) != 0)
		FAIL("out of memory");
	if (output && sandlock_policy_add_rw(&p, rs->work) != 0)
		FAIL("out of memory");
	infd = open(t->stdin_path ? t->stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (infd < 0)
		FAIL("test '%s': cannot open %s: %s", t->name, t->stdin_path, strerror(errno));
	outfd = output ? open("/dev/null", O_WRONLY | O_CLOEXEC) : new_memfd("stdout");
	if (outfd < 0)
		FAIL("cannot make the output file: %s", strerror(errno));
	errfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (errfd < 0)
		FAIL("cannot open /dev/null: %s", strerror(errno));
	p.stdin_fd = infd;
	p.stdout_fd = outfd;
	p.stderr_fd = errfd;
	if (!sl_tree_intact(&rs->tree, rs->workfd)) {
		rs->restores++;
		if (sl_tree_restore(&rs->tree, rs->workfd, err, errlen) != 0)
			goto fail;
	}
	if (output && hand_workdir(rs, &p, true) != 0)
		FAIL("cannot hand over the working directory: %s", strerror(errno));
	int run_rc = sandlock_run(&p, (char *const *)b->run.argv, &r);
	tot->cpu_ms += (r.user_us + r.sys_us) / 1000;
	tot->wall_ms += r.wall_us / 1000;
	if (run_rc < 0) {
		verdict = "setup_failed";
		status = SANDLOCK_EXIT_FAILURE;
		why = r.error;
		tot->exit = SANDLOCK_EXIT_FAILURE;
	} else if (r.verdict != SANDLOCK_OK_VERDICT) {
		verdict_of(&r, &verdict, &status);
		/* the budget's limit rather than the test's own ran out */
		if ((cap_cpu && r.verdict == SANDLOCK_CPU_LIMIT) ||
		    (cap_wall && r.verdict == SANDLOCK_WALL_LIMIT)) {
			tot->budget_exceeded = true;
			why = "the batch's budget ran out";
		}
	} else {
		bool over = false;
		int ar = read_answer(rs, outfd, output, &answer, &alen, &why, &over);
		if (ar < 0)
			FAIL("cannot read the program's output: %s", strerror(errno));
		if (ar > 0) {
			verdict = "wrong_answer";
			status = 1;
		} else if (over) {
			verdict = "output_limit";
			status = 128 + 25;
			why = "the output is larger than max_copy";
		} else if (b->checker.present) {
			bool accepted = false;
			have_cp = true;
			int c = run_checker(rs, t, answer, alen, &accepted, &cr, &cp, err, errlen);
			if (c < 0)
				goto fail;
			extra = json_pack("{s:{s:s,s:i,s:o}}", "checker", "verdict",
					  sandlock_verdict_name(cr.verdict), "status", cr.status, "cpu_ms",
					  sl_json_u64((cr.user_us + cr.sys_us) / 1000));
			if (c > 0) {
				verdict = "checker_failed";
				status = SANDLOCK_EXIT_FAILURE;
				why = cr.error[0] ? cr.error : "the checker did not exit 0 or 1";
				tot->exit = SANDLOCK_EXIT_FAILURE;
			} else if (accepted) {
				verdict = "ok";
			} else {
				verdict = "wrong_answer";
				status = 1;
				why = "the checker rejected the output";
			}
		} else {
			bool eover = false;
			if (read_path_capped(t->expected, b->max_copy, &expected, &elen, &eover) != 0 ||
			    eover)
				FAIL("test '%s': cannot read %s: %s", t->name, t->expected,
				     eover ? "larger than max_copy" : strerror(errno));
			int mode = t->compare != CMP_INHERIT ? t->compare : b->compare;
			if (compare(mode, answer, alen, expected, elen) == 0) {
				verdict = "ok";
			} else {
				verdict = "wrong_answer";
				status = 1;
				why = "the output differs";
			}
		}
	}
	if (output && hand_workdir(rs, &p, false) != 0)
		FAIL("cannot take back the working directory: %s", strerror(errno));
	/* what the test left is cleaned now and charged to it, not to the
	 * judge: the next test starts from the tree as compiled */
	if (!sl_tree_intact(&rs->tree, rs->workfd)) {
		rs->restores++;
		char rerr[256];
		if (sl_tree_restore(&rs->tree, rs->workfd, rerr, sizeof(rerr)) != 0 &&
		    !strcmp(verdict, "ok")) {
			verdict = "runtime_error";
			status = 1;
			why = "it left files in its working directory that could not be removed";
		}
	}
	if (!strcmp(verdict, "ok")) {
		tot->passed++;
	} else {
		tot->failed++;
		if (!tot->verdict)
			tot->verdict = verdict;
	}
	emit(rs, "test", t->name, verdict, status, &p, &r, why, NULL, 0, extra);
	rc = strcmp(verdict, "ok") ? 1 : 0;
	goto out;
fail:
	rc = -1;
out:
	json_decref(extra);
	if (infd >= 0)
		close(infd);
	if (outfd >= 0)
		close(outfd);
	if (errfd >= 0)
		close(errfd);
	free(answer);
	free(expected);
	sandlock_policy_release(&p);
	if (have_cp)
		sandlock_policy_release(&cp);
	return rc;
}

/* The compile step, or (without one) just the files copied in; then the
 * tree is read and written back clean. */
static int prepare(struct runstate *rs, bool *compiled_ok, char *err, size_t errlen)
{
	const struct sandlock_batch *b = rs->b;
	const struct step *steps[2] = { &b->compile, &b->run };
	*compiled_ok = true;
	for (int i = 0; i < 2; i++)
		for (size_t j = 0; steps[i]->present && j < steps[i]->nfiles; j++)
			if (copy_in(rs->workfd, steps[i]->files[j].name, steps[i]->files[j].src,
				    b->max_copy, err, errlen) != 0)
				return -1;
	if (b->compile.present) {
		struct sandlock_policy p;
		struct sandlock_result r;
		int logfd = -1, nullfd = -1, rc = -1;
		char *log = NULL;
		size_t loglen = 0;
		bool over = false;
		memset(&r, 0, sizeof(r));
		r.uid = SANDLOCK_UID_UNKNOWN;
		if (sl_batch_policy(b, &b->compile.opts, NULL, &p, err, errlen) != 0) {
			sandlock_policy_release(&p);
			return -1;
		}
		if (sandlock_policy_set_str(&p.workdir, rs->work) != 0)
			FAIL("out of memory");
		logfd = new_memfd("compile-log");
		nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (logfd < 0 || nullfd < 0)
			FAIL("cannot make the compile log: %s", strerror(errno));
		p.stdin_fd = nullfd;
		p.stdout_fd = logfd;
		p.stderr_fd = logfd;
		if (hand_workdir(rs, &p, true) != 0)
			FAIL("cannot hand over the working directory: %s", strerror(errno));
		int run_rc = sandlock_run(&p, (char *const *)b->compile.argv, &r);
		if (hand_workdir(rs, &p, false) != 0)
			FAIL("cannot take back the working directory: %s", strerror(errno));
		if (lseek(logfd, 0, SEEK_SET) == 0)
			sl_batch_read_fd(logfd, 4096, &log, &loglen, &over);
		const char *verdict;
		int status;
		if (run_rc < 0) {
			verdict = "setup_failed";
			status = SANDLOCK_EXIT_FAILURE;
		} else {
			verdict_of(&r, &verdict, &status);
		}
		emit(rs, "compile", NULL, verdict, status, &p, &r, run_rc < 0 ? r.error : NULL,
		     log ? log : "", loglen, NULL);
		if (run_rc < 0) {
			snprintf(err, errlen, "compile step: %s", r.error);
			goto cfail;
		}
		*compiled_ok = r.verdict == SANDLOCK_OK_VERDICT;
		rc = 0;
		goto cout;
fail:
cfail:
		rc = -1;
cout:
		free(log);
		if (logfd >= 0)
			close(logfd);
		if (nullfd >= 0)
			close(nullfd);
		sandlock_policy_release(&p);
		if (rc != 0)
			return rc;
		if (!*compiled_ok)
			return 0;
	}
	if (sl_tree_read(&rs->tree, rs->workfd, "", b->max_copy, b->max_tree, 0, err, errlen) != 0)
		return -1;
	return sl_tree_restore(&rs->tree, rs->workfd, err, errlen);
}

int sandlock_batch_run(const struct sandlock_batch *b, sandlock_batch_fn fn, void *ctx,
		       char *err, size_t errlen)
{
	struct runstate rs;
	memset(&rs, 0, sizeof(rs));
	rs.b = b;
	rs.fn = fn;
	rs.ctx = ctx;
	rs.boxfd = rs.workfd = rs.checkfd = -1;
	struct totals tot;
	memset(&tot, 0, sizeof(tot));
	err[0] = 0;
	bool compiled_ok = true;
	bool stop = false;
	const char *why_stop = NULL;
	if (sl_batch_check(b, err, errlen) != 0) {
		tot.exit = SANDLOCK_EXIT_FAILURE;
		goto done;
	}
	if (box_make(&rs, err, errlen) != 0 || prepare(&rs, &compiled_ok, err, errlen) != 0) {
		tot.exit = SANDLOCK_EXIT_FAILURE;
		goto done;
	}
	if (!compiled_ok) {
		tot.verdict = "compile_error";
		stop = true;
		why_stop = "the compile step failed";
	}
	for (size_t i = 0; i < b->ntests; i++) {
		const struct test *t = &b->tests[i];
		if (!stop && rs.stopped) {
			stop = true;
			why_stop = "stopped by the caller";
		}
		if (!stop && b->budget_cpu_ms && tot.cpu_ms >= b->budget_cpu_ms) {
			stop = true;
			why_stop = "the batch's CPU budget ran out";
			tot.budget_exceeded = true;
		}
		if (!stop && b->budget_wall_ms && tot.wall_ms >= b->budget_wall_ms) {
			stop = true;
			why_stop = "the batch's wall budget ran out";
			tot.budget_exceeded = true;
		}
		if (stop) {
			tot.skipped++;
			emit(&rs, "test", t->name, "skipped", 0, NULL, NULL, why_stop, NULL, 0, NULL);
			continue;
		}
		int rc = run_test(&rs, t, &tot, err, errlen);
		if (rc < 0) {
			tot.exit = SANDLOCK_EXIT_FAILURE;
			goto done;
		}
		if (tot.exit == SANDLOCK_EXIT_FAILURE) {
			stop = true;
			why_stop = "the judge failed on an earlier test";
		} else if (rc > 0 && b->stop_on_failure) {
			stop = true;
			why_stop = "stop_on_failure";
		} else if (tot.budget_exceeded) {
			stop = true;
			why_stop = "the batch's budget ran out";
		}
	}
done:;
	const char *verdict = tot.exit == SANDLOCK_EXIT_FAILURE && err[0] ? "setup_failed" :
			      tot.verdict ? tot.verdict : "ok";
	if (!tot.exit)
		tot.exit = strcmp(verdict, "ok") ? 1 : 0;
	else if (!tot.verdict)
		verdict = "setup_failed";
	json_t *extra = json_pack("{s:I,s:I,s:I,s:I,s:o,s:o,s:b,s:I}", "tests",
				   (json_int_t)b->ntests, "passed", (json_int_t)tot.passed, "failed",
				   (json_int_t)tot.failed, "skipped", (json_int_t)tot.skipped,
				   "cpu_ms", sl_json_u64(tot.cpu_ms), "wall_ms", sl_json_u64(tot.wall_ms),
				   "budget_exceeded", (int)tot.budget_exceeded, "restores",
				   (json_int_t)rs.restores);
	emit(&rs, "summary", NULL, verdict, tot.exit, NULL, NULL, err[0] ? err : NULL, NULL, 0,
	     extra);
	json_decref(extra);
	sl_tree_free(&rs.tree);
	if (rs.workfd >= 0)
		close(rs.workfd);
	if (rs.checkfd >= 0)
		close(rs.checkfd);
	if (b->keep) {
		if (rs.boxfd >= 0)
			close(rs.boxfd);
	} else {
		box_remove(&rs);
	}
	return tot.exit;
}

