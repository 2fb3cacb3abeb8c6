/* Go rules: imports (os/exec, net, plugin, cgo's "C") with their local
 * names followed to the calls (syscall.Syscall, syscall.ForkExec,
 * os.StartProcess), compiler directives (//go:linkname reaches any
 * runtime function), and assembly files. */
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void import_spec(scan_t *sc, aliases_t *al, const toks_t *t, size_t j)
{
    /* [name | . | _] "path" */
    const char *name = NULL;
    if (t->v[j].kind == T_IDENT || tok_punct(&t->v[j], ".")) {
        name = t->v[j].text;
        j++;
    }
    if (j >= t->n || t->v[j].kind != T_STR || !t->v[j].val)
        return;
    const char *path = (const char *)t->v[j].val;
    const struct qname *q = qn_module(L_GO, path);
    if (q)
        add_finding_at(sc, &t->v[j], q->sev, q->rule, "imports \"%s\"%s", path,
                       !strcmp(path, "C") ? " (cgo: C code in the program)" : "");
    else if (!strncmp(path, "net/", 4) && strcmp(path, "net/url") && strcmp(path, "net/netip") && strcmp(path, "net/mail")
             && strcmp(path, "net/textproto"))
        add_finding_at(sc, &t->v[j], SEV_HIGH, "network", "imports \"%s\"", path);
    const char *last = strrchr(path, '/');
    last = last ? last + 1 : path;
    if (name && !strcmp(name, "."))
        qn_star(al, L_GO, !strcmp(path, "golang.org/x/sys/unix") ? path : last);
    else if (name && strcmp(name, "_"))
        aliases_set(al, name, !strcmp(path, "golang.org/x/sys/unix") ? path : last);
    else if (!name)
        aliases_set(al, last, !strcmp(path, "golang.org/x/sys/unix") ? path : last);
}

void rules_go(scan_t *sc, const toks_t *t)
{
    aliases_t al = {0};
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *k = &t->v[i];
        if (k->kind == T_DIRECTIVE) {
            if (!strncmp(k->text, "//go:linkname", 13))
                add_finding_at(sc, k, SEV_HIGH, "asm", "//go:linkname reaches unexported runtime code");
            else if (!strncmp(k->text, "//go:cgo_", 9))
                add_finding_at(sc, k, SEV_HIGH, "dynload", "a cgo directive");
            continue;
        }
        if (tok_is(k, "import") && i + 1 < t->n) {
            if (tok_punct(&t->v[i + 1], "(") && t->v[i + 1].match > 0) {
                size_t close = (size_t)t->v[i + 1].match;
                for (size_t j = i + 2; j < close; j++) {
                    if (t->v[j].kind == T_STR)
                        import_spec(sc, &al, t, j);
                    else if ((t->v[j].kind == T_IDENT || tok_punct(&t->v[j], ".")) && j + 1 < close
                             && t->v[j + 1].kind == T_STR)
                        import_spec(sc, &al, t, j++);
                }
            } else
                import_spec(sc, &al, t, i + 1);
            continue;
        }
        if (k->kind != T_IDENT || (i > 0 && tok_punct(&t->v[i - 1], ".")))
            continue;
        const char *pkg = aliases_get(&al, k->text);
        if (!pkg)
            continue;
        char q[512];
        if (i + 2 < t->n && tok_punct(&t->v[i + 1], ".") && t->v[i + 2].kind == T_IDENT)
            snprintf(q, sizeof q, "%s.%s", pkg, t->v[i + 2].text);
        else
            snprintf(q, sizeof q, "%s", pkg); /* a dot-imported name */
        const struct qname *qn = qn_attr(L_GO, q);
        if (qn)
            add_finding_at(sc, k, qn->sev, qn->rule, "uses %s", q);
    }
    aliases_free(&al);
    check_opcode_bytes(sc, t, "{");
    check_common_idents(sc, t);
}

/* A Go assembly file is assembly throughout; its lines are also read for
 * the instructions that enter the kernel. */
void rules_goasm(scan_t *sc, const char *s, size_t n)
{
    add_finding(sc, 1, 1, SEV_HIGH, "asm", "an assembly source file");
    int line = 1;
    for (size_t i = 0; i < n;) {
        const char *e = memchr(s + i, '\n', n - i);
        size_t len = e ? (size_t)(e - (s + i)) : n - i;
        size_t c = 0;
        while (c + 1 < len && !(s[i + c] == '/' && s[i + c + 1] == '/'))
            c++;
        if (c + 1 >= len)
            c = len; /* no comment on the line */
        tok_t at = {.line = line, .col = 1};
        check_asm_text(sc, &at, (const unsigned char *)s + i, c);
        i += len + 1;
        line++;
    }
}
