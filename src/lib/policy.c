/* Policies: defaults, owned string lists, validation; names of things. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sandlock_policy_init(struct sandlock_policy *p)
{
	memset(p, 0, sizeof(*p));
	/* the original tool's defaults */
	p->cpu_ms = 5000;
	p->mem_mb = 256;
	p->fsize_mb = 10;
	p->nofile = 100;
	p->nproc = 10;
	p->stack_mb = 8;
	p->uid = 65534;
	p->gid = 65534;
	p->unshare = SANDLOCK_UNSHARE_DEFAULT;
	p->violation = SANDLOCK_VIOLATION_KILL;
	p->stdin_fd = p->stdout_fd = p->stderr_fd = -1;
	p->cancel_fd = -1;
	p->hangup_fd = -1;
}

static void strlist_free(struct sandlock_strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int strlist_add(struct sandlock_strlist *l, const char *s)
{
	if (l->n + 2 > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		char **v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return SANDLOCK_ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	if (!(l->v[l->n] = strdup(s)))
		return SANDLOCK_ENOMEM;
	l->v[++l->n] = NULL;
	return SANDLOCK_OK;
}

void sandlock_policy_release(struct sandlock_policy *p)
{
	strlist_free(&p->env);
	strlist_free(&p->keep_env);
	strlist_free(&p->ro);
	strlist_free(&p->rw);
	strlist_free(&p->binds);
	strlist_free(&p->tmpfs);
	free(p->workdir);
	free(p->hostname);
	free(p->stdin_path);
	free(p->stdout_path);
	free(p->stderr_path);
	free(p->cgroup);
	free(p->wasm_dir);
	p->workdir = p->stdin_path = p->stdout_path = p->stderr_path = p->cgroup = NULL;
	p->wasm_dir = NULL;
}

int sandlock_policy_add_env(struct sandlock_policy *p, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return SANDLOCK_EINVAL;
	return strlist_add(&p->env, kv);
}

int sandlock_policy_add_keep_env(struct sandlock_policy *p, const char *pattern)
{
	if (!*pattern)
		return SANDLOCK_EINVAL;
	return strlist_add(&p->keep_env, pattern);
}

int sandlock_policy_add_ro(struct sandlock_policy *p, const char *path)
{
	if (!*path)
		return SANDLOCK_EINVAL;
	return strlist_add(&p->ro, path);
}

int sandlock_policy_add_rw(struct sandlock_policy *p, const char *path)
{
	if (!*path)
		return SANDLOCK_EINVAL;
	return strlist_add(&p->rw, path);
}

int sandlock_policy_add_bind(struct sandlock_policy *p, const char *src, const char *dst)
{
	char *kv;
	if (!src || !dst || src[0] != '/' || dst[0] != '/' || strchr(src, ':') || strchr(dst, ':') ||
	    !strcmp(dst, "/") || asprintf(&kv, "%s:%s", src, dst) < 0)
		return SANDLOCK_EINVAL;
	int r = strlist_add(&p->binds, kv);
	free(kv);
	return r;
}

int sandlock_policy_add_tmpfs(struct sandlock_policy *p, const char *dst)
{
	char buf[4096];
	size_t l = dst ? strlen(dst) : 0;
	if (!dst || dst[0] != '/' || l >= sizeof(buf))
		return SANDLOCK_EINVAL;
	/* one spelling ("/dev/" is "/dev"): the rules and mounts match it */
	while (l > 1 && dst[l - 1] == '/')
		l--;
	memcpy(buf, dst, l);
	buf[l] = 0;
	if (!strcmp(buf, "/"))
		return SANDLOCK_EINVAL;
	return strlist_add(&p->tmpfs, buf);
}

int sandlock_policy_set_str(char **field, const char *value)
{
	char *s = value ? strdup(value) : NULL;
	if (value && !s)
		return SANDLOCK_ENOMEM;
	free(*field);
	*field = s;
	return SANDLOCK_OK;
}

/* /proc and /sys are the kernel's views, not places for files */
bool sl_tmpfs_dst_ok(const char *d)
{
	size_t l = strlen(d);
	return d[0] == '/' && strcmp(d, "/") && l < 4096 && !strstr(d, "/../") &&
	       !(l >= 3 && !strcmp(d + l - 3, "/..")) && !sl_path_under(d, "/proc") &&
	       !sl_path_under(d, "/sys");
}

#define MB_MAX (UINT64_MAX >> 21) /* MB values that still fit in bytes */

int sandlock_policy_validate(const struct sandlock_policy *p, char *err, size_t len)
{
	if (p->mem_mb > MB_MAX || p->fsize_mb > MB_MAX || p->stack_mb > MB_MAX ||
	    p->disk_mb > MB_MAX) {
		snprintf(err, len, "a size limit is too large");
		return SANDLOCK_EINVAL;
	}
	if (p->violation != SANDLOCK_VIOLATION_KILL && p->violation != SANDLOCK_VIOLATION_ERRNO) {
		snprintf(err, len, "unknown violation mode");
		return SANDLOCK_EINVAL;
	}
	if (p->hostname && (!p->hostname[0] || strlen(p->hostname) > 64)) {
		snprintf(err, len, "a host name is 1 to 64 bytes");
		return SANDLOCK_EINVAL;
	}
	if (p->binds.n > SL_MAX_BINDS) {
		snprintf(err, len, "at most %d bind mounts", SL_MAX_BINDS);
		return SANDLOCK_EINVAL;
	}
	for (size_t i = 0; i < p->binds.n; i++) {
		const char *b = p->binds.v[i], *c = strchr(b, ':');
		if (b[0] != '/' || !c || c[1] != '/' || strchr(c + 1, ':') || !strcmp(c + 1, "/")) {
			snprintf(err, len, "a bind mount is SRC:DST, two absolute paths");
			return SANDLOCK_EINVAL;
		}
	}
	if (p->tmpfs.n > SL_MAX_TMPFS) {
		snprintf(err, len, "at most %d tmpfs mounts", SL_MAX_TMPFS);
		return SANDLOCK_EINVAL;
	}
	for (size_t i = 0; i < p->tmpfs.n; i++)
		if (!sl_tmpfs_dst_ok(p->tmpfs.v[i])) {
			snprintf(err, len, "a tmpfs mount is an absolute path other than /, without "
				 "\"..\", outside /proc and /sys: '%s'", p->tmpfs.v[i]);
			return SANDLOCK_EINVAL;
		}
	if ((p->hostname || p->binds.n || p->tmpfs.n) && p->unshare == SANDLOCK_UNSHARE_OFF) {
		snprintf(err, len, "a host name, a bind mount or a tmpfs mount needs a namespace "
			 "of the run's own, and --unshare is off");
		return SANDLOCK_EINVAL;
	}
	if (p->unshare > SANDLOCK_UNSHARE_DEFAULT) {
		snprintf(err, len, "unknown unshare mode");
		return SANDLOCK_EINVAL;
	}
	if (p->uid_pool_first && (p->uid_pool_last < p->uid_pool_first ||
				  p->uid_pool_last == (uid_t)-1)) {
		snprintf(err, len, "invalid uid pool %u-%u", p->uid_pool_first, p->uid_pool_last);
		return SANDLOCK_EINVAL;
	}
	if (p->require & ~((1u << SANDLOCK_LAYER_COUNT) - 1)) {
		snprintf(err, len, "unknown layer in require");
		return SANDLOCK_EINVAL;
	}
	if (p->cgroup && p->cgroup[0] != '/' && strcmp(p->cgroup, "auto")) {
		snprintf(err, len, "the cgroup must be an absolute path or \"auto\": %s", p->cgroup);
		return SANDLOCK_EINVAL;
	}
	if (p->no_landlock && (p->landlock || p->strict || p->ro.n || p->rw.n)) {
		snprintf(err, len, "--no-landlock contradicts --landlock, --strict, --ro, --rw "
				   "and a profile's file rules");
		return SANDLOCK_EINVAL;
	}
	for (size_t i = 0; i < p->env.n; i++)
		if (!strchr(p->env.v[i], '=')) {
			snprintf(err, len, "env entry without '=': %s", p->env.v[i]);
			return SANDLOCK_EINVAL;
		}
	return SANDLOCK_OK;
}

const char *sandlock_strerror(int err)
{
	switch (err) {
	case SANDLOCK_OK: return "success";
	case SANDLOCK_EINVAL: return "invalid policy";
	case SANDLOCK_ENOSYS: return "a required layer is not available";
	case SANDLOCK_ESETUP: return "sandbox setup failed";
	case SANDLOCK_ENOMEM: return "out of memory";
	case SANDLOCK_ESYSTEM: return "system call failed";
	}
	return "unknown error";
}

static const char *const verdicts[SANDLOCK_VERDICT_COUNT] = {
	"ok", "runtime_error", "signaled", "cpu_limit", "wall_limit",
	"memory_limit", "file_size_limit", "output_limit", "syscall_blocked",
	"setup_failed",
};

const char *sandlock_verdict_name(enum sandlock_verdict v)
{
	return (unsigned)v < SANDLOCK_VERDICT_COUNT ? verdicts[v] : "unknown";
}

const char *sandlock_accounting_name(enum sandlock_accounting a)
{
	switch (a) {
	case SANDLOCK_ACCOUNTING_SUPERVISOR: return "supervisor";
	case SANDLOCK_ACCOUNTING_CGROUP: return "cgroup";
	case SANDLOCK_ACCOUNTING_CGROUP_CPU: return "cgroup_cpu";
	default: return "none";
	}
}

static const char *const layers[SANDLOCK_LAYER_COUNT] = {
	"seccomp", "seccomp_notify", "no_new_privs", "rlimits", "landlock",
	"landlock_net", "landlock_scope", "userns", "pidns", "mountns", "ipcns",
	"netns", "utsns", "privdrop", "pdeathsig", "isolate_tmp", "strict",
	"watchdog", "guard_python", "guard_node", "preload", "wasm", "bind_root",
};

const char *sandlock_layer_name(unsigned bit)
{
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		if (bit == 1u << i)
			return layers[i];
	return NULL;
}

unsigned sandlock_layer_from_name(const char *name)
{
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		if (!strcmp(name, layers[i]))
			return 1u << i;
	/* names users type */
	if (!strcmp(name, "landlock-net")) return SANDLOCK_LAYER_LANDLOCK_NET;
	if (!strcmp(name, "landlock-scope")) return SANDLOCK_LAYER_LANDLOCK_SCOPE;
	if (!strcmp(name, "seccomp-notify")) return SANDLOCK_LAYER_SECCOMP_NOTIFY;
	if (!strcmp(name, "isolate-tmp")) return SANDLOCK_LAYER_ISOLATE_TMP;
	if (!strcmp(name, "guard-python")) return SANDLOCK_LAYER_GUARD_PYTHON;
	if (!strcmp(name, "guard-node")) return SANDLOCK_LAYER_GUARD_NODE;
	return 0;
}

void sl_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
}

/* What a guard is worth, in the report beside its name. */
const char *sl_guard_label(unsigned layer_bit)
{
	switch (layer_bit) {
	case SANDLOCK_LAYER_GUARD_PYTHON:
		return "an audit hook inside the interpreter: not a security boundary";
	case SANDLOCK_LAYER_GUARD_NODE:
		return "Node's permission model: no network rules; links already present are followed";
	case SANDLOCK_LAYER_PRELOAD:
		return "libc hooks: bypassed by raw system calls and static linking";
	}
	return NULL;
}

static const char *const steps[SL_STEP_COUNT] = {
	[SL_STEP_NONE] = "none", [SL_STEP_SIGNALS] = "signals",
	[SL_STEP_SESSION] = "new session", [SL_STEP_PDEATHSIG] = "parent-death signal",
	[SL_STEP_PARENT_GONE] = "parent exited", [SL_STEP_NO_NEW_PRIVS] = "no-new-privs",
	[SL_STEP_RLIMITS] = "rlimits", [SL_STEP_USERNS] = "user namespace",
	[SL_STEP_MOUNTS] = "mounts", [SL_STEP_HOSTNAME] = "host name", [SL_STEP_WORKDIR] = "working directory",
	[SL_STEP_PRIVDROP] = "privilege drop", [SL_STEP_LANDLOCK] = "landlock",
	[SL_STEP_SECCOMP] = "seccomp", [SL_STEP_FDS] = "file descriptors", [SL_STEP_EXEC] = "exec",
};

const char *sl_step_name(enum sl_step s)
{
	return (unsigned)s < SL_STEP_COUNT ? steps[s] : "unknown";
}

void sl_seterr(struct sandlock_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
}
