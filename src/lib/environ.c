/* The program's environment, and where its command is found. */
#include "internal.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define SAFE_PATH "/usr/local/bin:/usr/bin:/bin"

static size_t name_len(const char *kv)
{
	const char *eq = strchr(kv, '=');
	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static bool kept(const struct sandlock_policy *p, const char *kv)
{
	char name[256];
	size_t n = name_len(kv);
	if (n >= sizeof(name))
		return false;
	memcpy(name, kv, n);
	name[n] = 0;
	for (size_t i = 0; i < p->keep_env.n; i++)
		if (fnmatch(p->keep_env.v[i], name, 0) == 0)
			return true;
	return false;
}

/* Set kv in a NULL-terminated vector, replacing a variable of that name. */
static int put(char **v, size_t *n, const char *kv)
{
	size_t len = name_len(kv);
	char *copy = strdup(kv);
	if (!copy)
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (name_len(v[i]) == len && !strncmp(v[i], kv, len)) {
			free(v[i]);
			v[i] = copy;
			return 0;
		}
	v[(*n)++] = copy;
	v[*n] = NULL;
	return 0;
}

/* Set NAME=value. */
static int put_var(char **v, size_t *n, const char *name, const char *value)
{
	char *kv;
	if (asprintf(&kv, "%s=%s", name, value) < 0)
		return -1;
	int r = put(v, n, kv);
	free(kv);
	return r;
}

/* what every clean environment holds: PATH, HOME, TMPDIR (where given),
 * LANG (the caller's if sane), then the caller's variables that
 * --keep-env names, which may replace those */
static int put_clean(const struct sandlock_policy *p, char **v, size_t *n, const char *home,
		     const char *tmp)
{
	const char *lang = getenv("LANG");
	bool sane = lang && !strpbrk(lang, "/\n") && strlen(lang) < 64;
	int r = put(v, n, "PATH=" SAFE_PATH) | put(v, n, home) | (tmp ? put(v, n, tmp) : 0) |
		put_var(v, n, "LANG", sane ? lang : "C.UTF-8");
	for (char **e = environ; e && *e; e++)
		if (strchr(*e, '=') && kept(p, *e))
			r |= put(v, n, *e);
	return r;
}

/* Under clean_env: PATH, HOME, LANG, TMPDIR with safe values (HOME and
 * TMPDIR the run's private directory, made for clean_env too), the kept
 * variables, then --env.  Otherwise the inherited environment plus --env.
 * isolate_tmp points TMPDIR and HOME at the run's private directory;
 * Landlock without it points TMPDIR at the working directory.
 *
 * guest (--runtime wasm): clean with or without --clean-env: on a
 * serverless host the caller's environment holds the platform's
 * credentials, which os.environ would hand to the guest, the boundary's
 * one open door.  No TMPDIR and no host path: the guest sees none of the
 * host's directories (its tempfile falls back to its working directory);
 * HOME is a path nothing is given at. */
static char **build(const struct sandlock_policy *p, const char *tmpdir, const char *workdir_tmp,
		    bool guest)
{
	size_t cap = 8 + p->env.n, n = 0;
	for (char **e = environ; e && *e; e++)
		cap++;
	char **v = calloc(cap + 1, sizeof(*v));
	if (!v)
		return NULL;
	int r = 0;
	if (guest) {
		r |= put_clean(p, v, &n, "HOME=/nonexistent", NULL);
	} else if (p->clean_env) {
		/* no directory of the run's own (see sl_landlock_workdir_tmp):
		 * a HOME outside every rule, which no run can write */
		r |= put_clean(p, v, &n, tmpdir ? "HOME=/tmp" : "HOME=/nonexistent", "TMPDIR=/tmp");
	} else {
		for (char **e = environ; e && *e; e++)
			if (strchr(*e, '='))
				r |= put(v, &n, *e);
	}
	if (tmpdir)
		r |= put_var(v, &n, "TMPDIR", tmpdir) | put_var(v, &n, "HOME", tmpdir);
	else if (workdir_tmp)
		/* Landlock without a scratch directory: temporary files
		 * (gcc's, Python's tempfile) go to the writable workdir */
		r |= put_var(v, &n, "TMPDIR", workdir_tmp);
	for (size_t i = 0; i < p->env.n; i++)
		r |= put(v, &n, p->env.v[i]);
	if (r) {
		sl_environ_free(v);
		return NULL;
	}
	return v;
}

char **sl_environ_build(const struct sandlock_policy *p, const char *tmpdir,
			const char *workdir_tmp)
{
	return build(p, tmpdir, workdir_tmp, false);
}

char **sl_environ_wasm(const struct sandlock_policy *p)
{
	return build(p, NULL, NULL, true);
}

void sl_environ_free(char **v)
{
	if (!v)
		return;
	for (char **e = v; *e; e++)
		free(*e);
	free(v);
}

/* execvp's search, done before the child exists: the candidate paths, in
 * order, using the PATH the program will see.  The child tries each. */
int sl_exec_paths_prepare(struct sl_run *run, char **storage)
{
	const char *cmd = run->argv[0];
	run->n_exec_paths = 0;
	*storage = NULL;
	if (strchr(cmd, '/')) {
		run->exec_paths[run->n_exec_paths++] = cmd;
		return 0;
	}
	const char *path = NULL;
	for (char **e = run->envp; *e; e++)
		if (!strncmp(*e, "PATH=", 5))
			path = *e + 5;
	if (!path)
		path = SAFE_PATH;
	size_t clen = strlen(cmd), plen = strlen(path);
	char *buf = malloc((plen + 1) * (clen + 2) + clen + 2 + plen + 1);
	if (!buf)
		return -1;
	*storage = buf;
	const char *s = path;
	while (run->n_exec_paths < SL_MAX_EXEC_PATHS) {
		const char *end = strchrnul(s, ':');
		size_t dl = end - s;
		char *out = buf;
		if (dl == 0) { /* empty element: current directory */
			out += sprintf(out, "%s", cmd);
		} else {
			memcpy(out, s, dl);
			out[dl] = '/';
			memcpy(out + dl + 1, cmd, clen + 1);
			out += dl + 1 + clen;
		}
		run->exec_paths[run->n_exec_paths++] = buf;
		buf = out + 1;
		if (!*end)
			break;
		s = end + 1;
	}
	return 0;
}

int sl_environ_set(char ***envp, const char *name, const char *value)
{
	size_t n = 0;
	while ((*envp)[n])
		n++;
	char **v = realloc(*envp, (n + 2) * sizeof(*v));
	if (!v)
		return -1;
	*envp = v;
	return put_var(v, &n, name, value);
}

void sl_environ_unset(char **v, const char *name)
{
	size_t len = strlen(name), j = 0;
	for (size_t i = 0; v[i]; i++) {
		if (name_len(v[i]) == len && !strncmp(v[i], name, len))
			free(v[i]);
		else
			v[j++] = v[i];
	}
	v[j] = NULL;
}
