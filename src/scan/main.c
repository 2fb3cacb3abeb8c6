/* sandlock-scan: the command line, reading files, choosing the language,
 * printing findings.  See man/sandlock-scan.1. */
#include "scan.h"
#include "lib/json_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE (16u << 20)

static const char *usage =
    "usage: sandlock-scan [--lang c|cpp|python|js|rust|go] [--json] [--cpp-preprocess|--no-cpp-preprocess] FILE...\n";

static enum lang lang_name(const char *s)
{
    static const struct {
        const char *n;
        enum lang l;
    } m[] = {{"c", L_C}, {"cpp", L_CPP}, {"c++", L_CPP}, {"python", L_PY}, {"py", L_PY}, {"js", L_JS},
             {"javascript", L_JS}, {"rust", L_RUST}, {"rs", L_RUST}, {"go", L_GO}};
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        if (!strcmp(s, m[k].n))
            return m[k].l;
    return L_NONE;
}

static enum lang lang_ext(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (!dot)
        return L_NONE;
    static const struct {
        const char *e;
        enum lang l;
    } m[] = {{".c", L_C}, {".h", L_C}, {".cc", L_CPP}, {".cpp", L_CPP}, {".cxx", L_CPP}, {".hpp", L_CPP},
             {".hh", L_CPP}, {".hxx", L_CPP}, {".C", L_CPP}, {".py", L_PY}, {".js", L_JS}, {".mjs", L_JS},
             {".cjs", L_JS}, {".rs", L_RUST}, {".go", L_GO}, {".s", L_GOASM}, {".S", L_GOASM}};
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        if (!strcmp(dot, m[k].e))
            return m[k].l;
    return L_NONE;
}

static const char *lang_label(enum lang l)
{
    switch (l) {
    case L_C: return "c";
    case L_CPP: return "cpp";
    case L_PY: return "python";
    case L_JS: return "js";
    case L_RUST: return "rust";
    case L_GO: return "go";
    case L_GOASM: return "go-asm";
    default: return "?";
    }
}

