/* JavaScript rules.  Modules come in through require(), import(),
 * import/export ... from, and module.constructor._load(); each name is
 * examined as Python's __import__ is.  Code comes in through eval,
 * Function, any .constructor call (Object.constructor('return process')()
 * is the Function constructor), vm, and timers given a string. */
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int after(const toks_t *t, size_t i, const char *p)
{
    return i > 0 && tok_punct(&t->v[i - 1], p);
}

static int called(const toks_t *t, size_t i)
{
    return i + 1 < t->n && tok_punct(&t->v[i + 1], "(") && t->v[i + 1].match > 0;
}

static void module_name(scan_t *sc, const tok_t *at, const char *m, const char *how)
{
    if (!strncmp(m, "node:", 5))
        m += 5;
    size_t l = strlen(m);
    if (l > 5 && !strcmp(m + l - 5, ".node")) {
        add_finding_at(sc, at, SEV_HIGH, "dynload", "%s a native addon %s", how, m);
        return;
    }
    char base[256];
    size_t k = strcspn(m, "/");
    if (m[0] == '@') /* @scope/pkg */
        k = k + strcspn(m + k + (m[k] ? 1 : 0), "/") + (m[k] ? 1 : 0);
    snprintf(base, sizeof base, "%.*s", (int)(k < sizeof base ? k : sizeof base - 1), m);
    const struct qname *q = qn_module(L_JS, base);
    if (q)
        add_finding_at(sc, at, q->sev, q->rule, "%s %s", how, m);
}

static int obfuscation_in(const toks_t *t, size_t a, size_t b)
{
    static const char *const marks[] = {"fromCharCode", "atob", "Buffer", "join", "reverse", "split", "replace",
                                        "decodeURIComponent", "unescape", "toString", "concat", NULL};
    for (size_t i = a; i < b; i++) {
        if (t->v[i].kind == T_IDENT)
            for (int k = 0; marks[k]; k++)
                if (!strcmp(t->v[i].text, marks[k]))
                    return 1;
        if (t->v[i].kind == T_STR && (t->v[i].flags & F_FSTR))
            return 1;
    }
    return 0;
}

/* require(X), import(X), _load(X): the module name is examined */
static void loader_call(scan_t *sc, const toks_t *t, size_t i, const char *fn)
{
    size_t s[4], e[4];
    const tok_t *k = &t->v[i];
    if (call_args(t, i + 1, s, e, 4) < 1)
        return;
    int obf;
    char *c = const_string(t, s[0], e[0], &obf, L_JS);
    if (!c) {
        add_finding_at(sc, k, SEV_HIGH, "obfuscated", "%s of a computed name", fn);
        return;
    }
    if (obf)
        add_finding_at(sc, k, SEV_HIGH, "obfuscated", "%s of an assembled name: '%s'", fn, c);
    module_name(sc, k, c, fn);
    free(c);
}

/* eval(X), Function(X), .constructor(X), setTimeout(X): a constant X is
 * scanned as JavaScript */
static void code_call(scan_t *sc, const toks_t *t, size_t i, int last_is_body)
{
    size_t s[16], e[16];
    const tok_t *k = &t->v[i];
    int n = call_args(t, i + 1, s, e, 16);
    if (n < 1)
        return;
    int a = last_is_body ? n - 1 : 0;
    int obf;
    char *c = const_string(t, s[a], e[a], &obf, L_JS);
    if (c) {
        if (obf)
            add_finding_at(sc, k, SEV_HIGH, "obfuscated", "%s of assembled code", k->text);
        scan_code_string(sc, L_JS, k, (unsigned char *)c, strlen(c));
        free(c);
    } else if (obfuscation_in(t, s[a], e[a]))
        add_finding_at(sc, k, SEV_HIGH, "obfuscated", "%s of decoded or assembled code", k->text);
}

