/* Unit tests of the library's policy pieces: environment, names, report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/internal.h"

static const char *find(char **env, const char *name)
{
	size_t n = strlen(name);
	for (; *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

static void clean_env_is_an_allow_list(void **state)
{
	(void)state;
	setenv("SECRET_TOKEN", "hunter2", 1);
	setenv("EVAL_REQUEST", "/tmp/req", 1);
	setenv("LD_PRELOAD", "/evil.so", 1);
	struct sandlock_policy p;
	sandlock_policy_init(&p);
	p.clean_env = true;
	sandlock_policy_add_keep_env(&p, "EVAL_*");
	sandlock_policy_add_env(&p, "MODE=judge");
	sandlock_policy_add_env(&p, "PATH=/opt/bin");
	char **env = sl_environ_build(&p, NULL, NULL);
	assert_non_null(env);
	assert_null(find(env, "SECRET_TOKEN"));
	assert_null(find(env, "LD_PRELOAD"));
	assert_string_equal(find(env, "EVAL_REQUEST"), "/tmp/req");
	assert_string_equal(find(env, "MODE"), "judge");
	assert_string_equal(find(env, "PATH"), "/opt/bin");
	assert_non_null(find(env, "HOME"));
	assert_non_null(find(env, "TMPDIR"));
	assert_non_null(find(env, "LANG"));
	size_t n = 0;
	for (char **e = env; *e; e++)
		n++;
	assert_int_equal(n, 6);
	sl_environ_free(env);
	sandlock_policy_release(&p);
}

static void inherited_env_and_scratch(void **state)
{
	(void)state;
	setenv("KEEP_ME", "1", 1);
	struct sandlock_policy p;
	sandlock_policy_init(&p);
	char **env = sl_environ_build(&p, "/tmp/sandlock.abc", NULL);
	assert_string_equal(find(env, "KEEP_ME"), "1");
	assert_string_equal(find(env, "TMPDIR"), "/tmp/sandlock.abc");
	assert_string_equal(find(env, "HOME"), "/tmp/sandlock.abc");
	sl_environ_free(env);
	sandlock_policy_release(&p);
}

static void exec_paths_follow_path(void **state)
{
	(void)state;
	struct sl_run run;
	memset(&run, 0, sizeof(run));
	char *argv[] = { "python3", NULL };
	char *envp[] = { "PATH=/a:/b/c::/d", NULL };
	run.argv = argv;
	run.envp = envp;
	char *storage;
	assert_int_equal(sl_exec_paths_prepare(&run, &storage), 0);
	assert_int_equal(run.n_exec_paths, 4);
	assert_string_equal(run.exec_paths[0], "/a/python3");
	assert_string_equal(run.exec_paths[1], "/b/c/python3");
	assert_string_equal(run.exec_paths[2], "python3");
	assert_string_equal(run.exec_paths[3], "/d/python3");
	free(storage);
	char *argv2[] = { "./a.out", NULL };
	run.argv = argv2;
	assert_int_equal(sl_exec_paths_prepare(&run, &storage), 0);
	assert_int_equal(run.n_exec_paths, 1);
	assert_string_equal(run.exec_paths[0], "./a.out");
	free(storage);
}

static void names_round_trip(void **state)
{
	(void)state;
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++) {
		const char *n = sandlock_layer_name(1u << i);
		assert_non_null(n);
		assert_int_equal(sandlock_layer_from_name(n), 1u << i);
	}
	assert_int_equal(sandlock_layer_from_name("landlock-net"), SANDLOCK_LAYER_LANDLOCK_NET);
	assert_int_equal(sandlock_layer_from_name("nope"), 0);
	assert_string_equal(sandlock_verdict_name(SANDLOCK_CPU_LIMIT), "cpu_limit");
	assert_string_equal(sandlock_verdict_name(SANDLOCK_OUTPUT_LIMIT), "output_limit");
	assert_string_equal(sandlock_verdict_name(SANDLOCK_VERDICT_COUNT), "unknown");
	char buf[32];
	assert_string_equal(sl_syscall_name(0xc000003e, 101, buf, sizeof(buf)), "ptrace");
	assert_string_equal(sl_syscall_name(0xc000003e, 0x40000000 + 39, buf, sizeof(buf)), "x32:getpid");
	assert_string_equal(sl_syscall_name(0x40000003, 4, buf, sizeof(buf)), "i386:write");
}

static void report_is_one_json_line(void **state)
{
	(void)state;
	struct sandlock_policy p;
	sandlock_policy_init(&p);
	struct sandlock_result r;
	memset(&r, 0, sizeof(r));
	r.verdict = SANDLOCK_SETUP_FAILED;
	r.status = 125;
	snprintf(r.error, sizeof(r.error), "bad \"path\"\n\\x");
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(sandlock_report_json(&p, &r, fds[1]), 0);
	close(fds[1]);
	char buf[4096] = "";
	ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	assert_true(n > 0);
	assert_non_null(strstr(buf, "\"verdict\":\"setup_failed\""));
	assert_non_null(strstr(buf, "\"error\":\"bad \\\"path\\\"\\u000a\\\\x\""));
	assert_ptr_equal(strchr(buf, '\n'), buf + n - 1);
	sandlock_policy_release(&p);
}

/* jansson writes \t, DEL and U+FFFD as they are and has no integer past
 * INT64_MAX: the report's bytes are still ours (a syscall's -1 argument
 * is 18446744073709551615, not -1). */
