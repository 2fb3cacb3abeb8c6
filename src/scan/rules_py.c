/* Python rules.  Imports are followed through their aliases (import os as
 * o; from os import system; o2 = os), and the calls that take a name or
 * code as a string (__import__, importlib.import_module, getattr, eval,
 * exec, compile) have that string examined: a constant is looked up or
 * scanned as code, an assembled one ('o'+'s', chr(111)+chr(115)) is
 * obfuscation, and one that is not constant at all hides what it does. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

struct py {
    scan_t *sc;
    const toks_t *t;
    aliases_t al;
    int depth; /* of resolve(): getattr(getattr(...)) nests */
};

static int after(const toks_t *t, size_t i, const char *p)
{
    return i > 0 && tok_punct(&t->v[i - 1], p);
}

static int called(const toks_t *t, size_t i)
{
    return i + 1 < t->n && tok_punct(&t->v[i + 1], "(") && t->v[i + 1].match > 0;
}

static char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *r = xmalloc(la + lb + 2);
    memcpy(r, a, la);
    r[la] = '.';
    memcpy(r + la + 1, b, lb + 1);
    return r;
}

/* NAME(.NAME)* at i; *end is the index after it */
static char *dotted(const toks_t *t, size_t i, size_t *end)
{
    if (i >= t->n || t->v[i].kind != T_IDENT)
        return NULL;
    char *r = xstrndup(t->v[i].text, t->v[i].len);
    size_t j = i + 1;
    while (j + 1 < t->n && tok_punct(&t->v[j], ".") && t->v[j + 1].kind == T_IDENT) {
        char *n = join(r, t->v[j + 1].text);
        free(r);
        r = n;
        j += 2;
    }
    *end = j;
    return r;
}

static int flag_module(struct py *p, const tok_t *at, const char *mod, const char *how)
{
    const struct qname *q = qn_module(L_PY, mod);
    if (!q)
        return 0;
    add_finding_at(p->sc, at, q->sev, q->rule, "%s %s", how, mod);
    return 1;
}

static int flag_qual(struct py *p, const tok_t *at, const char *qual)
{
    char *buf = xstrndup(qual, strlen(qual));
    /* the longest listed prefix: os.system.__call__ is os.system */
    for (;;) {
        const struct qname *q = qn_attr(L_PY, buf);
        if (q) {
            add_finding_at(p->sc, at, q->sev, q->rule, "uses %s", buf);
            free(buf);
            return 1;
        }
        char *dot = strrchr(buf, '.');
        if (!dot)
            break;
        *dot = 0;
    }
    free(buf);
    return 0;
}

/* Markers of a value assembled to hide it */
static int obfuscation_in(const toks_t *t, size_t a, size_t b)
{
    static const char *const marks[] = {"chr", "b64decode", "b32decode", "b85decode", "a85decode", "decode",
                                        "decompress", "fromhex", "unhexlify", "join", "codecs", "reversed",
                                        "bytes", "bytearray", "format", "replace", "translate", "urlsafe_b64decode",
                                        NULL};
    for (size_t i = a; i < b; i++) {
        if (t->v[i].kind == T_IDENT)
            for (int k = 0; marks[k]; k++)
                if (!strcmp(t->v[i].text, marks[k]))
                    return 1;
        if (tok_punct(&t->v[i], ":") && i + 1 < b && tok_punct(&t->v[i + 1], ":"))
            return 1; /* [::-1] */
        if (t->v[i].kind == T_STR && (t->v[i].flags & F_FSTR))
            return 1;
    }
    return 0;
}

static char *resolve(struct py *p, size_t i, size_t *end);

/* The module named by __import__(X) or import_module(X) whose '(' is at
 * open; examines X and reports. Returns the constant name or NULL. */
static char *import_call(struct py *p, size_t head, size_t open, const char *fn)
{
    const toks_t *t = p->t;
    size_t s[8], e[8];
    int n = call_args(t, open, s, e, 8);
    if (n < 1) {
        add_finding_at(p->sc, &t->v[head], SEV_HIGH, "obfuscated", "%s without a module name", fn);
        return NULL;
    }
    int obf;
    char *c = const_string(t, s[0], e[0], &obf, L_PY);
    if (!c) {
        add_finding_at(p->sc, &t->v[head], SEV_HIGH, "obfuscated", "%s of a computed name", fn);
        return NULL;
    }
    if (obf)
        add_finding_at(p->sc, &t->v[head], SEV_HIGH, "obfuscated", "%s of an assembled name: '%s'", fn, c);
    if (!flag_module(p, &t->v[head], c, "dynamic import of"))
        add_finding_at(p->sc, &t->v[head], SEV_MEDIUM, "dynamic-import", "%s('%s')", fn, c);
    return c;
}

