/*
 * The WebAssembly backend (--runtime wasm).  A python3 command runs as
 * CPython compiled to wasm32-wasi and turned into C by wasm2c, linked with
 * our WASI host (src/wasm); a node command or a .js program runs the same
 * way as Duktape with a small Node-like surface (tools/wasm/js): one more
 * program under the same supervisor,
 * with every layer the host gives besides (defence in depth: an escape
 * from the WebAssembly sandbox still meets seccomp and Landlock).  On a
 * host that gives no kernel layer (serverless), the WASI host is the
 * boundary: the guest has no path but those given to it, no socket, no
 * process, no /proc.
 *
 * What the guest sees: its arguments; a clean environment, --clean-env
 * or not (sl_environ_wasm: PATH, HOME, LANG, --keep-env's, --env's); 0, 1, 2; the working directory
 * as its "/" (read-write; read-only with --ro @workdir); Python's standard
 * library, read-only and precompiled, at /usr/local/lib (JavaScript has
 * none); each --ro/--rw directory at its own path.  --mem is its memory's page limit, below RLIMIT_DATA so that the
 * guest's own allocation fails first (a MemoryError), and the host then
 * dies by SL_WASM_MEMORY_SIGNAL, which the supervisor reads as
 * memory_limit, even when the program caught the error.  --disk is what
 * the guest's files may grow by in all, counted by the host (disk.c):
 * past it a write is ENOSPC, as on the full tmpfs a native run has, and
 * no mount namespace is needed for it.
 *
 * Where the artifacts are (`make wasm`): --wasm-dir, else
 * $SANDLOCK_WASM_DIR, else "wasm" next to the running executable (the
 * build directory's), else ../lib/sandlock/wasm from it (an install).
 */
#include "backend.h"
#include "wasm/glue.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the guest's standard library: CPython's default prefix, found without
 * any environment variable */
#define GUEST_STDLIB "/usr/local/lib"
/* what the WASI host needs above the guest's memory under RLIMIT_DATA:
 * its own heap and data (about 2 MB), with room */
#define HOST_RESERVE_MB 16
#define WASM_PAGE_KB 64

static bool artifacts_in(const char *dir, char *real, size_t size)
{
	char p[PATH_MAX + 64];
	char r[PATH_MAX];
	if (!realpath(dir, r))
		return false;
	snprintf(p, sizeof(p), "%s/python", r);
	if (access(p, X_OK) != 0)
		return false;
	snprintf(p, sizeof(p), "%s/lib/python3.11/os.py", r);
	if (access(p, R_OK) != 0)
		return false;
	snprintf(real, size, "%s", r);
	return true;
}

int sl_wasm_find(const char *opt, char *dir, size_t size)
{
	if (opt) {
		if (artifacts_in(opt, dir, size))
			return 0;
		snprintf(dir, size, "no artifacts in %s (--wasm-dir)", opt);
		return -1;
	}
	const char *env = getenv("SANDLOCK_WASM_DIR");
	if (env && *env) {
		if (artifacts_in(env, dir, size))
			return 0;
		snprintf(dir, size, "no artifacts in %s (SANDLOCK_WASM_DIR)", env);
		return -1;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			char c[PATH_MAX + 32];
			*slash = '\0';
			snprintf(c, sizeof(c), "%s/wasm", exe);
			if (artifacts_in(c, dir, size))
				return 0;
			snprintf(c, sizeof(c), "%s/../lib/sandlock/wasm", exe);
			if (artifacts_in(c, dir, size))
				return 0;
		}
	}
	snprintf(dir, size, "no artifacts next to sandlock or in SANDLOCK_WASM_DIR");
	return -1;
}

/* python, python3, python3.11 */
static bool python_command(const char *cmd)
{
	const char *b = strrchr(cmd, '/');
	b = b ? b + 1 : cmd;
	if (!strcmp(b, "python"))
		return true;
	return !strncmp(b, "python3", 7) && strspn(b + 7, "0123456789.") == strlen(b + 7);
}

