/* Command-line parsing: every value checked before anything runs. */
#include "cli.h"
#include "lib/internal.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char sl_cli_usage[] =
"Usage: sandlock [OPTIONS] -- COMMAND [ARGS...]\n"
"       sandlock batch [OPTIONS] MANIFEST      (compile once, run many tests)\n"
"       sandlock interactive [OPTIONS] --interactor [OPTIONS] -- CMD...\n"
"                --submission [OPTIONS] -- CMD...   (an interactive problem)\n"
"       sandlock nsjail NSJAIL-OPTIONS -- CMD... (nsjail's command lines: see\n"
"                the manual, NSJAIL; also as a binary named nsjail)\n"
"Run COMMAND under an unprivileged sandbox and report what happened.\n"
"\n"
"Resources (0 = unlimited; sizes also with a unit, binary: 10000B, 64k, 1.5M,\n"
"2G; --mem, --stack and --disk in whole megabytes):\n"
"  --cpu SEC            CPU time of the whole run (default 5; 0.5 is 500 ms)\n"
"  --mem MB             memory the whole run holds at once (default 256)\n"
"  --fsize MB           largest file the program may write (default 10)\n"
"  --disk MB            what the run may store in its private /tmp, /dev/shm\n"
"                       and scratch directory, together (default: 2 x --mem);\n"
"                       with --runtime wasm, what the guest's files grow by\n"
"  --nofile N           open files (default 100)\n"
"  --nproc N            processes and threads of the run (default 10)\n"
"  --stack MB           stack size (default 8)\n"
"  --timeout SEC        wall clock, fractions allowed (default: none)\n"
"  --max-output BYTES   cap on stdout+stderr (default: none)\n"
"  --cgroup DIR|auto|off  count --cpu/--mem in a cgroup v2 of the run's\n"
"                       own, made under DIR (delegated to this user), or\n"
"                       auto: under our own where we may write, for a run\n"
"                       that may fork (default: off, the supervisor samples)\n"
"Security:\n"
"  --no-network         no socket can be created or used\n"
"  --no-fork            no new processes (threads still work)\n"
"  --no-exec            the program may not exec anything once it runs\n"
"  --no-jit             no executable memory the program writes itself\n"
"                       (W^X; breaks JIT runtimes such as Node.js and Java)\n"
"  --clean-env          only PATH, HOME, LANG, TMPDIR (+ --env, --keep-env)\n"
"  --env NAME=VALUE     set a variable (repeatable)\n"
"  --keep-env PATTERN   keep variables matching a glob, e.g. 'EVAL_*'\n"
"  --workdir DIR        working directory of the program\n"
"  --user UID[:GID]     identity when started as root (default 65534:65534)\n"
"  --uid-pool A-B|auto|off\n"
"                       as root: each run takes a free uid from A..B; auto\n"
"                       (default): from 59000-59999 where runs can make no\n"
"                       namespaces (a container's root), else --user\n"
"  --violation MODE     kill (default) or errno: what a blocked syscall does\n"
"  --failure-status N   exit N, not 125/126/127, when the sandbox fails or\n"
"                       cannot start the command (usage errors stay 125)\n"
"  --cpus LIST|auto     the run on these CPUs (0,2-3), every process and\n"
"                       thread; auto: one CPU of its own among the\n"
"                       concurrent runs of this user, while one is free\n"
"Filesystem and scope:\n"
"  (default where the kernel has Landlock: an allow-list of the system's\n"
"  files read-only, the working directory, the run's HOME/TMPDIR and paths\n"
"  in the command line read-write; not /tmp, /dev/shm, other runs)\n"
"  --no-landlock        no allow-list (the old open file system)\n"
"  --landlock           the allow-list as the whole list (see the manual)\n"
"  --ro PATH            allow reading and executing under PATH (repeatable)\n"
"  --rw PATH            allow writing under PATH too (repeatable; --allow)\n"
"  --isolate-tmp        private TMPDIR/HOME, removed when the run ends\n"
"  --unshare MODE       namespaces: auto, on or off (default: auto for a\n"
"                       run that may fork, with --disk, or with --isolate-tmp\n"
"                       when not root; else off)\n"
"  --strict             allow-list syscall profile and mandatory Landlock\n"
"  --profile NAME[:STEP]  a judge's settings for a language (c, cpp, go,\n"
"                       java, node, python) or from a FILE (a path with a\n"
"                       '/'), for its compile or run step (default run);\n"
"                       the other options change what it sets\n"
"  --show-profile NAME  print a built-in profile (to start one's own from)\n"
"  --require LAYERS     comma-separated layers that must be active\n"
"                       (the names --features prints)\n"
"  --best-effort        run on hosts that refuse seccomp filters or\n"
"                       no-new-privs (serverless), with what they offer\n"
"  --guard KIND         a guard inside the program, for hosts without\n"
"                       kernel layers: python, node, preload (LD_PRELOAD),\n"
"                       auto (the one that fits the command) or none\n"
"                       (default); each can be defeated: see the manual\n"
"  --runtime wasm       run a python3 command as CPython, a node command\n"
"                       or a .js program as Duktape (ES5), compiled to\n"
"                       WebAssembly, under our WASI host: only its files,\n"
"                       no sockets, no processes (needs `make wasm`)\n"
"  --wasm-dir DIR       where `make wasm` put its artifacts (default:\n"
"                       $SANDLOCK_WASM_DIR, else wasm/ next to sandlock)\n"
"I/O and reporting:\n"
"  --stdin FILE, --stdout FILE, --stderr FILE\n"
"                       (--stdin-file, --stdout-file, --stderr-file: the\n"
"                       predecessor's names)\n"
"  --pipe-io            accepted and ignored (the predecessor's): sandlock\n"
"                       relays output itself where --max-output or a\n"
"                       terminal needs it\n"
"  --report FILE        write the JSON report to FILE\n"
"  --report-fd N        write the JSON report to descriptor N\n"
"  -v, --verbose        diagnostics on stderr, and a summary line at the end\n"
"                       (--output-stats: the predecessor's name)\n"
"  -q, --quiet          a sandbox that could not be set up, or a command not\n"
"                       found, is told by the report alone (for programs\n"
"                       that read it; errors in the options are still shown)\n"
"  --features           what this host offers, one line per layer\n"
"  --self-test          with run options: a sandboxed /bin/true (and the\n"
"                       --profile's interpreter), each layer checked by its\n"
"                       effect, one line each; 0 only if all asked for work\n"
"  --json               with --features or --self-test: one JSON object\n"
"  -h, --help, --version\n"
"\n"
"Exit status: the program's own; 128+S if killed by signal S (137 memory\n"
"limit, 152 CPU limit, 153 output or file size limit, 159 blocked system\n"
"call); 124 wall timeout; 125 sandbox failure; 126 not executable; 127 not\n"
"found.\n";

