/* C and C++ rules.  They run twice: on the source as written (so a
 * #define body is read, and token pasting that spells a forbidden name is
 * caught at the #define) and on the preprocessor's output for the lines of
 * the file itself (so a macro that hides `asm` or `syscall` is caught where
 * it is used). */
#include "scan.h"

#include <stdlib.h>
#include <string.h>

struct name {
    const char *name;
    const char *rule;
    int sev;
    int call_only; /* only when called: a common word otherwise */
};

static const struct name c_names[] = {
    {"asm", "asm", SEV_HIGH, 0},
    {"__asm__", "asm", SEV_HIGH, 0},
    {"__asm", "asm", SEV_HIGH, 0},
    {"syscall", "syscall", SEV_HIGH, 0},
    {"__syscall", "syscall", SEV_HIGH, 0},
    {"fork", "process", SEV_HIGH, 0},
    {"vfork", "process", SEV_HIGH, 0},
    {"clone", "process", SEV_HIGH, 1},
    {"clone3", "process", SEV_HIGH, 0},
    {"__clone", "process", SEV_HIGH, 0},
    {"forkpty", "process", SEV_HIGH, 0},
    {"execl", "process", SEV_HIGH, 0},
    {"execle", "process", SEV_HIGH, 0},
    {"execlp", "process", SEV_HIGH, 0},
    {"execv", "process", SEV_HIGH, 0},
    {"execve", "process", SEV_HIGH, 0},
    {"execvp", "process", SEV_HIGH, 0},
    {"execvpe", "process", SEV_HIGH, 0},
    {"execveat", "process", SEV_HIGH, 0},
    {"fexecve", "process", SEV_HIGH, 0},
    {"system", "process", SEV_HIGH, 0},
    {"popen", "process", SEV_HIGH, 0},
    {"posix_spawn", "process", SEV_HIGH, 0},
    {"posix_spawnp", "process", SEV_HIGH, 0},
    {"wordexp", "process", SEV_HIGH, 0},
    {"ptrace", "process", SEV_HIGH, 0},
    {"socket", "network", SEV_HIGH, 0},
    {"socketpair", "network", SEV_HIGH, 1},
    {"connect", "network", SEV_HIGH, 1},
    {"bind", "network", SEV_HIGH, 1},
    {"listen", "network", SEV_HIGH, 1},
    {"accept", "network", SEV_HIGH, 1},
    {"accept4", "network", SEV_HIGH, 1},
    {"sendto", "network", SEV_HIGH, 1},
    {"recvfrom", "network", SEV_HIGH, 1},
    {"getaddrinfo", "network", SEV_HIGH, 1},
    {"gethostbyname", "network", SEV_HIGH, 1},
    {"dlopen", "dynload", SEV_HIGH, 0},
    {"dlmopen", "dynload", SEV_HIGH, 0},
    {"dlsym", "dynload", SEV_HIGH, 0},
    {"dlvsym", "dynload", SEV_HIGH, 0},
    {"mprotect", "exec-memory", SEV_MEDIUM, 1},
    {"pkey_mprotect", "exec-memory", SEV_MEDIUM, 1},
    {"__builtin___clear_cache", "exec-memory", SEV_MEDIUM, 0},
    {NULL, NULL, 0, 0}};

static const char *rule_msg(const char *rule)
{
    static const char *const msg[][2] = {
        {"asm", "inline assembly"},   {"syscall", "direct system call"}, {"process", "process creation"},
        {"network", "network socket"}, {"dynload", "dynamic loading"},   {"exec-memory", "changes memory protection"}};
    for (size_t k = 0; k < sizeof msg / sizeof msg[0]; k++)
        if (!strcmp(rule, msg[k][0]))
            return msg[k][1];
    return rule;
}

static const struct name *lookup(const char *s)
{
    for (int k = 0; c_names[k].name; k++)
        if (!strcmp(c_names[k].name, s))
            return &c_names[k];
    return NULL;
}

/* A member (x.system, p->connect) or another namespace's name
 * (std::bind, boost::asio::connect is still a connect: only std's bind and
 * the member forms are honest). */
static int is_member(const toks_t *t, size_t i)
{
    if (i == 0)
        return 0;
    const tok_t *p = &t->v[i - 1];
    if (tok_punct(p, ".") || tok_punct(p, "->"))
        return 1;
    if (tok_punct(p, "::") && i >= 2 && t->v[i - 2].kind == T_IDENT) {
        const char *ns = t->v[i - 2].text;
        if (!strcmp(ns, "std") && (!strcmp(t->v[i].text, "bind") || !strcmp(t->v[i].text, "accept")))
            return 1;
        if (!strcmp(ns, "std") || !strcmp(ns, "asio") || !strcmp(ns, "ip"))
            return 0;
        return 1;
    }
    return 0;
}

/* `int connect(int x)`: a function of the program's own with a common
 * name is declared after its type; a call follows an operator or keyword */
static int declared(const toks_t *t, size_t i)
{
    static const char *const kw[] = {"return", "else", "do", "case", "throw", "sizeof", "co_return", "co_await",
                                     "co_yield", "defined", NULL};
    if (i == 0 || t->v[i - 1].kind != T_IDENT)
        return 0;
    for (int k = 0; kw[k]; k++)
        if (tok_is(&t->v[i - 1], kw[k]))
            return 0;
    return 1;
}