static char *getattr_call(struct py *p, size_t head, size_t open)
{
    const toks_t *t = p->t;
    size_t s[8], e[8];
    int n = call_args(t, open, s, e, 8);
    if (n < 2)
        return NULL;
    int obf;
    char *name = const_string(t, s[1], e[1], &obf, L_PY);
    if (!name) {
        add_finding_at(p->sc, &t->v[head], SEV_HIGH, "introspection", "getattr with a computed name");
        if (obfuscation_in(t, s[1], e[1]))
            add_finding_at(p->sc, &t->v[head], SEV_HIGH, "obfuscated", "getattr of an assembled name");
        return NULL;
    }
    if (obf)
        add_finding_at(p->sc, &t->v[head], SEV_HIGH, "obfuscated", "getattr of an assembled name: '%s'", name);
    const struct qname *q = qn_any_attr(name);
    if (q)
        add_finding_at(p->sc, &t->v[head], q->sev, q->rule, "getattr(..., '%s')", name);
    size_t rend;
    char *base = resolve(p, s[0], &rend);
    char *r = NULL;
    if (base && rend == e[0]) {
        r = join(base, name);
        flag_qual(p, &t->v[head], r);
        flag_module(p, &t->v[head], r, "uses");
    }
    free(base);
    free(name);
    return r;
}

/* What the expression at i refers to, as a qualified name, when it is
 * built from imports: o.system, __import__('os').system,
 * getattr(os, 'system'), importlib.import_module('os').system */
static char *resolve(struct py *p, size_t i, size_t *end)
{
    const toks_t *t = p->t;
    if (i >= t->n || t->v[i].kind != T_IDENT || after(t, i, ".") || p->depth > 8)
        return NULL;
    const tok_t *k = &t->v[i];
    char *base = NULL;
    size_t j;
    if (tok_is(k, "__import__") && called(t, i)) {
        size_t s[2], e[2];
        int obf;
        if (call_args(t, i + 1, s, e, 2) < 1 || !(base = const_string(t, s[0], e[0], &obf, L_PY)))
            return NULL;
        j = (size_t)t->v[i + 1].match + 1;
    } else if (tok_is(k, "getattr") && called(t, i)) {
        size_t s[3], e[3], rend;
        int obf;
        if (call_args(t, i + 1, s, e, 3) < 2)
            return NULL;
        p->depth++;
        char *b = resolve(p, s[0], &rend), *nm = const_string(t, s[1], e[1], &obf, L_PY);
        p->depth--;
        if (b && nm && rend == e[0])
            base = join(b, nm);
        free(b);
        free(nm);
        if (!base)
            return NULL;
        j = (size_t)t->v[i + 1].match + 1;
    } else {
        const char *q = aliases_get(&p->al, k->text);
        if (!q)
            return NULL;
        base = xstrndup(q, strlen(q));
        j = i + 1;
    }
    for (;;) {
        if (j + 1 < t->n && tok_punct(&t->v[j], ".") && t->v[j + 1].kind == T_IDENT) {
            char *n = join(base, t->v[j + 1].text);
            free(base);
            base = n;
            j += 2;
            continue;
        }
        if (!strcmp(base, "importlib.import_module") && j < t->n && tok_punct(&t->v[j], "(") && t->v[j].match > 0) {
            size_t s[2], e[2];
            int obf;
            char *c = NULL;
            if (call_args(t, j, s, e, 2) >= 1)
                c = const_string(t, s[0], e[0], &obf, L_PY);
            if (!c)
                break; /* import_call reports it */
            free(base);
            base = c;
            j = (size_t)t->v[j].match + 1;
            continue;
        }
        break;
    }
    *end = j;
    return base;
}

static void imports(struct py *p, size_t i)
{
    const toks_t *t = p->t;
    const tok_t *k = &t->v[i];
    if (tok_is(k, "import") && ((k->flags & F_BOL) || after(t, i, ";") || after(t, i, ":"))) {
        size_t j = i + 1, e;
        char *name;
        while ((name = dotted(t, j, &e))) {
            flag_module(p, &t->v[j], name, "imports");
            if (e + 1 < t->n && tok_is(&t->v[e], "as") && t->v[e + 1].kind == T_IDENT) {
                aliases_set(&p->al, t->v[e + 1].text, name);
                e += 2;
            } else {
                aliases_set(&p->al, t->v[j].text, t->v[j].text);
            }
            free(name);
            if (e < t->n && tok_punct(&t->v[e], ",")) {
                j = e + 1;
                continue;
            }
            break;
        }
        return;
    }
    if (!tok_is(k, "from") || after(t, i, "."))
        return;
    size_t j = i + 1, e;
    int relative = 0;
    while (j < t->n && (tok_punct(&t->v[j], ".") || tok_punct(&t->v[j], "...")))
        j++, relative = 1;
    char *mod = dotted(t, j, &e);
    if (!mod || e >= t->n || !tok_is(&t->v[e], "import")) {
        free(mod);
        return;
    }
    if (!relative)
        flag_module(p, &t->v[j], mod, "imports from");
    j = e + 1;
    if (j < t->n && tok_punct(&t->v[j], "("))
        j++;
    if (j < t->n && tok_punct(&t->v[j], "*")) {
        if (!relative)
            qn_star(&p->al, L_PY, mod);
    }
    while (!relative && j < t->n && t->v[j].kind == T_IDENT) {
        char *q = join(mod, t->v[j].text);
        flag_module(p, &t->v[j], q, "imports");
        flag_qual(p, &t->v[j], q);
        const char *as = t->v[j].text;
        j++;
        if (j + 1 < t->n && tok_is(&t->v[j], "as") && t->v[j + 1].kind == T_IDENT) {
            as = t->v[j + 1].text;
            j += 2;
        }
        aliases_set(&p->al, as, q);
        free(q);
        if (j < t->n && tok_punct(&t->v[j], ","))
            j++;
        else
            break;
    }
    free(mod);
}