static void report_bytes_as_before(void **state)
{
	(void)state;
	struct sandlock_policy p;
	sandlock_policy_init(&p);
	p.cpu_ms = 1250;
	struct sandlock_result r;
	memset(&r, 0, sizeof(r));
	r.verdict = SANDLOCK_SYSCALL_BLOCKED;
	snprintf(r.blocked_syscall, sizeof(r.blocked_syscall), "ptrace");
	r.blocked_args[0] = UINT64_MAX;
	r.blocked_args[1] = (uint64_t)-100;
	r.blocked_args[2] = 1ull << 63;
	r.blocked_args[3] = INT64_MAX;
	snprintf(r.error, sizeof(r.error), "a\tb\x7f" "c\xff" "d\xc3\xa9\x1b");
	char *buf;
	size_t len;
	assert_int_equal(sandlock_report_json_buf(&p, &r, &buf, &len), 0);
	assert_non_null(strstr(buf, "\"blocked_args\":[18446744073709551615,18446744073709551516,"
				    "9223372036854775808,9223372036854775807,0,0],"));
	assert_non_null(strstr(buf, "\"limits\":{\"cpu_s\":1.25,"));
	assert_non_null(strstr(buf, "\"error\":\"a\\u0009b\\u007fc\\ufffdd\xc3\xa9\\u001b\"}\n"));
	free(buf);
	sandlock_policy_release(&p);
}

static void validation(void **state)
{
	(void)state;
	struct sandlock_policy p;
	char err[128];
	sandlock_policy_init(&p);
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), 0);
	p.mem_mb = UINT64_MAX / 2;
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), SANDLOCK_EINVAL);
	sandlock_policy_init(&p);
	p.require = 1u << 30;
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_policy_add_env(&p, "=x"), SANDLOCK_EINVAL);
	sandlock_policy_release(&p);
}

static void run_without_command_fails_closed(void **state)
{
	(void)state;
	struct sandlock_policy p;
	struct sandlock_result r;
	sandlock_policy_init(&p);
	char *argv[] = { NULL };
	assert_int_equal(sandlock_run(&p, argv, &r), SANDLOCK_EINVAL);
	assert_int_equal(r.verdict, SANDLOCK_SETUP_FAILED);
	assert_int_equal(r.status, 125);
	sandlock_policy_release(&p);
}

