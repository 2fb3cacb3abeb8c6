/*
 * Guards inside the program: for hosts that give no kernel layer
 * (serverless functions refuse seccomp filters, namespaces and Landlock),
 * the language's own hooks.  Each runs in the program's process, so a
 * program can defeat it; docs/guards.md says how each is labelled.
 *
 *   python   the interpreter started isolated (-I) with src/guards/python/python_guard.py
 *            as its -c code: a PEP 578 audit hook before the program's code
 *   node     Node.js's permission model (--permission, or
 *            --experimental-permission before 22.13), lists from the policy
 *   preload  src/guards/preload, a library every dynamically linked program loads
 *            first (LD_PRELOAD from a sealed memfd, the program's fd 3)
 *
 * Every guard gets one policy, SANDLOCK_GUARD_POLICY in the environment:
 * the file rules --landlock would use (its defaults, or --ro/--rw), and
 * whether sockets, new processes and exec are allowed (see docs/guards.md).
 */
#include "guards.h"
#include "guard_node.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* guard_blobs.S */
extern const char sl_guard_python_src[];
extern const unsigned char sl_preload_so[], sl_preload_so_end[];

#define PRELOAD_FD 3

enum interp { I_OTHER, I_PYTHON, I_NODE };

/* python, python3, python3.11; node, nodejs */
static enum interp interpreter_of(const char *cmd)
{
	const char *b = strrchr(cmd, '/');
	b = b ? b + 1 : cmd;
	if (!strncmp(b, "python3", 7) && strspn(b + 7, "0123456789.") == strlen(b + 7))
		return I_PYTHON;
	if (!strcmp(b, "python"))
		return I_PYTHON;
	if (!strcmp(b, "node") || !strcmp(b, "nodejs"))
		return I_NODE;
	return I_OTHER;
}

/* path as the program will see it: the child changes to the working
 * directory before exec, so a relative path (./prog, a script, a PATH
 * element) names a file there, not in ours.  buf holds the result. */
static const char *in_workdir(const struct sl_run *run, const char *path, char *buf, size_t len)
{
	const char *wd = run->workdir;
	if (!path || path[0] == '/' || !wd)
		return path;
	int n = snprintf(buf, len, "%s/%s", wd, path);
	return n > 0 && (size_t)n < len ? buf : NULL;
}

/* The file the child will exec: the first candidate that is executable. */
static const char *exec_file(const struct sl_run *run, char *buf, size_t len)
{
	for (int i = 0; i < run->n_exec_paths; i++) {
		const char *f = in_workdir(run, run->exec_paths[i], buf, len);
		if (f && access(f, X_OK) == 0)
			return f;
	}
	return NULL;
}

/* A script's "#!" interpreter, else the file itself: what LD_PRELOAD must
 * reach is what the kernel loads. */
static int dynamic_target(const struct sl_run *run, const char *file)
{
	char line[256];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n > 2 && line[0] == '#' && line[1] == '!') {
		line[n] = 0;
		char *s = line + 2 + strspn(line + 2, " \t");
		s[strcspn(s, " \t\n")] = 0;
		char buf[PATH_MAX];
		const char *interp = in_workdir(run, s, buf, sizeof(buf));
		return interp ? sl_elf_dynamic(interp) : -1;
	}
	return sl_elf_dynamic(file);
}

/* The script a `python [OPTS] SCRIPT` or `node [OPTS] SCRIPT` runs: the
 * first argument that is no option (options that take a value skip it). */
static const char *script_of(char *const *argv, enum interp k)
{
	for (int i = 1; argv[i]; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !strcmp(a, "-"))
			return strcmp(a, "-") ? a : NULL;
		if (!strcmp(a, "--"))
			return argv[i + 1];
		if (k == I_PYTHON && (!strcmp(a, "-c") || !strcmp(a, "-m")))
			return NULL;
		if (k == I_NODE && (!strcmp(a, "-e") || !strcmp(a, "--eval") || !strcmp(a, "-p") ||
				    !strcmp(a, "--print")))
			return NULL;
		if ((k == I_PYTHON && (!strcmp(a, "-W") || !strcmp(a, "-X"))) ||
		    (k == I_NODE && (!strcmp(a, "-r") || !strcmp(a, "--require") ||
				     !strcmp(a, "--import"))))
			i++;
		if (!argv[i])
			break;
	}
	return NULL;
}

struct text {
	char *s;
	size_t len, cap;
	bool oom;
};

static void add(struct text *t, const char *key, const char *val)
{
	size_t need = strlen(key) + 1 + strlen(val) + 2;
	if (t->oom)
		return;
	if (t->len + need > t->cap) {
		size_t cap = (t->cap + need) * 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->oom = true;
			return;
		}
		t->s = s, t->cap = cap;
	}
	t->len += (size_t)sprintf(t->s + t->len, "%s %s\n", key, val);
}

