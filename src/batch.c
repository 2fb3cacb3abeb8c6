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
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* ------------------------------------------------------------------ */
/* A small JSON reader: a manifest line is at most 1 MiB, nesting 16.  */

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jv {
	enum jt t;
	bool b;
	double num;
	char *s;            /* J_STR */
	size_t n;           /* J_ARR, J_OBJ */
	struct jv *v;
	char **k;           /* J_OBJ keys */
};

struct jp {
	const char *p, *end;
	char *err;
	size_t errlen;
	int depth;
};

static void jv_free(struct jv *v)
{
	if (!v)
		return;
	free(v->s);
	for (size_t i = 0; i < v->n; i++) {
		jv_free(&v->v[i]);
		if (v->k)
			free(v->k[i]);
	}
	free(v->v);
	free(v->k);
	memset(v, 0, sizeof(*v));
}

static void jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
		j->p++;
}

static int jp_fail(struct jp *j, const char *what)
{
	if (!j->err[0])
		snprintf(j->err, j->errlen, "%s", what);
	return -1;
}

static void put_utf8(char *o, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		o[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		o[(*n)++] = (char)(0xc0 | (cp >> 6));
		o[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		o[(*n)++] = (char)(0xe0 | (cp >> 12));
		o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		o[(*n)++] = (char)(0xf0 | (cp >> 18));
		o[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
		else return -1;
	}
	*out = v;
	return 0;
}

/* A string's body; NUL bytes (\u0000) are refused: every string here is a
 * path, an argument or a name. */
static int jp_string(struct jp *j, char **out)
{
	j->p++; /* the quote */
	const char *s = j->p;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p == '\\')
			j->p++;
		j->p++;
	}
	if (j->p >= j->end)
		return jp_fail(j, "unterminated string");
	size_t len = (size_t)(j->p - s);
	char *o = malloc(len + 1);
	if (!o)
		return jp_fail(j, "out of memory");
	size_t n = 0;
	for (const char *c = s; c < j->p; c++) {
		unsigned char u = (unsigned char)*c;
		if (u < 0x20) {
			free(o);
			return jp_fail(j, "control character in a string");
		}
		if (u != '\\') {
			o[n++] = (char)u;
			continue;
		}
		c++;
		switch (*c) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (j->p - c < 5 || hex4(c + 1, &cp) != 0)
				goto bad;
			c += 4;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (j->p - c < 7 || c[1] != '\\' || c[2] != 'u' || hex4(c + 3, &lo) != 0 ||
				    lo < 0xdc00 || lo > 0xdfff)
					goto bad;
				c += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if ((cp >= 0xdc00 && cp < 0xe000) || cp == 0) {
				goto bad;
			}
			put_utf8(o, &n, cp);
			break;
		}
		default:
			goto bad;
		}
	}
	o[n] = 0;
	j->p++;
	*out = o;
	return 0;
bad:
	free(o);
	return jp_fail(j, "invalid escape in a string");
}

static int jp_value(struct jp *j, struct jv *v);

