/*
 * Batches: the manifest (docs/batch.md), read with jansson: JSON lines
 * naming an optional compile step, the run step, an optional checker and
 * the tests; each field checked, each error naming its line and field.
 */
#include "batch.h"

#include <jansson.h>

static void opts_free(struct opts *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].name);
		free(o->v[i].value);
	}
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

static void strv_free(char **v)
{
	for (char **a = v; a && *a; a++)
		free(*a);
	free(v);
}

static void step_free(struct step *s)
{
	strv_free(s->argv);
	opts_free(&s->opts);
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i].name);
		free(s->files[i].src);
	}
	free(s->files);
	free(s->output);
	free(s->workdir);
	memset(s, 0, sizeof(*s));
}

void sandlock_batch_free(struct sandlock_batch *b)
{
	if (!b)
		return;
	free(b->base);
	opts_free(&b->global);
	free(b->dir);
	step_free(&b->compile);
	step_free(&b->run);
	step_free(&b->checker);
	for (size_t i = 0; i < b->ntests; i++) {
		struct test *t = &b->tests[i];
		free(t->name);
		free(t->stdin_path);
		free(t->expected);
		opts_free(&t->opts);
		free(t->output);
	}
	free(b->tests);
	free(b);
}

/* Options the batch sets itself, per step. */
static bool batch_owned(const char *name)
{
	return !strcmp(name, "workdir") || !strcmp(name, "stdin") || !strcmp(name, "stdout") ||
	       !strcmp(name, "stderr") || !strcmp(name, "stdin-file") ||
	       !strcmp(name, "stdout-file") || !strcmp(name, "stderr-file");
}

static int opts_add(struct opts *o, const char *name, const char *value, char *err, size_t errlen)
{
	if (strcmp(name, "profile")) {
		const struct sl_policy_option *po = sl_policy_option(name);
		if (!po)
			FAIL("unknown option '--%s'", name);
		if (batch_owned(name))
			FAIL("option --%s is set by the batch itself", name);
		if (po->value && !value)
			FAIL("option --%s needs a value", name);
		if (!po->value && value)
			FAIL("option --%s takes no value", name);
	} else if (!value) {
		FAIL("option --profile needs a value");
	}
	struct opt *nv = realloc(o->v, (o->n + 1) * sizeof(*nv));
	if (!nv)
		FAIL("out of memory");
	o->v = nv;
	nv[o->n].name = strdup(name);
	nv[o->n].value = value ? strdup(value) : NULL;
	o->n++;
	if (!nv[o->n - 1].name || (value && !nv[o->n - 1].value))
		FAIL("out of memory");
	return 0;
fail:
	return -1;
}

/* "--name=value", or "--name" with the next string as its value when the
 * option takes one: the command line's spelling. */
static int opts_from_strings(struct opts *o, char *const *s, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		const char *a = s[i];
		if (strncmp(a, "--", 2) || !a[2])
			FAIL("'%s' is not an option (--NAME or --NAME=VALUE)", a);
		char name[64];
		const char *eq = strchr(a, '=');
		size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (nl >= sizeof(name))
			FAIL("unknown option '%s'", a);
		memcpy(name, a + 2, nl);
		name[nl] = 0;
		const char *value = eq ? eq + 1 : NULL;
		if (!eq) {
			const struct sl_policy_option *po = sl_policy_option(name);
			bool takes = !strcmp(name, "profile") || (po && po->value);
			if (takes) {
				if (i + 1 >= n)
					FAIL("option --%s needs a value", name);
				value = s[++i];
			}
		}
		if (opts_add(o, name, value, err, errlen) != 0)
			return -1;
	}
	return 0;
fail:
	return -1;
}

int sandlock_batch_option(struct sandlock_batch *b, const char *name, const char *value,
			  char *err, size_t errlen)
{
	if (!b || !name)
		FAIL("no option named");
	return opts_add(&b->global, name, value, err, errlen);
fail:
	return SANDLOCK_EINVAL;
}