/* What only the command line says; the policy options are options.c's. */
enum {
	O_REPORT = 256, O_REPORTFD, O_FEATURES, O_JSON, O_VERSION,
	O_PROFILE, O_SHOWPROFILE, O_PIPEIO, O_SELFTEST, O_CPUS, O_FAILSTATUS,
	O_POLICY = 1024, /* + the index in sl_policy_options */
};

static const struct option cli_options[] = {
	{ "report", required_argument, 0, O_REPORT },
	{ "report-fd", required_argument, 0, O_REPORTFD },
	{ "verbose", no_argument, 0, 'v' },
	{ "output-stats", no_argument, 0, 'v' }, /* the predecessor's */
	{ "pipe-io", no_argument, 0, O_PIPEIO },  /* the predecessor's */
	{ "help", no_argument, 0, 'h' },
	{ "quiet", no_argument, 0, 'q' },
	{ "features", no_argument, 0, O_FEATURES },
	{ "json", no_argument, 0, O_JSON },
	{ "profile", required_argument, 0, O_PROFILE },
	{ "show-profile", required_argument, 0, O_SHOWPROFILE },
	{ "version", no_argument, 0, O_VERSION },
	{ "self-test", no_argument, 0, O_SELFTEST },
	{ "cpus", required_argument, 0, O_CPUS },
	{ "failure-status", required_argument, 0, O_FAILSTATUS },
};
#define N_CLI (sizeof(cli_options) / sizeof(cli_options[0]))
#define N_MAX 64

/* getopt's table: ours, the policy's, and the names the tools before us
 * gave the same options (--allow for --rw, --stdout-file for --stdout). */
static void option_table(struct option *t)
{
	size_t n = 0;
	for (; n < N_CLI; n++)
		t[n] = cli_options[n];
	for (size_t i = 0; sl_policy_options[i].name && n < N_MAX - 1; i++) {
		const struct sl_policy_option *o = &sl_policy_options[i];
		t[n++] = (struct option){ o->name, o->value ? required_argument : no_argument, 0,
					  O_POLICY + (int)i };
	}
	for (size_t i = 0; sl_policy_aliases[i][0] && n < N_MAX - 1; i++) {
		const struct sl_policy_option *o = sl_policy_option(sl_policy_aliases[i][1]);
		t[n++] = (struct option){ sl_policy_aliases[i][0],
					  o->value ? required_argument : no_argument, 0,
					  O_POLICY + (int)(o - sl_policy_options) };
	}
	t[n] = (struct option){ 0, 0, 0, 0 };
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* --profile NAME[:STEP]: applied first, whatever its place, so that every
 * other option on the command line changes what it set. */
static int apply_profile(int argc, char **argv, const struct option *t, struct sl_cli *cli,
			 char *err, size_t errlen)
{
	const char *prof = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+vqh", t, NULL)) != -1) {
		if (c != O_PROFILE)
			continue;
		if (prof)
			FAIL("--profile is given twice");
		prof = optarg;
	}
	if (!prof)
		return 0;
	char name[4096];
	if (strlen(prof) >= sizeof(name))
		FAIL("invalid value for --profile: too long");
	strcpy(name, prof);
	const char *step = NULL;
	char *colon = strrchr(name, ':');
	if (colon && (!strcmp(colon + 1, "compile") || !strcmp(colon + 1, "run"))) {
		*colon = 0;
		step = colon + 1;
	}
	cli->profile = sandlock_profile_text(name) ? prof : NULL;
	cli->profile_step_compile = step && !strcmp(step, "compile");
	return sandlock_policy_apply_profile(&cli->policy, name, step, err, errlen) ? -1 : 0;
}

