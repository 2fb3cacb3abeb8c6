/* Checks every language shares: brackets, call arguments, constant
 * strings, machine code hidden in literals, and code inside strings. */
#include "scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void toks_match(toks_t *t)
{
    size_t cap = 64, sp = 0;
    size_t *st = xmalloc(cap * sizeof *st);
    for (size_t i = 0; i < t->n; i++) {
        tok_t *k = &t->v[i];
        k->match = -1;
        if (k->kind != T_PUNCT || k->len != 1)
            continue;
        char c = k->text[0];
        if (c == '(' || c == '[' || c == '{') {
            if (sp == cap)
                st = xrealloc(st, (cap *= 2) * sizeof *st);
            st[sp++] = i;
        } else if (c == ')' || c == ']' || c == '}') {
            char o = c == ')' ? '(' : c == ']' ? '[' : '{';
            /* an unbalanced closer closes nothing: skip back to its opener if any */
            size_t j = sp;
            while (j > 0 && sp - j < 16 && t->v[st[j - 1]].text[0] != o)
                j--; /* bounded: a hostile run of closers must stay linear */
            if (j == 0 || t->v[st[j - 1]].text[0] != o)
                continue;
            t->v[st[j - 1]].match = (long)i;
            k->match = (long)st[j - 1];
            sp = j - 1;
        }
    }
    free(st);
}

int parse_int(const tok_t *t, unsigned long long *v, int *nondec)
{
    if (t->kind == T_CHAR) {
        if (t->vlen < 1)
            return 0;
        *v = t->val[0];
        *nondec = 1;
        return 1;
    }
    if (t->kind != T_NUM)
        return 0;
    const char *s = t->text;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
        base = 8, s += 2;
    else if (s[0] == '0' && s[1] >= '0' && s[1] <= '9')
        base = 8, s += 1;
    unsigned long long x = 0;
    int digits = 0;
    for (; *s; s++) {
        int d;
        if (*s == '_' || *s == '\'')
            continue;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            break;
        if (d >= base)
            break;
        x = x * (unsigned)base + (unsigned)d;
        digits++;
    }
    if (!digits)
        return 0;
    if (*s == '.' || ((*s == 'e' || *s == 'E') && base == 10))
        return 0;
    for (const char *r = s; *r; r++)
        if (*r == '.')
            return 0;
    *v = x;
    *nondec = base != 10;
    return 1;
}

/* ---- machine code in literals ---- */

static const struct {
    const unsigned char b[4];
    int len;
    const char *what;
} opcodes[] = {
    {{0x0f, 0x05}, 2, "x86-64 syscall"},
    {{0x0f, 0x34}, 2, "x86 sysenter"},
    {{0xcd, 0x80}, 2, "x86 int 0x80"},
    {{0xd4, 0x00, 0x00, 0x01}, 4, "aarch64 svc #0"},
    {{0x01, 0x00, 0x00, 0xd4}, 4, "aarch64 svc #0"},
};

static const char *find_opcode(const unsigned char *b, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof opcodes / sizeof opcodes[0]; k++)
            if (i + (size_t)opcodes[k].len <= n && !memcmp(b + i, opcodes[k].b, (size_t)opcodes[k].len)) {
                *at = i;
                return opcodes[k].what;
            }
    return NULL;
}

/* Is the literal list at tokens[open] declared or wrapped as bytes? */
static int byte_context(const toks_t *t, size_t open, int stop_at_line)
{
    static const char *const bytey[] = {"char", "uint8_t", "int8_t", "u8", "i8", "byte", "BYTE", "bytes",
                                        "bytearray", "Uint8Array", "Int8Array", "Uint8ClampedArray", "Buffer",
                                        "u_char", "__u8", "uchar", NULL};
    for (size_t k = 1; k <= 12 && k <= open; k++) {
        const tok_t *p = &t->v[open - k];
        if (tok_punct(p, ";") || tok_punct(p, "}"))
            break;
        if (p->kind == T_IDENT)
            for (int j = 0; bytey[j]; j++)
                if (!strcmp(p->text, bytey[j]))
                    return 1;
        if (stop_at_line && (p->flags & F_BOL))
            break; /* Python, JS, Go: a statement starts its line */
    }
    return 0;
}

