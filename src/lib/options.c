/*
 * Policy options by name: the long options of sandlock(1) that shape a run,
 * checked and applied as the command line applies them.  The command line,
 * profiles (profiles.c) and the bindings all come through here, so a value
 * means the same thing, and is refused with the same message, wherever it
 * is written.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A size: a whole number in the option's own unit (megabytes, or bytes for
 * --max-output), or a number with a unit, binary multiples: 10000B, 64k
 * (64K, 64KB, 64KiB), 1.5M, 2G, 1T.  Fractions of a byte round up (a
 * limit given is a limit).  Bytes in *out, at most max. */
static int parse_size(const char *s, uint64_t unit, uint64_t max, uint64_t *out)
{
	static const struct { const char *sfx; unsigned shift; } units[] = {
		{ "B", 0 }, { "k", 10 }, { "K", 10 }, { "KB", 10 }, { "KiB", 10 },
		{ "M", 20 }, { "MB", 20 }, { "MiB", 20 }, { "G", 30 }, { "GB", 30 },
		{ "GiB", 30 }, { "T", 40 }, { "TB", 40 }, { "TiB", 40 },
	};
	size_t digits = strspn(s, "0123456789");
	size_t frac = s[digits] == '.' ? strspn(s + digits + 1, "0123456789") : 0;
	const char *sfx = s + digits + (s[digits] == '.' ? 1 + frac : 0);
	if (!digits || (s[digits] == '.' && !frac) || digits > 19 || frac > 9)
		return -1;
	unsigned shift = 0;
	bool has_unit = *sfx != 0;
	if (has_unit) {
		size_t i = 0, n = sizeof(units) / sizeof(units[0]);
		while (i < n && strcmp(sfx, units[i].sfx))
			i++;
		if (i == n)
			return -1;
		shift = units[i].shift;
	} else if (s[digits] == '.') {
		return -1; /* a fraction needs its unit */
	}
	char whole[24], part[16] = "";
	memcpy(whole, s, digits);
	whole[digits] = 0;
	uint64_t w, f = 0, fscale = 1;
	if (sl_parse_u64(whole, UINT64_MAX, &w) != 0)
		return -1;
	if (frac) {
		memcpy(part, s + digits + 1, frac);
		part[frac] = 0;
		if (sl_parse_u64(part, UINT64_MAX, &f) != 0)
			return -1;
		for (size_t i = 0; i < frac; i++)
			fscale *= 10;
	}
	uint64_t mult = has_unit ? 1ull << shift : unit;
	if (w > max / mult)
		return -1;
	uint64_t bytes = w * mult;
	/* f / fscale of the unit, rounded up: mult < 2^41 and f < 10^9 */
	unsigned __int128 fb = ((unsigned __int128)f * mult + fscale - 1) / fscale;
	if (fb > max - bytes)
		return -1;
	*out = bytes + (uint64_t)fb;
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
	p->uid_pool_off = true; /* an identity chosen: that one, always */
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

static int parse_uid_pool(const char *a, struct sandlock_policy *p)
{
	if (!strcmp(a, "off") || !strcmp(a, "auto")) {
		p->uid_pool_first = p->uid_pool_last = 0;
		p->uid_pool_off = !strcmp(a, "off");
		return 0;
	}
	uint64_t lo, hi;
	char buf[64];
	const char *dash = strchr(a, '-');
	if (!dash || (size_t)(dash - a) >= sizeof(buf))
		return -1;
	memcpy(buf, a, (size_t)(dash - a));
	buf[dash - a] = 0;
	if (sl_parse_u64(buf, 0xfffffffeull, &lo) != 0 || lo == 0 ||
	    sl_parse_u64(dash + 1, 0xfffffffeull, &hi) != 0 || hi < lo)
		return -1;
	p->uid_pool_first = (uid_t)lo;
	p->uid_pool_last = (uid_t)hi;
	return 0;
}

enum {
	P_CPU, P_MEM, P_FSIZE, P_NOFILE, P_NPROC, P_STACK, P_MAXOUT, P_TIMEOUT,
	P_DISK, P_CGROUP, P_NONET, P_NOFORK, P_NOEXEC, P_CLEANENV, P_NOJIT,
	P_ENV, P_KEEPENV, P_WORKDIR, P_USER, P_UIDPOOL, P_VIOLATION, P_LANDLOCK,
	P_RO, P_RW, P_ISOTMP, P_UNSHARE, P_STRICT, P_REQUIRE, P_BESTEFFORT,
	P_GUARD, P_NOLANDLOCK, P_RUNTIME, P_WASMDIR, P_STDIN, P_STDOUT, P_STDERR,
};

/* The table's order is the enum's. */
const struct sl_policy_option sl_policy_options[] = {
	{ "cpu", true, true }, { "mem", true, true }, { "fsize", true, true },
	{ "nofile", true, true }, { "nproc", true, true }, { "stack", true, true },
	{ "max-output", true, true }, { "timeout", true, true }, { "disk", true, true },
	{ "cgroup", true, true }, { "no-network", false, true }, { "no-fork", false, true },
	{ "no-exec", false, true }, { "clean-env", false, true }, { "no-jit", false, true },
	{ "env", true, true }, { "keep-env", true, true }, { "workdir", true, true },
	{ "user", true, true }, { "uid-pool", true, true }, { "violation", true, true },
	{ "landlock", false, true }, { "ro", true, true }, { "rw", true, true },
	{ "isolate-tmp", false, true }, { "unshare", true, true }, { "strict", false, true },
	{ "require", true, true }, { "best-effort", false, true }, { "guard", true, true },
	{ "no-landlock", false, true },
	{ "runtime", true, true }, { "wasm-dir", true, true },
	/* one run's files, not a profile's */
	{ "stdin", true, false }, { "stdout", true, false }, { "stderr", true, false },
	{ NULL, false, false },
};

/* Names the tools before us gave the same options: alias, option. */
const char *const sl_policy_aliases[][2] = {
	{ "allow", "rw" }, { "stdin-file", "stdin" }, { "stdout-file", "stdout" },
	{ "stderr-file", "stderr" }, { NULL, NULL },
};

const struct sl_policy_option *sl_policy_option(const char *name)
{
	for (size_t i = 0; sl_policy_aliases[i][0]; i++)
		if (!strcmp(name, sl_policy_aliases[i][0]))
			name = sl_policy_aliases[i][1];
	for (const struct sl_policy_option *o = sl_policy_options; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return SANDLOCK_EINVAL; } while (0)

int sandlock_policy_set(struct sandlock_policy *p, const char *name, const char *a,
			char *err, size_t errlen)
{
	const struct sl_policy_option *o = name ? sl_policy_option(name) : NULL;
	if (!o)
		FAIL("unknown option '--%s' (see --help)", name ? name : "");
	if (o->value && !a)
		FAIL("option --%s needs a value", name);
	if (!o->value && a)
		FAIL("option --%s takes no value", name);
	const uint64_t MB_MAX = (1ull << 43) - 1; /* 8 EB: still fits in bytes */
	uint64_t v = 0;
	int id = (int)(o - sl_policy_options);
	switch (id) {
	case P_CPU:
		if (sl_parse_seconds_ms(a, &p->cpu_ms) != 0)
			FAIL("invalid value for --cpu: '%s' (seconds, e.g. 2 or 0.5)", a);
		{
			/* CPU time is counted in clock ticks: a limit below one
			 * would stop every program, silently, as cpu_limit */
			long hz = sysconf(_SC_CLK_TCK);
			uint64_t tick_ms = hz > 0 && hz <= 1000 ? (uint64_t)(1000 / hz) : 10;
			if (p->cpu_ms && p->cpu_ms < tick_ms)
				FAIL("--cpu %s is below the CPU clock's resolution (%llu ms here); "
				     "give at least %g, or 0 for no limit", a,
				     (unsigned long long)tick_ms, tick_ms / 1000.0);
		}
		break;
	case P_NOFILE: case P_NPROC: {
		uint64_t max = id == P_NOFILE ? (1ull << 20) : (1ull << 22);
		if (sl_parse_u64(a, max, &v) != 0)
			FAIL("invalid value for --%s: '%s' (a whole number from 0 to %llu)",
			     o->name, a, (unsigned long long)max);
		*(id == P_NOFILE ? &p->nofile : &p->nproc) = v;
		break;
	}
	case P_MAXOUT:
		if (parse_size(a, 1, 1ull << 62, &p->max_output) != 0)
			FAIL("invalid value for --max-output: '%s' (bytes, or a size such as 10k, "
			     "1.5M, 2G)", a);
		break;
	case P_FSIZE:
		if (parse_size(a, 1u << 20, MB_MAX << 20, &v) != 0)
			FAIL("invalid value for --fsize: '%s' (megabytes, or a size such as "
			     "10000B, 64k, 1.5M)", a);
		/* whole megabytes stay in fsize_mb, as a caller of the
		 * library sets it; anything else is exact in bytes */
		p->fsize_mb = (v + (1u << 20) - 1) >> 20;
		p->fsize_bytes = v % (1u << 20) ? v : 0;
		break;
	case P_MEM: case P_STACK: case P_DISK: {
		uint64_t max = id == P_DISK ? (1ull << 22) : MB_MAX;
		if (parse_size(a, 1u << 20, max << 20, &v) != 0 || (v & ((1u << 20) - 1)) ||
		    (id == P_DISK && !v))
			FAIL("invalid value for --%s: '%s' (whole megabytes%s: 256, or a size "
			     "such as 512M, 1.5G)", o->name, a, id == P_DISK ? ", 1 or more" : "");
		*(id == P_MEM ? &p->mem_mb : id == P_STACK ? &p->stack_mb : &p->disk_mb) = v >> 20;
		break;
	}
	case P_TIMEOUT:
		if (sl_parse_seconds_ms(a, &p->timeout_ms) != 0)
			FAIL("invalid value for --timeout: '%s' (seconds, e.g. 2 or 0.5)", a);
		break;
	case P_CGROUP:
		if (!strcmp(a, "off"))
			sandlock_policy_set_str(&p->cgroup, NULL);
		else if ((a[0] != '/' && strcmp(a, "auto")) ||
			 sandlock_policy_set_str(&p->cgroup, a) != 0)
			FAIL("invalid value for --cgroup: '%s' (an absolute path, auto or off)", a);
		break;
	case P_NONET: p->no_network = true; break;
	case P_NOFORK: p->no_fork = true; break;
	case P_NOEXEC: p->no_exec = true; break;
	case P_CLEANENV: p->clean_env = true; break;
	case P_NOJIT: p->no_jit = true; break;
	case P_ENV:
		if (sandlock_policy_add_env(p, a) != 0)
			FAIL("invalid value for --env: '%s' (NAME=VALUE)", a);
		break;
	case P_KEEPENV:
		if (sandlock_policy_add_keep_env(p, a) != 0)
			FAIL("invalid value for --keep-env: '%s'", a);
		break;
	case P_WORKDIR:
		if (!*a || sandlock_policy_set_str(&p->workdir, a) != 0)
			FAIL("invalid value for --workdir: '%s'", a);
		break;
	case P_USER:
		if (parse_user(a, p) != 0)
			FAIL("invalid value for --user: '%s' (UID[:GID], numeric, not 0)", a);
		break;
	case P_UIDPOOL:
		if (parse_uid_pool(a, p) != 0)
			FAIL("invalid value for --uid-pool: '%s' (FIRST-LAST, e.g. 60000-60999, auto or off)", a);
		break;
	case P_VIOLATION:
		if (!strcmp(a, "kill")) p->violation = SANDLOCK_VIOLATION_KILL;
		else if (!strcmp(a, "errno")) p->violation = SANDLOCK_VIOLATION_ERRNO;
		else FAIL("invalid value for --violation: '%s' (kill or errno)", a);
		break;
	case P_LANDLOCK: p->landlock = true; break;
	case P_RO: case P_RW:
		if ((id == P_RO ? sandlock_policy_add_ro(p, a) : sandlock_policy_add_rw(p, a)) != 0)
			FAIL("invalid value for --%s: '%s'", name, a);
		break;
	case P_NOLANDLOCK: p->no_landlock = true; break;
	case P_ISOTMP: p->isolate_tmp = true; break;
	case P_UNSHARE:
		if (!strcmp(a, "auto")) p->unshare = SANDLOCK_UNSHARE_AUTO;
		else if (!strcmp(a, "on")) p->unshare = SANDLOCK_UNSHARE_ON;
		else if (!strcmp(a, "off")) p->unshare = SANDLOCK_UNSHARE_OFF;
		else FAIL("invalid value for --unshare: '%s' (auto, on or off)", a);
		break;
	case P_STRICT: p->strict = true; p->landlock = true; break;
	case P_REQUIRE:
		if (parse_require(a, p) != 0)
			FAIL("invalid value for --require: '%s' (see --features for layer names)", a);
		break;
	case P_BESTEFFORT: p->best_effort = true; break;
	case P_GUARD: {
		static const char *const names[] = { "none", "auto", "python", "node", "preload" };
		size_t i = 0;
		while (i < sizeof(names) / sizeof(names[0]) && strcmp(a, names[i]))
			i++;
		if (i == sizeof(names) / sizeof(names[0]))
			FAIL("invalid value for --guard: '%s' (none, auto, python, node or preload)", a);
		p->guard = (enum sandlock_guard)i;
		break;
	}
	case P_RUNTIME:
		if (!strcmp(a, "native")) p->runtime = SANDLOCK_RUNTIME_NATIVE;
		else if (!strcmp(a, "wasm")) p->runtime = SANDLOCK_RUNTIME_WASM;
		else FAIL("invalid value for --runtime: '%s' (native or wasm)", a);
		break;
	case P_WASMDIR:
		if (!*a || sandlock_policy_set_str(&p->wasm_dir, a) != 0)
			FAIL("invalid value for --wasm-dir: '%s'", a);
		break;
	case P_STDIN: case P_STDOUT: case P_STDERR: {
		char **f = id == P_STDIN ? &p->stdin_path : id == P_STDOUT ? &p->stdout_path
									  : &p->stderr_path;
		if (!*a || sandlock_policy_set_str(f, a) != 0)
			FAIL("invalid value for --%s: '%s'", name, a);
		break;
	}
	}
	return SANDLOCK_OK;
}
