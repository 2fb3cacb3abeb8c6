/* `sandlock interactive`: its command line (the pair's options, then each
 * side's, each side's parsed as a sandlock command line of its own). */
#include "interactive.h"

#include <stdlib.h>

const char ia_usage[] =
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
"  --cpus LIST|auto     the pair on these CPUs (auto: one of its own among\n"
"                       this user's concurrent runs; see sandlock(1))\n"
"  --report FILE, --report-fd N   the JSON report of the pair\n"
"  -q, -v, -h\n"
"\n"
"Verdicts: ok, wrong_answer (the interactor exited non-zero), idle,\n"
"interactor_failed, or the submission's own (runtime_error, cpu_limit, ...).\n"
"Exit status: 0 ok, 1 wrong_answer, 124 wall_limit or idle, 125 setup failure\n"
"or interactor_failed, else sandlock's for the submission's verdict (a\n"
"runtime_error whose status would read as one of these is 2).\n";

/* ---- the command line ---- */

/* Options of the pair; those with a value. */
static const char *const pair_valued[] = { "timeout", "idle", "transcript", "transcript-cap",
					   "report", "report-fd", "pin", "cpus", NULL };
/* What a side may not be given alone: the pair's, and its stdin/stdout,
 * which are the other side. */
static const char *const side_refused[] = { "idle", "transcript", "transcript-cap", "report",
					    "report-fd", "pin", "cpus", "quiet", "features", "json", "help",
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
		} else if (!strcmp(name, "cpus")) {
			pp->cpus = val;
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

int ia_parse(int argc, char **argv, struct pair *pp, char *err, size_t errlen)
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
		snprintf(who, sizeof(who), "%s: ", ia_side_name[s]);
		i = scan_options(argv, argc, i + 1, false, pp, opts[s], &nopts[s], &side_profile[s],
				 who, err, errlen);
		if (i < 0)
			goto out;
		cmd[s] = i;
		while (i < argc && (s == SIDE_S || strcmp(argv[i], "--submission")))
			i++;
		ncmd[s] = i - cmd[s];
		if (ncmd[s] == 0 || !argv[cmd[s]][0]) {
			snprintf(err, errlen, "%s: no command given", ia_side_name[s]);
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
			snprintf(err, errlen, "%s: %s", ia_side_name[s], e2);
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