int sl_cli_parse(int argc, char **argv, struct sl_cli *cli, char *err, size_t errlen)
{
	memset(cli, 0, sizeof(*cli));
	sandlock_policy_init(&cli->policy);
	cli->report_fd = -1;
	struct sandlock_policy *p = &cli->policy;
	struct option t[N_MAX];
	option_table(t);
	opterr = 0;
	if (apply_profile(argc, argv, t, cli, err, errlen) != 0)
		return -1;
	optind = 1;
	int c, li = -1;
	while ((c = getopt_long(argc, argv, "+vqh", t, &li)) != -1) {
		const char *a = optarg;
		uint64_t v = 0;
		if (c >= O_POLICY) {
			char msg[512];
			if (sandlock_policy_set(p, t[li].name, a, msg, sizeof(msg)) != 0)
				FAIL("%s", msg);
			continue;
		}
		switch (c) {
		case O_PROFILE: break; /* applied first */
		case O_SHOWPROFILE:
			if (!sandlock_profile_text(a))
				FAIL("unknown profile '%s' (built in: %s)", a, sandlock_profile_names());
			cli->action = SL_CLI_SHOW_PROFILE;
			cli->show_profile = a;
			break;
		case O_REPORT:
			if (!*a)
				FAIL("invalid value for --report: empty path");
			free(cli->report_path);
			cli->report_path = strdup(a);
			break;
		case O_REPORTFD:
			if (sl_parse_u64(a, 1u << 20, &v) != 0)
				FAIL("invalid value for --report-fd: '%s'", a);
			cli->report_fd = (int)v;
			break;
		case 'v': p->verbose = true; break;
		case O_FEATURES: cli->action = SL_CLI_FEATURES; break;
		case O_JSON: cli->json = true; break;
		case 'q': cli->quiet = true; break;
		case 'h': cli->action = SL_CLI_HELP; break;
		case O_PIPEIO:
			/* the predecessor's: we relay output whenever it is
			 * needed, so a grader's command line with it still runs */
			break;
		case O_VERSION: cli->action = SL_CLI_VERSION; break;
		case O_SELFTEST: cli->action = SL_CLI_SELFTEST; break;
		case O_CPUS:
			free(cli->cpus);
			if (!(cli->cpus = strdup(a)))
				FAIL("out of memory");
			break;
		case O_FAILSTATUS: {
			uint64_t st;
			if (sl_parse_u64(a, 255, &st) != 0 || st == 0)
				FAIL("invalid value for --failure-status: '%s' (1-255)", a);
			cli->failure_status = (int)st;
			break;
		}
		case ':':
			FAIL("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				FAIL("unknown option '-%c' (see --help)", optopt);
			if (optind > 0 && optind <= argc && argv[optind - 1][0] == '-' &&
			    strchr(argv[optind - 1], '=') == NULL) {
				for (const struct option *o = t; o->name; o++)
					if (!strcmp(argv[optind - 1] + 2, o->name))
						FAIL("option %s needs a value", argv[optind - 1]);
			}
			FAIL("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (cli->action == SL_CLI_SELFTEST) {
		if (optind < argc)
			FAIL("--self-test runs its own programs: give it run options, no command");
		return sandlock_policy_validate(p, err, errlen) != 0 ? -1 : 0;
	}
	if (cli->action != SL_CLI_RUN)
		return 0;
	if (optind >= argc || !argv[optind][0])
		FAIL("no command given (usage: sandlock [OPTIONS] -- COMMAND [ARGS...])");
	cli->argv = argv + optind;
	if (sandlock_policy_validate(p, err, errlen) != 0)
		return -1;
	return 0;
}

void sl_cli_release(struct sl_cli *cli)
{
	sandlock_policy_release(&cli->policy);
	free(cli->report_path);
	cli->report_path = NULL;
	free(cli->cpus);
	cli->cpus = NULL;
}
