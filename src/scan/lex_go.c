/* Go tokens: comments, "..." with escapes, raw `...`, runes.  A line
 * comment that is a compiler directive (//go:linkname, //go:cgo_...) is
 * kept as a token, since the compiler obeys it. */
#include "scan.h"

#include <string.h>

static const char *const go_punct[] = {
    "&^=", "<<=", ">>=", "...", ":=", "<-", "&^", "&&", "||", "==", "!=", "<=", ">=", "++", "--", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", NULL};

static void set_val(tok_t *t, const char *b, size_t bl, int raw)
{
    t->val = xmalloc(bl * 4 + 1);
    if (raw) {
        memcpy(t->val, b, bl);
        t->vlen = bl;
    } else
        t->vlen = decode_escapes(b, bl, t->val, L_GO);
    t->val[t->vlen] = 0;
}

void lex_go(const src_t *src, toks_t *out)
{
    const char *s = src->s;
    size_t n = src->n, i = 0;
    int bol = 1;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') {
            bol = 1;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0) {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            size_t j = i;
            while (j < n && s[j] != '\n')
                j++;
            if (bol && j - i > 5 && !memcmp(s + i, "//go:", 5))
                tok_push(out, T_DIRECTIVE, F_BOL, src, i, j);
            i = j;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
            i = e ? (size_t)(e - s) + 2 : n;
            continue;
        }
        int fl = bol ? F_BOL : 0;
        bol = 0;
        if (c == '`') {
            size_t k = i + 1;
            while (k < n && s[k] != '`')
                k++;
            size_t end = k < n ? k + 1 : n;
            tok_t *t = tok_push(out, T_STR, fl | F_RAW, src, i, end);
            set_val(t, s + i + 1, (k < n ? k : n) - (i + 1), 1);
            i = end;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t k = i + 1;
            while (k < n && s[k] != (char)c && s[k] != '\n') {
                if (s[k] == '\\' && k + 1 < n)
                    k++;
                k++;
            }
            size_t end = k < n && s[k] == (char)c ? k + 1 : k;
            tok_t *t = tok_push(out, c == '"' ? T_STR : T_CHAR, fl, src, i, end);
            set_val(t, s + i + 1, (k < n ? k : n) - (i + 1), 0);
            i = end;
            continue;
        }
        if (is_ident_start(c) && c != '$') {
            size_t j = i + 1;
            while (j < n && is_ident_char((unsigned char)s[j]) && s[j] != '$')
                j++;
            tok_push(out, T_IDENT, fl, src, i, j);
            i = j;
            continue;
        }
        if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
            size_t j = lex_number(s, n, i);
            tok_push(out, T_NUM, fl, src, i, j);
            i = j;
            continue;
        }
        size_t l = match_punct(s, n, i, go_punct);
        if (!l)
            l = 1;
        tok_push(out, T_PUNCT, fl, src, i, i + l);
        i += l;
    }
}