static void check_run(scan_t *sc, const toks_t *t, const unsigned long long *vals, const size_t *where,
                      const int *nondec, size_t n, int bytectx)
{
    if (n < 2)
        return;
    unsigned long long mx = 0;
    for (size_t k = 0; k < n; k++)
        if (vals[k] > mx)
            mx = vals[k];
    int w = mx <= 0xff ? 1 : mx <= 0xffff ? 2 : mx <= 0xffffffffULL ? 4 : 8;
    unsigned char *b = xmalloc(n * (size_t)w);
    for (size_t k = 0; k < n; k++)
        for (int j = 0; j < w; j++)
            b[k * (size_t)w + (size_t)j] = (unsigned char)(vals[k] >> (8 * j));
    size_t at;
    const char *what = find_opcode(b, n * (size_t)w, &at);
    if (what) {
        size_t e = at / (size_t)w;
        int sev = bytectx || nondec[e] || (e + 1 < n && nondec[e + 1]) ? SEV_HIGH : SEV_MEDIUM;
        add_finding_at(sc, &t->v[where[e]], sev, "opcode-bytes",
                       "the bytes of the %s instruction in an integer list%s", what,
                       sev == SEV_MEDIUM ? " (decimal, not declared as bytes: could be data)" : "");
    }
    free(b);
}

static int strip_hexstring(const unsigned char *s, size_t n, unsigned char *out, size_t *on)
{
    /* "0f05", "0f 05", "\\x0f\\x05" as text, "0x0f,0x05": hex meant for fromhex()/unhexlify() */
    size_t k = 0, digits = 0;
    int hi = -1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == ' ' || c == ',' || c == ':' || c == '\\' || c == '\n')
            continue;
        if ((c == 'x' || c == 'X') && i + 1 < n && isxdigit(s[i + 1]))
            continue;
        if (!isxdigit(c))
            return 0;
        int d = isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10);
        digits++;
        if (hi < 0)
            hi = d;
        else {
            out[k++] = (unsigned char)(hi * 16 + d);
            hi = -1;
        }
    }
    *on = k;
    return digits >= 4 && hi < 0;
}

void check_opcode_bytes(scan_t *sc, const toks_t *t, const char *openers)
{
    size_t cap = 64;
    unsigned long long *vals = xmalloc(cap * sizeof *vals);
    size_t *where = xmalloc(cap * sizeof *where);
    int *nondec = xmalloc(cap * sizeof *nondec);
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *o = &t->v[i];
        if (o->kind == T_STR || o->kind == T_CHAR) {
            /* adjacent literals are one value to the compiler */
            if (i > 0 && t->v[i - 1].kind == T_STR && o->kind == T_STR)
                continue;
            size_t total = 0, j = i;
            while (j < t->n && (j == i || t->v[j].kind == T_STR) && t->v[j].kind == o->kind)
                total += t->v[j].vlen, j++;
            unsigned char *b = xmalloc(total + 1);
            size_t k = 0;
            for (size_t m = i; m < j; m++) {
                if (t->v[m].vlen)
                    memcpy(b + k, t->v[m].val, t->v[m].vlen);
                k += t->v[m].vlen;
            }
            size_t at;
            const char *what = find_opcode(b, k, &at);
            if (what && !(o->flags & F_RAW) && o->kind == T_STR && strchr(o->text, '\\'))
                add_finding_at(sc, o, SEV_HIGH, "opcode-bytes", "the bytes of the %s instruction in a string literal",
                               what);
            else if (what && o->kind == T_STR && !(o->flags & F_RAW) && !strchr(o->text, '\\'))
                add_finding_at(sc, o, SEV_MEDIUM, "opcode-bytes",
                               "the bytes of the %s instruction in a string literal (written as text)", what);
            unsigned char *hb = xmalloc(k + 1);
            size_t hn;
            if (strip_hexstring(b, k, hb, &hn) && (what = find_opcode(hb, hn, &at)))
                add_finding_at(sc, o, SEV_HIGH, "opcode-bytes", "the bytes of the %s instruction in a hex string",
                               what);
            free(hb);
            free(b);
            continue;
        }
        if (o->kind != T_PUNCT || o->len != 1 || !strchr(openers, o->text[0]) || o->match < 0)
            continue;
        size_t close = (size_t)o->match, n = 0;
        size_t a = i + 1;
        while (a <= close) {
            /* one element: [a, b) up to a comma at this level */
            size_t b = a, lits = 0, lit = 0, bad = 0;
            int neg = 0;
            while (b < close && !tok_punct(&t->v[b], ",") && !tok_punct(&t->v[b], ";")) {
                const tok_t *e = &t->v[b];
                if (e->kind == T_NUM || e->kind == T_CHAR)
                    lits++, lit = b;
                else if (tok_punct(e, "-"))
                    neg = 1;
                else if (e->kind == T_IDENT || tok_punct(e, "(") || tok_punct(e, ")") || tok_punct(e, "+"))
                    ;
                else
                    bad = 1;
                if (e->match > (long)b)
                    bad = 1, b = (size_t)e->match; /* nested group: not a scalar */
                b++;
            }
            unsigned long long v;
            int nd;
            if (lits == 1 && !bad && parse_int(&t->v[lit], &v, &nd)) {
                if (n == cap) {
                    cap *= 2;
                    vals = xrealloc(vals, cap * sizeof *vals);
                    where = xrealloc(where, cap * sizeof *where);
                    nondec = xrealloc(nondec, cap * sizeof *nondec);
                }
                if (neg)
                    v = v <= 128 ? (unsigned long long)(256 - v) & 0xff : (unsigned long long)(-(long long)v);
                vals[n] = v;
                where[n] = lit;
                nondec[n] = nd;
                n++;
            } else {
                check_run(sc, t, vals, where, nondec, n, byte_context(t, i, sc->lang != L_C && sc->lang != L_CPP));
                n = 0;
            }
            a = b + 1;
        }
        check_run(sc, t, vals, where, nondec, n, byte_context(t, i, sc->lang != L_C && sc->lang != L_CPP));
    }
    free(vals);
    free(where);
    free(nondec);
}