static int apply_opts(struct sandlock_policy *p, const struct opts *o, bool profiles,
		      char *err, size_t errlen)
{
	for (size_t i = 0; o && i < o->n; i++) {
		bool prof = !strcmp(o->v[i].name, "profile");
		if (prof != profiles)
			continue;
		if (!prof) {
			if (sandlock_policy_set(p, o->v[i].name, o->v[i].value, err, errlen) != 0)
				return -1;
			continue;
		}
		char name[4096];
		if (strlen(o->v[i].value) >= sizeof(name))
			FAIL("invalid value for --profile: too long");
		strcpy(name, o->v[i].value);
		const char *stepname = NULL;
		char *colon = strrchr(name, ':');
		if (colon && (!strcmp(colon + 1, "compile") || !strcmp(colon + 1, "run"))) {
			*colon = 0;
			stepname = colon + 1;
		}
		if (sandlock_policy_apply_profile(p, name, stepname, err, errlen) != 0)
			return -1;
	}
	return 0;
fail:
	return -1;
}

/* A step's policy: the profiles first (the caller's, the step's, the
 * test's), then the other options in the same order, so that each later
 * one changes what an earlier one set. */
int sl_batch_policy(const struct sandlock_batch *b, const struct opts *step,
		    const struct opts *test, struct sandlock_policy *p, char *err, size_t errlen)
{
	sandlock_policy_init(p);
	const struct opts *all[3] = { &b->global, step, test };
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 3; i++)
			if (apply_opts(p, all[i], pass == 0, err, errlen) != 0)
				return -1;
	/* A batch hands its box to the program's uid before a step that
	 * writes it (hand_workdir): a uid known beforehand, not one the
	 * default pool would give inside the run.  An explicit range stays. */
	if (!p->uid_pool_first)
		p->uid_pool_off = true;
	return 0;
}

static char *resolve(const struct sandlock_batch *b, const char *path)
{
	if (path[0] == '/' || !b->base)
		return strdup(path);
	char *o = malloc(strlen(b->base) + strlen(path) + 2);
	if (o)
		sprintf(o, "%s/%s", b->base, path);
	return o;
}

/* A name inside the working directory: one component, no tricks. */
static bool plain_name(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..") && strlen(s) < 256;
}

static int get_strings(const json_t *v, const char *what, char ***out, size_t *nout,
		       char *err, size_t errlen)
{
	if (!json_is_array(v))
		FAIL("%s must be an array of strings", what);
	size_t n = json_array_size(v);
	char **a = calloc(n + 1, sizeof(*a));
	if (!a)
		FAIL("out of memory");
	for (size_t i = 0; i < n; i++) {
		char num[64];
		const char *s = NULL;
		const json_t *e = json_array_get(v, i);
		if (json_is_string(e)) {
			s = json_string_value(e);
		} else if (json_is_number(e)) {
			snprintf(num, sizeof(num), "%.15g", json_number_value(e));
			s = num;
		} else {
			strv_free(a);
			FAIL("%s must be an array of strings", what);
		}
		if (!(a[i] = strdup(s))) {
			strv_free(a);
			FAIL("out of memory");
		}
	}
	*out = a;
	if (nout)
		*nout = n;
	return 0;
fail:
	return -1;
}

static int get_opts(const json_t *v, struct opts *o, char *err, size_t errlen)
{
	char **a = NULL;
	size_t n = 0;
	if (get_strings(v, "options", &a, &n, err, errlen) != 0)
		return -1;
	int rc = opts_from_strings(o, a, n, err, errlen);
	strv_free(a);
	return rc;
}

static int get_seconds(const json_t *v, const char *what, uint64_t *ms, char *err,
		       size_t errlen)
{
	double num = json_number_value(v);   /* 0 for what is not a number */
	if (!json_is_number(v) || !(num > 0) || num > 1e9)
		FAIL("%s must be a number of seconds above 0", what);
	*ms = (uint64_t)(num * 1000.0 + 0.999);
	return 0;
fail:
	return -1;
}

static int get_compare(const json_t *v, int *out, char *err, size_t errlen)
{
	const char *s = json_string_value(v);   /* NULL for what is not a string */
	if (s && !strcmp(s, "exact"))
		*out = CMP_EXACT;
	else if (s && !strcmp(s, "tokens"))
		*out = CMP_TOKENS;
	else
		FAIL("compare must be \"exact\" or \"tokens\"");
	return 0;
fail:
	return -1;
}

