/* Rust tokens: nested block comments, raw strings r#"..."# with any number
 * of #, byte and C strings, and char literals told from lifetimes ('a). */
#include "scan.h"

#include <string.h>

static const char *const rs_punct[] = {
    "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=",
    "%=", "^=", "&=", "|=", "<<", ">>", "..", NULL};

/* Length of one UTF-8 character at s[i]. */
static size_t u8len(const char *s, size_t n, size_t i)
{
    unsigned char c = (unsigned char)s[i];
    size_t l = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return i + l <= n ? l : n - i;
}

void lex_rust(const src_t *src, toks_t *out)
{
    const char *s = src->s;
    size_t n = src->n, i = 0;
    int bol = 1, fl;
    if (n >= 2 && s[0] == '#' && s[1] == '!' && !(n >= 3 && s[2] == '['))
        i = line_end(s, n, 0);
    while ((fl = lex_skip(s, n, &i, &bol, GAP_SLASH | GAP_NESTED)) >= 0) {
        unsigned char c = (unsigned char)s[i];
        size_t start = i;
        int bytes = 0, raw = 0;
        /* prefixes: b, br, r, c, cr (then " or ' or #) */
        size_t p = i;
        if (s[p] == 'b' || s[p] == 'c') {
            bytes = s[p] == 'b';
            p++;
        }
        if (p < n && s[p] == 'r' && p + 1 < n && (s[p + 1] == '"' || s[p + 1] == '#')) {
            raw = 1;
            p++;
        }
        if (raw) {
            size_t hashes = 0;
            while (p < n && s[p] == '#')
                hashes++, p++;
            if (p < n && s[p] == '"') {
                size_t bs = p + 1, k = bs;
                while (k < n) {
                    if (s[k] == '"' && k + hashes < n + 1) {
                        size_t h = 0;
                        while (h < hashes && k + 1 + h < n && s[k + 1 + h] == '#')
                            h++;
                        if (h == hashes)
                            break;
                    }
                    k++;
                }
                size_t end = k < n ? k + 1 + hashes : n;
                tok_t *t = tok_push(out, T_STR, fl | F_RAW | (bytes ? F_BYTES : 0), src, start, end);
                tok_value(t, s + bs, (k < n ? k : n) - bs, 1, L_RUST);
                i = end;
                continue;
            }
            if (hashes == 1 && p < n && is_ident_start((unsigned char)s[p]) && start + 2 == p) {
                /* r#ident, a raw identifier */
                size_t j = ident_end(s, n, p);
                tok_push(out, T_IDENT, fl, src, p, j);
                i = j;
                continue;
            }
            p = i; /* not a raw string after all */
            bytes = 0;
        }
        if ((p > i && p < n && (s[p] == '"' || (bytes && s[p] == '\''))) || c == '"') {
            size_t q = p > i ? p : i;
            size_t k, end = quoted_end(s, n, q, 0, &k); /* a string may span lines */
            tok_t *t = tok_push(out, s[q] == '"' ? T_STR : T_CHAR, fl | (bytes ? F_BYTES : 0), src, start, end);
            tok_value(t, s + q + 1, k - (q + 1), 0, L_RUST);
            i = end;
            continue;
        }
        if (c == '\'') {
            /* char literal or lifetime */
            if (i + 1 < n && s[i + 1] == '\\') {
                size_t k = i + 2;
                while (k < n && s[k] != '\'' && s[k] != '\n')
                    k++;
                size_t end = k < n && s[k] == '\'' ? k + 1 : k;
                tok_t *t = tok_push(out, T_CHAR, fl, src, i, end);
                tok_value(t, s + i + 1, (end > i + 2 ? end - 1 : i + 1) - (i + 1), 0, L_RUST);
                i = end;
                continue;
            }
            if (i + 1 < n) {
                size_t l = u8len(s, n, i + 1);
                if (i + 1 + l < n && s[i + 1 + l] == '\'') {
                    tok_t *t = tok_push(out, T_CHAR, fl, src, i, i + 2 + l);
                    tok_value(t, s + i + 1, l, 1, L_RUST);
                    i += 2 + l;
                    continue;
                }
            }
            size_t j = ident_end(s, n, i + 1);
            tok_push(out, T_PUNCT, fl, src, i, j); /* 'a: a lifetime or label */
            i = j;
            continue;
        }
        if (is_ident_start(c)) {
            size_t j = ident_end(s, n, i + 1);
            tok_push(out, T_IDENT, fl, src, i, j);
            i = j;
            continue;
        }
        size_t num = push_number(out, src, i, fl, 0);
        i = num > i ? num : push_punct(out, src, i, fl, rs_punct);
    }
}
