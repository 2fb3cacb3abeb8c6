/* The machine-readable report: one JSON object on one line. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

/* JSON string body: escape quotes, backslashes and control bytes. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int sandlock_report_json(const struct sandlock_policy *p,
			 const struct sandlock_result *r, int fd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return SANDLOCK_ENOMEM;
	fprintf(f, "{\"verdict\":\"%s\",\"status\":%d,\"exit_code\":%d,\"signal\":%d,",
		sandlock_verdict_name(r->verdict), r->status, r->exit_code, r->signal);
	fprintf(f, "\"blocked_syscall\":");
	if (r->blocked_syscall[0]) {
		json_str(f, r->blocked_syscall);
		fprintf(f, ",\"blocked_args\":[");
		for (int i = 0; i < 6; i++)
			fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)r->blocked_args[i]);
		fprintf(f, "],");
	} else {
		fprintf(f, "null,\"blocked_args\":null,");
	}
	fprintf(f, "\"cpu_ms\":%llu,\"user_ms\":%llu,\"sys_ms\":%llu,\"wall_ms\":%llu,"
		   "\"wall_us\":%llu,\"peak_kb\":%llu,\"stdout_bytes\":%llu,\"stderr_bytes\":%llu,",
		(unsigned long long)((r->user_us + r->sys_us) / 1000),
		(unsigned long long)(r->user_us / 1000), (unsigned long long)(r->sys_us / 1000),
		(unsigned long long)(r->wall_us / 1000), (unsigned long long)r->wall_us,
		(unsigned long long)r->peak_kb, (unsigned long long)r->stdout_bytes,
		(unsigned long long)r->stderr_bytes);
	fprintf(f, "\"limits\":{\"cpu_s\":%llu,\"mem_mb\":%llu,\"fsize_mb\":%llu,"
		   "\"nofile\":%llu,\"nproc\":%llu,\"stack_mb\":%llu,\"timeout_ms\":%llu,"
		   "\"max_output\":%llu},",
		(unsigned long long)p->cpu_sec, (unsigned long long)p->mem_mb,
		(unsigned long long)p->fsize_mb, (unsigned long long)p->nofile,
		(unsigned long long)p->nproc, (unsigned long long)p->stack_mb,
		(unsigned long long)p->timeout_ms, (unsigned long long)p->max_output);
	fprintf(f, "\"layers\":{");
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		fprintf(f, "%s\"%s\":%s", i ? "," : "", sandlock_layer_name(1u << i),
			(r->layers & (1u << i)) ? "true" : "false");
	fprintf(f, "},\"missing\":");
	if (r->missing[0])
		json_str(f, r->missing);
	else
		fprintf(f, "null");
	fprintf(f, ",\"uid\":%u,\"error\":", (unsigned)r->uid);
	if (r->error[0])
		json_str(f, r->error);
	else
		fprintf(f, "null");
	fprintf(f, "}\n");
	if (fclose(f) != 0) {
		free(buf);
		return SANDLOCK_ENOMEM;
	}
	int ret = 0;
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = SANDLOCK_ESYSTEM;
			break;
		}
		off += (size_t)w;
	}
	free(buf);
	return ret;
}
