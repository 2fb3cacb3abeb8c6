/* Go tokens: comments, "..." with escapes, raw `...`, runes.  A line
 * comment that is a compiler directive (//go:linkname, //go:cgo_...) is
 * kept as a token, since the compiler obeys it. */
#include "scan.h"

#include <string.h>

static const char *const go_punct[] = {
    "&^=", "<<=", ">>=", "...", ":=", "<-", "&^", "&&", "||", "==", "!=", "<=", ">=", "++", "--", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", NULL};

void lex_go(const src_t *src, toks_t *out)
{
    const char *s = src->s;
    size_t n = src->n, i = 0;
    int bol = 1, fl;
    while ((fl = lex_skip(s, n, &i, &bol, GAP_SLASH | GAP_GODIR)) >= 0) {
        unsigned char c = (unsigned char)s[i];
        if ((fl & F_BOL) && n - i > 5 && !memcmp(s + i, "//go:", 5)) {
            size_t j = line_end(s, n, i);
            if (j - i > 5)
                tok_push(out, T_DIRECTIVE, F_BOL, src, i, j);
            i = j;
            continue;
        }
        if (c == '`') {
            size_t k = i + 1;
            while (k < n && s[k] != '`')
                k++;
            size_t end = k < n ? k + 1 : n;
            tok_t *t = tok_push(out, T_STR, fl | F_RAW, src, i, end);
            tok_value(t, s + i + 1, k - (i + 1), 1, L_GO);
            i = end;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t k, end = quoted_end(s, n, i, 1, &k);
            tok_t *t = tok_push(out, c == '"' ? T_STR : T_CHAR, fl, src, i, end);
            tok_value(t, s + i + 1, k - (i + 1), 0, L_GO);
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
        size_t num = push_number(out, src, i, fl, 1);
        i = num > i ? num : push_punct(out, src, i, fl, go_punct);
    }
}