/* Assembly text (an asm statement's strings, a Go .s file): the mnemonics
 * that enter the kernel, and .byte lists that spell them. */
void check_asm_text(scan_t *sc, const tok_t *at, const unsigned char *s, size_t n)
{
    char *low = xmalloc(n + 1);
    for (size_t i = 0; i < n; i++)
        low[i] = s[i] ? (char)tolower(s[i]) : ' ';
    low[n] = 0;
    static const char *const words[] = {"syscall", "sysenter", "int $0x80", "int 0x80", "int $128", "int 80h",
                                        "int\t$0x80", "svc #0", "svc 0", "svc\t#0", "svc #0x0", "svc $0",
                                        "sysret", NULL};
    for (int k = 0; words[k]; k++) {
        const char *p = low;
        size_t wl = strlen(words[k]);
        while ((p = strstr(p, words[k]))) {
            int left = p == low || (!isalnum((unsigned char)p[-1]) && p[-1] != '_');
            int right = !isalnum((unsigned char)p[wl]) && p[wl] != '_';
            if (left && right) {
                add_finding_at(sc, at, SEV_HIGH, "syscall-insn", "assembly enters the kernel directly: %s", words[k]);
                free(low);
                return;
            }
            p += wl;
        }
    }
    if (strstr(low, ".byte") || strstr(low, ".short") || strstr(low, ".word") || strstr(low, ".long")
        || strstr(low, ".int") || strstr(low, ".quad") || strstr(low, ".inst") || strstr(low, "byte $")
        || strstr(low, "long $") || strstr(low, "word $")) {
        unsigned char *b = xmalloc(n + 1);
        size_t k = 0;
        for (const char *p = low; *p;) {
            if (isdigit((unsigned char)*p) && (p == low || !isalnum((unsigned char)p[-1]))) {
                char *e;
                unsigned long v = strtoul(p, &e, 0);
                if (v <= 0xff)
                    b[k++] = (unsigned char)v;
                else
                    for (int j = 0; j < 4; j++)
                        b[k++] = (unsigned char)(v >> (8 * j));
                p = e;
                if (k + 8 > n)
                    break;
            } else
                p++;
        }
        size_t pos;
        const char *what = find_opcode(b, k, &pos);
        if (what)
            add_finding_at(sc, at, SEV_HIGH, "syscall-insn", "assembly data spells the %s instruction", what);
        free(b);
    }
    free(low);
}

/* ---- call arguments and constant strings ---- */

