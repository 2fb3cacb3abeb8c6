/* Command-line parsing: every value checked before anything runs. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char sl_cli_usage[] =
"Usage: sandlock [OPTIONS] -- COMMAND [ARGS...]\n"
"Run COMMAND under an unprivileged sandbox and report what happened.\n"
"\n"
"Resources (0 = unlimited):\n"
"  --cpu SEC            CPU time of the whole run (default 5; 0.5 is 500 ms)\n"
"  --mem MB             memory the whole run holds at once (default 256)\n"
"  --fsize MB           largest file the program may write (default 10)\n"
"  --disk MB            what the run may store in its private /tmp, /dev/shm\n"
"                       and scratch directory, together (default: 2 x --mem)\n"
"  --nofile N           open files (default 100)\n"
"  --nproc N            processes and threads of the user (default 10)\n"
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
"  --uid-pool A-B       as root: each run takes a free uid from A..B\n"
"  --violation MODE     kill (default) or errno: what a blocked syscall does\n"
"Filesystem and scope:\n"
"  --landlock           filesystem allow-list (defaults: see the manual)\n"
"  --ro PATH            allow reading and executing under PATH (repeatable)\n"
"  --rw PATH            allow writing under PATH too (repeatable; --allow)\n"
"  --isolate-tmp        private TMPDIR/HOME, removed when the run ends\n"
"  --unshare MODE       namespaces: auto, on or off (default: auto for a\n"
"                       run that may fork, with --disk, or with --isolate-tmp\n"
"                       when not root; else off)\n"
"  --strict             allow-list syscall profile and mandatory Landlock\n"
"  --require LAYERS     comma-separated layers that must be active\n"
"                       (the names --features prints)\n"
"  --best-effort        run on hosts that refuse seccomp filters or\n"
"                       no-new-privs (serverless), with what they offer\n"
"I/O and reporting:\n"
"  --stdin FILE, --stdout FILE, --stderr FILE\n"
"  --report FILE        write the JSON report to FILE\n"
"  --report-fd N        write the JSON report to descriptor N\n"
"  -v, --verbose        diagnostics on stderr\n"
"  -q, --quiet          a sandbox that could not be set up, or a command not\n"
"                       found, is told by the report alone (for programs\n"
"                       that read it; errors in the options are still shown)\n"
"  --features           what this host offers, one line per layer\n"
"  --json               with --features: one JSON object\n"
"  --help, --version\n"
"\n"
"Exit status: the program's own; 128+S if killed by signal S; 124 wall\n"
"timeout; 125 sandbox failure; 126 not executable; 127 not found.\n";

enum {
	O_CPU = 256, O_MEM, O_FSIZE, O_NOFILE, O_NPROC, O_STACK, O_TIMEOUT,
	O_MAXOUT, O_NONET, O_NOFORK, O_CLEANENV, O_ENV, O_KEEPENV, O_WORKDIR,
	O_USER, O_VIOLATION, O_LANDLOCK, O_RO, O_RW, O_ISOTMP, O_UNSHARE,
	O_STRICT, O_REQUIRE, O_STDIN, O_STDOUT, O_STDERR, O_REPORT, O_REPORTFD,
	O_FEATURES, O_HELP, O_VERSION, O_NOJIT, O_BESTEFFORT, O_JSON, O_UIDPOOL,
	O_DISK, O_CGROUP, O_NOEXEC,
};

static const struct option options[] = {
	{ "cpu", required_argument, 0, O_CPU },
	{ "mem", required_argument, 0, O_MEM },
	{ "fsize", required_argument, 0, O_FSIZE },
	{ "nofile", required_argument, 0, O_NOFILE },
	{ "nproc", required_argument, 0, O_NPROC },
	{ "stack", required_argument, 0, O_STACK },
	{ "timeout", required_argument, 0, O_TIMEOUT },
	{ "max-output", required_argument, 0, O_MAXOUT },
	{ "no-network", no_argument, 0, O_NONET },
	{ "no-fork", no_argument, 0, O_NOFORK },
	{ "no-exec", no_argument, 0, O_NOEXEC },
	{ "clean-env", no_argument, 0, O_CLEANENV },
	{ "no-jit", no_argument, 0, O_NOJIT },
	{ "env", required_argument, 0, O_ENV },
	{ "keep-env", required_argument, 0, O_KEEPENV },
	{ "workdir", required_argument, 0, O_WORKDIR },
	{ "user", required_argument, 0, O_USER },
	{ "violation", required_argument, 0, O_VIOLATION },
	{ "landlock", no_argument, 0, O_LANDLOCK },
	{ "ro", required_argument, 0, O_RO },
	{ "rw", required_argument, 0, O_RW },
	{ "allow", required_argument, 0, O_RW },
	{ "isolate-tmp", no_argument, 0, O_ISOTMP },
	{ "unshare", required_argument, 0, O_UNSHARE },
	{ "strict", no_argument, 0, O_STRICT },
	{ "require", required_argument, 0, O_REQUIRE },
	{ "stdin", required_argument, 0, O_STDIN },
	{ "stdout", required_argument, 0, O_STDOUT },
	{ "stderr", required_argument, 0, O_STDERR },
	{ "report", required_argument, 0, O_REPORT },
	{ "report-fd", required_argument, 0, O_REPORTFD },
	{ "verbose", no_argument, 0, 'v' },
	{ "quiet", no_argument, 0, 'q' },
	{ "features", no_argument, 0, O_FEATURES },
	{ "best-effort", no_argument, 0, O_BESTEFFORT },
	{ "uid-pool", required_argument, 0, O_UIDPOOL },
	{ "disk", required_argument, 0, O_DISK },
	{ "cgroup", required_argument, 0, O_CGROUP },
	{ "json", no_argument, 0, O_JSON },
	{ "help", no_argument, 0, O_HELP },
	{ "version", no_argument, 0, O_VERSION },
	{ 0, 0, 0, 0 },
};

/* Decimal digits only: no sign, no spaces, no hex, no overflow. */
int sl_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* "SEC" or "SEC.FRACTION" to milliseconds.  Sub-millisecond digits round
 * up: a limit the caller gave is a limit, so 0.0004 is 1 ms, never "none". */
