/* Python tokens.  String prefixes (r b u f and their pairs, any case),
 * triple quotes, and f-strings, whose replacement fields are code: each
 * field is lexed again as Python, positions kept, so `f"{__import__('os')}"`
 * is seen as the call it is. */
#include "scan.h"

#include <ctype.h>
#include <string.h>

static const char *const py_punct[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "@=", NULL};

static int str_prefix(const char *p, size_t l, int *raw, int *bytes, int *fstr)
{
    if (l == 0 || l > 2)
        return 0;
    *raw = *bytes = *fstr = 0;
    for (size_t k = 0; k < l; k++) {
        int c = tolower((unsigned char)p[k]);
        if (c == 'r')
            *raw = 1;
        else if (c == 'b')
            *bytes = 1;
        else if (c == 'f')
            *fstr = 1;
        else if (c == 'u' && l == 1)
            ;
        else
            return 0;
    }
    if (l == 2 && !((*raw && (*bytes || *fstr))))
        return 0;
    return 1;
}

/* End of the string body that starts at s[i] with quote q (tripled or not):
 * returns the index of the closing quote(s), or n. */
static size_t body_end(const char *s, size_t n, size_t i, char q, int triple)
{
    if (!triple)
        return quote_stop(s, n, i, q, 1);
    size_t j = i;
    while (j < n) {
        if (s[j] == '\\') {
            j += 2;
            continue;
        }
        if (s[j] == q && j + 2 < n && s[j + 1] == q && s[j + 2] == q)
            return j;
        j++;
    }
    return n;
}

static void lex_range(const src_t *src, toks_t *out, int nested);

/* f-strings inside f-strings: deeper than this, a field is left unread */
#define MAX_NEST 32

/* Lex the replacement fields of an f-string body [a,b) as code.  Returns
 * the depth left open (nonzero: the body ended inside a field). */
static int fstring_fields(const src_t *src, toks_t *out, size_t a, size_t b, int dry, int nested)
{
    const char *s = src->s;
    size_t j = a;
    while (j < b) {
        if (s[j] == '{' && j + 1 < b && s[j + 1] == '{') {
            j += 2;
            continue;
        }
        if (s[j] != '{') {
            j++;
            continue;
        }
        size_t start = j + 1, k = start;
        int depth = 1;
        while (k < b && depth) {
            char c = s[k];
            if (c == '{' || c == '(' || c == '[')
                depth++;
            else if (c == '}' || c == ')' || c == ']')
                depth--;
            else if (c == '\'' || c == '"') {
                int tr = k + 2 < b && s[k + 1] == c && s[k + 2] == c;
                size_t e = body_end(s, b, k + (tr ? 3 : 1), c, tr);
                k = e + (tr ? 3 : 1);
                continue;
            }
            if (depth)
                k++;
        }
        if (depth)
            return depth;
        if (!dry && nested < MAX_NEST) {
            src_t sub = src_sub(src, start, k);
            lex_range(&sub, out, nested + 1);
        }
        j = k + 1;
    }
    return 0;
}

static void lex_range(const src_t *src, toks_t *out, int nested)
{
    const char *s = src->s;
    size_t n = src->n, i = 0;
    int bol = 1, fl;
    while ((fl = lex_skip(s, n, &i, &bol, GAP_HASH)) >= 0) {
        unsigned char c = (unsigned char)s[i];
        fl |= nested ? F_NESTED : 0;
        size_t pstart = i, q = i;
        int raw = 0, bytes = 0, fstr = 0;
        if (is_ident_start(c)) {
            size_t j = ident_end(s, n, i + 1);
            if (j < n && (s[j] == '"' || s[j] == '\'') && str_prefix(s + i, j - i, &raw, &bytes, &fstr))
                q = j;
            else {
                tok_push(out, T_IDENT, fl, src, i, j);
                i = j;
                continue;
            }
        }
        if (s[q] == '"' || s[q] == '\'') {
            char qc = s[q];
            int triple = q + 2 < n && s[q + 1] == qc && s[q + 2] == qc;
            size_t bs = q + (triple ? 3 : 1);
            size_t be = body_end(s, n, bs, qc, triple);
            if (fstr && !triple && be < n && fstring_fields(src, out, bs, be, 1, nested)) {
                /* 3.12: a field may hold the same quote; find the end by fields */
                size_t k = bs;
                int depth = 0;
                while (k < n && s[k] != '\n') {
                    char ch = s[k];
                    if (ch == '\\' && !depth) {
                        k += 2;
                        continue;
                    }
                    if (!depth && ch == qc)
                        break;
                    if (ch == '{')
                        depth++;
                    else if (ch == '}' && depth)
                        depth--;
                    else if (depth && (ch == '\'' || ch == '"')) {
                        size_t e = body_end(s, n, k + 1, ch, 0);
                        k = e + 1;
                        continue;
                    }
                    k++;
                }
                be = k < n ? k : n;
            }
            size_t end = be + (be < n ? (triple ? 3 : (s[be] == qc ? 1 : 0)) : 0);
            if (end > n)
                end = n;
            tok_t *t = tok_push(out, T_STR, fl | (raw ? F_RAW : 0) | (bytes ? F_BYTES : 0) | (fstr ? F_FSTR : 0),
                                src, pstart, end);
            tok_value(t, s + bs, be > bs ? be - bs : 0, raw, L_PY);
            if (fstr)
                fstring_fields(src, out, bs, be, 0, nested);
            i = end;
            continue;
        }
        size_t num = push_number(out, src, i, fl, 1);
        i = num > i ? num : push_punct(out, src, i, fl, py_punct);
    }
}

void lex_py(const src_t *src, toks_t *out)
{
    lex_range(src, out, 0);
}
