/* Allocation, token buffers, positions, escapes, findings. */
#include "scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("sandlock-scan: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("sandlock-scan: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

/* v (of *cap elements of size each) with room for one more after n: first
 * elements at first, then twice as many */
void *xgrow(void *v, size_t n, size_t *cap, size_t first, size_t size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? *cap * 2 : first;
    return xrealloc(v, *cap * size);
}

/* The open-addressing tables of index+1 (0: free) are kept at most half
 * full: when n entries would pass that, *tab becomes a larger empty table
 * and 1 is returned, for the caller to put the entries back. */
int hash_reserve(size_t **tab, size_t *cap, size_t n)
{
    if (n * 2 + 2 <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    free(*tab);
    *tab = xmalloc(c * sizeof **tab);
    memset(*tab, 0, c * sizeof **tab);
    *cap = c;
    return 1;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void src_init(src_t *src, const char *orig, size_t on, const char *s, size_t n, const uint32_t *omap)
{
    memset(src, 0, sizeof *src);
    src->s = s;
    src->n = n;
    src->omap = omap;
    size_t cap = 64;
    uint32_t *ls = xmalloc(cap * sizeof *ls);
    size_t k = 0;
    ls[k++] = 0;
    for (size_t i = 0; i < on; i++)
        if (orig[i] == '\n') {
            if (k == cap)
                ls = xrealloc(ls, (cap *= 2) * sizeof *ls);
            ls[k++] = (uint32_t)(i + 1);
        }
    src->lstart = ls;
    src->nlines = k;
}

void src_free(src_t *src)
{
    free((void *)src->lstart);
}

void pos_of(const src_t *src, size_t i, int *line, int *col)
{
    if (src->base_line) {
        *line = src->base_line;
        *col = src->base_col;
        return;
    }
    uint32_t off = src->omap ? (i < src->n ? src->omap[i] : (src->n ? src->omap[src->n - 1] + 1 : 0))
                             : (uint32_t)i + src->shift;
    size_t lo = 0, hi = src->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (src->lstart[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line = (int)lo + 1;
    *col = (int)(off - src->lstart[lo]) + 1;
}

tok_t *tok_push(toks_t *t, int kind, int flags, const src_t *src, size_t start, size_t end)
{
    t->v = xgrow(t->v, t->n, &t->cap, 256, sizeof *t->v);
    tok_t *k = &t->v[t->n++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->flags = flags;
    if (end > src->n)
        end = src->n;
    if (start > end)
        start = end;
    pos_of(src, start, &k->line, &k->col);
    k->text = xstrndup(src->s + start, end - start);
    k->len = end - start;
    return k;
}

void toks_free(toks_t *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].text);
        free(t->v[i].val);
    }
    free(t->v);
    memset(t, 0, sizeof *t);
}

void toks_append(toks_t *dst, toks_t *src)
{
    for (size_t i = 0; i < src->n; i++) {
        dst->v = xgrow(dst->v, dst->n, &dst->cap, 256, sizeof *dst->v);
        dst->v[dst->n++] = src->v[i];
    }
    free(src->v);
    memset(src, 0, sizeof *src);
}

int tok_is(const tok_t *t, const char *s)
{
    return t->kind == T_IDENT && strcmp(t->text, s) == 0;
}

int tok_punct(const tok_t *t, const char *s)
{
    return t->kind == T_PUNCT && strcmp(t->text, s) == 0;
}

int is_ident_start(unsigned char c)
{
    return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

int is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static size_t put_utf8(unsigned char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    if (cp > 0x10ffff)
        cp = 0xfffd;
    o[0] = (unsigned char)(0xf0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The escapes every family shares; where they differ (C's \x takes any
 * number of digits) the byte a program would get is what matters for the
 * opcode check, so a long \x keeps its low byte as a C compiler does.
 * out must hold 4*n bytes. */
size_t decode_escapes(const char *s, size_t n, unsigned char *out, int lang)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c != '\\' || i + 1 >= n) {
            out[o++] = c;
            i++;
            continue;
        }
        char e = s[i + 1];
        i += 2;
        switch (e) {
        case 'n': out[o++] = '\n'; break;
        case 't': out[o++] = '\t'; break;
        case 'r': out[o++] = '\r'; break;
        case 'a': out[o++] = 7; break;
        case 'b': out[o++] = 8; break;
        case 'f': out[o++] = 12; break;
        case 'v': out[o++] = 11; break;
        case 'e': out[o++] = 27; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            unsigned v = (unsigned)(e - '0');
            int k = 1;
            while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
                v = v * 8 + (unsigned)(s[i] - '0');
                i++;
                k++;
            }
            out[o++] = (unsigned char)v;
            break;
        }
        case 'x': {
            unsigned long v = 0;
            int k = 0, maxd = lang == L_C || lang == L_CPP ? 16 : 2;
            if (lang != L_C && lang != L_CPP && i < n && s[i] == '{') {
                maxd = 0; /* \x{..} is not an escape here: keep literally */
            }
            while (k < maxd && i < n && hexval((unsigned char)s[i]) >= 0) {
                v = v * 16 + (unsigned long)hexval((unsigned char)s[i]);
                i++;
                k++;
            }
            if (!k) {
                out[o++] = 'x';
                break;
            }
            out[o++] = (unsigned char)(v & 0xff);
            break;
        }
        case 'u': case 'U': {
            unsigned long v = 0;
            int k = 0, maxd = e == 'u' ? 4 : 8;
            if (i < n && s[i] == '{') {
                i++;
                while (i < n && s[i] != '}' && k < 8 && hexval((unsigned char)s[i]) >= 0) {
                    v = v * 16 + (unsigned long)hexval((unsigned char)s[i]);
                    i++;
                    k++;
                }
                if (i < n && s[i] == '}')
                    i++;
            } else {
                while (k < maxd && i < n && hexval((unsigned char)s[i]) >= 0) {
                    v = v * 16 + (unsigned long)hexval((unsigned char)s[i]);
                    i++;
                    k++;
                }
            }
            o += put_utf8(out + o, v);
            break;
        }
        case '\n':
            break; /* line continuation inside a literal */
        default:
            out[o++] = (unsigned char)e;
        }
    }
    return o;
}

