/* What the lexers share: the blanks and comments between tokens, quoted
 * bodies with backslash escapes, identifiers, numbers, operators and the
 * decoded value of a literal.  Each lexer keeps only what its language
 * does differently. */
#include "scan.h"

#include <stdlib.h>
#include <string.h>

size_t line_end(const char *s, size_t n, size_t i)
{
    while (i < n && s[i] != '\n')
        i++;
    return i;
}

/* A block comment from s[i] (the slash of its opener): the index after it,
 * or n when it is not closed. */
static size_t block_comment_end(const char *s, size_t n, size_t i, int nested)
{
    if (!nested) {
        const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
        return e ? (size_t)(e - s) + 2 : n;
    }
    int depth = 1;
    i += 2;
    while (i < n && depth) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            depth++;
            i += 2;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') {
            depth--;
            i += 2;
        } else
            i++;
    }
    return i;
}

enum { GAP_NONE, GAP_LINE, GAP_SKIP };

/* What lies between tokens at s[*i]: a newline (GAP_LINE), a blank or a
 * comment (GAP_SKIP), and *i moved past it; or GAP_NONE, a token starts. */
static int lex_gap(const char *s, size_t n, size_t *i, int opts)
{
    size_t k = *i;
    unsigned char c = (unsigned char)s[k];
    if (c == '\n') {
        *i = k + 1;
        return GAP_LINE;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0 || (c == '\v' && (opts & GAP_VT))) {
        *i = k + 1;
        return GAP_SKIP;
    }
    if ((opts & GAP_SLASH) && c == '/' && k + 1 < n && s[k + 1] == '/') {
        *i = line_end(s, n, k);
        return GAP_SKIP;
    }
    if ((opts & GAP_SLASH) && c == '/' && k + 1 < n && s[k + 1] == '*') {
        *i = block_comment_end(s, n, k, opts & GAP_NESTED);
        return GAP_SKIP;
    }
    if ((opts & GAP_HASH) && c == '\\' && k + 1 < n && (s[k + 1] == '\n' || s[k + 1] == '\r')) {
        *i = k + 2; /* a line joined to the next */
        return GAP_SKIP;
    }
    if ((opts & GAP_HASH) && c == '#') {
        *i = line_end(s, n, k);
        return GAP_SKIP;
    }
    return GAP_NONE;
}

int lex_skip(const char *s, size_t n, size_t *i, int *bol, int opts)
{
    for (;;) {
        if (*i >= n)
            return -1;
        if ((opts & GAP_GODIR) && *bol && n - *i > 5 && !memcmp(s + *i, "//go:", 5))
            break;
        int gap = lex_gap(s, n, i, opts);
        if (gap == GAP_NONE)
            break;
        if (gap == GAP_LINE)
            *bol = 1;
    }
    int fl = *bol ? F_BOL : 0;
    *bol = 0;
    return fl;
}

size_t quote_stop(const char *s, size_t n, size_t j, char q, int nl)
{
    while (j < n && s[j] != q && !(nl && s[j] == '\n')) {
        if (s[j] == '\\' && j + 1 < n)
            j++;
        j++;
    }
    return j;
}

size_t quoted_end(const char *s, size_t n, size_t i, int nl, size_t *stop)
{
    size_t k = quote_stop(s, n, i + 1, s[i], nl);
    if (stop)
        *stop = k;
    return k < n && s[k] == s[i] ? k + 1 : k;
}

size_t ident_end(const char *s, size_t n, size_t i)
{
    while (i < n && is_ident_char((unsigned char)s[i]))
        i++;
    return i;
}

void tok_value(tok_t *t, const char *b, size_t bl, int raw, int lang)
{
    t->val = xmalloc(bl * 4 + 1);
    if (raw) {
        memcpy(t->val, b, bl);
        t->vlen = bl;
    } else
        t->vlen = decode_escapes(b, bl, t->val, lang);
    t->val[t->vlen] = 0;
}

void tok_retext(tok_t *t, const char *text)
{
    free(t->text);
    t->len = strlen(text);
    t->text = xstrndup(text, t->len);
}

size_t push_number(toks_t *out, const src_t *src, size_t i, int fl, int dot)
{
    const char *s = src->s;
    size_t n = src->n;
    if (!((s[i] >= '0' && s[i] <= '9') || (dot && s[i] == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')))
        return i;
    size_t j = lex_number(s, n, i);
    tok_push(out, T_NUM, fl, src, i, j);
    return j;
}

size_t push_punct(toks_t *out, const src_t *src, size_t i, int fl, const char *const *table)
{
    size_t l = match_punct(src->s, src->n, i, table);
    if (!l)
        l = 1;
    tok_push(out, T_PUNCT, fl, src, i, i + l);
    return i + l;
}