/* The tmpfs list: one spelling per directory, and only places for files. */
static void tmpfs_mounts(void **state)
{
	(void)state;
	struct sandlock_policy p;
	char err[256];
	sandlock_policy_init(&p);
	assert_int_equal(sandlock_policy_add_tmpfs(&p, "/dev//"), SANDLOCK_OK);
	assert_string_equal(p.tmpfs.v[0], "/dev");
	assert_int_equal(sandlock_policy_add_tmpfs(&p, "dev"), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_policy_add_tmpfs(&p, "//"), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_policy_add_tmpfs(&p, NULL), SANDLOCK_EINVAL);
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), SANDLOCK_OK);
	/* /procfoo is a name like any other; /proc/sys and /sys are not */
	assert_int_equal(sandlock_policy_add_tmpfs(&p, "/procfoo"), SANDLOCK_OK);
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), SANDLOCK_OK);
	static const char *const bad[] = { "/proc/sys", "/sys", "/srv/../etc" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sandlock_policy q;
		sandlock_policy_init(&q);
		assert_int_equal(sandlock_policy_add_tmpfs(&q, bad[i]), SANDLOCK_OK);
		assert_int_equal(sandlock_policy_validate(&q, err, sizeof(err)), SANDLOCK_EINVAL);
		assert_non_null(strstr(err, bad[i]));
		sandlock_policy_release(&q);
	}
	/* a mount namespace is what it is made in */
	p.unshare = SANDLOCK_UNSHARE_OFF;
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), SANDLOCK_EINVAL);
	p.unshare = SANDLOCK_UNSHARE_DEFAULT;
	for (int i = 0; i < SL_MAX_TMPFS; i++)
		sandlock_policy_add_tmpfs(&p, "/srv");
	assert_int_equal(sandlock_policy_validate(&p, err, sizeof(err)), SANDLOCK_EINVAL);
	sandlock_policy_release(&p);
}

/* A process with more children than one read of its children list
 * returns (a page: 511-819 pids) has every one of them walked. */
struct seen_children {
	pid_t *want;
	int n, found, other;
};

static void note_child(void *ctx, pid_t pid)
{
	struct seen_children *s = ctx;
	for (int i = 0; i < s->n; i++)
		if (s->want[i] == pid) {
			s->want[i] = 0;
			s->found++;
			return;
		}
	s->other++;
}

static void children_past_a_page(void **state)
{
	(void)state;
	enum { N = 1200 };
	pid_t kids[N], copy[N];
	int hold[2];
	assert_int_equal(pipe(hold), 0);
	int n = 0;
	for (; n < N; n++) {
		pid_t p = fork();
		if (p < 0)
			break;
		if (p == 0) {
			char c;
			close(hold[1]);
			(void)!read(hold[0], &c, 1);
			_exit(0);
		}
		kids[n] = copy[n] = p;
	}
	close(hold[0]);
	struct seen_children s = { copy, n, 0, 0 };
	sl_each_child(getpid(), 1, note_child, &s);
	close(hold[1]);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	assert_int_equal(n, N);
	assert_int_equal(s.found, N);
	assert_int_equal(s.other, 0);
}

/* A walk keeps every process of a run, however many: no cap (a fixed
 * 4,096 hid the rest of a larger run), each pid once, in the order found. */
static void pidset_has_no_cap(void **state)
{
	(void)state;
	enum { N = 20000 };
	struct sl_pidset s = { 0 };
	for (int i = 1; i <= N; i++)
		assert_int_equal(sl_pidset_add(&s, (pid_t)(i * 7), i), 1);
	for (int i = 1; i <= N; i += 97)
		assert_int_equal(sl_pidset_add(&s, (pid_t)(i * 7), 0), 0);
	assert_int_equal(sl_pidset_add(&s, 0, 0), 0);
	assert_int_equal(s.n, N);
	for (int i = 0; i < N; i++) {
		assert_int_equal(s.v[i], (i + 1) * 7);
		assert_int_equal(s.aux[i], i + 1);
		assert_int_equal(sl_pidset_index(&s, (pid_t)((i + 1) * 7)), i);
	}
	assert_int_equal(sl_pidset_index(&s, 7 * N + 1), -1);
	assert_true(sl_pidset_has(&s, 7 * N));
	assert_false(sl_pidset_has(&s, 7 * N + 1));
	sl_pidset_clear(&s);
	assert_int_equal(s.n, 0);
	assert_false(sl_pidset_has(&s, 7));
	assert_int_equal(sl_pidset_add(&s, 7, 0), 1);
	sl_pidset_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_env_is_an_allow_list),
		cmocka_unit_test(inherited_env_and_scratch),
		cmocka_unit_test(exec_paths_follow_path),
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(report_is_one_json_line),
		cmocka_unit_test(report_bytes_as_before),
		cmocka_unit_test(validation),
		cmocka_unit_test(run_without_command_fails_closed),
		cmocka_unit_test(tmpfs_mounts),
		cmocka_unit_test(children_past_a_page),
		cmocka_unit_test(pidset_has_no_cap),
	};
	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