static int jp_push(struct jv *v, size_t *cap, bool keys)
{
	if (v->n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 4;
	struct jv *nv = realloc(v->v, nc * sizeof(*nv));
	if (!nv)
		return -1;
	v->v = nv;
	if (keys) {
		char **nk = realloc(v->k, nc * sizeof(*nk));
		if (!nk)
			return -1;
		v->k = nk;
	}
	*cap = nc;
	return 0;
}

static int jp_value(struct jp *j, struct jv *v)
{
	memset(v, 0, sizeof(*v));
	jp_ws(j);
	if (j->p >= j->end)
		return jp_fail(j, "unexpected end of line");
	if (++j->depth > 16)
		return jp_fail(j, "nested too deeply");
	int rc = 0;
	char c = *j->p;
	if (c == '"') {
		v->t = J_STR;
		rc = jp_string(j, &v->s);
	} else if (c == '{' || c == '[') {
		bool obj = c == '{';
		v->t = obj ? J_OBJ : J_ARR;
		size_t cap = 0;
		j->p++;
		jp_ws(j);
		if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
			j->p++;
			j->depth--;
			return 0;
		}
		for (;;) {
			if (jp_push(v, &cap, obj) != 0)
				return jp_fail(j, "out of memory");
			char *key = NULL;
			if (obj) {
				jp_ws(j);
				if (j->p >= j->end || *j->p != '"')
					return jp_fail(j, "expected a key");
				if (jp_string(j, &key) != 0)
					return -1;
				v->k[v->n] = key;
				jp_ws(j);
				if (j->p >= j->end || *j->p != ':') {
					v->v[v->n].t = J_NULL;
					v->v[v->n].n = 0;
					v->v[v->n].v = NULL;
					v->v[v->n].k = NULL;
					v->v[v->n].s = NULL;
					v->n++;
					return jp_fail(j, "expected ':'");
				}
				j->p++;
			}
			rc = jp_value(j, &v->v[v->n]);
			v->n++;
			if (rc != 0)
				return -1;
			jp_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
				j->p++;
				break;
			}
			return jp_fail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		}
	} else if (!strncmp(j->p, "true", 4) && j->end - j->p >= 4) {
		v->t = J_BOOL, v->b = true, j->p += 4;
	} else if (!strncmp(j->p, "false", 5) && j->end - j->p >= 5) {
		v->t = J_BOOL, j->p += 5;
	} else if (!strncmp(j->p, "null", 4) && j->end - j->p >= 4) {
		v->t = J_NULL, j->p += 4;
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		char buf[64];
		size_t n = 0;
		while (j->p < j->end && n < sizeof(buf) - 1 && strchr("+-.eE0123456789", *j->p))
			buf[n++] = *j->p++;
		buf[n] = 0;
		char *e;
		v->t = J_NUM;
		v->num = strtod(buf, &e);
		if (*e || n == 0)
			return jp_fail(j, "invalid number");
	} else {
		return jp_fail(j, "invalid JSON");
	}
	j->depth--;
	return rc;
}

/* ------------------------------------------------------------------ */
/* The manifest, parsed and checked.                                   */

struct opt { char *name, *value; };          /* value NULL: a flag */
struct opts { struct opt *v; size_t n; };
struct file_in { char *name, *src; };

struct step {
	bool present;
	int line;
	char **argv;                 /* NULL-terminated */
	struct opts opts;
	struct file_in *files;
	size_t nfiles;
	char *output;                /* run: a file the program writes */
	char *workdir;               /* checker: its working directory */
};

enum cmp { CMP_INHERIT = -1, CMP_EXACT = 0, CMP_TOKENS = 1 };

struct test {
	int line;
	char *name;
	char *stdin_path;
	char *expected;
	struct opts opts;
	int compare;
	char *output;
};

struct sandlock_batch {
	char *base;                  /* relative paths of the manifest start here */
	struct opts global;          /* the caller's, then settings.options */
	bool stop_on_failure;
	uint64_t budget_cpu_ms, budget_wall_ms;
	int compare;
	uint64_t max_copy;           /* one file copied in or read back */
	uint64_t max_tree;           /* the whole working directory */
	char *dir;                   /* where the box is made */
	bool keep;
	struct step compile, run, checker;
	struct test *tests;
	size_t ntests, cap;
};

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
static int build_policy(const struct sandlock_batch *b, const struct opts *step,
			const struct opts *test, struct sandlock_policy *p, char *err, size_t errlen)
{
	sandlock_policy_init(p);
	const struct opts *all[3] = { &b->global, step, test };
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 3; i++)
			if (apply_opts(p, all[i], pass == 0, err, errlen) != 0)
				return -1;
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