/* node, nodejs */
static bool node_command(const char *cmd)
{
	const char *b = strrchr(cmd, '/');
	b = b ? b + 1 : cmd;
	return !strcmp(b, "node") || !strcmp(b, "nodejs");
}

static bool js_program(const char *cmd)
{
	size_t n = strlen(cmd);
	return n > 3 && !strcmp(cmd + n - 3, ".js");
}

/* the JavaScript guest takes a script, -e CODE, or its program on stdin
 * (- or nothing); Node's other options mean nothing to it: NULL, or what
 * is refused */
static const char *node_args_refused(char *const *argv)
{
	const char *a = argv[1];
	if (!a || !strcmp(a, "-") || a[0] != '-')
		return NULL;
	if ((!strcmp(a, "-e") || !strcmp(a, "--eval")) && argv[2])
		return NULL;
	return a;
}

static char *dup_or_null(const char *s, bool *oom)
{
	char *d = strdup(s);
	if (!d)
		*oom = true;
	return d;
}

int sl_wasm_prepare(struct sl_run *run, struct sandlock_result *res)
{
	const struct sandlock_policy *p = run->p;
	char *const *argv = run->argv;
	/* a .js program is run as `node PROGRAM ARG...` */
	bool js = js_program(argv[0]), node = js || node_command(argv[0]);
	if (!node && !python_command(argv[0])) {
		sl_seterr(res, "--runtime wasm runs python3 and node commands and .js programs; '%s' is none",
			  argv[0]);
		return SANDLOCK_EINVAL;
	}
	const char *refused = node && !js ? node_args_refused(argv) : NULL;
	if (refused) {
		sl_seterr(res, "--runtime wasm: node option '%s' is not supported (a script, -e CODE, or - "
			       "for a program on stdin)", refused);
		return SANDLOCK_EINVAL;
	}
	/* the host passes its environment to the guest: the caller's
	 * (a serverless platform's credentials) never reaches either */
	char **env = sl_environ_wasm(p);
	if (!env) {
		sl_seterr(res, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	sl_environ_free(run->envp);
	run->envp = env;
	char dir[PATH_MAX];
	if (sl_wasm_find(p->wasm_dir, dir, sizeof(dir)) != 0) {
		sl_seterr(res, "--runtime wasm: %s", dir);
		return SANDLOCK_ENOSYS;
	}
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dir, node ? "node" : "python");
	if (access(path, X_OK) != 0) {
		sl_seterr(res, "--runtime wasm: no %s in %s (artifacts of an older make wasm: run it again)",
			  node ? "node" : "python", dir);
		return SANDLOCK_ENOSYS;
	}
	/* the guest's "/" is the working directory: never the host's */
	char wd[PATH_MAX];
	const char *wdp = p->workdir ? p->workdir : ".";
	if (realpath(wdp, wd) && !strcmp(wd, "/")) {
		sl_seterr(res, "--runtime wasm: the working directory is /, which would give the guest "
			       "the whole file system; give the program one with --workdir DIR");
		return SANDLOCK_EINVAL;
	}
	char pages[16] = "";
	if (p->mem_mb) {
		uint64_t kb = p->mem_mb * 1024;
		/* CPython starts with 10 MiB of its own, Duktape with 1 */
		int own = node ? 4 : 12;
		if (p->mem_mb <= (uint64_t)(HOST_RESERVE_MB + own)) {
			sl_seterr(res, "--runtime wasm needs --mem above %d MB", HOST_RESERVE_MB + own);
			return SANDLOCK_EINVAL;
		}
		uint64_t n = (kb - HOST_RESERVE_MB * 1024) / WASM_PAGE_KB;
		snprintf(pages, sizeof(pages), "%llu", (unsigned long long)(n > 65536 ? 65536 : n));
	}
	size_t nargs = 0;
	while (argv[nargs])
		nargs++;
	size_t ndirs = p->ro.n + p->rw.n;
	/* exe, --pages N, --disk N, --ro lib G, --rw . /, 3 per directory, --, (node,) argv */
	char **v = calloc(1 + 2 + 2 + 3 + 3 + 3 * ndirs + 1 + 1 + nargs + 1, sizeof(char *));
	if (!v) {
		sl_seterr(res, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	bool oom = false;
	size_t k = 0;
	v[k++] = dup_or_null(path, &oom);
	if (pages[0]) {
		v[k++] = dup_or_null("--pages", &oom);
		v[k++] = dup_or_null(pages, &oom);
	}
	if (p->disk_mb) {
		char mb[24];
		snprintf(mb, sizeof(mb), "%llu", (unsigned long long)p->disk_mb);
		v[k++] = dup_or_null("--disk", &oom);
		v[k++] = dup_or_null(mb, &oom);
	}
	char lib[PATH_MAX];
	snprintf(path, sizeof(path), "%s/lib", dir);
	if (node) {
		lib[0] = '\0';
	} else if (!realpath(path, lib)) {
		sl_seterr(res, "--runtime wasm: %s: %s", path, strerror(errno));
		for (size_t j = 0; j < k; j++)
			free(v[j]);
		free(v);
		return SANDLOCK_ENOSYS;
	}
	if (!node) {
		v[k++] = dup_or_null("--ro", &oom);
		v[k++] = dup_or_null(lib, &oom);
		v[k++] = dup_or_null(GUEST_STDLIB, &oom);
	}
	/* the working directory: the host starts in it (spawn.c's chdir);
	 * read-only where the caller says --ro @workdir */
	bool wd_ro = false;
	for (size_t i = 0; i < p->ro.n; i++)
		wd_ro |= !strcmp(p->ro.v[i], "@workdir");
	v[k++] = dup_or_null(wd_ro ? "--ro" : "--rw", &oom);
	v[k++] = dup_or_null(".", &oom);
	v[k++] = dup_or_null("/", &oom);
	run->wasm_argv = v;
	for (size_t i = 0; i < ndirs; i++) {
		bool ro = i < p->ro.n;
		const char *d = ro ? p->ro.v[i] : p->rw.v[i - p->ro.n];
		if (!strcmp(d, "@workdir"))
			continue; /* it is the guest's "/" */
		char real[PATH_MAX];
		struct stat sb;
		errno = 0;
		if (!realpath(d, real) || stat(real, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			sl_seterr(res, "--runtime wasm: --%s %s: %s", ro ? "ro" : "rw", d,
				  errno ? strerror(errno) : "only directories can be given to the guest");
			run->wasm_argc = k;
			sl_wasm_release(run);
			return SANDLOCK_EINVAL;
		}
		v[k++] = dup_or_null(ro ? "--ro" : "--rw", &oom);
		v[k++] = dup_or_null(real, &oom);
		v[k++] = dup_or_null(real, &oom);
	}
	v[k++] = dup_or_null("--", &oom);
	if (js)
		v[k++] = dup_or_null("node", &oom);
	for (size_t i = 0; i < nargs; i++)
		v[k++] = dup_or_null(argv[i], &oom);
	v[k] = NULL;
	run->wasm_argc = k;
	run->wasm_paths[0] = dup_or_null(dir, &oom);
	if (lib[0])
		run->wasm_paths[1] = dup_or_null(lib, &oom);
	if (oom) {
		sl_wasm_release(run);
		sl_seterr(res, "out of memory");
		return SANDLOCK_ENOMEM;
	}
	run->argv = v;
	run->exec_paths[0] = v[0];
	run->n_exec_paths = 1;
	res->layers |= SANDLOCK_LAYER_WASM;
	return 0;
}

void sl_wasm_release(struct sl_run *run)
{
	if (run->wasm_argv) {
		for (size_t i = 0; i < run->wasm_argc; i++)
			free(run->wasm_argv[i]);
		free(run->wasm_argv);
		run->wasm_argv = NULL;
		run->wasm_argc = 0;
	}
	for (int i = 0; i < 2; i++) {
		free(run->wasm_paths[i]);
		run->wasm_paths[i] = NULL;
	}
}
