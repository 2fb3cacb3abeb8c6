/* Writing JSON with jansson: strings made valid UTF-8, unsigned numbers
 * past jansson's signed integers, and the one-line layout. */
#include "json_out.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF) within left bytes, or 0:
 * what jansson accepts. */
static int utf8_len(const unsigned char *s, size_t left)
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
	if ((size_t)n > left || s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* The report's strings have always been written with \u escapes for the
 * control bytes, DEL and the bytes that are not UTF-8 (\ufffd); jansson
 * writes \n, \t, DEL and U+FFFD as they are.  So the string is held with
 * marks sl_json_dump turns back into our escapes: a bad byte as NUL+0x01,
 * a NUL of its own as NUL+0x02 (jansson writes each as \u0000\u0001,
 * \u0000\u0002; nothing else we write holds a NUL). */
#define BAD "\0\1"
#define NUL "\0\2"

json_t *sl_json_strn(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t marks = 0;
	for (size_t i = 0; i < len;) {
		int n = s[i] && s[i] < 0x80 ? 1 : utf8_len(s + i, len - i);
		if (!n) {
			marks++;
			n = 1;
		}
		i += (size_t)n;
	}
	if (!marks)
		return json_stringn_nocheck(str, len);
	char *buf = malloc(len + marks);
	if (!buf)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		int n = s[i] && s[i] < 0x80 ? 1 : utf8_len(s + i, len - i);
		if (!n) {
			memcpy(buf + o, s[i] ? BAD : NUL, 2);
			o += 2;
			i++;
			continue;
		}
		memcpy(buf + o, s + i, (size_t)n);
		o += (size_t)n;
		i += (size_t)n;
	}
	json_t *j = json_stringn_nocheck(buf, o);
	free(buf);
	return j;
}

json_t *sl_json_str(const char *s)
{
	return sl_json_strn(s, strlen(s));
}

json_t *sl_json_str_or_null(const char *s)
{
	return s && s[0] ? sl_json_str(s) : json_null();
}

/* Past INT64_MAX the number is held as [-0.0, its bits as a signed
 * integer]: our documents have no negative real, so sl_json_dump finds
 * these by their first element and writes the number in its place. */
#define MARK "[-0.0,"

json_t *sl_json_u64(uint64_t v)
{
	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	return json_pack("[fI]", -0.0, (json_int_t)v);
}

bool sl_json_set(json_t *obj, const char *key, json_t *v)
{
	return obj && json_object_set_new(obj, key, v) == 0;
}

/* The one real we write (the report's limits.cpu_s, whole milliseconds
 * as seconds: 0.5, 1.25) as we always have: 15 significant digits is
 * every such value below 10^12 s exactly (--cpu takes up to 10^9), with
 * no binary tail. */
#define FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

/* A string's escape at s (after the backslash) as we write it, into o;
 * returns how many bytes of s it took. */
static size_t escape(const char *s, char *o, size_t *olen)
{
	static const char shorts[] = "b\bf\fn\nr\rt\t";
	const char *c = strchr(shorts, s[0]);
	if (s[0] && c && (c - shorts) % 2 == 0) {
		*olen += (size_t)sprintf(o, "\\u%04x", (unsigned char)c[1]);
		return 1;
	}
	if (s[0] != 'u') {
		o[0] = '\\';
		o[1] = s[0];
		*olen += 2;
		return 1;
	}
	if (!strncmp(s, "u0000\\u000", 10) && (s[10] == '1' || s[10] == '2')) {
		*olen += (size_t)sprintf(o, "\\u%s", s[10] == '1' ? "fffd" : "0000");
		return 11;
	}
	o[0] = '\\';
	o[1] = 'u';
	for (int i = 1; i <= 4; i++)
		o[i + 1] = (char)tolower((unsigned char)s[i]);
	*olen += 6;
	return 5;
}

int sl_json_dump(const json_t *doc, unsigned how, char **out, size_t *outlen)
{
	char *s = json_dumps(doc, FLAGS | (how & SL_JSON_ASCII ? JSON_ENSURE_ASCII : 0));
	if (!s)
		return -1;
	size_t len = strlen(s);
	/* a byte becomes at most six (DEL: \u007f) */
	char *buf = malloc(len * 6 + 2);
	if (!buf) {
		free(s);
		return -1;
	}
	size_t o = 0;
	bool in_str = false;
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (in_str) {
			if (c == '\\') {
				i += 1 + escape(s + i + 1, buf + o, &o);
				continue;
			}
			if (c == 0x7f)
				o += (size_t)sprintf(buf + o, "\\u007f");
			else
				buf[o++] = c;
			in_str = c != '"';
			i++;
		} else if (c == '"') {
			in_str = true;
			buf[o++] = s[i++];
		} else if (c == '[' && !strncmp(s + i, MARK, strlen(MARK))) {
			char *end;
			long long v = strtoll(s + i + strlen(MARK), &end, 10);
			o += (size_t)sprintf(buf + o, "%" PRIu64, (uint64_t)v);
			i = (size_t)(end - s) + 1; /* past the ']' */
		} else {
			buf[o++] = s[i++];
		}
	}
	free(s);
	if (how & SL_JSON_NEWLINE)
		buf[o++] = '\n';
	buf[o] = 0;
	char *fit = realloc(buf, o + 1);
	*out = fit ? fit : buf;
	*outlen = o;
	return 0;
}
