/* JSON documents written with jansson: the report, --features --json, the
 * batch and interactive lines.  Internal to sandlock; the library carries
 * its own jansson with its symbols made local (the Makefile). */
#ifndef SANDLOCK_JSON_OUT_H
#define SANDLOCK_JSON_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sandlock_policy;
struct sandlock_result;

/* A JSON string of n bytes, whatever they are: a byte that starts no
 * well-formed UTF-8 sequence becomes U+FFFD (jansson takes only UTF-8). */
json_t *sl_json_strn(const char *s, size_t n);
json_t *sl_json_str(const char *s);
/* A JSON string, or null for NULL or "". */
json_t *sl_json_str_or_null(const char *s);
/* An unsigned number, exact past INT64_MAX (jansson's integers are signed:
 * sl_json_dump writes those). */
json_t *sl_json_u64(uint64_t v);
/* Set key to v (stolen); false if either is NULL or jansson refuses. */
bool sl_json_set(json_t *obj, const char *key, json_t *v);

/* doc on one line, the layout the documents have always had: no spaces,
 * keys in the order they were set.  *out is malloc'd. */
enum {
	SL_JSON_NEWLINE = 1,    /* a '\n' at the end */
	SL_JSON_ASCII = 2,      /* what is past ASCII as \u escapes */
};
int sl_json_dump(const json_t *doc, unsigned how, char **out, size_t *len);

/* The report as an object (NULL when out of memory). */
json_t *sl_report_object(const struct sandlock_policy *p, const struct sandlock_result *r);

#endif