/* 0 ok; -1 error reported */
static int read_file(const char *path, char **buf, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        fprintf(stderr, "sandlock-scan: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "sandlock-scan: %s: not a regular file\n", path);
        close(fd);
        return -1;
    }
    if ((unsigned long long)st.st_size > MAX_FILE) {
        fprintf(stderr, "sandlock-scan: %s: larger than %u MiB, not scanned\n", path, MAX_FILE >> 20);
        close(fd);
        return -1;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *b = xmalloc(cap + 1);
    for (;;) {
        if (len == cap) {
            if (cap > MAX_FILE) {
                fprintf(stderr, "sandlock-scan: %s: larger than %u MiB, not scanned\n", path, MAX_FILE >> 20);
                free(b);
                close(fd);
                return -1;
            }
            b = xrealloc(b, (cap *= 2) + 1);
        }
        ssize_t r = read(fd, b + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            fprintf(stderr, "sandlock-scan: %s: %s\n", path, strerror(errno));
            free(b);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (memchr(b, 0, len)) {
        fprintf(stderr, "sandlock-scan: %s: a binary file (NUL bytes), not source\n", path);
        free(b);
        return -1;
    }
    b[len] = 0;
    *buf = b;
    *n = len;
    return 0;
}

static int cmp_finding(const void *a, const void *b)
{
    const finding_t *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

static void scan_file(scan_t *sc, const char *path, char *buf, size_t n, int cpp)
{
    toks_t t = {0};
    src_t src;
    if (sc->lang == L_C || sc->lang == L_CPP) {
        size_t un;
        uint32_t *omap;
        char *u = c_unsplice(buf, n, &un, &omap);
        src_init(&src, buf, n, u, un, omap);
        lex_c(&src, &t, sc->lang == L_CPP);
        toks_match(&t);
        rules_c(sc, &t, 0);
        rules_c_defines(sc, &t);
        if (cpp)
            cpp_scan(sc, path, sc->lang == L_CPP);
        toks_free(&t);
        src_free(&src);
        free(u);
        free(omap);
        return;
    }
    if (sc->lang == L_GOASM) {
        rules_goasm(sc, buf, n);
        return;
    }
    /* the other families: a lexer, then its rules */
    static const struct {
        enum lang l;
        void (*lex)(const src_t *, toks_t *);
        void (*rules)(scan_t *, const toks_t *);
    } fam[] = {{L_PY, lex_py, rules_py}, {L_JS, lex_js, rules_js}, {L_RUST, lex_rust, rules_rust},
               {L_GO, lex_go, rules_go}};
    src_init(&src, buf, n, buf, n, NULL);
    for (size_t k = 0; k < sizeof fam / sizeof fam[0]; k++)
        if (fam[k].l == sc->lang) {
            fam[k].lex(&src, &t);
            toks_match(&t);
            fam[k].rules(sc, &t);
        }
    toks_free(&t);
    src_free(&src);
}

static const char *sev_name(int s)
{
    return s == SEV_HIGH ? "high" : s == SEV_MEDIUM ? "medium" : "low";
}

/* JSON strings: the file name and messages can hold anything a source
 * can.  Bytes, not guessed characters: each byte past ASCII is the code
 * point of its value, written as a \u escape (ASCII-only output). */
static json_t *json_bytes(const char *s)
{
    size_t n = strlen(s);
    char *u = xmalloc(2 * n + 1), *o = u;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x80) {
            *o++ = (char)*p;
        } else {
            *o++ = (char)(0xc0 | *p >> 6);
            *o++ = (char)(0x80 | (*p & 0x3f));
        }
    json_t *j = json_stringn(u, (size_t)(o - u));
    free(u);
    return j;
}

/* Text output: one line per finding, so a control character or newline
 * in a name must not start a forged line. */
static void text_str(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            printf("\\x%02x", *p);
        else
            putchar(*p);
}

int main(int argc, char **argv)
{
    enum lang force = L_NONE;
    int json = 0, cpp = -1, nfiles = 0;
    char **files = xmalloc((size_t)argc * sizeof *files);
    int opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!opts_done && a[0] == '-' && a[1]) {
            if (!strcmp(a, "--")) {
                opts_done = 1;
            } else if (!strcmp(a, "--json")) {
                json = 1;
            } else if (!strcmp(a, "--cpp-preprocess")) {
                cpp = 1;
            } else if (!strcmp(a, "--no-cpp-preprocess")) {
                cpp = 0;
            } else if (!strcmp(a, "--lang") || !strncmp(a, "--lang=", 7)) {
                const char *v = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
                if (!v || (force = lang_name(v)) == L_NONE) {
                    fprintf(stderr, "sandlock-scan: --lang: unknown language '%s' (c, cpp, python, js, rust, go)\n",
                            v ? v : "");
                    free(files);
                    return 2;
                }
            } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
                fputs(usage, stdout);
                free(files);
                return 0;
            } else {
                fprintf(stderr, "sandlock-scan: unknown option '%s'; %s", a, usage);
                free(files);
                return 2;
            }
            continue;
        }
        files[nfiles++] = argv[i];
    }
    if (!nfiles) {
        fprintf(stderr, "sandlock-scan: no file given; %s", usage);
        free(files);
        return 2;
    }
    int errors = 0;
    size_t total = 0;
    json_t *jfiles = json ? json_array() : NULL, *jfound = json ? json_array() : NULL;
    scan_t *all = xmalloc((size_t)nfiles * sizeof *all);
    int nscanned = 0;
    for (int f = 0; f < nfiles; f++) {
        const char *path = files[f];
        enum lang l = force != L_NONE ? force : lang_ext(path);
        if (force == L_GO && lang_ext(path) == L_GOASM)
            l = L_GOASM;
        if (l == L_NONE) {
            fprintf(stderr, "sandlock-scan: %s: unknown language (use --lang)\n", path);
            errors++;
            continue;
        }
        char *buf;
        size_t n;
        if (read_file(path, &buf, &n) < 0) {
            errors++;
            continue;
        }
        scan_t *sc = &all[nscanned++];
        memset(sc, 0, sizeof *sc);
        sc->file = path;
        sc->lang = l;
        int use_cpp = cpp;
        if (use_cpp < 0)
            use_cpp = l == L_C || l == L_CPP;
        scan_file(sc, path, buf, n, use_cpp);
        free(buf);
        if (sc->n)
            qsort(sc->v, sc->n, sizeof *sc->v, cmp_finding);
        total += sc->n;
        if (json)
            json_array_append_new(jfiles, json_bytes(path));
    }
    for (int f = 0; f < nscanned; f++) {
        scan_t *sc = &all[f];
        for (size_t k = 0; k < sc->n; k++) {
            finding_t *x = &sc->v[k];
            if (json) {
                json_array_append_new(jfound, json_pack("{s:o,s:i,s:i,s:s,s:s,s:s,s:o}",
                    "file", json_bytes(sc->file), "line", x->line, "column", x->col,
                    "severity", sev_name(x->sev), "rule", x->rule,
                    "language", lang_label(sc->lang), "message", json_bytes(x->msg)));
            } else {
                text_str(sc->file);
                printf(":%d:%d: %s %s: ", x->line, x->col, sev_name(x->sev), x->rule);
                text_str(x->msg);
                putchar('\n');
            }
            free(x->msg);
        }
        free(sc->v);
        free(sc->seen);
    }
    if (json) {
        json_t *doc = json_pack("{s:o,s:o,s:b}", "files", jfiles, "findings", jfound,
                                "clean", !(total || errors));
        char *out;
        size_t len;
        if (!doc || sl_json_dump(doc, SL_JSON_NEWLINE | SL_JSON_ASCII, &out, &len) != 0) {
            fprintf(stderr, "sandlock-scan: out of memory\n");
            exit(2);
        }
        fwrite(out, 1, len, stdout);
        free(out);
        json_decref(doc);
    }
    free(all);
    free(files);
    if (fflush(stdout) != 0)
        return 2;
    return errors ? 2 : total ? 1 : 0;
}
