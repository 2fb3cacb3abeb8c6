/* The command line, parsed into a policy (used by src/cli/main.c and tests). */
#ifndef SANDLOCK_CLI_H
#define SANDLOCK_CLI_H
#include "sandlock.h"

enum sl_cli_action { SL_CLI_RUN, SL_CLI_HELP, SL_CLI_VERSION, SL_CLI_FEATURES,
		     SL_CLI_SHOW_PROFILE, SL_CLI_SELFTEST };

struct sl_cli {
	struct sandlock_policy policy;
	enum sl_cli_action action;
	char **argv;            /* the command, NULL-terminated (points into argv) */
	char *report_path;      /* --report FILE */
	int report_fd;          /* --report-fd N, -1 if none */
	bool json;              /* --features --json */
	bool quiet;             /* -q: a failed setup is told by the report alone */
	const char *show_profile; /* --show-profile NAME */
	const char *profile;    /* --profile NAME[:STEP] when NAME is built in */
	bool profile_step_compile; /* --profile NAME:compile */
	char *cpus;             /* --cpus LIST|auto (a copy: argv is blanked) */
	int failure_status;     /* --failure-status N: our own failures' status, 0: 125/126/127 */
};

/* Parse; returns 0, or -1 with one line in err (exit status 125). */
int sl_cli_parse(int argc, char **argv, struct sl_cli *cli, char *err, size_t errlen);
void sl_cli_release(struct sl_cli *cli);
/* options.c */
int sl_parse_u64(const char *s, uint64_t max, uint64_t *out);
int sl_parse_seconds_ms(const char *s, uint64_t *ms);
extern const char sl_cli_usage[];

/* `sandlock batch ...` (src/cli/cli_batch.c) and `sandlock interactive ...`
 * (src/judge/interactive.c): argv[0] is the subcommand; the exit status. */
int sl_batch_main(int argc, char **argv);
int sl_interactive_main(int argc, char **argv);

/* The run of `sandlock [OPTIONS] -- CMD` (src/cli/main.c), for the names we
 * answer to besides our own: hooks may be NULL. */
struct sl_main_hooks {
	int stderr_fd;                 /* the program's stderr, -1: ours */
	const char *hostname;          /* the program's host name, or NULL */
	char **binds;                  /* "SRC:DST" bind mounts of the run's own */
	size_t nbinds;
	char **tmpfs;                  /* empty directories of the run's own */
	size_t ntmpfs;
	char missing[128];             /* what the caller's options could not have here,
					  added to the result's missing */
	bool ran;                      /* out: sandlock_run was called */
	int rc;                        /* out: what it returned */
	struct sandlock_result result; /* out */
};
int sl_main(int argc, char **argv, struct sl_main_hooks *hooks);
/* --cpus (src/cli/cpus.c): pin this process (and so the run) before it
 * starts; auto holds *lock_fd for the run, and a note when every CPU was
 * taken (then not pinned).  0, or -1 with one line in err. */
int sl_cpus_apply(const char *spec, int *lock_fd, int *cpu, char *note, size_t notelen,
		  char *err, size_t errlen);
/* --self-test (src/cli/selftest.c): the exit status; and the probe it runs
 * sandboxed, `sandlock self-test-probe KIND ARG`. */
int sl_selftest_main(struct sl_cli *cli);
int sl_selftest_probe(int argc, char **argv);
/* `nsjail ARGS...` (src/cli/nsjail.c): argv[0] is the name. */
int sl_nsjail_main(int argc, char **argv);

/* --report FILE (src/cli/report_file.c): checked and held before the run,
 * written after it. */
struct sl_report_file {
	int fd;          /* a descriptor written as it is, or -1 */
	int dir;         /* else the directory the file is renamed into */
	char *base;
	bool keep_owner; /* FILE existed: the new one gets its owner and mode */
	uid_t uid;
	gid_t gid;
	mode_t mode;
};
int sl_report_file_open(struct sl_report_file *rf, const char *path, char *err, size_t errlen);
int sl_report_file_write(struct sl_report_file *rf, const char *buf, size_t len,
			 char *err, size_t errlen);
void sl_report_file_close(struct sl_report_file *rf);
#endif