/* A rule for path, canonical; a path that does not exist is left out, as
 * --landlock leaves out its missing defaults. */
static void add_path(struct text *t, const char *key, const char *path)
{
	char real[PATH_MAX];
	if (realpath(path, real))
		add(t, key, real);
}

static int policy_text(const struct sl_run *run, enum sandlock_guard g, const char *script,
		       struct text *t, struct sandlock_result *res)
{
	const struct sandlock_policy *p = run->p;
	const char *wd = p->workdir ? p->workdir : ".";
	if (!p->ro.n && !p->rw.n) {
		for (const char *const *d = sl_landlock_default_ro; *d; d++)
			add_path(t, "r", *d);
		for (const char *const *d = sl_landlock_default_rw; *d; d++)
			add_path(t, "w", *d);
		char real[PATH_MAX];
		if (realpath(wd, real) && !strcmp(real, "/")) {
			sl_seterr(res, "--guard: the working directory is /, which would allow "
				       "writing everywhere; give the program one with --workdir DIR "
				       "(or name what it may use with --ro/--rw)");
			return SANDLOCK_EINVAL;
		}
		add_path(t, "w", wd);
	}
	for (size_t i = 0; i < p->ro.n + p->rw.n; i++) {
		const char *path = i < p->ro.n ? p->ro.v[i] : p->rw.v[i - p->ro.n];
		add_path(t, i < p->ro.n ? "r" : "w", strcmp(path, "@workdir") ? path : wd);
	}
	if (run->tmp_dir)
		add_path(t, "w", run->tmp_dir);
	add(t, "r", "/proc/self");
	/* the program itself, where the interpreter reads it */
	char sbuf[PATH_MAX];
	if (script && (script = in_workdir(run, script, sbuf, sizeof(sbuf)))) {
		char real[PATH_MAX];
		if (realpath(script, real)) {
			char *slash = strrchr(real, '/');
			if (slash && slash != real)
				*slash = 0;
			add(t, "r", real);
		}
	}
	add(t, "net", p->no_network ? "0" : "1");
	add(t, "fork", p->no_fork ? "0" : "1");
	/* an interpreter's guard cannot follow into another program */
	add(t, "exec", g == SANDLOCK_GUARD_PRELOAD && !p->no_exec ? "1" : "0");
	if (t->oom) {
		sl_seterr(res, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	return 0;
}

/* `node --version`, once per run that asks for the Node guard. */
static int node_version(const char *node, char **envp, int *major, int *minor)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = { (char *)node, "--version", NULL };
	pid_t pid;
	int r = posix_spawn(&pid, node, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (r != 0) {
		close(pfd[0]);
		errno = r;
		return -1;
	}
	char buf[64];
	size_t n = 0;
	struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
	while (n < sizeof(buf) - 1 && poll(&pf, 1, 5000) > 0) {
		ssize_t k = read(pfd[0], buf + n, sizeof(buf) - 1 - n);
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	buf[n] = 0;
	close(pfd[0]);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return sl_guard_node_version(buf, major, minor);
}

/* The library, sealed: the program can map it, not change it. */
static int preload_memfd(void)
{
	int fd = memfd_create("sandlock-preload", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	size_t len = (size_t)(sl_preload_so_end - sl_preload_so);
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, sl_preload_so + off, len - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* argv with words inserted after argv[0] */
static char **insert_args(char *const *argv, const char *const *words, int nwords)
{
	int n = 0;
	while (argv[n])
		n++;
	char **v = calloc((size_t)(n + nwords + 1), sizeof(*v));
	if (!v)
		return NULL;
	v[0] = argv[0];
	for (int i = 0; i < nwords; i++)
		v[1 + i] = (char *)words[i];
	for (int i = 1; i < n; i++)
		v[nwords + i] = argv[i];
	return v;
}

/* A guard that cannot be had: the run goes on without it where the caller
 * allowed a weaker run, else fails. */
static int unavailable(const struct sl_run *run, struct sandlock_result *res, char *why,
		       size_t whylen, const char *reason)
{
	if (run->p->guard == SANDLOCK_GUARD_AUTO || run->p->best_effort) {
		snprintf(why, whylen, "%s", reason);
		return 0;
	}
	sl_seterr(res, "--guard: %s (--best-effort runs without it, reported)", reason);
	return SANDLOCK_EINVAL;
}

int sl_guard_prepare(struct sl_run *run, struct sandlock_result *res, char *why, size_t whylen)
{
	const struct sandlock_policy *p = run->p;
	why[0] = 0;
	if (p->guard == SANDLOCK_GUARD_NONE)
		return 0;
	enum interp k = interpreter_of(run->argv[0]);
	char fbuf[PATH_MAX];
	const char *file = exec_file(run, fbuf, sizeof(fbuf));
	enum sandlock_guard g = p->guard;
	if (g == SANDLOCK_GUARD_AUTO)
		g = k == I_PYTHON ? SANDLOCK_GUARD_PYTHON
		    : k == I_NODE ? SANDLOCK_GUARD_NODE : SANDLOCK_GUARD_PRELOAD;
	/* Not found where the program will look: its exec fails and the run
	 * says so, unless we looked in the wrong place; either way a guard
	 * that was asked for is not silently gone. */
	if (!file)
		return unavailable(run, res, why, whylen, "the command was not found or is not "
				   "executable in the working directory, so no guard could be "
				   "chosen for it");
	if (g == SANDLOCK_GUARD_PYTHON && k != I_PYTHON)
		return unavailable(run, res, why, whylen, "python: the command is not a Python "
				   "interpreter (python3 SCRIPT)");
	if (g == SANDLOCK_GUARD_NODE && k != I_NODE)
		return unavailable(run, res, why, whylen, "node: the command is not Node.js (node SCRIPT)");
	if (g == SANDLOCK_GUARD_PRELOAD && dynamic_target(run, file) != 1)
		return unavailable(run, res, why, whylen, "preload: the command is not a dynamically "
				   "linked program (LD_PRELOAD cannot reach it)");

	struct text t = { 0 };
	int err = policy_text(run, g, k != I_OTHER ? script_of(run->argv, k) : NULL, &t, res);
	if (err)
		goto out;
	if (g == SANDLOCK_GUARD_NODE) {
		int major = 0, minor = 0;
		if (node_version(file, run->envp, &major, &minor) != 0) {
			err = unavailable(run, res, why, whylen, "node: cannot tell its version");
			goto out;
		}
		run->guard_argv = sl_guard_node_argv(t.s, major, minor, run->argv);
		if (!run->guard_argv) {
			if (errno == ENOTSUP)
				err = unavailable(run, res, why, whylen,
						  "node: its permission model leaves WASI or addons open "
						  "before 20.16 (22.3; 21.x)");
			else if (errno == EINVAL)
				sl_seterr(res, "--guard node: a rule path that is not absolute or holds "
					       "'*', or a Node option in the command that widens the "
					       "permissions (--allow-*, --no-permission)"),
					err = SANDLOCK_EINVAL;
			else
				sl_seterr(res, "out of memory"), err = SANDLOCK_ENOMEM;
			goto out;
		}
		run->guard_argv_owned = true;
		/* NODE_OPTIONS can widen the model (--allow-fs-read=*); the
		 * flags carry the policy, which Node could not hide */
		sl_environ_unset(run->envp, "NODE_OPTIONS");
		res->layers |= SANDLOCK_LAYER_GUARD_NODE;
		goto out;
	} else if (g == SANDLOCK_GUARD_PYTHON) {
		/* isolated: no PYTHON* variables, user site or cwd on the
		 * path, which could run code before the hook */
		const char *words[3] = { "-I", "-c", sl_guard_python_src };
		if (!(run->guard_argv = insert_args(run->argv, words, 3))) {
			sl_seterr(res, "out of memory");
			err = SANDLOCK_ENOMEM;
			goto out;
		}
		res->layers |= SANDLOCK_LAYER_GUARD_PYTHON;
	} else {
		if ((run->preload_fd = preload_memfd()) < 0) {
			sl_seterr(res, "--guard preload: cannot make its memfd: %s", strerror(errno));
			err = SANDLOCK_ESYSTEM;
			goto out;
		}
		const char *old = NULL;
		for (char **e = run->envp; *e; e++)
			if (!strncmp(*e, "LD_PRELOAD=", 11))
				old = *e + 11;
		char val[64 + 4096];
		snprintf(val, sizeof(val), "/proc/self/fd/%d%s%s", PRELOAD_FD, old && *old ? ":" : "",
			 old ? old : "");
		if (sl_environ_set(&run->envp, "LD_PRELOAD", val) != 0) {
			sl_seterr(res, "out of memory");
			err = SANDLOCK_ENOMEM;
			goto out;
		}
		res->layers |= SANDLOCK_LAYER_PRELOAD;
	}
	if (sl_environ_set(&run->envp, "SANDLOCK_GUARD_POLICY", t.s) != 0) {
		sl_seterr(res, "out of memory");
		err = SANDLOCK_ENOMEM;
	}
out:
	free(t.s);
	return err;
}

void sl_guard_release(struct sl_run *run)
{
	if (run->preload_fd >= 0)
		close(run->preload_fd);
	run->preload_fd = -1;
	if (run->guard_argv_owned)
		sl_guard_node_argv_free(run->guard_argv);
	else
		free(run->guard_argv);
	run->guard_argv = NULL;
}