static int is_definition(const toks_t *t, size_t i)
{
    if (i > 0 && (tok_is(&t->v[i - 1], "def") || tok_is(&t->v[i - 1], "class")))
        return 1;
    /* a keyword argument f(eval=...) or a dict key is not the builtin */
    return i + 1 < t->n && tok_punct(&t->v[i + 1], "=") && i > 0
        && (tok_punct(&t->v[i - 1], "(") || tok_punct(&t->v[i - 1], ","));
}

static void evaluator(struct py *p, size_t i)
{
    const toks_t *t = p->t;
    const tok_t *k = &t->v[i];
    add_finding_at(p->sc, k, SEV_HIGH, "eval", "dynamic code evaluation: %s", k->text);
    if (!called(t, i))
        return;
    size_t s[4], e[4];
    if (call_args(t, i + 1, s, e, 4) < 1)
        return;
    int obf;
    char *c = const_string(t, s[0], e[0], &obf, L_PY);
    if (c) {
        if (obf)
            add_finding_at(p->sc, k, SEV_HIGH, "obfuscated", "%s of assembled code", k->text);
        scan_code_string(p->sc, L_PY, k, (unsigned char *)c, strlen(c));
        free(c);
    } else if (obfuscation_in(t, s[0], e[0]))
        add_finding_at(p->sc, k, SEV_HIGH, "obfuscated", "%s of decoded or assembled code", k->text);
}

void rules_py(scan_t *sc, const toks_t *t)
{
    struct py p = {.sc = sc, .t = t};
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *k = &t->v[i];
        if (k->kind == T_PUNCT && tok_punct(k, "[") && i + 2 < t->n && t->v[i + 1].kind == T_STR
            && tok_punct(&t->v[i + 2], "]") && !(t->v[i + 1].flags & F_FSTR) && i > 0
            && (t->v[i - 1].kind == T_IDENT || tok_punct(&t->v[i - 1], ")") || tok_punct(&t->v[i - 1], "]"))) {
            const char *v = (const char *)t->v[i + 1].val;
            const struct qname *q = v ? qn_dunder(v) : NULL;
            if (q)
                add_finding_at(sc, k, q->sev, q->rule, "subscript ['%s']", v);
            continue;
        }
        if (k->kind != T_IDENT)
            continue;
        imports(&p, i);
        int dot = after(t, i, ".");
        const struct qname *q = qn_dunder(k->text);
        if (q && strcmp(k->text, "__import__"))
            add_finding_at(sc, k, q->sev, q->rule, "%s", k->text);
        if (tok_is(k, "import_module") && called(t, i))
            free(import_call(&p, i, i + 1, "import_module"));
        if (tok_is(k, "__import__")) {
            if (called(t, i))
                free(import_call(&p, i, i + 1, "__import__"));
            else
                add_finding_at(sc, k, SEV_HIGH, "dynamic-import", "a reference to __import__");
        }
        if (dot || is_definition(t, i))
            continue;
        if (tok_is(k, "eval") || tok_is(k, "exec") || tok_is(k, "compile")) {
            evaluator(&p, i);
            continue;
        }
        if ((tok_is(k, "globals") || tok_is(k, "vars")) && called(t, i)) {
            add_finding_at(sc, k, SEV_HIGH, "introspection", "%s()", k->text);
            continue;
        }
        if (tok_is(k, "getattr") && called(t, i))
            free(getattr_call(&p, i, i + 1));
        if (tok_is(k, "chr") && called(t, i) && (size_t)t->v[i + 1].match + 2 < t->n
            && tok_punct(&t->v[t->v[i + 1].match + 1], "+") && tok_is(&t->v[t->v[i + 1].match + 2], "chr"))
            add_finding_at(sc, k, SEV_MEDIUM, "obfuscated", "a string assembled from character codes");
        size_t end;
        char *r = resolve(&p, i, &end);
        if (r) {
            flag_qual(&p, k, r);
            free(r);
        }
        if (i + 2 < t->n && tok_punct(&t->v[i + 1], "=") && ((k->flags & F_BOL) || after(t, i, ";"))) {
            char *rr = resolve(&p, i + 2, &end);
            if (rr && (end >= t->n || (t->v[end].flags & F_BOL) || tok_punct(&t->v[end], ";")))
                aliases_set(&p.al, k->text, rr);
            free(rr);
        }
    }
    check_opcode_bytes(sc, t, "[({");
    check_common_idents(sc, t);
    aliases_free(&p.al);
}
