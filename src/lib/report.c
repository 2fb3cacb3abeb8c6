/* The machine-readable report: one JSON object on one line. */
#include "internal.h"
#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

/* limits.cpu_s: seconds as given (0.5, 2, 1.25): whole ones a number
 * without a point */
static json_t *seconds(uint64_t ms)
{
	if (ms % 1000 == 0)
		return sl_json_u64(ms / 1000);
	return json_real((double)ms / 1000);
}

json_t *sl_report_object(const struct sandlock_policy *p, const struct sandlock_result *r)
{
	json_t *o = json_object();
	bool ok = o != NULL;
#define SET(k, v) (ok = sl_json_set(o, k, v) && ok)
	SET("verdict", json_string(sandlock_verdict_name(r->verdict)));
	SET("status", json_integer(r->status));
	SET("exit_code", json_integer(r->exit_code));
	SET("signal", json_integer(r->signal));
	if (r->blocked_syscall[0]) {
		SET("blocked_syscall", sl_json_str(r->blocked_syscall));
		json_t *a = json_array();
		for (int i = 0; i < 6; i++)
			ok = a && json_array_append_new(a, sl_json_u64(r->blocked_args[i])) == 0 && ok;
		SET("blocked_args", a);
	} else {
		SET("blocked_syscall", json_null());
		SET("blocked_args", json_null());
	}
	SET("cpu_ms", sl_json_u64((r->user_us + r->sys_us) / 1000));
	SET("user_ms", sl_json_u64(r->user_us / 1000));
	SET("sys_ms", sl_json_u64(r->sys_us / 1000));
	SET("wall_ms", sl_json_u64(r->wall_us / 1000));
	SET("wall_us", sl_json_u64(r->wall_us));
	SET("peak_kb", sl_json_u64(r->peak_kb));
	SET("stdout_bytes", sl_json_u64(r->stdout_bytes));
	SET("stderr_bytes", sl_json_u64(r->stderr_bytes));
	SET("setup_us", sl_json_u64(r->setup_us));
	SET("run_us", sl_json_u64(r->run_us));
	SET("teardown_us", sl_json_u64(r->teardown_us));
	SET("accounting", json_string(sandlock_accounting_name(r->accounting)));
	SET("supervisor_cpu_ms", sl_json_u64(r->supervisor_cpu_us / 1000));
	json_t *l = json_object();
	ok = l != NULL && ok;
	/* fsize_mb rounded up where the limit is in bytes; fsize_bytes exact */
	uint64_t fsize = p->fsize_bytes ? p->fsize_bytes : p->fsize_mb << 20;
	ok = sl_json_set(l, "cpu_s", seconds(p->cpu_ms)) && ok;
	ok = sl_json_set(l, "mem_mb", sl_json_u64(p->mem_mb)) && ok;
	ok = sl_json_set(l, "fsize_mb", sl_json_u64((fsize + (1u << 20) - 1) >> 20)) && ok;
	ok = sl_json_set(l, "fsize_bytes", sl_json_u64(fsize)) && ok;
	ok = sl_json_set(l, "disk_mb", sl_json_u64(p->disk_mb)) && ok;
	ok = sl_json_set(l, "nofile", sl_json_u64(p->nofile)) && ok;
	ok = sl_json_set(l, "nproc", sl_json_u64(p->nproc)) && ok;
	ok = sl_json_set(l, "stack_mb", sl_json_u64(p->stack_mb)) && ok;
	ok = sl_json_set(l, "timeout_ms", sl_json_u64(p->timeout_ms)) && ok;
	ok = sl_json_set(l, "max_output", sl_json_u64(p->max_output)) && ok;
	SET("limits", l);
	json_t *layers = json_object();
	ok = layers != NULL && ok;
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		ok = sl_json_set(layers, sandlock_layer_name(1u << i),
				 json_boolean(r->layers & (1u << i))) && ok;
	SET("layers", layers);
	const unsigned guards[] = { SANDLOCK_LAYER_GUARD_PYTHON, SANDLOCK_LAYER_GUARD_NODE,
				    SANDLOCK_LAYER_PRELOAD };
	unsigned g = 0;
	for (size_t i = 0; i < sizeof(guards) / sizeof(guards[0]); i++)
		if (r->layers & guards[i])
			g = guards[i];
	if (g) {
		json_t *gj = json_object();
		ok = sl_json_set(gj, "name", sl_json_str(sandlock_layer_name(g))) && ok;
		ok = sl_json_set(gj, "label", sl_json_str(sl_guard_label(g))) && ok;
		SET("guard", gj);
	} else {
		SET("guard", json_null());
	}
	SET("backend", json_string((r->layers & SANDLOCK_LAYER_WASM) ? "wasm" : "native"));
	SET("missing", sl_json_str_or_null(r->missing));
	SET("uid", r->uid == SANDLOCK_UID_UNKNOWN ? json_null() : json_integer((unsigned)r->uid));
	SET("error", sl_json_str_or_null(r->error));
#undef SET
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int sandlock_report_json_buf(const struct sandlock_policy *p,
			     const struct sandlock_result *r, char **out, size_t *outlen)
{
	json_t *o = sl_report_object(p, r);
	int rc = o && sl_json_dump(o, SL_JSON_NEWLINE, out, outlen) == 0 ? 0 : SANDLOCK_ENOMEM;
	json_decref(o);
	return rc;
}

int sandlock_report_json(const struct sandlock_policy *p,
			 const struct sandlock_result *r, int fd)
{
	char *buf;
	size_t len;
	int ret = sandlock_report_json_buf(p, r, &buf, &len);
	if (ret != 0)
		return ret;
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			ret = SANDLOCK_ESYSTEM;
			break;
		}
		off += (size_t)w;
	}
	int e = errno;
	free(buf);
	errno = e;
	return ret;
}
