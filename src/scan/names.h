/* Name tables and import aliases (names.c). */
#ifndef SANDLOCK_SCAN_NAMES_H
#define SANDLOCK_SCAN_NAMES_H

#include "scan.h"

enum { QN_MODULE, QN_ATTR };

struct qname {
    const char *name;
    const char *rule;
    int sev;
    int kind;
};

typedef struct {
    char **name, **qual;
    size_t n, cap;
    size_t *hash, hcap; /* name -> index+1: a file can set up a million aliases */
} aliases_t;

const struct qname *qn_module(enum lang lang, const char *mod);
const struct qname *qn_attr(enum lang lang, const char *qual);
const struct qname *qn_any_attr(const char *name);
const struct qname *qn_dunder(const char *name);
void aliases_set(aliases_t *a, const char *name, const char *qual);
const char *aliases_get(const aliases_t *a, const char *name);
void aliases_free(aliases_t *a);
void qn_star(aliases_t *a, enum lang lang, const char *mod);

#endif
