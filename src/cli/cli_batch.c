/*
 * `sandlock batch [OPTIONS] MANIFEST`: compile once, run many tests
 * (src/judge/batch.c does the work; docs/batch.md describes the manifest).
 * One JSON line per step on stdout (or --output FILE), the summary last.
 */
#include "cli.h"
#include "lib/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char batch_usage[] =
"Usage: sandlock batch [OPTIONS] MANIFEST\n"
"Compile once and run many tests, as MANIFEST (JSON lines) says: one JSON\n"
"line of result per step on stdout, the summary last (see the manual,\n"
"BATCHES).\n"
"  -o, --output FILE   write the result lines to FILE instead\n"
"  --dir DIR           make the batch's directory under DIR (default $TMPDIR\n"
"                      or /tmp)\n"
"  --keep              keep that directory (for debugging)\n"
"  --cpus LIST|auto    every step on these CPUs; auto: one CPU of its own\n"
"                      among this user's concurrent runs (see sandlock(1))\n"
"  -v, --verbose       one line per step on stderr too\n"
"  -q, --quiet         no error line on stderr (the summary line tells)\n"
"  --OPTION[=VALUE]    any run option of sandlock (--best-effort, --cgroup\n"
"                      DIR, ...): applied to every step before the\n"
"                      manifest's own\n"
"Exit status: 0 every test ok, 1 a test failed or the compile step did,\n"
"125 a bad manifest or option, or the batch could not be run.\n";

struct out {
	int fd;
	bool verbose;
	bool failed;
};

static int on_line(void *ctx, const struct sandlock_batch_event *ev)
{
	struct out *o = ctx;
	char *line = malloc(ev->json_len + 1);
	if (!line) {
		o->failed = true;
		return 1;
	}
	memcpy(line, ev->json, ev->json_len);
	line[ev->json_len] = '\n';
	size_t n = ev->json_len + 1, off = 0;
	while (off < n) {
		ssize_t w = write(o->fd, line + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->failed = true;
			break;
		}
		off += (size_t)w;
	}
	free(line);
	if (o->verbose)
		fprintf(stderr, "sandlock batch: %s%s%s %s (status %d, %llu ms cpu, %llu ms wall)%s%s\n",
			ev->step, ev->name ? " " : "", ev->name ? ev->name : "", ev->verdict,
			ev->status, (unsigned long long)ev->cpu_ms, (unsigned long long)ev->wall_ms,
			ev->why ? ": " : "", ev->why ? ev->why : "");
	/* nobody reads the results any more: no point in running on */
	return o->failed ? 1 : 0;
}

/* errors in the options and the manifest are shown even with -q */
#define BAD(...) do { fprintf(stderr, "sandlock: batch: " __VA_ARGS__); \
		      fputc('\n', stderr); goto bad; } while (0)

int sl_batch_main(int argc, char **argv)
{
	struct sandlock_batch *b = NULL;
	char err[512];
	const char *manifest = NULL, *output = NULL, *dir = NULL, *cpus = NULL;
	bool keep = false, quiet = false;
	struct out o = { 1, false, false };
	/* the caller's run options, kept until the manifest is loaded */
	const char **names = calloc((size_t)argc + 1, sizeof(*names));
	const char **values = calloc((size_t)argc + 1, sizeof(*values));
	char **owned = calloc((size_t)argc + 1, sizeof(*owned));
	int nopt = 0, rc = SANDLOCK_EXIT_FAILURE;
	if (!names || !values || !owned) {
		fprintf(stderr, "sandlock: batch: out of memory\n");
		goto out;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(batch_usage, stdout);
			rc = 0;
			goto out;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--dir")) {
			if (i + 1 >= argc)
				BAD("option %s needs a value", a);
			*(!strcmp(a, "--dir") ? &dir : &output) = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			output = a + 9;
		} else if (!strncmp(a, "--dir=", 6)) {
			dir = a + 6;
		} else if (!strcmp(a, "--cpus") || !strncmp(a, "--cpus=", 7)) {
			if (a[6] != '=' && i + 1 >= argc)
				BAD("option --cpus needs a value");
			cpus = a[6] == '=' ? a + 7 : argv[++i];
		} else if (!strcmp(a, "--keep")) {
			keep = true;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o.verbose = true;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--")) {
			if (i + 2 != argc || manifest)
				BAD("one MANIFEST, after the options (see sandlock batch --help)");
			manifest = argv[++i];
		} else if (!strncmp(a, "--", 2) && a[2]) {
			const char *eq = strchr(a, '=');
			size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			char *name = strndup(a + 2, nl);
			if (!name)
				BAD("out of memory");
			owned[nopt] = name;
			names[nopt] = name;
			values[nopt] = eq ? eq + 1 : NULL;
			/* an option of the command line's that takes a value
			 * takes the next argument when not given with '=' */
			if (!eq) {
				const struct sl_policy_option *po = sl_policy_option(name);
				if (!strcmp(name, "profile") || (po && po->value)) {
					if (i + 1 >= argc)
						BAD("option --%s needs a value", name);
					values[nopt] = argv[++i];
				}
			}
			nopt++;
		} else if (a[0] == '-' && a[1]) {
			BAD("unknown option '%s' (see sandlock batch --help)", a);
		} else {
			if (manifest || i + 1 != argc)
				BAD("one MANIFEST, after the options (see sandlock batch --help)");
			manifest = a;
		}
	}
	if (!manifest)
		BAD("no MANIFEST (see sandlock batch --help)");
	if (sandlock_batch_load(manifest, &b, err, sizeof(err)) != 0)
		BAD("%s", err);
	for (int i = 0; i < nopt; i++)
		if (sandlock_batch_option(b, names[i], values[i], err, sizeof(err)) != 0)
			BAD("%s", err);
	if (sandlock_batch_set_dir(b, dir, keep) != 0)
		BAD("out of memory");
	if (output) {
		o.fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (o.fd < 0)
			BAD("cannot open %s: %s", output, strerror(errno));
	}
	/* the batch's steps run one after the other: one CPU for them all */
	int cpu_lock = -1, cpu = -1;
	char note[96];
	if (sl_cpus_apply(cpus, &cpu_lock, &cpu, note, sizeof(note), err, sizeof(err)) != 0)
		BAD("%s", err);
	if (o.verbose && note[0])
		fprintf(stderr, "sandlock: batch: %s\n", note);
	else if (o.verbose && cpu >= 0)
		fprintf(stderr, "sandlock: batch: on CPU %d\n", cpu);
	rc = sandlock_batch_run(b, on_line, &o, err, sizeof(err));
	if (cpu_lock >= 0)
		close(cpu_lock);
	if (rc == SANDLOCK_EXIT_FAILURE && err[0] && !quiet)
		fprintf(stderr, "sandlock: batch: %s\n", err);
	if (o.failed) {
		if (!quiet)
			fprintf(stderr, "sandlock: batch: cannot write the results: %s\n",
				strerror(errno));
		rc = SANDLOCK_EXIT_FAILURE;
	}
	if (o.fd != 1)
		close(o.fd);
	goto out;
bad:
	rc = SANDLOCK_EXIT_FAILURE;
out:
	for (int i = 0; owned && i < nopt; i++)
		free(owned[i]);
	free(owned);
	free(names);
	free(values);
	sandlock_batch_free(b);
	return rc;
}
