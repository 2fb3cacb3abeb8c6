/* C and C++ tokens, after the translation phases a compiler applies first:
 * line splices are removed (so `sys\<newline>call` is one identifier, as
 * the compiler sees it), digraphs become the punctuators they spell, and a
 * preprocessor line is marked so the #define bodies can be read apart. */
#include "scan.h"

#include <string.h>

char *c_unsplice(const char *s, size_t n, size_t *outn, uint32_t **omap)
{
    char *o = xmalloc(n + 1);
    uint32_t *m = xmalloc((n + 1) * sizeof *m);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\') {
            size_t j = i + 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++; /* GCC accepts spaces between the backslash and the newline */
            if (j < n && s[j] == '\r')
                j++;
            if (j < n && s[j] == '\n') {
                i = j;
                continue;
            }
        }
        o[k] = s[i];
        m[k] = (uint32_t)i;
        k++;
    }
    o[k] = 0;
    m[k] = (uint32_t)n;
    *outn = k;
    *omap = m;
    return o;
}

static const char *const c_punct[] = {
    "%:%:", "...", "<<=", ">>=", "->*", "<=>", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::", ".*", "<:", ":>", "<%", "%>", "%:", NULL};

static const char *digraph(const char *p, size_t l)
{
    if (l == 4)
        return "##";
    if (l != 2)
        return NULL;
    if (!memcmp(p, "<:", 2))
        return "[";
    if (!memcmp(p, ":>", 2))
        return "]";
    if (!memcmp(p, "<%", 2))
        return "{";
    if (!memcmp(p, "%>", 2))
        return "}";
    if (!memcmp(p, "%:", 2))
        return "#";
    return NULL;
}

/* p[0..l) is one of the words of list */
static int in_list(const char *p, size_t l, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (strlen(list[k]) == l && !memcmp(p, list[k], l))
            return 1;
    return 0;
}

static int is_prefix(const char *p, size_t l, int *raw)
{
    static const char *const pre[] = {"L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R", NULL};
    if (!in_list(p, l, pre))
        return 0;
    *raw = p[l - 1] == 'R';
    return 1;
}

/* the directives whose operand is a header name */
static const char *const include_words[] = {"include", "include_next", "import", NULL};

/* R"delim( ... )delim" from s[i] (the quote).  A quoted literal other than
 * that ends at the end of the line when unterminated, as the compiler would
 * stop there. */
static size_t raw_string(const char *s, size_t n, size_t i, size_t *bstart, size_t *bend)
{
    size_t j = i + 1;
    while (j < n && s[j] != '(' && j - i <= 17 && s[j] != '"' && s[j] != '\n')
        j++;
    if (j >= n || s[j] != '(') {
        *bstart = *bend = i + 1;
        return quoted_end(s, n, i, 1, NULL);
    }
    size_t dl = j - (i + 1);
    const char *d = s + i + 1;
    *bstart = j + 1;
    for (size_t k = j + 1; k < n; k++)
        if (s[k] == ')' && k + 1 + dl < n && !memcmp(s + k + 1, d, dl) && s[k + 1 + dl] == '"') {
            *bend = k;
            return k + dl + 2;
        }
    *bend = n;
    return n;
}

void lex_c(const src_t *src, toks_t *out, int cpp)
{
    const char *s = src->s;
    size_t n = src->n, i = 0;
    int bol = 1, in_pp = 0, pp_count = 0, include = 0;
    int lang = cpp ? L_CPP : L_C;
    int fl;
    while ((fl = lex_skip(s, n, &i, &bol, GAP_VT | GAP_SLASH)) >= 0) {
        unsigned char c = (unsigned char)s[i];
        if (fl & F_BOL)
            in_pp = include = 0;
        fl |= in_pp ? F_PP : 0;
        if ((fl & F_BOL) && (c == '#' || (c == '%' && i + 1 < n && s[i + 1] == ':'))) {
            in_pp = 1;
            pp_count = 0;
            fl |= F_PP;
            tok_t *t = tok_push(out, T_PUNCT, fl, src, i, i + (c == '#' ? 1 : 2));
            if (c == '%')
                tok_retext(t, "#");
            i += c == '#' ? 1 : 2;
            continue;
        }
        if (in_pp)
            pp_count++;
        size_t num = push_number(out, src, i, fl, 1);
        if (num > i) {
            i = num;
            continue;
        }
        if (include && (c == '<' || c == '"')) {
            /* a header name: <sys/socket.h> is one token, not code */
            size_t j = i + 1;
            char close = c == '<' ? '>' : '"';
            while (j < n && s[j] != close && s[j] != '\n')
                j++;
            if (j < n && s[j] == close)
                j++;
            tok_push(out, T_STR, fl | F_RAW, src, i, j);
            include = 0;
            i = j;
            continue;
        }
        if (is_ident_start(c)) {
            size_t j = ident_end(s, n, i + 1);
            int raw = 0;
            if (j < n && (s[j] == '"' || s[j] == '\'') && is_prefix(s + i, j - i, &raw)) {
                size_t bs, be, end;
                if (raw && s[j] == '"')
                    end = raw_string(s, n, j, &bs, &be);
                else {
                    raw = 0;
                    end = quoted_end(s, n, j, 1, NULL);
                    bs = j + 1;
                    be = end > bs && s[end - 1] == s[j] ? end - 1 : end;
                }
                tok_t *t = tok_push(out, s[j] == '"' ? T_STR : T_CHAR, fl | (raw ? F_RAW : 0), src, i, end);
                tok_value(t, s + bs, be > bs ? be - bs : 0, raw, lang);
                i = end;
                continue;
            }
            tok_push(out, T_IDENT, fl, src, i, j);
            if (in_pp && pp_count == 1 && in_list(s + i, j - i, include_words))
                include = 1;
            i = j;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t end = quoted_end(s, n, i, 1, NULL);
            size_t be = end > i + 1 && s[end - 1] == (char)c ? end - 1 : end;
            tok_t *t = tok_push(out, c == '"' ? T_STR : T_CHAR, fl, src, i, end);
            tok_value(t, s + i + 1, be - (i + 1), 0, lang);
            i = end;
            continue;
        }
        size_t l = match_punct(s, n, i, c_punct);
        if (l == 2 && cpp && !memcmp(s + i, "<:", 2) && i + 2 < n && s[i + 2] == ':'
            && !(i + 3 < n && (s[i + 3] == ':' || s[i + 3] == '>')))
            l = 1; /* C++: <:: is < :: */
        if (!l)
            l = 1;
        tok_t *t = tok_push(out, T_PUNCT, fl, src, i, i + l);
        const char *d = digraph(s + i, l);
        if (d)
            tok_retext(t, d);
        i += l;
    }
}