int sl_parse_seconds_ms(const char *s, uint64_t *ms)
{
	const char *dot = strchr(s, '.');
	char whole[32];
	size_t wl = dot ? (size_t)(dot - s) : strlen(s);
	if (wl == 0 && !(dot && dot[1]))
		return -1;
	if (wl >= sizeof(whole))
		return -1;
	memcpy(whole, s, wl);
	whole[wl] = 0;
	uint64_t sec = 0;
	if (wl && sl_parse_u64(whole, 1000000000ull, &sec) != 0)
		return -1;
	uint64_t frac = 0;
	if (dot) {
		const char *f = dot + 1;
		if (!*f)
			return -1;
		int digits = 0;
		bool rest = false;
		for (; *f; f++, digits++) {
			if (*f < '0' || *f > '9')
				return -1;
			if (digits < 3)
				frac = frac * 10 + (uint64_t)(*f - '0');
			else if (*f != '0')
				rest = true;
		}
		for (; digits < 3; digits++)
			frac *= 10;
		frac += rest;
	}
	*ms = sec * 1000 + frac;
	return 0;
}

static int parse_user(const char *s, struct sandlock_policy *p)
{
	char buf[64];
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	char *colon = strchr(buf, ':');
	if (colon)
		*colon = 0;
	uint64_t uid, gid;
	/* uid 0 would defeat the drop; -1 is "no change" to the kernel */
	if (sl_parse_u64(buf, 0xfffffffeull, &uid) != 0 || uid == 0)
		return -1;
	gid = uid;
	if (colon && (sl_parse_u64(colon + 1, 0xfffffffeull, &gid) != 0 || gid == 0))
		return -1;
	p->uid = (uid_t)uid;
	p->gid = (gid_t)gid;
	return 0;
}

