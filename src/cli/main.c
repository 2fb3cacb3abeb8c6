/* sandlock / sandbox_exec: the command-line tool, a thin layer over the
 * library. */
#include "cli.h"
#include "lib/internal.h"

#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* An interpreter's script: what it must read to start. */
static bool is_interpreter(const char *cmd)
{
	static const char *const names[] = { "python", "node", "nodejs", "sh", "bash", "dash",
					     "zsh", "perl", "ruby", "php", "lua", "Rscript", NULL };
	const char *b = strrchr(cmd, '/');
	b = b ? b + 1 : cmd;
	for (const char *const *n = names; *n; n++) {
		size_t l = strlen(*n);
		/* python3, python3.11, perl5.36 */
		if (!strncmp(b, *n, l) && strspn(b + l, "0123456789.") == strlen(b + l))
			return true;
	}
	return false;
}

/* As root the program runs as another uid (65534 by default): a submission
 * in root's private directory is then unreadable to it, and all the grader
 * would see is a runtime_error.  Say so before the run, in one line.  Only
 * for what the program needs to start, the command and an interpreter's
 * script (under -v, any path among the arguments): a grader's file that
 * the program never reads, such as one it will write after the run, must
 * not break a silent run's empty stderr. */
static void warn_unreadable(const struct sandlock_policy *p, char *const *argv)
{
	/* (root that may not change uid runs the program as itself, or not) */
	if (geteuid() != 0 || !sl_cap_effective(CAP_SETUID))
		return;
	/* a pool's uids own nothing: the first one stands for them all */
	uid_t uid, last;
	sandlock_policy_program_uids(p, &uid, &last);
	gid_t gid = uid != last || p->uid_pool_first ? (gid_t)uid : p->gid;
	char who[64];
	if (uid != last)
		snprintf(who, sizeof(who), "a uid of %u-%u (one per run)", (unsigned)uid, (unsigned)last);
	else
		snprintf(who, sizeof(who), "uid %u", (unsigned)uid);
	const char *bad = NULL, *what = NULL;
	int e = 0;
	char path[4096];
	/* the kernel's own check, as that uid: a non-zero fsuid also drops
	 * the capabilities that would override it */
	syscall(SYS_setfsgid, gid);
	syscall(SYS_setfsuid, uid);
	bool interp = is_interpreter(argv[0]), script_seen = false;
	/* (a relative path's lookup needs the working directory too) */
	for (int i = 0; argv[i] && !bad; i++) {
		const char *a = argv[i];
		if (i > 0 && !p->verbose && (!interp || script_seen || !strcmp(a, "--")))
			break;
		if (a[0] == '-' || (i == 0 && !strchr(a, '/')))
			continue;
		if (i > 0)
			script_seen = true;
		if (a[0] != '/' && p->workdir)
			snprintf(path, sizeof(path), "%s/%s", p->workdir, a);
		else
			snprintf(path, sizeof(path), "%s", a);
		struct stat st;
		syscall(SYS_setfsuid, 0); /* does it exist, for us? */
		bool file = stat(path, &st) == 0 && S_ISREG(st.st_mode);
		syscall(SYS_setfsuid, uid);
		if (file && faccessat(AT_FDCWD, path, i ? R_OK : X_OK, AT_EACCESS) != 0)
			bad = a, what = i ? "read" : "execute", e = errno;
	}
	/* a step that writes its working directory (a profile's compile
	 * step: rw @workdir) in one that uid cannot write: the compiler's
	 * "cannot open output file" would be all the grader saw */
	const char *wd = p->workdir ? p->workdir : ".";
	bool writes_wd = false;
	for (size_t i = 0; i < p->rw.n; i++)
		writes_wd |= !strcmp(p->rw.v[i], "@workdir");
	syscall(SYS_setfsuid, 0);
	syscall(SYS_setfsgid, 0);
	/* the directory's own bits: the run enters it as root, so the path
	 * to it need not be searchable by that uid */
	struct stat ws;
	int we = 0;
	if (writes_wd && stat(wd, &ws) == 0 && S_ISDIR(ws.st_mode)) {
		mode_t need = ws.st_uid == uid ? S_IWUSR | S_IXUSR
			      : ws.st_gid == gid ? S_IWGRP | S_IXGRP : S_IWOTH | S_IXOTH;
		if ((ws.st_mode & need) != need)
			we = EACCES;
	}
	if (bad)
		fprintf(stderr, "sandlock: warning: the program runs as %s, which cannot %s %s "
				"(%s); give it access, or choose its identity with --user\n",
			who, what, bad, strerror(e));
	if (we && uid == last)
		fprintf(stderr, "sandlock: warning: the program runs as uid %u, which cannot write "
				"its working directory %s (%s), where this step writes; give it "
				"access (chown %u %s), or choose its identity with --user\n",
			(unsigned)uid, wd, strerror(we), (unsigned)uid, wd);
	else if (we)
		fprintf(stderr, "sandlock: warning: the program runs as %s, which cannot write "
				"its working directory %s (%s), where this step writes; give it "
				"access (chmod o+rwx %s), or one identity for every run with --user\n",
			who, wd, strerror(we), wd);
}

