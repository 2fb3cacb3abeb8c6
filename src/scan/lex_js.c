/* JavaScript tokens: the #! line, comments, quotes, template literals
 * whose ${...} parts are code (lexed in place, with a stack for nesting),
 * and regular expression literals told from division by the token before
 * them, as a parser would. */
#include "scan.h"

#include <string.h>

static const char *const js_punct[] = {
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "?\?=", "=>", "==", "!=", "<=", ">=",
    "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**", NULL};

static int regex_allowed(const toks_t *out, size_t first)
{
    if (out->n <= first)
        return 1;
    const tok_t *p = &out->v[out->n - 1];
    static const char *const kw[] = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
                                     "throw", "case", "do", "else", "yield", "await", NULL};
    switch (p->kind) {
    case T_NUM:
    case T_STR:
        return 0;
    case T_IDENT:
        for (int k = 0; kw[k]; k++)
            if (!strcmp(p->text, kw[k]))
                return 1;
        return 0;
    case T_PUNCT:
        return !(tok_punct(p, ")") || tok_punct(p, "]") || tok_punct(p, "}"));
    }
    return 1;
}

static void push_str(toks_t *out, const src_t *src, size_t start, size_t end, size_t bs, size_t be, int fl)
{
    tok_t *t = tok_push(out, T_STR, fl, src, start, end);
    tok_value(t, src->s + bs, be > bs ? be - bs : 0, 0, L_JS);
}

/* Scan template text from s[i] (just past ` or past the } closing a
 * substitution).  Returns the index after the piece; *subst says whether it
 * stopped at a "${". */
static size_t template_piece(const char *s, size_t n, size_t i, int *subst, size_t *be)
{
    size_t j = i;
    while (j < n) {
        if (s[j] == '\\') {
            j += 2;
            continue;
        }
        if (s[j] == '`') {
            *subst = 0;
            *be = j;
            return j + 1;
        }
        if (s[j] == '$' && j + 1 < n && s[j + 1] == '{') {
            *subst = 1;
            *be = j;
            return j + 2;
        }
        j++;
    }
    *subst = 0;
    *be = n;
    return n;
}

void lex_js(const src_t *src, toks_t *out)
{
    const char *s = src->s;
    size_t n = src->n, i = 0, first = out->n;
    int bol = 1, fl;
    int stack[256], sp = 0; /* open braces inside each pending ${ */
    if (n >= 2 && s[0] == '#' && s[1] == '!')
        i = line_end(s, n, 0);
    while ((fl = lex_skip(s, n, &i, &bol, GAP_VT | GAP_SLASH)) >= 0) {
        unsigned char c = (unsigned char)s[i];
        if (is_ident_start(c) || c == '\\') {
            size_t j = i + 1;
            while (j < n && (is_ident_char((unsigned char)s[j]) || s[j] == '\\'))
                j++;
            tok_push(out, T_IDENT, fl, src, i, j);
            i = j;
            continue;
        }
        if (c == '#' && i + 1 < n && is_ident_start((unsigned char)s[i + 1])) {
            size_t j = ident_end(s, n, i + 1);
            tok_push(out, T_IDENT, fl, src, i, j); /* private name */
            i = j;
            continue;
        }
        size_t num = push_number(out, src, i, fl, 1);
        if (num > i) {
            i = num;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j, end = quoted_end(s, n, i, 1, &j);
            push_str(out, src, i, end, i + 1, j, fl);
            i = end;
            continue;
        }
        if (c == '`') {
            int subst;
            size_t be, end = template_piece(s, n, i + 1, &subst, &be);
            push_str(out, src, i, end, i + 1, be, fl | (subst ? F_FSTR : 0));
            if (subst && sp < 256)
                stack[sp++] = 0;
            i = end;
            continue;
        }
        if (c == '}' && sp > 0 && stack[sp - 1] == 0) {
            sp--;
            int subst;
            size_t be, end = template_piece(s, n, i + 1, &subst, &be);
            push_str(out, src, i, end, i + 1, be, fl | F_FSTR);
            if (subst && sp < 256)
                stack[sp++] = 0;
            i = end;
            continue;
        }
        if (c == '/' && regex_allowed(out, first)) {
            size_t j = i + 1;
            int cls = 0;
            while (j < n && s[j] != '\n') {
                if (s[j] == '\\') {
                    j += 2;
                    continue;
                }
                if (s[j] == '[')
                    cls = 1;
                else if (s[j] == ']')
                    cls = 0;
                else if (s[j] == '/' && !cls)
                    break;
                j++;
            }
            if (j < n && s[j] == '/') {
                j++;
                j = ident_end(s, n, j);
                tok_t *t = tok_push(out, T_STR, fl | F_RAW, src, i, j);
                t->val = (unsigned char *)xstrndup("", 0); /* a pattern is no code and no data */
                i = j;
                continue;
            }
        }
        if (sp > 0) {
            if (c == '{')
                stack[sp - 1]++;
            else if (c == '}')
                stack[sp - 1]--;
        }
        i = push_punct(out, src, i, fl, js_punct);
    }
}