static int parse_require(const char *s, struct sandlock_policy *p)
{
	char buf[512];
	if (strlen(s) >= sizeof(buf) || !*s)
		return -1;
	strcpy(buf, s);
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned bit = sandlock_layer_from_name(t);
		if (!bit)
			return -1;
		p->require |= bit;
	}
	return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int sl_cli_parse(int argc, char **argv, struct sl_cli *cli, char *err, size_t errlen)
{
	memset(cli, 0, sizeof(*cli));
	sandlock_policy_init(&cli->policy);
	cli->report_fd = -1;
	struct sandlock_policy *p = &cli->policy;
	const uint64_t MB_MAX = (1ull << 43); /* 8 EB: still fits in bytes */
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+vq", options, NULL)) != -1) {
		const char *a = optarg;
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		uint64_t v = 0;
		switch (c) {
		case O_CPU: case O_MEM: case O_FSIZE: case O_NOFILE: case O_NPROC:
		case O_STACK: case O_MAXOUT: {
			if (c == O_CPU) {
				if (sl_parse_seconds_ms(a, &p->cpu_ms) != 0)
					FAIL("invalid value for --cpu: '%s' (seconds, e.g. 2 or 0.5)", a);
				break;
			}
			uint64_t max = (c == O_MEM || c == O_FSIZE || c == O_STACK) ? MB_MAX
				     : c == O_NOFILE ? (1ull << 20)
				     : c == O_NPROC ? (1ull << 22) : (1ull << 62);
			if (sl_parse_u64(a, max, &v) != 0)
				FAIL("invalid value for --%s: '%s' (a whole number from 0 to %llu)",
				     options[c - O_CPU].name, a, (unsigned long long)max);
			if (c == O_MEM) p->mem_mb = v;
			else if (c == O_FSIZE) p->fsize_mb = v;
			else if (c == O_NOFILE) p->nofile = v;
			else if (c == O_NPROC) p->nproc = v;
			else if (c == O_STACK) p->stack_mb = v;
			else p->max_output = v;
			break;
		}
		case O_DISK:
			if (sl_parse_u64(a, 1ull << 22, &p->disk_mb) != 0 || !p->disk_mb)
				FAIL("invalid value for --disk: '%s' (megabytes, from 1 to %llu)", a,
				     1ull << 22);
			break;
		case O_CGROUP:
			if (!strcmp(a, "off"))
				sandlock_policy_set_str(&p->cgroup, NULL);
			else if ((a[0] != '/' && strcmp(a, "auto")) ||
				 sandlock_policy_set_str(&p->cgroup, a) != 0)
				FAIL("invalid value for --cgroup: '%s' (an absolute path, auto or off)", a);
			break;
		case O_TIMEOUT:
			if (sl_parse_seconds_ms(a, &p->timeout_ms) != 0)
				FAIL("invalid value for --timeout: '%s' (seconds, e.g. 2 or 0.5)", a);
			break;
		case O_NONET: p->no_network = true; break;
		case O_NOFORK: p->no_fork = true; break;
		case O_NOEXEC: p->no_exec = true; break;
		case O_CLEANENV: p->clean_env = true; break;
		case O_NOJIT: p->no_jit = true; break;
		case O_ENV:
			if (sandlock_policy_add_env(p, a) != 0)
				FAIL("invalid value for --env: '%s' (NAME=VALUE)", a);
			break;
		case O_KEEPENV:
			if (sandlock_policy_add_keep_env(p, a) != 0)
				FAIL("invalid value for --keep-env: '%s'", a);
			break;
		case O_WORKDIR:
			if (!*a || sandlock_policy_set_str(&p->workdir, a) != 0)
				FAIL("invalid value for --workdir: '%s'", a);
			break;
		case O_USER:
			if (parse_user(a, p) != 0)
				FAIL("invalid value for --user: '%s' (UID[:GID], numeric, not 0)", a);
			break;
		case O_VIOLATION:
			if (!strcmp(a, "kill")) p->violation = SANDLOCK_VIOLATION_KILL;
			else if (!strcmp(a, "errno")) p->violation = SANDLOCK_VIOLATION_ERRNO;
			else FAIL("invalid value for --violation: '%s' (kill or errno)", a);
			break;
		case O_LANDLOCK: p->landlock = true; break;
		case O_RO:
			if (sandlock_policy_add_ro(p, a) != 0)
				FAIL("invalid value for --ro: '%s'", a);
			p->landlock = true;
			break;
		case O_RW:
			if (sandlock_policy_add_rw(p, a) != 0)
				FAIL("invalid value for %s: '%s'", name, a);
			p->landlock = true;
			break;
		case O_ISOTMP: p->isolate_tmp = true; break;
		case O_UNSHARE:
			if (!strcmp(a, "auto")) p->unshare = SANDLOCK_UNSHARE_AUTO;
			else if (!strcmp(a, "on")) p->unshare = SANDLOCK_UNSHARE_ON;
			else if (!strcmp(a, "off")) p->unshare = SANDLOCK_UNSHARE_OFF;
			else FAIL("invalid value for --unshare: '%s' (auto, on or off)", a);
			break;
		case O_STRICT: p->strict = true; p->landlock = true; break;
		case O_REQUIRE:
			if (parse_require(a, p) != 0)
				FAIL("invalid value for --require: '%s' (see --features for layer names)", a);
			break;
		case O_STDIN: case O_STDOUT: case O_STDERR: {
			char **f = c == O_STDIN ? &p->stdin_path : c == O_STDOUT ? &p->stdout_path
									: &p->stderr_path;
			if (!*a || sandlock_policy_set_str(f, a) != 0)
				FAIL("invalid value for %s: '%s'", name, a);
			break;
		}
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
		case O_BESTEFFORT: p->best_effort = true; break;
		case O_UIDPOOL: {
			uint64_t lo, hi;
			char buf[64];
			const char *dash = strchr(a, '-');
			if (!dash || (size_t)(dash - a) >= sizeof(buf))
				FAIL("invalid value for --uid-pool: '%s' (FIRST-LAST, e.g. 60000-60999)", a);
			memcpy(buf, a, (size_t)(dash - a));
			buf[dash - a] = 0;
			if (sl_parse_u64(buf, 0xfffffffeull, &lo) != 0 || lo == 0 ||
			    sl_parse_u64(dash + 1, 0xfffffffeull, &hi) != 0 || hi < lo)
				FAIL("invalid value for --uid-pool: '%s' (FIRST-LAST, e.g. 60000-60999)", a);
			p->uid_pool_first = (uid_t)lo;
			p->uid_pool_last = (uid_t)hi;
			break;
		}
		case O_JSON: cli->json = true; break;
		case 'q': cli->quiet = true; break;
		case O_HELP: cli->action = SL_CLI_HELP; break;
		case O_VERSION: cli->action = SL_CLI_VERSION; break;
		case ':':
			FAIL("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				FAIL("unknown option '-%c' (see --help)", optopt);
			if (optind > 0 && optind <= argc && argv[optind - 1][0] == '-' &&
			    strchr(argv[optind - 1], '=') == NULL) {
				for (const struct option *o = options; o->name; o++)
					if (!strcmp(argv[optind - 1] + 2, o->name))
						FAIL("option %s needs a value", argv[optind - 1]);
			}
			FAIL("unknown option '%s' (see --help)", argv[optind - 1]);
		}
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
}
