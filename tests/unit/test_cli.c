/* Unit tests of the command line: every value checked, defaults intact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cli/cli.h"

static int parse(struct sl_cli *cli, char *err, ...)
{
	static char *argv[64]; /* the parsed command points into it */
	int argc = 0;
	va_list ap;
	va_start(ap, err);
	argv[argc++] = "sandlock";
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return sl_cli_parse(argc, argv, cli, err, 256);
}

static void original_command_line(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	assert_int_equal(parse(&c, err, "--no-fork", "--no-network", "--clean-env", "--cpu", "5",
			       "--mem", "256", "--", "python3", "student.py", NULL), 0);
	assert_true(c.policy.no_fork && c.policy.no_network && c.policy.clean_env);
	assert_int_equal(c.policy.cpu_ms, 5000);
	assert_int_equal(c.policy.mem_mb, 256);
	assert_string_equal(c.argv[0], "python3");
	assert_string_equal(c.argv[1], "student.py");
	assert_null(c.argv[2]);
	sl_cli_release(&c);
}

static void defaults(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	assert_int_equal(parse(&c, err, "--", "true", NULL), 0);
	assert_int_equal(c.policy.cpu_ms, 5000);
	assert_int_equal(c.policy.mem_mb, 256);
	assert_int_equal(c.policy.fsize_mb, 10);
	assert_int_equal(c.policy.nofile, 100);
	assert_int_equal(c.policy.nproc, 10);
	assert_int_equal(c.policy.timeout_ms, 0);
	assert_int_equal(c.policy.uid, 65534);
	assert_int_equal(c.policy.gid, 65534);
	assert_false(c.policy.no_fork);
	sl_cli_release(&c);
}

static void bad_numbers(void **state)
{
	(void)state;
	static const char *const bad[] = { "", "-1", "abc", "5x", " 5", "0x10", "+3",
		"99999999999999999999999", "1e3", "5.5", NULL };
	static const char *const opts[] = { "--cpu", "--mem", "--fsize", "--nofile",
		"--nproc", "--stack", "--max-output", NULL };
	for (const char *const *o = opts; *o; o++)
		for (const char *const *b = bad; *b; b++) {
			if (!strcmp(*o, "--cpu") && !strcmp(*b, "5.5"))
				continue; /* seconds, fractions allowed (see timeouts) */
			struct sl_cli c;
			char err[256] = "";
			assert_int_equal(parse(&c, err, (char *)*o, (char *)*b, "--", "true", NULL), -1);
			assert_non_null(strstr(err, "invalid value"));
			assert_null(strchr(err, '\n'));
			sl_cli_release(&c);
		}
}

static void timeouts(void **state)
{
	(void)state;
	uint64_t ms;
	assert_int_equal(sl_parse_seconds_ms("2", &ms), 0);
	assert_int_equal(ms, 2000);
	assert_int_equal(sl_parse_seconds_ms("0.5", &ms), 0);
	assert_int_equal(ms, 500);
	assert_int_equal(sl_parse_seconds_ms(".25", &ms), 0);
	assert_int_equal(ms, 250);
	/* Sub-millisecond digits round up: a limit is never shorter than asked. */
	assert_int_equal(sl_parse_seconds_ms("1.0001", &ms), 0);
	assert_int_equal(ms, 1001);
	assert_int_equal(sl_parse_seconds_ms("0.0004", &ms), 0);
	assert_int_equal(ms, 1);
	assert_int_equal(sl_parse_seconds_ms("1.5000", &ms), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(sl_parse_seconds_ms("1.", &ms), -1);
	assert_int_equal(sl_parse_seconds_ms("", &ms), -1);
	assert_int_equal(sl_parse_seconds_ms("-1", &ms), -1);
	assert_int_equal(sl_parse_seconds_ms("1.x", &ms), -1);
	assert_int_equal(sl_parse_seconds_ms("inf", &ms), -1);
	assert_int_equal(sl_parse_seconds_ms("99999999999", &ms), -1);

	struct sl_cli c;
	char err[256] = "";
	assert_int_equal(parse(&c, err, "--cpu", "0.5", "--", "true", NULL), 0);
	assert_int_equal(c.policy.cpu_ms, 500);
	sl_cli_release(&c);
}

static void overflow_is_rejected(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(sl_parse_u64("18446744073709551615", UINT64_MAX, &v), 0);
	assert_int_equal(sl_parse_u64("18446744073709551616", UINT64_MAX, &v), -1);
	struct sl_cli c;
	char err[256];
	/* MB that would overflow bytes */
	assert_int_equal(parse(&c, err, "--mem", "17592186044417", "--", "true", NULL), -1);
	sl_cli_release(&c);
}

static void users(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	assert_int_equal(parse(&c, err, "--user", "1000:1001", "--", "true", NULL), 0);
	assert_int_equal(c.policy.uid, 1000);
	assert_int_equal(c.policy.gid, 1001);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--user", "1234", "--", "true", NULL), 0);
	assert_int_equal(c.policy.gid, 1234);
	sl_cli_release(&c);
	static const char *const bad[] = { "0", "0:0", "1000:0", "root", "-5", "1000:", ":5",
		"4294967295", NULL };
	for (const char *const *b = bad; *b; b++) {
		assert_int_equal(parse(&c, err, "--user", (char *)*b, "--", "true", NULL), -1);
		sl_cli_release(&c);
	}
}

static void missing_command_and_unknown_options(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	assert_int_equal(parse(&c, err, "--no-fork", NULL), -1);
	assert_non_null(strstr(err, "no command"));
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--no-fork", "--", NULL), -1);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--bogus", "--", "true", NULL), -1);
	assert_non_null(strstr(err, "unknown option"));
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "-x", "--", "true", NULL), -1);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--cpu", NULL), -1);
	assert_non_null(strstr(err, "needs a value"));
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--violation", "maybe", "--", "true", NULL), -1);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--unshare", "yes", "--", "true", NULL), -1);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--env", "NOEQUALS", "--", "true", NULL), -1);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--require", "seccomp,warp-drive", "--", "true", NULL), -1);
	sl_cli_release(&c);
}

