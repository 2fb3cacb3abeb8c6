/* Rust rules: asm!/global_asm! (and the kernel-entering mnemonics in
 * their strings), FFI blocks, libc's process and socket calls, std's
 * process::Command and net, libloading, and link attributes. */
#include "scan.h"

#include <string.h>

static int after(const toks_t *t, size_t i, const char *p)
{
    return i > 0 && tok_punct(&t->v[i - 1], p);
}

/* the path segment before ::name, or "" */
static const char *qualifier(const toks_t *t, size_t i)
{
    if (i >= 2 && tok_punct(&t->v[i - 1], "::") && t->v[i - 2].kind == T_IDENT)
        return t->v[i - 2].text;
    return "";
}

static int in_list(const char *s, const char *const *l)
{
    for (int k = 0; l[k]; k++)
        if (!strcmp(s, l[k]))
            return 1;
    return 0;
}

static void attribute(scan_t *sc, const toks_t *t, size_t i)
{
    /* #[ ... ] or #![ ... ] */
    size_t open = i + 1;
    if (open < t->n && tok_punct(&t->v[open], "!"))
        open++;
    if (open >= t->n || !tok_punct(&t->v[open], "[") || t->v[open].match < 0)
        return;
    size_t close = (size_t)t->v[open].match;
    for (size_t j = open + 1; j < close; j++) {
        const tok_t *k = &t->v[j];
        if (tok_is(k, "naked"))
            add_finding_at(sc, k, SEV_HIGH, "asm", "a naked function (its body is assembly)");
        else if (tok_is(k, "link") && j + 1 < close && tok_punct(&t->v[j + 1], "("))
            add_finding_at(sc, k, SEV_HIGH, "dynload", "#[link]: a native library");
        else if (tok_is(k, "link_section"))
            for (size_t m = j; m < close; m++)
                if (t->v[m].kind == T_STR && t->v[m].val
                    && (strstr((char *)t->v[m].val, "text") || strstr((char *)t->v[m].val, "init")))
                    add_finding_at(sc, k, SEV_HIGH, "exec-memory", "data placed in an executable section (%s)",
                                   t->v[m].val);
    }
}

void rules_rust(scan_t *sc, const toks_t *t)
{
    static const char *const asm_macros[] = {"asm", "global_asm", "llvm_asm", "naked_asm", NULL};
    static const char *const proc[] = {"fork", "vfork", "execv", "execve", "execvp", "execvpe", "execl", "execle",
                                       "execlp", "fexecve", "posix_spawn", "posix_spawnp", "popen", "system",
                                       "forkpty", "ptrace", NULL};
    static const char *const net_libc[] = {"socket", "connect", "bind", "listen", "accept", "accept4", "sendto",
                                           "recvfrom", "socketpair", NULL};
    static const char *const net_types[] = {"TcpStream", "TcpListener", "UdpSocket", "UnixStream", "UnixListener",
                                            "UnixDatagram", "ToSocketAddrs", NULL};
    for (size_t i = 0; i < t->n; i++) {
        const tok_t *k = &t->v[i];
        if (tok_punct(k, "#")) {
            attribute(sc, t, i);
            continue;
        }
        if (k->kind != T_IDENT)
            continue;
        const char *x = k->text, *q = qualifier(t, i);
        int dot = after(t, i, ".");
        int bang = i + 1 < t->n && tok_punct(&t->v[i + 1], "!");
        int call = i + 1 < t->n && tok_punct(&t->v[i + 1], "(");
        if (in_list(x, asm_macros) && bang) {
            add_finding_at(sc, k, SEV_HIGH, "asm", "inline assembly: %s!", x);
            size_t o = i + 2;
            if (o < t->n && t->v[o].match > 0)
                for (size_t j = o + 1; j < (size_t)t->v[o].match; j++)
                    if (t->v[j].kind == T_STR)
                        check_asm_text(sc, &t->v[j], t->v[j].val, t->v[j].vlen);
            continue;
        }
        if (!strcmp(x, "extern") && i + 1 < t->n) {
            size_t j = i + 1;
            if (t->v[j].kind == T_STR)
                j++;
            if (j < t->n && tok_punct(&t->v[j], "{"))
                add_finding_at(sc, k, SEV_MEDIUM, "ffi", "an extern block: foreign functions%s",
                               i > 0 && tok_is(&t->v[i - 1], "unsafe") ? " (unsafe extern)" : "");
            continue;
        }
        if (!strcmp(x, "syscall") && !dot) {
            add_finding_at(sc, k, SEV_HIGH, "syscall", "direct system call");
            continue;
        }
        if (!strncmp(x, "__NR_", 5) || (!strncmp(x, "SYS_", 4) && x[4] >= 'a' && x[4] <= 'z')) {
            add_finding_at(sc, k, SEV_HIGH, "syscall", "system call number %s", x);
            continue;
        }
        if (!dot && in_list(x, proc) && (call || !strcmp(q, "libc") || !strcmp(q, "unistd"))) {
            if (strcmp(x, "system") || !strcmp(q, "libc") || !q[0])
                add_finding_at(sc, k, SEV_HIGH, "process", "process creation: %s", x);
            continue;
        }
        if (!strcmp(x, "clone") && !dot && (!strcmp(q, "libc") || !strcmp(q, "sched"))) {
            add_finding_at(sc, k, SEV_HIGH, "process", "process creation: clone");
            continue;
        }
        if ((!strcmp(x, "Command") || !strcmp(x, "CommandExt"))
            && (!strcmp(q, "process") || (i + 2 < t->n && tok_punct(&t->v[i + 1], "::") && tok_is(&t->v[i + 2], "new"))
                || (i > 0 && (tok_punct(&t->v[i - 1], "{") || tok_punct(&t->v[i - 1], ","))))) {
            add_finding_at(sc, k, SEV_HIGH, "process", "process creation: std::process::%s", x);
            continue;
        }
        if (in_list(x, net_libc) && !dot && (!strcmp(q, "libc") || !strcmp(q, "socket"))) {
            add_finding_at(sc, k, SEV_HIGH, "network", "network socket: %s", x);
            continue;
        }
        if (in_list(x, net_types) || (!strcmp(x, "net") && (!strcmp(q, "std") || !strcmp(q, "tokio") || !strcmp(q, "async_std")))) {
            add_finding_at(sc, k, SEV_HIGH, "network", "network: %s", x);
            continue;
        }
        if (!strcmp(x, "libloading") || !strcmp(x, "dlopen") || !strcmp(x, "dlsym")
            || (!strcmp(x, "Library") && !strcmp(q, "libloading"))) {
            add_finding_at(sc, k, SEV_HIGH, "dynload", "dynamic loading: %s", x);
            continue;
        }
        if (!strcmp(x, "transmute") || !strcmp(x, "transmute_copy")) {
            add_finding_at(sc, k, SEV_MEDIUM, "exec-memory", "mem::%s (can turn data into a function)", x);
            continue;
        }
        if (!strcmp(x, "mprotect") && !dot) {
            add_finding_at(sc, k, SEV_MEDIUM, "exec-memory", "changes memory protection: mprotect");
            continue;
        }
    }
    check_opcode_bytes(sc, t, "[(");
    check_common_idents(sc, t);
}