static int get_strings(const struct jv *v, const char *what, char ***out, size_t *nout,
		       char *err, size_t errlen)
{
	if (v->t != J_ARR)
		FAIL("%s must be an array of strings", what);
	char **a = calloc(v->n + 1, sizeof(*a));
	if (!a)
		FAIL("out of memory");
	for (size_t i = 0; i < v->n; i++) {
		char num[64];
		const char *s = NULL;
		if (v->v[i].t == J_STR) {
			s = v->v[i].s;
		} else if (v->v[i].t == J_NUM) {
			snprintf(num, sizeof(num), "%.15g", v->v[i].num);
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
		*nout = v->n;
	return 0;
fail:
	return -1;
}

static int get_opts(const struct jv *v, struct opts *o, char *err, size_t errlen)
{
	char **a = NULL;
	size_t n = 0;
	if (get_strings(v, "options", &a, &n, err, errlen) != 0)
		return -1;
	int rc = opts_from_strings(o, a, n, err, errlen);
	strv_free(a);
	return rc;
}

static int get_seconds(const struct jv *v, const char *what, uint64_t *ms, char *err,
		       size_t errlen)
{
	if (v->t != J_NUM || !(v->num > 0) || v->num > 1e9)
		FAIL("%s must be a number of seconds above 0", what);
	*ms = (uint64_t)(v->num * 1000.0 + 0.999);
	return 0;
fail:
	return -1;
}

static int get_compare(const struct jv *v, int *out, char *err, size_t errlen)
{
	if (v->t == J_STR && !strcmp(v->s, "exact"))
		*out = CMP_EXACT;
	else if (v->t == J_STR && !strcmp(v->s, "tokens"))
		*out = CMP_TOKENS;
	else
		FAIL("compare must be \"exact\" or \"tokens\"");
	return 0;
fail:
	return -1;
}

static int get_str(const struct jv *v, const char *what, char **out, char *err, size_t errlen)
{
	if (v->t != J_STR || !v->s[0])
		FAIL("%s must be a non-empty string", what);
	free(*out);
	if (!(*out = strdup(v->s)))
		FAIL("out of memory");
	return 0;
fail:
	return -1;
}

static int parse_settings(struct sandlock_batch *b, const struct jv *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->n; i++) {
		const char *k = o->k[i];
		const struct jv *v = &o->v[i];
		if (!strcmp(k, "stop_on_failure")) {
			if (v->t != J_BOOL)
				FAIL("stop_on_failure must be true or false");
			b->stop_on_failure = v->b;
		} else if (!strcmp(k, "budget")) {
			if (v->t != J_OBJ)
				FAIL("budget must be an object {\"cpu\": SEC, \"wall\": SEC}");
			for (size_t j = 0; j < v->n; j++) {
				if (!strcmp(v->k[j], "cpu")) {
					if (get_seconds(&v->v[j], "budget.cpu", &b->budget_cpu_ms, err, errlen))
						return -1;
				} else if (!strcmp(v->k[j], "wall")) {
					if (get_seconds(&v->v[j], "budget.wall", &b->budget_wall_ms, err, errlen))
						return -1;
				} else {
					FAIL("unknown field budget.%s (cpu, wall)", v->k[j]);
				}
			}
		} else if (!strcmp(k, "compare")) {
			if (get_compare(v, &b->compare, err, errlen) != 0)
				return -1;
		} else if (!strcmp(k, "max_copy") || !strcmp(k, "max_tree")) {
			if (v->t != J_NUM || !(v->num >= 1) || v->num > 1e12)
				FAIL("%s must be a number of bytes", k);
			*(!strcmp(k, "max_copy") ? &b->max_copy : &b->max_tree) = (uint64_t)v->num;
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

static int parse_files(struct sandlock_batch *b, struct step *s, const struct jv *v,
		       char *err, size_t errlen)
{
	if (v->t != J_OBJ)
		FAIL("files must be an object {\"NAME\": \"PATH\", ...}");
	for (size_t i = 0; i < v->n; i++) {
		if (!plain_name(v->k[i]))
			FAIL("files: '%s' is not a plain file name", v->k[i]);
		if (v->v[i].t != J_STR || !v->v[i].s[0])
			FAIL("files: the source of '%s' must be a path", v->k[i]);
		for (size_t j = 0; j < s->nfiles; j++)
			if (!strcmp(s->files[j].name, v->k[i]))
				FAIL("files: '%s' is given twice", v->k[i]);
		struct file_in *nf = realloc(s->files, (s->nfiles + 1) * sizeof(*nf));
		if (!nf)
			FAIL("out of memory");
		s->files = nf;
		nf[s->nfiles].name = strdup(v->k[i]);
		nf[s->nfiles].src = resolve(b, v->v[i].s);
		s->nfiles++;
		if (!nf[s->nfiles - 1].name || !nf[s->nfiles - 1].src)
			FAIL("out of memory");
	}
	return 0;
fail:
	return -1;
}

static int parse_step(struct sandlock_batch *b, struct step *s, const char *kind,
		      const struct jv *o, int line, char *err, size_t errlen)
{
	if (s->present)
		FAIL("a second \"%s\" line", kind);
	s->present = true;
	s->line = line;
	bool is_run = !strcmp(kind, "run"), is_checker = !strcmp(kind, "checker");
	for (size_t i = 0; i < o->n; i++) {
		const char *k = o->k[i];
		const struct jv *v = &o->v[i];
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

static int parse_test(struct sandlock_batch *b, const struct jv *o, int line, char *err,
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
	for (size_t i = 0; i < o->n; i++) {
		const char *k = o->k[i];
		const struct jv *v = &o->v[i];
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
static int check_manifest(const struct sandlock_batch *b, char *err, size_t errlen)
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
		int rc = build_policy(b, &steps[i]->opts, NULL, &p, e, sizeof(e));
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
		int rc = build_policy(b, &b->run.opts, &t->opts, &p, e, sizeof(e));
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
		const char *s = p;
		p = nl ? nl + 1 : end;
		while (s < le && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == le || *s == '#')
			continue;
		if (memchr(s, 0, (size_t)(le - s)))
			FAIL("manifest line %d: a NUL byte", line);
		char e[200] = "";
		struct jp j = { s, le, e, sizeof(e), 0 };
		struct jv v;
		int rc = jp_value(&j, &v);
		jp_ws(&j);
		if (rc == 0 && j.p != j.end)
			rc = jp_fail(&j, "text after the JSON value");
		if (rc == 0 && (v.t != J_OBJ || v.n != 1 || v.v[0].t != J_OBJ))
			rc = jp_fail(&j, "a line is one object with one key: settings, compile, run, "
				     "checker or test, whose value is an object");
		if (rc == 0) {
			const char *k = v.k[0];
			const struct jv *o = &v.v[0];
			if (!strcmp(k, "settings"))
				rc = parse_settings(b, o, e, sizeof(e));
			else if (!strcmp(k, "compile") || !strcmp(k, "run") || !strcmp(k, "checker"))
				rc = parse_step(b, !strcmp(k, "compile") ? &b->compile :
						   !strcmp(k, "run") ? &b->run : &b->checker,
						k, o, line, e, sizeof(e));
			else if (!strcmp(k, "test"))
				rc = parse_test(b, o, line, e, sizeof(e));
			else
				rc = jp_fail(&j, "unknown line kind (settings, compile, run, checker, test)");
		}
		jv_free(&v);
		if (rc != 0)
			FAIL("manifest line %d: %s", line, e);
	}
	if (check_manifest(b, err, errlen) != 0)
		goto out_fail;
	*out = b;
	return 0;
fail:
out_fail:
	sandlock_batch_free(b);
	return SANDLOCK_EINVAL;
}

/* Read a whole file of ours (or the manifest's) up to cap bytes. */
static int read_fd_capped(int fd, uint64_t cap, char **out, size_t *len, bool *over)
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
	int rc = read_fd_capped(fd, 64ull << 20, &text, &len, &over);
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

/* ------------------------------------------------------------------ */
/* The working directory: a snapshot in memory, checked and restored.  */

struct entry {
	char *path;          /* relative to the working directory */
	bool dir;
	mode_t mode;
	char *data;          /* a file's bytes */
	size_t size;
	/* what was written, to compare with */
	ino_t ino;
	struct timespec ctime;
};

struct tree {
	struct entry *v;
	size_t n, cap;
	uint64_t bytes;
	struct timespec top_ctime;
	ino_t top_ino;
};

static void tree_free(struct tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].path);
		free(t->v[i].data);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Remove everything under dirfd, never following a link (a directory is
 * opened with O_NOFOLLOW relative to its parent's descriptor). */
static int empty_dir(int dirfd, int depth)
{
	if (depth > 64)
		return -1;
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* an offset of its own */
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	int rc = 0;
	struct dirent *de;
	/* a directory we could not write into cannot be emptied: make it
	 * ours to change (it is ours, or root's as root) */
	fchmod(dirfd, 0700);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dirfd, de->d_name, 0) == 0)
			continue;
		int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			rc = -1;
			continue;
		}
		if (empty_dir(sub, depth + 1) != 0)
			rc = -1;
		close(sub);
		if (unlinkat(dirfd, de->d_name, AT_REMOVEDIR) != 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

static int tree_add(struct tree *t, const char *path, bool dir, mode_t mode, char *data,
		    size_t size)
{
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 16;
		struct entry *nv = realloc(t->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		t->v = nv;
		t->cap = nc;
	}
	struct entry *e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	if (!(e->path = strdup(path)))
		return -1;
	e->dir = dir;
	e->mode = mode;
	e->data = data;
	e->size = size;
	t->n++;
	return 0;
}

/* Read the tree under dirfd into memory: directories and regular files of
 * one link; anything else (links, fifos, sockets, devices) is left out,
 * and so is gone once the tree is written back. */
static int tree_read(struct tree *t, int dirfd, const char *prefix, uint64_t max_file,
		     uint64_t max_tree, int depth, char *err, size_t errlen)
{
	if (depth > 32)
		FAIL("the working directory is nested more than 32 deep");
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* an offset of its own */
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		FAIL("cannot read the working directory: %s", strerror(errno));
	}
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char path[PATH_MAX];
		if ((size_t)snprintf(path, sizeof(path), "%s%s", prefix, de->d_name) >= sizeof(path))
			continue;
		if (t->n >= 10000) {
			snprintf(err, errlen, "the working directory holds more than 10000 entries");
			rc = -1;
			break;
		}
		struct stat st;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				continue;
			if (tree_add(t, path, true, st.st_mode & 0777, NULL, 0) != 0) {
				close(sub);
				snprintf(err, errlen, "out of memory");
				rc = -1;
				break;
			}
			char sp[PATH_MAX + 1];
			snprintf(sp, sizeof(sp), "%s/", path);
			rc = tree_read(t, sub, sp, max_file, max_tree, depth + 1, err, errlen);
			close(sub);
			continue;
		}
		if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
			continue;
		int f = openat(dirfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat fst;
		if (f < 0 || fstat(f, &fst) != 0 || !S_ISREG(fst.st_mode) || fst.st_nlink != 1) {
			if (f >= 0)
				close(f);
			continue;
		}
		char *data = NULL;
		size_t len = 0;
		bool over = false;
		if (read_fd_capped(f, max_file, &data, &len, &over) != 0 || over) {
			close(f);
			free(data);
			snprintf(err, errlen, over ? "%s is larger than max_copy (%llu bytes)" :
				 "cannot read %s", path, (unsigned long long)max_file);
			rc = -1;
			break;
		}
		close(f);
		t->bytes += len;
		if (t->bytes > max_tree) {
			free(data);
			snprintf(err, errlen, "the working directory holds more than max_tree "
				 "(%llu bytes)", (unsigned long long)max_tree);
			rc = -1;
			break;
		}
		if (tree_add(t, path, false, st.st_mode & 0777, data, len) != 0) {
			free(data);
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
	}
	closedir(d);
	return rc;
fail:
	return -1;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Open the directory holding path (relative to top), component by
 * component, never following a link. */
static int open_parent(int top, const char *path, const char **base)
{
	int fd = dup(top);
	char comp[256];
	const char *p = path, *slash;
	while (fd >= 0 && (slash = strchr(p, '/'))) {
		size_t n = (size_t)(slash - p);
		if (n >= sizeof(comp)) {
			close(fd);
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = 0;
		int sub = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = sub;
		p = slash + 1;
	}
	*base = p;
	return fd;
}

/* Write the tree back into the emptied directory: the caller's own,
 * without write permission for anyone (directories are made writable
 * while they are filled, the deepest first protected last). */
static int tree_write(struct tree *t, int top, char *err, size_t errlen)
{
	for (size_t i = 0; i < t->n; i++) {
		struct entry *e = &t->v[i];
		const char *base;
		int pfd = open_parent(top, e->path, &base);
		if (pfd < 0)
			FAIL("cannot restore %s: %s", e->path, strerror(errno));
		fchmod(pfd, 0700);
		int rc;
		if (e->dir) {
			rc = mkdirat(pfd, base, 0700);
		} else {
			int f = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				       0600);
			rc = f < 0 ? -1 : write_all(f, e->data, e->size);
			if (f >= 0) {
				if (rc == 0)
					rc = fchmod(f, (e->mode & 0555) | 0444);
				close(f);
			}
		}
		int saved = errno;
		close(pfd);
		if (rc != 0)
			FAIL("cannot restore %s: %s", e->path, strerror(saved));
	}
	/* directories read-only, from the deepest up (they come after their
	 * parents in the list) */
	for (size_t i = t->n; i-- > 0;) {
		struct entry *e = &t->v[i];
		if (!e->dir)
			continue;
		const char *base;
		int pfd = open_parent(top, e->path, &base);
		if (pfd < 0)
			FAIL("cannot restore %s: %s", e->path, strerror(errno));
		int rc = fchmodat(pfd, base, 0555, 0);
		close(pfd);
		if (rc != 0)
			FAIL("cannot restore %s: %s", e->path, strerror(errno));
	}
	if (fchmod(top, 0555) != 0)
		FAIL("cannot restore the working directory: %s", strerror(errno));
	return 0;
fail:
	return -1;
}

/* What the tree looks like now, to compare with before each test. */
static int tree_stamp(struct tree *t, int top)
{
	struct stat st;
	if (fstat(top, &st) != 0)
		return -1;
	t->top_ctime = st.st_ctim;
	t->top_ino = st.st_ino;
	for (size_t i = 0; i < t->n; i++) {
		const char *base;
		int pfd = open_parent(top, t->v[i].path, &base);
		int rc = pfd < 0 ? -1 : fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW);
		if (pfd >= 0)
			close(pfd);
		if (rc != 0)
			return -1;
		t->v[i].ino = st.st_ino;
		t->v[i].ctime = st.st_ctim;
	}
	return 0;
}

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Unchanged since written?  A change to a file's bytes, mode or owner,
 * or to a directory's entries, moves its change time. */
static bool tree_intact(const struct tree *t, int top)
{
	struct stat st;
	if (fstat(top, &st) != 0 || st.st_ino != t->top_ino || !same_time(st.st_ctim, t->top_ctime))
		return false;
	for (size_t i = 0; i < t->n; i++) {
		const struct entry *e = &t->v[i];
		const char *base;
		int pfd = open_parent(top, e->path, &base);
		int rc = pfd < 0 ? -1 : fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW);
		if (pfd >= 0)
			close(pfd);
		if (rc != 0 || st.st_ino != e->ino || !same_time(st.st_ctim, e->ctime) ||
		    (e->dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) ||
		    (!e->dir && (uint64_t)st.st_size != e->size))
			return false;
	}
	return true;
}

static int tree_restore(struct tree *t, int top, char *err, size_t errlen)
{
	if (empty_dir(top, 0) != 0)
		FAIL("cannot empty the working directory");
	if (tree_write(t, top, err, errlen) != 0)
		return -1;
	if (tree_stamp(t, top) != 0)
		FAIL("cannot stat the working directory: %s", strerror(errno));
	return 0;
fail:
	return -1;
}

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

static int utf8_len(const unsigned char *s, size_t left)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (!n || (size_t)n > left || s[0] > 0xf4)
		return 0;
	for (int i = 1; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* A JSON string of n bytes, valid UTF-8 whatever they are. */
static void jstr_n(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', f);
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		int n;
		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((n = utf8_len(s + i, len - i)) > 0) {
			fwrite(s + i, 1, (size_t)n, f);
			i += (size_t)n;
			continue;
		} else {
			fputs("\\ufffd", f);
		}
		i++;
	}
	fputc('"', f);
}

static void jstr(FILE *f, const char *s)
{
	jstr_n(f, s, strlen(s));
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

/* Emit one line; the report of the run (or none) embedded. */
static int emit(struct runstate *rs, const char *step, const char *name, const char *verdict,
		int status, const struct sandlock_policy *p, const struct sandlock_result *r,
		const char *why, const char *log, size_t loglen, const char *extra)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	uint64_t cpu = r ? (r->user_us + r->sys_us) / 1000 : 0;
	uint64_t wall = r ? r->wall_us / 1000 : 0;
	uint64_t peak = r ? r->peak_kb : 0;
	fprintf(f, "{\"step\":\"%s\",", step);
	if (name) {
		fputs("\"name\":", f);
		jstr(f, name);
		fputc(',', f);
	}
	fprintf(f, "\"verdict\":\"%s\",\"status\":%d", verdict, status);
	if (r)
		fprintf(f, ",\"cpu_ms\":%llu,\"wall_ms\":%llu,\"peak_kb\":%llu",
			(unsigned long long)cpu, (unsigned long long)wall, (unsigned long long)peak);
	if (why) {
		fputs(",\"why\":", f);
		jstr(f, why);
	}
	if (log) {
		fputs(",\"log\":", f);
		jstr_n(f, log, loglen);
	}
	if (extra)
		fputs(extra, f);
	if (r && p) {
		char *rep = NULL;
		size_t rl = 0;
		if (sandlock_report_json_buf(p, r, &rep, &rl) == 0) {
			while (rl && (rep[rl - 1] == '\n' || rep[rl - 1] == '\r'))
				rl--;
			fputs(",\"report\":", f);
			fwrite(rep, 1, rl, f);
		}
		free(rep);
	}
	fputc('}', f);
	if (fclose(f) != 0) {
		free(buf);
		return -1;
	}
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
	int rc = read_fd_capped(in, cap, &data, &len, &over);
	close(in);
	if (rc != 0 || over) {
		free(data);
		FAIL("cannot copy %s: %s", src, over ? "larger than max_copy" : strerror(errno));
	}
	int out = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	rc = out < 0 ? -1 : write_all(out, data, len);
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
	int rc = read_fd_capped(fd, cap, out, len, over);
	close(fd);
	return rc;
}

static int write_file_at(int dirfd, const char *name, const char *data, size_t len)
{
	unlinkat(dirfd, name, 0);
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = write_all(fd, data, len);
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
		empty_dir(rs->boxfd, 0);
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
	if (rs->workfd < 0 || rs->checkfd < 0 || fchmod(rs->workfd, 0755) != 0 ||
	    fchmod(rs->checkfd, 0755) != 0)
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
		return read_fd_capped(outfd, rs->b->max_copy, data, len, over);
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
	int rc = read_fd_capped(fd, rs->b->max_copy, data, len, over);
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
	int rc = -1, outfd = -1;
	char **argv = NULL;
	if (build_policy(b, &b->checker.opts, NULL, cp, err, errlen) != 0)
		return -1;
	if (t->stdin_path && (read_path_capped(t->stdin_path, b->max_copy, &inbuf, &inlen, &over) ||
			      over))
		FAIL("test '%s': cannot read %s", t->name, t->stdin_path);
	if (t->expected && (read_path_capped(t->expected, b->max_copy, &exbuf, &exlen, &over) ||
			    over))
		FAIL("test '%s': cannot read %s", t->name, t->expected);
	if (write_file_at(rs->checkfd, "input", inbuf ? inbuf : "", inlen) ||
	    write_file_at(rs->checkfd, "expected", exbuf ? exbuf : "", exlen) ||
	    write_file_at(rs->checkfd, "output", answer, alen))
		FAIL("cannot write the checker's files: %s", strerror(errno));
	cp->isolate_tmp = true;
	if (sandlock_policy_add_ro(cp, rs->check) != 0 ||
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
	snprintf(in, sizeof(in), "%s/input", rs->check);
	snprintf(ex, sizeof(ex), "%s/expected", rs->check);
	snprintf(out, sizeof(out), "%s/output", rs->check);
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
	char extra[128] = "";
	memset(&r, 0, sizeof(r));
	memset(&cr, 0, sizeof(cr));

	if (build_policy(b, &b->run.opts, &t->opts, &p, err, errlen) != 0) {
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
	if (!tree_intact(&rs->tree, rs->workfd)) {
		rs->restores++;
		if (tree_restore(&rs->tree, rs->workfd, err, errlen) != 0)
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
			snprintf(extra, sizeof(extra), ",\"checker\":{\"verdict\":\"%s\",\"status\":%d,"
				 "\"cpu_ms\":%llu}", sandlock_verdict_name(cr.verdict), cr.status,
				 (unsigned long long)((cr.user_us + cr.sys_us) / 1000));
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
	if (!strcmp(verdict, "ok")) {
		tot->passed++;
	} else {
		tot->failed++;
		if (!tot->verdict)
			tot->verdict = verdict;
	}
	emit(rs, "test", t->name, verdict, status, &p, &r, why, NULL, 0, extra[0] ? extra : NULL);
	rc = strcmp(verdict, "ok") ? 1 : 0;
	goto out;
fail:
	rc = -1;
out:
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
		if (build_policy(b, &b->compile.opts, NULL, &p, err, errlen) != 0) {
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
			read_fd_capped(logfd, 4096, &log, &loglen, &over);
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
	if (tree_read(&rs->tree, rs->workfd, "", b->max_copy, b->max_tree, 0, err, errlen) != 0)
		return -1;
	return tree_restore(&rs->tree, rs->workfd, err, errlen);
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
	if (check_manifest(b, err, errlen) != 0) {
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
	char extra[256];
	snprintf(extra, sizeof(extra), ",\"tests\":%zu,\"passed\":%zu,\"failed\":%zu,\"skipped\":%zu,"
		 "\"cpu_ms\":%llu,\"wall_ms\":%llu,\"budget_exceeded\":%s,\"restores\":%u",
		 b->ntests, tot.passed, tot.failed, tot.skipped, (unsigned long long)tot.cpu_ms,
		 (unsigned long long)tot.wall_ms, tot.budget_exceeded ? "true" : "false", rs.restores);
	emit(&rs, "summary", NULL, verdict, tot.exit, NULL, NULL, err[0] ? err : NULL, NULL, 0,
	     extra);
	tree_free(&rs.tree);
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