static int get_str(const json_t *v, const char *what, char **out, char *err, size_t errlen)
{
	const char *s = json_string_value(v);
	if (!s || !s[0])
		FAIL("%s must be a non-empty string", what);
	free(*out);
	if (!(*out = strdup(s)))
		FAIL("out of memory");
	return 0;
fail:
	return -1;
}

static int parse_settings(struct sandlock_batch *b, json_t *o, char *err, size_t errlen)
{
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		if (!strcmp(k, "stop_on_failure")) {
			if (!json_is_boolean(v))
				FAIL("stop_on_failure must be true or false");
			b->stop_on_failure = json_is_true(v);
		} else if (!strcmp(k, "budget")) {
			if (!json_is_object(v))
				FAIL("budget must be an object {\"cpu\": SEC, \"wall\": SEC}");
			const char *bk;
			json_t *bv;
			json_object_foreach(v, bk, bv) {
				if (!strcmp(bk, "cpu")) {
					if (get_seconds(bv, "budget.cpu", &b->budget_cpu_ms, err, errlen))
						return -1;
				} else if (!strcmp(bk, "wall")) {
					if (get_seconds(bv, "budget.wall", &b->budget_wall_ms, err, errlen))
						return -1;
				} else {
					FAIL("unknown field budget.%s (cpu, wall)", bk);
				}
			}
		} else if (!strcmp(k, "compare")) {
			if (get_compare(v, &b->compare, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "max_copy") || !strcmp(k, "max_tree")) {
			double num = json_number_value(v);
			if (!json_is_number(v) || !(num >= 1) || num > 1e12)
				FAIL("%s must be a number of bytes", k);
			*(!strcmp(k, "max_copy") ? &b->max_copy : &b->max_tree) = (uint64_t)num;
		} else if (!strcmp(k, "options")) {
			if (get_opts(v, &b->global, err, errlen) != 0)
				return -1;
		} else {
			FAIL("unknown setting '%s' (stop_on_failure, budget, compare, max_copy, "
			     "max_tree, options)", k);
		}
	}
	return 0;
fail:
	return -1;
}

static int parse_files(struct sandlock_batch *b, struct step *s, json_t *v,
		       char *err, size_t errlen)
{
	if (!json_is_object(v))
		FAIL("files must be an object {\"NAME\": \"PATH\", ...}");
	const char *name;
	json_t *src;
	json_object_foreach(v, name, src) {
		const char *path = json_string_value(src);
		if (!plain_name(name))
			FAIL("files: '%s' is not a plain file name", name);
		if (!path || !path[0])
			FAIL("files: the source of '%s' must be a path", name);
		for (size_t j = 0; j < s->nfiles; j++)
			if (!strcmp(s->files[j].name, name))
				FAIL("files: '%s' is given twice", name);
		struct file_in *nf = realloc(s->files, (s->nfiles + 1) * sizeof(*nf));
		if (!nf)
			FAIL("out of memory");
		s->files = nf;
		nf[s->nfiles].name = strdup(name);
		nf[s->nfiles].src = resolve(b, path);
		s->nfiles++;
		if (!nf[s->nfiles - 1].name || !nf[s->nfiles - 1].src)
			FAIL("out of memory");
	}
	return 0;
fail:
	return -1;
}