static int die(const char *msg)
{
	fprintf(stderr, "sandlock: %s\n", msg);
	return SANDLOCK_EXIT_FAILURE;
}

/* After the options are read: our own failure, with the caller's status
 * for it (--failure-status) where a program's 125 must not look like it. */
static int fail_run(struct sl_cli *cli, const char *msg)
{
	int st = cli->failure_status ? cli->failure_status : SANDLOCK_EXIT_FAILURE;
	die(msg);
	sl_cli_release(cli);
	return st;
}

int main(int argc, char **argv)
{
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : argc > 0 ? argv[0] : "";
	if (!strcmp(base, "nsjail"))
		return sl_nsjail_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "nsjail"))
		return sl_nsjail_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "batch"))
		return sl_batch_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "interactive"))
		return sl_interactive_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "self-test-probe"))
		return sl_selftest_probe(argc - 1, argv + 1);
	return sl_main(argc, argv, NULL);
}

int sl_main(int argc, char **argv, struct sl_main_hooks *hooks)
{
	struct sl_cli cli;
	char err[512];
	if (sl_cli_parse(argc, argv, &cli, err, sizeof(err)) != 0) {
		sl_cli_release(&cli);
		return die(err);
	}
	struct sandlock_policy *p = &cli.policy;
	switch (cli.action) {
	case SL_CLI_HELP:
		fputs(sl_cli_usage, stdout);
		sl_cli_release(&cli);
		return 0;
	case SL_CLI_VERSION:
		printf("sandlock %s\n", SANDLOCK_VERSION_STRING);
		sl_cli_release(&cli);
		return 0;
	case SL_CLI_FEATURES: {
		struct sandlock_features f;
		sandlock_probe_features(&f);
		fflush(stdout);
		if (cli.json)
			sandlock_print_features_json(&f, STDOUT_FILENO);
		else
			sandlock_print_features(&f, STDOUT_FILENO);
		sl_cli_release(&cli);
		return 0;
	}
	case SL_CLI_SHOW_PROFILE:
		fputs(sandlock_profile_text(cli.show_profile), stdout);
		sl_cli_release(&cli);
		return 0;
	case SL_CLI_SELFTEST: {
		int st = sl_selftest_main(&cli);
		sl_cli_release(&cli);
		return st;
	}
	case SL_CLI_RUN:
		break;
	}

	struct sl_report_file rf = { .fd = -1, .dir = -1 };
	if (cli.report_fd >= 0) {
		if (fcntl(cli.report_fd, F_GETFD) < 0) {
			snprintf(err, sizeof(err), "--report-fd %d is not an open descriptor",
				 cli.report_fd);
			sl_cli_release(&cli);
			return die(err);
		}
		rf.fd = cli.report_fd;
	} else if (cli.report_path &&
		   sl_report_file_open(&rf, cli.report_path, err, sizeof(err)) != 0) {
		sl_report_file_close(&rf);
		sl_cli_release(&cli);
		return die(err);
	}

	/* SIGTERM, SIGINT, SIGHUP, SIGQUIT to the sandbox: kill the whole tree,
	 * then exit 128+sig.  Received through a descriptor the run waits on. */
	sigset_t stop;
	sl_stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN); /* a reader that went away is not our death */
	signal(SIGCHLD, SIG_DFL); /* an ignored SIGCHLD, inherited, would reap
				     the program before we could wait for it */
	p->cancel_fd = signalfd(-1, &stop, SFD_CLOEXEC);
	/* A report pipe whose reader is gone: the grader died, and so does
	 * the run (the bindings pass their pipe here). */
	struct stat rst;
	if (cli.report_fd >= 0 && fstat(cli.report_fd, &rst) == 0 &&
	    (S_ISFIFO(rst.st_mode) || S_ISSOCK(rst.st_mode)))
		p->hangup_fd = cli.report_fd;

	/* The command line may carry what the program must not see (paths to
	 * expected answers, --env values), and /proc/<pid>/cmdline is
	 * readable by everyone: keep a private copy and blank the original. */
	size_t n = 0;
	while (cli.argv[n])
		n++;
	char **cmd = calloc(n + 1, sizeof(*cmd));
	for (size_t i = 0; cmd && i < n; i++)
		if (!(cmd[i] = strdup(cli.argv[i]))) {
			free(cmd);
			cmd = NULL;
		}
	if (!cmd)
		return fail_run(&cli, "out of memory");
	for (int i = 1; i < argc; i++)
		memset(argv[i], 0, strlen(argv[i]));

	if (!cli.quiet)
		warn_unreadable(p, cmd);
	if (hooks && hooks->stderr_fd >= 0 && !p->stderr_path)
		p->stderr_fd = hooks->stderr_fd;
	int bind_err = 0;
	for (size_t i = 0; hooks && i < hooks->nbinds && !bind_err; i++) {
		char *c = strchr(hooks->binds[i], ':');
		*c = 0;
		bind_err = sandlock_policy_add_bind(p, hooks->binds[i], c + 1);
		*c = ':';
	}
	for (size_t i = 0; hooks && i < hooks->ntmpfs && !bind_err; i++)
		bind_err = sandlock_policy_add_tmpfs(p, hooks->tmpfs[i]);
	if (bind_err || (hooks && hooks->hostname &&
			 sandlock_policy_set_str(&p->hostname, hooks->hostname) != 0)) {
		for (size_t i = 0; i < n; i++)
			free(cmd[i]);
		free(cmd);
		return fail_run(&cli, "out of memory");
	}
	int cpu_lock = -1, cpu = -1;
	char cpu_note[96];
	if (sl_cpus_apply(cli.cpus, &cpu_lock, &cpu, cpu_note, sizeof(cpu_note), err,
			  sizeof(err)) != 0) {
		for (size_t i = 0; i < n; i++)
			free(cmd[i]);
		free(cmd);
		sl_cli_release(&cli);
		return die(err);
	}
	if (p->verbose && cpu >= 0)
		fprintf(stderr, "sandlock: --cpus auto: on CPU %d\n", cpu);
	struct sandlock_result r;
	int rc = sandlock_run(p, cmd, &r);
	if (cpu_lock >= 0)
		close(cpu_lock); /* the run is over: the CPU is free */
	const char *notes[] = { hooks ? hooks->missing : "", cpu_note };
	for (size_t i = 0; i < 2 && rc == 0; i++)
		if (notes[i][0]) {
			size_t l = strlen(r.missing);
			snprintf(r.missing + l, sizeof(r.missing) - l, "%s%s", l ? ", " : "", notes[i]);
		}
	if (hooks) {
		hooks->ran = true;
		hooks->rc = rc;
		hooks->result = r;
	}
	/* A report the grader cannot read is a failure it must see. */
	int report_failed = 0;
	char *line = NULL;
	size_t len;
	if ((rf.fd >= 0 || rf.dir >= 0) &&
	    (sandlock_report_json_buf(p, &r, &line, &len) != 0 ? (line = NULL, 1)
	     : sl_report_file_write(&rf, line, len, err, sizeof(err)) != 0)) {
		if (!line)
			snprintf(err, sizeof(err), "cannot write report: out of memory");
		report_failed = 1;
	}
	if (line)
		free(line);
	if (rf.fd == cli.report_fd)
		rf.fd = -1; /* the caller's, left open */
	sl_report_file_close(&rf);
	/* with -q and a report written, the report says it (the bindings
	 * raise it: printing it too would say it twice) */
	bool told = cli.quiet && (cli.report_fd >= 0 || cli.report_path) && !report_failed;
	/* 126 and 127 are ours only when our exec failed: a program may exit
	 * with either itself, and then says what it means on its own */
	bool exec_failed = r.verdict == SANDLOCK_SETUP_FAILED &&
			   (r.status == SANDLOCK_EXIT_NOEXEC || r.status == SANDLOCK_EXIT_NOTFOUND);
	if ((rc != 0 || exec_failed) && !told)
		fprintf(stderr, "sandlock: %s\n", r.error[0] ? r.error : sandlock_strerror(rc));
	if (rc == 0 && p->verbose && r.missing[0])
		fprintf(stderr, "sandlock: running without: %s; see sandlock --features\n", r.missing);
	if (rc != 0 || exec_failed)
		;
	else if (p->verbose)
		fprintf(stderr, "sandlock: verdict %s, status %d, cpu %llu ms, wall %llu ms, "
				"peak %llu KB%s%s\n",
			sandlock_verdict_name(r.verdict), r.status,
			(unsigned long long)((r.user_us + r.sys_us) / 1000),
			(unsigned long long)(r.wall_us / 1000), (unsigned long long)r.peak_kb,
			r.blocked_syscall[0] ? ", blocked " : "", r.blocked_syscall);
	int status = r.status;
	if (report_failed) {
		fprintf(stderr, "sandlock: %s\n", err);
		status = SANDLOCK_EXIT_FAILURE;
	}
	if ((rc != 0 || exec_failed || report_failed) && cli.failure_status)
		status = cli.failure_status;
	for (size_t i = 0; i < n; i++)
		free(cmd[i]);
	free(cmd);
	sl_cli_release(&cli);
	return status;
}