static size_t key_hash(int line, const char *rule)
{
    size_t h = (size_t)line * 1000003u;
    for (const char *p = rule; *p; p++)
        h = h * 31 + (unsigned char)*p;
    return h;
}

/* (line, rule) -> finding: a hash, since a hostile file can hold a
 * finding on each of a million lines */
static finding_t *seen_find(scan_t *sc, int line, const char *rule, size_t **slot)
{
    if (hash_reserve(&sc->seen, &sc->seen_cap, sc->n)) {
        size_t mask = sc->seen_cap - 1;
        for (size_t i = 0; i < sc->n; i++) {
            size_t h = key_hash(sc->v[i].line, sc->v[i].rule) & mask;
            while (sc->seen[h])
                h = (h + 1) & mask;
            sc->seen[h] = i + 1;
        }
    }
    size_t h = key_hash(line, rule) & (sc->seen_cap - 1);
    while (sc->seen[h]) {
        finding_t *f = &sc->v[sc->seen[h] - 1];
        if (f->line == line && !strcmp(f->rule, rule))
            return f;
        h = (h + 1) & (sc->seen_cap - 1);
    }
    *slot = &sc->seen[h];
    return NULL;
}

int finding_seen(scan_t *sc, int line, const char *rule)
{
    size_t *slot;
    return sc->seen_cap && seen_find(sc, line, rule, &slot) != NULL;
}

static void vadd(scan_t *sc, int line, int col, int sev, const char *rule, const char *fmt, va_list ap)
{
    if (sc->pin_line) {
        line = sc->pin_line;
        col = sc->pin_col;
    }
    size_t *slot;
    finding_t *old = seen_find(sc, line, rule, &slot);
    if (old) {
        if (sev > old->sev)
            old->sev = sev;
        return; /* one finding per rule and line: the first says where */
    }
    sc->v = xgrow(sc->v, sc->n, &sc->cap, 32, sizeof *sc->v);
    *slot = sc->n + 1;
    finding_t *f = &sc->v[sc->n++];
    f->line = line;
    f->col = col;
    f->sev = sev;
    f->rule = rule;
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    f->msg = xstrndup(buf, strlen(buf));
}

void add_finding(scan_t *sc, int line, int col, int sev, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(sc, line, col, sev, rule, fmt, ap);
    va_end(ap);
}

void add_finding_at(scan_t *sc, const tok_t *t, int sev, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(sc, t->line, t->col, sev, rule, fmt, ap);
    va_end(ap);
}

/* A view of part of src with positions still in the original file: the
 * code inside f-strings and template literals is lexed through it. */
src_t src_sub(const src_t *src, size_t start, size_t end)
{
    src_t sub = *src;
    if (end > src->n)
        end = src->n;
    if (start > end)
        start = end;
    sub.s = src->s + start;
    sub.n = end - start;
    if (src->omap)
        sub.omap = src->omap + start;
    else
        sub.shift = src->shift + (uint32_t)start;
    return sub;
}

/* Longest operator of table (longest entries first) at s[i], or 0. */
size_t match_punct(const char *s, size_t n, size_t i, const char *const *table)
{
    for (size_t k = 0; table[k]; k++) {
        size_t l = strlen(table[k]);
        if (i + l <= n && memcmp(s + i, table[k], l) == 0)
            return l;
    }
    return 0;
}

/* End of a number starting at s[i] (digit, or '.' then digit): the C
 * pp-number shape, which also covers the other families' literals
 * (0x.., 0b.., 1_000, 1e-5, 10n, 0x0fu8, 1'000). */
size_t lex_number(const char *s, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n) {
        unsigned char c = (unsigned char)s[j];
        if ((c == '+' || c == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' || s[j - 1] == 'P')
            && !(s[i] == '0' && j - i >= 2 && (s[i + 1] == 'x' || s[i + 1] == 'X') && (s[j - 1] == 'e' || s[j - 1] == 'E'))) {
            j++;
            continue;
        }
        if (c == '\'' && j + 1 < n && is_ident_char((unsigned char)s[j + 1]) && is_ident_char((unsigned char)s[j - 1])
            && s[j + 1] != '\'') {
            j++;
            continue;
        }
        if (c == '.' && j + 1 < n && s[j + 1] == '.')
            break; /* Rust/Go ranges: 0..5 */
        if (is_ident_char(c) && c < 0x80 && c != '$')
            j++;
        else if (c == '.')
            j++;
        else
            break;
    }
    return j;
}