static int parse_step(struct sandlock_batch *b, struct step *s, const char *kind,
		      json_t *o, int line, char *err, size_t errlen)
{
	if (s->present)
		FAIL("a second \"%s\" line", kind);
	s->present = true;
	s->line = line;
	bool is_run = !strcmp(kind, "run"), is_checker = !strcmp(kind, "checker");
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		if (!strcmp(k, "argv")) {
			size_t n = 0;
			if (get_strings(v, "argv", &s->argv, &n, err, errlen) != 0)
				return -1;
			if (n == 0)
				FAIL("argv is empty");
		} else if (!strcmp(k, "options")) {
			if (get_opts(v, &s->opts, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "files") && !is_checker) {
			if (parse_files(b, s, v, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "output") && is_run) {
			if (get_str(v, "output", &s->output, err, errlen) != 0)
				return -1;
			if (!plain_name(s->output))
				FAIL("output must be a plain file name in the working directory");
		} else if (!strcmp(k, "workdir") && is_checker) {
			char *w = NULL;
			if (get_str(v, "workdir", &w, err, errlen) != 0)
				return -1;
			s->workdir = resolve(b, w);
			free(w);
			if (!s->workdir)
				FAIL("out of memory");
		} else {
			FAIL("unknown field %s.%s", kind, k);
		}
	}
	if (!s->argv)
		FAIL("%s: argv is missing", kind);
	return 0;
fail:
	return -1;
}

static int parse_test(struct sandlock_batch *b, json_t *o, int line, char *err,
		      size_t errlen)
{
	if (b->ntests == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 16;
		struct test *nt = realloc(b->tests, nc * sizeof(*nt));
		if (!nt)
			FAIL("out of memory");
		b->tests = nt;
		b->cap = nc;
	}
	struct test *t = &b->tests[b->ntests++];
	memset(t, 0, sizeof(*t));
	t->line = line;
	t->compare = CMP_INHERIT;
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		char *path = NULL;
		if (!strcmp(k, "name")) {
			if (get_str(v, "name", &t->name, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "stdin") || !strcmp(k, "expected")) {
			if (get_str(v, k, &path, err, errlen) != 0)
				return -1;
			char **dst = !strcmp(k, "stdin") ? &t->stdin_path : &t->expected;
			free(*dst);
			*dst = resolve(b, path);
			free(path);
			if (!*dst)
				FAIL("out of memory");
		} else if (!strcmp(k, "options")) {
			if (get_opts(v, &t->opts, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "compare")) {
			if (get_compare(v, &t->compare, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "output")) {
			if (get_str(v, "output", &t->output, err, errlen) != 0)
				return -1;
			if (!plain_name(t->output))
				FAIL("output must be a plain file name in the working directory");
		} else {
			FAIL("unknown field test.%s (name, stdin, expected, options, compare, output)", k);
		}
	}
	if (!t->name) {
		char num[32];
		snprintf(num, sizeof(num), "%zu", b->ntests);
		if (!(t->name = strdup(num)))
			FAIL("out of memory");
	}
	for (size_t i = 0; i + 1 < b->ntests; i++)
		if (!strcmp(b->tests[i].name, t->name))
			FAIL("test name '%s' is given twice", t->name);
	return 0;
fail:
	return -1;
}

static struct sandlock_batch *batch_new(const char *base)
{
	struct sandlock_batch *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->compare = CMP_EXACT;
	b->max_copy = 64ull << 20;
	b->max_tree = 256ull << 20;
	if (base && !(b->base = strdup(base))) {
		free(b);
		return NULL;
	}
	return b;
}

/* Each step's policy is built once here, so that a bad option is a
 * manifest error (125) before anything runs. */
int sl_batch_check(const struct sandlock_batch *b, char *err, size_t errlen)
{
	char e[256];
	struct sandlock_policy p;
	if (!b->run.present)
		FAIL("manifest: no \"run\" line");
	if (b->ntests == 0)
		FAIL("manifest: no \"test\" line");
	const struct step *steps[3] = { &b->compile, &b->run, &b->checker };
	for (int i = 0; i < 3; i++) {
		if (!steps[i]->present)
			continue;
		int rc = sl_batch_policy(b, &steps[i]->opts, NULL, &p, e, sizeof(e));
		if (rc == 0 && p.uid_pool_first && i == 0)
			snprintf(e, sizeof(e), "--uid-pool is not supported in a batch's compile step"), rc = -1;
		if (rc == 0)
			rc = sandlock_policy_validate(&p, e, sizeof(e));
		sandlock_policy_release(&p);
		if (rc != 0)
			FAIL("manifest line %d: %s", steps[i]->line, e);
	}
	for (size_t i = 0; i < b->ntests; i++) {
		const struct test *t = &b->tests[i];
		if (!t->expected && !b->checker.present)
			FAIL("manifest line %d: test '%s' has no \"expected\" and there is no checker",
			     t->line, t->name);
		int rc = sl_batch_policy(b, &b->run.opts, &t->opts, &p, e, sizeof(e));
		if (rc == 0)
			rc = sandlock_policy_validate(&p, e, sizeof(e));
		sandlock_policy_release(&p);
		if (rc != 0)
			FAIL("manifest line %d: %s", t->line, e);
	}
	return 0;
fail:
	return -1;
}

int sandlock_batch_parse(const char *text, size_t len, const char *base,
			 struct sandlock_batch **out, char *err, size_t errlen)
{
	*out = NULL;
	struct sandlock_batch *b = batch_new(base);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	const char *p = text, *end = text + len;
	int line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *start = p, *s = p;
		p = nl ? nl + 1 : end;
		while (s < le && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == le || *s == '#')
			continue;
		if (memchr(s, 0, (size_t)(le - s)))
			FAIL("manifest line %d: a NUL byte", line);
		char e[200] = "";
		/* the whole line, so that the column is the line's */
		json_error_t je;
		json_t *v = json_loadb(start, (size_t)(le - start),
				       JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
		if (!v && json_error_code(&je) == json_error_null_character)
			FAIL("manifest line %d, column %d: a NUL character (\\u0000) in a string",
			     line, je.column);
		if (!v)
			FAIL("manifest line %d, column %d: %s", line, je.column, je.text);
		int rc = 0;
		void *it = json_object_iter(v);
		const char *k = it ? json_object_iter_key(it) : NULL;
		json_t *o = it ? json_object_iter_value(it) : NULL;
		if (json_object_size(v) != 1 || !json_is_object(o)) {
			snprintf(e, sizeof(e), "a line is one object with one key: settings, compile, "
				 "run, checker or test, whose value is an object");
			rc = -1;
		} else if (!strcmp(k, "settings")) {
			rc = parse_settings(b, o, e, sizeof(e));
		} else if (!strcmp(k, "compile") || !strcmp(k, "run") || !strcmp(k, "checker")) {
			rc = parse_step(b, !strcmp(k, "compile") ? &b->compile :
					   !strcmp(k, "run") ? &b->run : &b->checker,
					k, o, line, e, sizeof(e));
		} else if (!strcmp(k, "test")) {
			rc = parse_test(b, o, line, e, sizeof(e));
		} else {
			snprintf(e, sizeof(e), "unknown line kind (settings, compile, run, checker, test)");
			rc = -1;
		}
		json_decref(v);
		if (rc != 0)
			FAIL("manifest line %d: %s", line, e);
	}
	if (sl_batch_check(b, err, errlen) != 0)
		goto out_fail;
	*out = b;
	return 0;
fail:
out_fail:
	sandlock_batch_free(b);
	return SANDLOCK_EINVAL;
}

/* Read a whole file of ours (or the manifest's) up to cap bytes. */
int sl_batch_read_fd(int fd, uint64_t cap, char **out, size_t *len, bool *over)
{
	size_t alloc = 4096, n = 0;
	char *buf = malloc(alloc + 1);
	if (!buf)
		return -1;
	*over = false;
	for (;;) {
		if (n == alloc) {
			if (alloc >= cap + 1) {
				*over = true;
				break;
			}
			size_t na = alloc * 2 > cap + 1 ? (size_t)cap + 1 : alloc * 2;
			char *nb = realloc(buf, na + 1);
			if (!nb) {
				free(buf);
				return -1;
			}
			buf = nb;
			alloc = na;
		}
		ssize_t r = read(fd, buf + n, alloc - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > cap) {
		*over = true;
		n = (size_t)cap;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

int sandlock_batch_load(const char *path, struct sandlock_batch **out, char *err, size_t errlen)
{
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open manifest %s: %s", path, strerror(errno));
		return SANDLOCK_EINVAL;
	}
	char *text = NULL;
	size_t len = 0;
	bool over = false;
	int rc = sl_batch_read_fd(fd, 64ull << 20, &text, &len, &over);
	int e = errno;
	close(fd);
	if (rc != 0 || over) {
		snprintf(err, errlen, "cannot read manifest %s: %s", path,
			 over ? "larger than 64 MiB" : strerror(e));
		free(text);
		return SANDLOCK_EINVAL;
	}
	char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	const char *base = ".";
	if (slash && slash != dir) {
		*slash = 0;
		base = dir;
	} else if (slash) {
		base = "/";
	}
	rc = sandlock_batch_parse(text, len, base, out, err, errlen);
	free(dir);
	free(text);
	return rc;
}

int sandlock_batch_set_dir(struct sandlock_batch *b, const char *dir, bool keep)
{
	if (!b)
		return SANDLOCK_EINVAL;
	free(b->dir);
	b->dir = NULL;
	if (dir && !(b->dir = strdup(dir)))
		return SANDLOCK_ENOMEM;
	b->keep = keep;
	return 0;
}