static void host_options(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	assert_int_equal(parse(&c, err, "--best-effort", "--uid-pool", "60000-60009", "--require",
			       "watchdog,pdeathsig", "--", "true", NULL), 0);
	assert_true(c.policy.best_effort);
	assert_int_equal(c.policy.uid_pool_first, 60000);
	assert_int_equal(c.policy.uid_pool_last, 60009);
	assert_int_equal(c.policy.require, SANDLOCK_LAYER_WATCHDOG | SANDLOCK_LAYER_PDEATHSIG);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--features", "--json", NULL), 0);
	assert_int_equal(c.action, SL_CLI_FEATURES);
	assert_true(c.json);
	sl_cli_release(&c);
	/* the default pool (auto), one identity (off, or --user) */
	assert_int_equal(parse(&c, err, "--", "true", NULL), 0);
	assert_false(c.policy.uid_pool_off);
	assert_int_equal(c.policy.uid_pool_first, 0);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--uid-pool", "60000-60009", "--uid-pool", "off", "--", "true", NULL), 0);
	assert_true(c.policy.uid_pool_off);
	assert_int_equal(c.policy.uid_pool_first, 0);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--uid-pool", "off", "--uid-pool", "auto", "--", "true", NULL), 0);
	assert_false(c.policy.uid_pool_off);
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "--user", "65534", "--", "true", NULL), 0);
	assert_true(c.policy.uid_pool_off);
	assert_int_equal(c.policy.uid, 65534);
	sl_cli_release(&c);
	const char *bad[] = { "9-1", "0-5", "5", "-5", "5-", "a-b", "1-4294967295", "Off", "", NULL };
	for (int i = 0; bad[i]; i++) {
		assert_int_equal(parse(&c, err, "--uid-pool", bad[i], "--", "true", NULL), -1);
		assert_non_null(strstr(err, "--uid-pool"));
		sl_cli_release(&c);
	}
	/* every layer name the report uses is accepted by --require */
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		assert_int_equal(sandlock_layer_from_name(sandlock_layer_name(1u << i)), 1u << i);
}

static void lists_and_modes(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	assert_int_equal(parse(&c, err, "--env", "A=1", "--env", "B=x=y", "--keep-env", "EVAL_*",
			       "--ro", "/usr", "--allow", "/tmp/x", "--rw", "/tmp/y",
			       "--require", "seccomp,landlock", "--unshare", "on",
			       "--violation", "errno", "--timeout", "1.5", "--", "true", NULL), 0);
	assert_int_equal(c.policy.env.n, 2);
	assert_string_equal(c.policy.env.v[1], "B=x=y");
	assert_string_equal(c.policy.keep_env.v[0], "EVAL_*");
	assert_int_equal(c.policy.rw.n, 2);
	/* --ro/--rw widen the default allow-list (and fail closed where there
	 * is no Landlock); they no longer make their paths the whole list */
	assert_false(c.policy.landlock);
	assert_int_equal(c.policy.require, SANDLOCK_LAYER_SECCOMP | SANDLOCK_LAYER_LANDLOCK);
	assert_int_equal(c.policy.unshare, SANDLOCK_UNSHARE_ON);
	assert_int_equal(c.policy.violation, SANDLOCK_VIOLATION_ERRNO);
	assert_int_equal(c.policy.timeout_ms, 1500);
	sl_cli_release(&c);
}

static void command_options_are_the_commands(void **state)
{
	(void)state;
	struct sl_cli c;
	char err[256];
	/* options after the command belong to it */
	assert_int_equal(parse(&c, err, "--", "ls", "--cpu", "x", NULL), 0);
	assert_string_equal(c.argv[1], "--cpu");
	sl_cli_release(&c);
	assert_int_equal(parse(&c, err, "ls", "-l", NULL), 0);
	assert_string_equal(c.argv[1], "-l");
	sl_cli_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(original_command_line),
		cmocka_unit_test(defaults),
		cmocka_unit_test(bad_numbers),
		cmocka_unit_test(timeouts),
		cmocka_unit_test(overflow_is_rejected),
		cmocka_unit_test(users),
		cmocka_unit_test(missing_command_and_unknown_options),
		cmocka_unit_test(lists_and_modes),
		cmocka_unit_test(host_options),
		cmocka_unit_test(command_options_are_the_commands),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