void rules_js(scan_t *sc, const toks_t *t)
{
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *k = &t->v[i];
        if (k->kind == T_STR && i > 0 && (tok_is(&t->v[i - 1], "from") || tok_is(&t->v[i - 1], "import"))
            && !(k->flags & F_FSTR)) {
            module_name(sc, k, (const char *)k->val, "imports");
            continue;
        }
        if (tok_punct(k, "[") && i + 2 < t->n && tok_punct(&t->v[i + 2], "]") && i > 0
            && (t->v[i - 1].kind == T_IDENT || tok_punct(&t->v[i - 1], ")") || tok_punct(&t->v[i - 1], "]"))) {
            const tok_t *s = &t->v[i + 1];
            if (s->kind == T_STR && s->val && !(s->flags & F_FSTR)) {
                const char *v = (const char *)s->val;
                if (!strcmp(v, "constructor"))
                    add_finding_at(sc, k, SEV_HIGH, "eval", "['constructor']: the Function constructor");
                else if (!strcmp(v, "eval") || !strcmp(v, "Function"))
                    add_finding_at(sc, k, SEV_HIGH, "eval", "['%s']", v);
                else if (!strcmp(v, "require") || !strcmp(v, "mainModule") || !strcmp(v, "binding")
                         || !strcmp(v, "_linkedBinding") || !strcmp(v, "dlopen") || !strcmp(v, "_load"))
                    add_finding_at(sc, k, SEV_HIGH, "obfuscated", "['%s'] hides a loader", v);
            }
        }
        if (tok_punct(k, "[") && k->match > 0 && i > 0) {
            const tok_t *o = &t->v[i - 1];
            if (tok_is(o, "globalThis") || tok_is(o, "global") || tok_is(o, "process") || tok_is(o, "window")
                || tok_is(o, "self") || tok_is(o, "module") || tok_is(o, "require")) {
                int obf;
                char *c = const_string(t, i + 1, (size_t)k->match, &obf, L_JS);
                if (!c || obf)
                    add_finding_at(sc, k, SEV_HIGH, "obfuscated", "%s[...] with a computed name", o->text);
                free(c);
            }
        }
        if (k->kind != T_IDENT)
            continue;
        int dot = after(t, i, ".") || after(t, i, "?.");
        if (i + 1 < t->n && tok_punct(&t->v[i + 1], ":") && !dot && i > 0
            && (tok_punct(&t->v[i - 1], "{") || tok_punct(&t->v[i - 1], ",")))
            continue; /* an object key */
        const char *x = k->text;
        if ((!strcmp(x, "require") || !strcmp(x, "_load") || !strcmp(x, "__non_webpack_require__")) && called(t, i)) {
            loader_call(sc, t, i, x);
            continue;
        }
        if (!strcmp(x, "require") && !called(t, i) && !dot && !(i > 0 && tok_is(&t->v[i - 1], "typeof"))
            && !(i + 1 < t->n && (tok_punct(&t->v[i + 1], ".") || tok_punct(&t->v[i + 1], "=")))) {
            add_finding_at(sc, k, SEV_MEDIUM, "dynamic-import", "require used as a value");
            continue;
        }
        if (!strcmp(x, "import") && called(t, i) && !dot) {
            loader_call(sc, t, i, "import()");
            continue;
        }
        if (!strcmp(x, "binding") || !strcmp(x, "_linkedBinding") || !strcmp(x, "dlopen")) {
            if (dot || !strcmp(x, "dlopen"))
                add_finding_at(sc, k, SEV_HIGH, "dynload", "process.%s: native code", x);
            continue;
        }
        if (!strcmp(x, "eval") && (!dot || called(t, i))) {
            add_finding_at(sc, k, SEV_HIGH, "eval", "dynamic code evaluation: eval");
            if (called(t, i))
                code_call(sc, t, i, 0);
            continue;
        }
        if ((!strcmp(x, "Function") || !strcmp(x, "AsyncFunction") || !strcmp(x, "GeneratorFunction"))
            && !(i > 0 && tok_is(&t->v[i - 1], "instanceof"))) {
            add_finding_at(sc, k, SEV_HIGH, "eval", "dynamic code evaluation: %s constructor", x);
            if (called(t, i))
                code_call(sc, t, i, 1);
            continue;
        }
        if (!strcmp(x, "constructor") && dot
            && (called(t, i) || (i + 2 < t->n && tok_punct(&t->v[i + 1], ".") && tok_is(&t->v[i + 2], "constructor")))) {
            add_finding_at(sc, k, SEV_HIGH, "eval", "a .constructor call: the Function constructor");
            if (called(t, i))
                code_call(sc, t, i, 1);
            continue;
        }
        if ((!strcmp(x, "setTimeout") || !strcmp(x, "setInterval") || !strcmp(x, "setImmediate")) && called(t, i)) {
            size_t s[2], e[2];
            if (call_args(t, i + 1, s, e, 2) >= 1 && t->v[s[0]].kind == T_STR) {
                add_finding_at(sc, k, SEV_HIGH, "eval", "%s with a string: evaluated as code", x);
                code_call(sc, t, i, 0);
            }
            continue;
        }
        if (!dot && (!strcmp(x, "fetch") || !strcmp(x, "WebSocket") || !strcmp(x, "XMLHttpRequest")
                     || !strcmp(x, "EventSource")) && (called(t, i) || (i > 0 && tok_is(&t->v[i - 1], "new")))) {
            add_finding_at(sc, k, SEV_HIGH, "network", "%s", x);
            continue;
        }
        if (!strcmp(x, "mainModule") && dot) {
            add_finding_at(sc, k, SEV_MEDIUM, "dynamic-import", "process.mainModule");
            continue;
        }
        if (!strcmp(x, "fromCharCode") && dot && called(t, i)) {
            size_t s[3], e[3];
            if (call_args(t, i + 1, s, e, 3) >= 2)
                add_finding_at(sc, k, SEV_MEDIUM, "obfuscated", "a string assembled from character codes");
        }
    }
    check_opcode_bytes(sc, t, "[");
    check_common_idents(sc, t);
}
