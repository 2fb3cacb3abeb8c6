/* The machine-readable report: one JSON object on one line. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0. */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	int n;
	unsigned lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf) n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0) lo = 0xa0;
		if (c == 0xed) hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0) lo = 0x90;
		if (c == 0xf4) hi = 0x8f;
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* JSON string body, always valid UTF-8 whatever bytes a path, an argument
 * or a truncated message holds: quotes, backslashes and control bytes are
 * escaped, a byte that starts no well-formed sequence becomes U+FFFD. */
static void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', f);
	while (*s) {
		unsigned char c = *s;
		int n;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (c < 0x80)
			fputc(c, f);
		else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		} else
			fputs("\\ufffd", f);
		s++;
	}
	fputc('"', f);
}

int sandlock_report_json_buf(const struct sandlock_policy *p,
			     const struct sandlock_result *r, char **out, size_t *outlen)
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
	fprintf(f, "\"accounting\":\"%s\",\"supervisor_cpu_ms\":%llu,",
		sandlock_accounting_name(r->accounting),
		(unsigned long long)(r->supervisor_cpu_us / 1000));
	/* seconds, as given: 0.5, 2, 1.25 */
	fprintf(f, "\"limits\":{\"cpu_s\":%llu", (unsigned long long)(p->cpu_ms / 1000));
	if (p->cpu_ms % 1000) {
		char frac[8];
		snprintf(frac, sizeof(frac), "%03u", (unsigned)(p->cpu_ms % 1000));
		for (int i = 2; i > 0 && frac[i] == '0'; i--)
			frac[i] = 0;
		fprintf(f, ".%s", frac);
	}
	/* fsize_mb rounded up where the limit is in bytes; fsize_bytes exact */
	uint64_t fsize = p->fsize_bytes ? p->fsize_bytes : p->fsize_mb << 20;
	fprintf(f, ",\"mem_mb\":%llu,\"fsize_mb\":%llu,\"fsize_bytes\":%llu,\"disk_mb\":%llu,"
		   "\"nofile\":%llu,\"nproc\":%llu,\"stack_mb\":%llu,\"timeout_ms\":%llu,"
		   "\"max_output\":%llu},",
		(unsigned long long)p->mem_mb,
		(unsigned long long)((fsize + (1u << 20) - 1) >> 20), (unsigned long long)fsize,
		(unsigned long long)p->disk_mb,
		(unsigned long long)p->nofile,
		(unsigned long long)p->nproc, (unsigned long long)p->stack_mb,
		(unsigned long long)p->timeout_ms, (unsigned long long)p->max_output);
	fprintf(f, "\"layers\":{");
	for (unsigned i = 0; i < SANDLOCK_LAYER_COUNT; i++)
		fprintf(f, "%s\"%s\":%s", i ? "," : "", sandlock_layer_name(1u << i),
			(r->layers & (1u << i)) ? "true" : "false");
	fprintf(f, "},\"guard\":");
	const unsigned guards[] = { SANDLOCK_LAYER_GUARD_PYTHON, SANDLOCK_LAYER_GUARD_NODE,
				    SANDLOCK_LAYER_PRELOAD };
	unsigned g = 0;
	for (size_t i = 0; i < sizeof(guards) / sizeof(guards[0]); i++)
		if (r->layers & guards[i])
			g = guards[i];
	if (g) {
		fprintf(f, "{\"name\":");
		json_str(f, sandlock_layer_name(g));
		fprintf(f, ",\"label\":");
		json_str(f, sl_guard_label(g));
		fprintf(f, "}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, ",\"missing\":");
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
	*out = buf;
	*outlen = len;
	return 0;
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