int call_args(const toks_t *t, size_t open, size_t *starts, size_t *ends, int max)
{
    if (open >= t->n || t->v[open].match < 0)
        return -1;
    size_t close = (size_t)t->v[open].match, a = open + 1;
    int k = 0;
    if (a == close)
        return 0;
    while (a <= close && k < max) {
        size_t b = a;
        while (b < close && !tok_punct(&t->v[b], ",")) {
            if (t->v[b].match > (long)b)
                b = (size_t)t->v[b].match;
            b++;
        }
        if (b == a && b == close)
            break; /* trailing comma */
        starts[k] = a;
        ends[k] = b;
        k++;
        a = b + 1;
    }
    return k;
}

char *const_string(const toks_t *t, size_t a, size_t b, int *obf, int lang)
{
    size_t cap = 64, len = 0;
    char *out = xmalloc(cap);
    int pieces = 0, want_value = 1;
    *obf = 0;
    for (size_t i = a; i < b; i++) {
        const tok_t *k = &t->v[i];
        if (k->kind == T_STR && !(k->flags & F_FSTR)) {
            if (len + k->vlen + 1 > cap)
                out = xrealloc(out, cap = (len + k->vlen + 1) * 2);
            if (k->vlen)
                memcpy(out + len, k->val, k->vlen);
            len += k->vlen;
            pieces++;
            want_value = 0;
            continue;
        }
        if (tok_punct(k, "(") || tok_punct(k, ")"))
            continue;
        if (tok_punct(k, "+") && !want_value) {
            want_value = 1;
            continue;
        }
        /* chr(111) in Python, String.fromCharCode(111, 115) in JS */
        size_t p = i;
        if (lang == L_JS && tok_is(k, "String") && i + 3 < b && tok_punct(&t->v[i + 1], ".")
            && tok_is(&t->v[i + 2], "fromCharCode"))
            p = i + 3;
        else if (lang == L_PY && tok_is(k, "chr") && i + 1 < b)
            p = i + 1;
        else {
            free(out);
            return NULL;
        }
        if (!tok_punct(&t->v[p], "(") || t->v[p].match < 0 || (size_t)t->v[p].match >= b) {
            free(out);
            return NULL;
        }
        size_t close = (size_t)t->v[p].match;
        for (size_t j = p + 1; j < close; j++) {
            unsigned long long v;
            int nd;
            if (tok_punct(&t->v[j], ","))
                continue;
            if (!parse_int(&t->v[j], &v, &nd) || v > 0x7f) {
                free(out);
                return NULL;
            }
            if (len + 2 > cap)
                out = xrealloc(out, cap *= 2);
            out[len++] = (char)v;
        }
        pieces += 2;
        want_value = 0;
        i = close;
    }
    if (!pieces) {
        free(out);
        return NULL;
    }
    out[len] = 0;
    *obf = pieces > 1;
    return out;
}

/* ---- code inside strings ---- */

void scan_code_string(scan_t *sc, enum lang lang, const tok_t *at, const unsigned char *s, size_t n)
{
    if (sc->depth >= 4 || !n)
        return;
    src_t src;
    src_init(&src, (const char *)s, n, (const char *)s, n, NULL);
    src.base_line = at->line;
    src.base_col = at->col;
    toks_t t = {0};
    switch (lang) {
    case L_PY:
        lex_py(&src, &t);
        break;
    case L_JS:
        lex_js(&src, &t);
        break;
    default:
        break;
    }
    toks_match(&t);
    int pl = sc->pin_line, pc = sc->pin_col;
    if (!sc->pin_line) {
        sc->pin_line = at->line;
        sc->pin_col = at->col;
    }
    sc->depth++;
    if (lang == L_PY)
        rules_py(sc, &t);
    else if (lang == L_JS)
        rules_js(sc, &t);
    sc->depth--;
    sc->pin_line = pl;
    sc->pin_col = pc;
    toks_free(&t);
    src_free(&src);
}

void check_common_idents(scan_t *sc, const toks_t *t)
{
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *k = &t->v[i];
        if (k->kind != T_IDENT)
            continue;
        if (!strcmp(k->text, "PROT_EXEC") || !strcmp(k->text, "PAGE_EXECUTE_READWRITE"))
            add_finding_at(sc, k, SEV_HIGH, "exec-memory", "memory mapped executable (%s)", k->text);
    }
}
