/* C/C++: the preprocessor's view.  A macro can hide any name (`#define X
 * asm`, `#define S(a,b) a##b`), so the file is also read after `cpp`, and
 * the tokens that the line markers place in the file itself (not in its
 * headers) are checked, at the line they came from.  cpp runs on untrusted
 * source: `#include "/dev/zero"` must not hang or fill us, hence a deadline
 * and an output cap. */
#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CPP_TIMEOUT_MS 5000
#define CPP_MAX_OUT (64u << 20)

static char *run_cpp(const char *path, int cplusplus, size_t *outn)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return NULL;
    const char *cpp = getenv("SANDLOCK_SCAN_CPP");
    if (!cpp || !*cpp)
        cpp = "cpp";
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return NULL;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 2);
        }
        dup2(p[1], 1);
        setpgid(0, 0);
        /* cpp takes no "--": a name that looks like an option gets "./" */
        char *arg = (char *)path;
        if (path[0] == '-') {
            arg = xmalloc(strlen(path) + 3);
            strcpy(arg, "./");
            strcat(arg, path);
        }
        char *argv[] = {(char *)cpp, "-x", cplusplus ? "c++" : "c", "-w", arg, NULL};
        execvp(cpp, argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int ok = 1;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
        if (ms >= CPP_TIMEOUT_MS) {
            ok = 0;
            break;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int r = poll(&pf, 1, (int)(CPP_TIMEOUT_MS - ms));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            ok = 0;
            break;
        }
        if (n + 65536 > cap) {
            if (cap >= CPP_MAX_OUT) {
                ok = 0;
                break;
            }
            buf = xrealloc(buf, cap *= 2);
        }
        ssize_t got = read(p[0], buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    close(p[0]);
    if (!ok)
        kill(-pid, SIGKILL), kill(pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    /* A missing header makes cpp fail but still print the rest: use it.
     * Nothing at all (no cpp, killed) means no preprocessed view. */
    if (!ok || n == 0 || (WIFEXITED(st) && WEXITSTATUS(st) == 127)) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *outn = n;
    return buf;
}

/* The file name of a line marker: # 12 "name" flags */
static int marker(const char *l, size_t len, long *line, char *name, size_t cap)
{
    size_t i = 1;
    while (i < len && l[i] == ' ')
        i++;
    if (i + 4 < len && !memcmp(l + i, "line", 4))
        i += 4;
    while (i < len && l[i] == ' ')
        i++;
    if (i >= len || l[i] < '0' || l[i] > '9')
        return 0;
    *line = strtol(l + i, NULL, 10);
    const char *q = memchr(l + i, '"', len - i);
    if (!q)
        return 0;
    size_t k = 0;
    for (q++; q < l + len && *q != '"' && k + 1 < cap; q++) {
        if (*q == '\\' && q + 1 < l + len)
            q++;
        name[k++] = *q;
    }
    name[k] = 0;
    return 1;
}

int cpp_scan(scan_t *sc, const char *path, int cplusplus)
{
    size_t n;
    char *out = run_cpp(path, cplusplus, &n);
    if (!out)
        return -1;
    /* Keep the main file's lines, each remembered with its source line. */
    char *keep = xmalloc(n + 1);
    size_t kn = 0, nl = 0, lcap = 1024;
    long *lines = xmalloc(lcap * sizeof *lines);
    long cur = 1;
    int in_main = 0;
    char name[4096];
    for (size_t i = 0; i < n;) {
        const char *e = memchr(out + i, '\n', n - i);
        size_t len = e ? (size_t)(e - (out + i)) : n - i;
        const char *l = out + i;
        long ln;
        if (len && l[0] == '#' && marker(l, len, &ln, name, sizeof name)) {
            in_main = !strcmp(name, path) || (path[0] == '-' && !strncmp(name, "./", 2) && !strcmp(name + 2, path));
            cur = ln;
        } else {
            if (in_main) {
                memcpy(keep + kn, l, len);
                kn += len;
                if (nl == lcap)
                    lines = xrealloc(lines, (lcap *= 2) * sizeof *lines);
                lines[nl++] = cur;
                keep[kn++] = '\n';
            }
            cur++;
        }
        i += len + 1;
    }
    keep[kn] = 0;
    src_t src;
    src_init(&src, keep, kn, keep, kn, NULL);
    toks_t t = {0};
    lex_c(&src, &t, cplusplus);
    for (size_t i = 0; i < t.n; i++) {
        long k = t.v[i].line - 1;
        t.v[i].line = k >= 0 && (size_t)k < nl ? (int)lines[k] : 0;
        t.v[i].col = 0; /* columns of cpp's output are not the file's */
    }
    toks_match(&t);
    scan_t tmp = {.file = sc->file, .lang = sc->lang};
    rules_c(&tmp, &t, 1);
    for (size_t i = 0; i < tmp.n; i++) {
        finding_t *f = &tmp.v[i];
        if (!finding_seen(sc, f->line, f->rule) && f->line > 0)
            add_finding(sc, f->line, 1, f->sev, f->rule, "%s (after preprocessing)", f->msg);
        free(f->msg);
    }
    free(tmp.v);
    free(tmp.seen);
    toks_free(&t);
    src_free(&src);
    free(lines);
    free(keep);
    free(out);
    return 0;
}