static void asm_body(scan_t *sc, const toks_t *t, size_t i)
{
    size_t j = i + 1;
    while (j < t->n && t->v[j].kind == T_IDENT && j < i + 4)
        j++; /* volatile, __volatile__, goto, inline */
    if (j >= t->n || t->v[j].match < 0)
        return;
    size_t close = (size_t)t->v[j].match;
    if (tok_punct(&t->v[j], "{")) {
        /* MSVC-style block: the tokens are the text */
        size_t cap = 256, len = 0;
        char *buf = xmalloc(cap);
        for (size_t k = j + 1; k < close; k++) {
            const tok_t *e = &t->v[k];
            if (len + e->len + 2 > cap)
                buf = xrealloc(buf, cap = (len + e->len + 2) * 2);
            memcpy(buf + len, e->text, e->len);
            len += e->len;
            buf[len++] = ' ';
        }
        check_asm_text(sc, &t->v[i], (unsigned char *)buf, len);
        free(buf);
        return;
    }
    for (size_t k = j + 1; k < close; k++)
        if (t->v[k].kind == T_STR)
            check_asm_text(sc, &t->v[k], t->v[k].val, t->v[k].vlen);
}

static int subscripted(const toks_t *t, const char *name)
{
    for (size_t i = 0; i + 1 < t->n; i++)
        if (tok_is(&t->v[i], name) && tok_punct(&t->v[i + 1], "["))
            return 1;
    return 0;
}

/* (type (*)(args)) operand: data turned into a function.  A function name
 * cast to another function type (a qsort comparator) is honest; what is
 * flagged is a cast of something indexed like an array, of an address or
 * a string, or a cast whose result is called on the spot. */
static void fnptr_cast(scan_t *sc, const toks_t *t, size_t i, int *budget)
{
    const tok_t *o = &t->v[i];
    if (!tok_punct(o, "(") || o->match < 0)
        return;
    size_t close = (size_t)o->match;
    if (close + 1 >= t->n)
        return;
    for (size_t k = i + 1; k + 3 < close; k++)
        if (tok_punct(&t->v[k], "(") && tok_punct(&t->v[k + 1], "*") && tok_punct(&t->v[k + 2], ")")
            && tok_punct(&t->v[k + 3], "(") && t->v[k + 3].match == (long)close - 1) {
            const tok_t *nx = &t->v[close + 1];
            int data = nx->kind == T_STR || tok_punct(nx, "&") || tok_punct(nx, "(")
                || (nx->kind == T_IDENT && (*budget)-- > 0 && subscripted(t, nx->text)); /* bounded: O(n) each */
            int called_now = nx->kind == T_IDENT && close + 3 < t->n && tok_punct(&t->v[close + 2], ")")
                && tok_punct(&t->v[close + 3], "(") && i > 0 && tok_punct(&t->v[i - 1], "(");
            if (data || called_now)
                add_finding_at(sc, o, called_now ? SEV_HIGH : SEV_MEDIUM, "exec-memory",
                               "a cast of data to a function pointer%s", called_now ? ", called" : "");
            return;
        }
}

void rules_c(scan_t *sc, const toks_t *t, int from_cpp)
{
    (void)from_cpp;
    int budget = 64;
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *k = &t->v[i];
        if (k->kind == T_PUNCT) {
            fnptr_cast(sc, t, i, &budget);
            continue;
        }
        if (k->kind != T_IDENT)
            continue;
        int called = i + 1 < t->n && tok_punct(&t->v[i + 1], "(");
        if (!strncmp(k->text, "__NR_", 5) || (!strncmp(k->text, "SYS_", 4) && k->text[4] >= 'a' && k->text[4] <= 'z')) {
            add_finding_at(sc, k, SEV_HIGH, "syscall", "system call number %s", k->text);
            continue;
        }
        if ((!strcmp(k->text, "section") || !strcmp(k->text, "__section__")) && called && i + 2 < t->n
            && t->v[i + 2].kind == T_STR) {
            const char *v = (const char *)t->v[i + 2].val;
            if (v && (strstr(v, "text") || strstr(v, "init") || strstr(v, "fini") || strstr(v, "x")))
                add_finding_at(sc, k, SEV_HIGH, "exec-memory", "data placed in an executable section (%s)", v);
            continue;
        }
        const struct name *nm = lookup(k->text);
        if (!nm || is_member(t, i))
            continue;
        if (nm->call_only && (!called || declared(t, i)))
            continue;
        add_finding_at(sc, k, nm->sev, nm->rule, "%s: %s", rule_msg(nm->rule), k->text);
        if (!strcmp(nm->rule, "asm"))
            asm_body(sc, t, i);
    }
    check_opcode_bytes(sc, t, "{");
    check_common_idents(sc, t);
}

/* #define bodies: token pasting (a ## b) that spells a name of the list */
void rules_c_defines(scan_t *sc, const toks_t *t)
{
    for (size_t i = 0; i + 1 < t->n; i++) {
        if (!(t->v[i].flags & F_PP) || !tok_punct(&t->v[i + 1], "##"))
            continue;
        if (t->v[i].kind != T_IDENT)
            continue;
        char buf[256];
        size_t len = 0, j = i;
        buf[0] = 0;
        while (j < t->n && (t->v[j].flags & F_PP) && t->v[j].kind == T_IDENT && len + t->v[j].len < sizeof buf) {
            memcpy(buf + len, t->v[j].text, t->v[j].len);
            len += t->v[j].len;
            buf[len] = 0;
            if (j + 2 < t->n && tok_punct(&t->v[j + 1], "##") && (t->v[j + 2].flags & F_PP))
                j += 2;
            else
                break;
        }
        const struct name *nm = lookup(buf);
        if (nm || !strncmp(buf, "__NR_", 5))
            add_finding_at(sc, &t->v[i], nm ? nm->sev : SEV_HIGH, nm ? nm->rule : "syscall",
                           "token pasting forms %s", buf);
        i = j;
    }
}
