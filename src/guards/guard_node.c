/*
 * The Node guard: turns the guard policy into the flags of Node's
 * permission model, put right after argv[0] so that they are Node's own
 * options, never the program's arguments.
 *
 * What the flags cannot say, and what this file does about it
 * (docs/guard-node.md has the measurements):
 * - Node checks a path as a string (after path.resolve) and then lets the
 *   kernel follow links.  /proc/<pid>/root, cwd, exe, fd, map_files and
 *   task hold magic links to anywhere, so a rule reaching them would open
 *   the whole file system: such rules are narrowed (fail closed), and a
 *   rule naming a whole process directory becomes a few plain files.
 * - No deny rules: a read-only rule nested in a writable one is writable.
 * - --allow-worker is never given: on Node 20 a Worker started with an
 *   execArgv of its own runs without the permission model.
 * - Node before 20.16 (21.x, 22 before 22.3) lets WASI preopens, and before
 *   20.12 native addons, past the model: no guard rather than a hollow one.
 * - Network is not part of the model before Node 25.
 */
#include "guard_node.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec {
    char **v;
    size_t n, cap;
};

/* takes ownership of s (NULL means an allocation failed before) */
static int vec_push(struct vec *a, char *s)
{
    if (!s)
        return -1;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v) {
            free(s);
            return -1;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
    return 0;
}

static char *join(const char *a, const char *b, size_t blen)
{
    size_t alen = strlen(a);
    char *s = malloc(alen + blen + 1);
    if (!s)
        return NULL;
    memcpy(s, a, alen);
    memcpy(s + alen, b, blen);
    s[alen + blen] = '\0';
    return s;
}

void sl_guard_node_argv_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}

int sl_guard_node_version(const char *text, int *major, int *minor)
{
    const char *p = text;
    long v[2];

    if (!p)
        return -1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == 'v')
        p++;
    for (int i = 0; i < 2; i++) {
        char *end;
        if (*p < '0' || *p > '9')
            return -1;
        errno = 0;
        v[i] = strtol(p, &end, 10);
        if (errno || v[i] > 100000)
            return -1;
        p = end;
        if (i == 0 && *p++ != '.')
            return -1;
    }
    if (*p && *p != '.' && *p != '\n' && *p != '-' && *p != '\r')
        return -1;
    *major = (int)v[0];
    *minor = (int)v[1];
    return 0;
}

/* Plain files of a process directory that a whole-directory rule becomes:
 * nothing beneath them is a link.  environ stays out: process.env already
 * shows what is meant to be seen. */
static const char *const proc_plain[] = {
    "cmdline", "limits", "stat", "statm", "status", NULL,
};

/* entries of /proc/<pid> whose subtree holds magic links out of the rule */
static const char *const proc_magic[] = {
    "root", "cwd", "exe", "fd", "map_files", "task", NULL,
};

static int in_list(const char *const *list, const char *s, size_t len)
{
    for (; *list; list++)
        if (strlen(*list) == len && memcmp(*list, s, len) == 0)
            return 1;
    return 0;
}

static int is_process_dir(const char *s, size_t len)
{
    if ((len == 4 && memcmp(s, "self", 4) == 0) ||
        (len == 11 && memcmp(s, "thread-self", 11) == 0))
        return 1;
    if (!len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* Append the flags for one rule path; /proc is narrowed (see the top). */
static int add_path(struct vec *out, const char *flag, const char *path)
{
    if (strcmp(path, "/proc") == 0 || strcmp(path, "/proc/") == 0)
        return 0;
    if (strncmp(path, "/proc/", 6) == 0) {
        const char *c1 = path + 6;
        size_t l1 = strcspn(c1, "/");
        if (is_process_dir(c1, l1)) {
            const char *c2 = c1 + l1;
            while (*c2 == '/')
                c2++;
            if (!*c2) {
                size_t pl = strlen(path);
                while (pl > 1 && path[pl - 1] == '/')
                    pl--;
                for (const char *const *f = proc_plain; *f; f++) {
                    size_t sz = strlen(flag) + pl + 1 + strlen(*f) + 1;
                    char *s = malloc(sz);
                    if (s)
                        snprintf(s, sz, "%s%.*s/%s", flag, (int)pl, path, *f);
                    if (vec_push(out, s) < 0)
                        return -1;
                }
                return 0;
            }
            if (in_list(proc_magic, c2, strcspn(c2, "/")))
                return 0;
        }
    }
    return vec_push(out, join(flag, path, strlen(path)));
}

struct policy {
    struct vec rpaths, wpaths;
    int net, fork, exec;
};

static int parse_policy(const char *text, struct policy *p)
{
    const char *line = text ? text : "";

    while (*line) {
        size_t len = strcspn(line, "\n");
        const char *sp = memchr(line, ' ', len);
        size_t klen = sp ? (size_t)(sp - line) : len;
        const char *val = sp ? sp + 1 : line + len;
        size_t vlen = (size_t)(line + len - val);
        int is_r = klen == 1 && line[0] == 'r';
        int is_w = klen == 1 && line[0] == 'w';

        if (is_r || is_w) {
            /* relative paths would be resolved by Node against its cwd, a
             * '*' may be read as a wildcard: neither is what the rule says */
            if (!vlen || val[0] != '/' || memchr(val, '*', vlen)) {
                errno = EINVAL;
                return -1;
            }
            char *s = join("", val, vlen);
            if (vec_push(is_w ? &p->wpaths : &p->rpaths, s) < 0)
                return -1;
        } else {
            int on = vlen == 1 && val[0] == '1';
            if (klen == 3 && memcmp(line, "net", 3) == 0)
                p->net = on;
            else if (klen == 4 && memcmp(line, "fork", 4) == 0)
                p->fork = on;
            else if (klen == 4 && memcmp(line, "exec", 4) == 0)
                p->exec = on;
        }
        line += len;
        if (*line == '\n')
            line++;
    }
    return 0;
}

/* Node options that take their value as the next argument. */
static const char *const value_opts[] = {
    "-r", "--require", "--import", "--loader", "--experimental-loader",
    "-C", "--conditions", "--input-type", "--title", "--inspect-port",
    "--env-file", "--redirect-warnings", "--disable-warning", NULL,
};

/*
 * The caller's own Node options come after ours and would win: refuse the
 * ones that widen the permissions.  Node reads '_' as '-' in option names.
 */
static int check_node_options(char *const argv[])
{
    for (size_t i = 1; argv[i]; i++) {
        const char *a = argv[i];
        char name[64];
        size_t n = strcspn(a, "=");

        if (a[0] != '-' || strcmp(a, "-") == 0 || strcmp(a, "--") == 0)
            return 0;
        if (n >= sizeof name)
            n = sizeof name - 1;
        for (size_t j = 0; j < n; j++)
            name[j] = a[j] == '_' ? '-' : a[j];
        name[n] = '\0';
        if (strncmp(name, "--allow-", 8) == 0 ||
            strcmp(name, "--no-permission") == 0 ||
            strcmp(name, "--no-experimental-permission") == 0) {
            errno = EINVAL;
            return -1;
        }
        if (strcmp(name, "-e") == 0 || strcmp(name, "--eval") == 0 ||
            strcmp(name, "-p") == 0 || strcmp(name, "--print") == 0 ||
            strcmp(name, "-pe") == 0)
            return 0;
        if (!a[n] && in_list(value_opts, name, strlen(name)) && argv[i + 1])
            i++;
    }
    return 0;
}

static int supported(int major, int minor)
{
    if (major < 20 || major == 21)
        return 0;
    if (major == 20)
        return minor >= 16;
    if (major == 22)
        return minor >= 3;
    return 1;
}

static int stable(int major, int minor)
{
    return (major == 22 && minor >= 13) || (major == 23 && minor >= 5) ||
           major >= 24;
}

char **sl_guard_node_argv(const char *policy_text, int major, int minor,
                          char *const argv[])
{
    struct policy p = {0};
    struct vec out = {0};
    int saved;

    if (!argv || !argv[0]) {
        errno = EINVAL;
        return NULL;
    }
    if (!supported(major, minor)) {
        errno = ENOTSUP;
        return NULL;
    }
    if (check_node_options(argv) < 0 || parse_policy(policy_text, &p) < 0)
        goto fail;

    if (vec_push(&out, strdup(argv[0])) < 0 ||
        vec_push(&out, strdup(stable(major, minor) ? "--permission"
                                                   : "--experimental-permission")) < 0)
        goto fail;
    /* the experimental model announces itself on stderr at every start */
    if (!stable(major, minor) &&
        vec_push(&out, strdup("--disable-warning=ExperimentalWarning")) < 0)
        goto fail;
    for (size_t i = 0; i < p.rpaths.n; i++)
        if (add_path(&out, "--allow-fs-read=", p.rpaths.v[i]) < 0)
            goto fail;
    for (size_t i = 0; i < p.wpaths.n; i++)
        if (add_path(&out, "--allow-fs-read=", p.wpaths.v[i]) < 0 ||
            add_path(&out, "--allow-fs-write=", p.wpaths.v[i]) < 0)
            goto fail;
    /* a child is a new program outside the model: spawning needs both */
    if (p.fork && p.exec && vec_push(&out, strdup("--allow-child-process")) < 0)
        goto fail;
    if (major >= 25 && p.net && vec_push(&out, strdup("--allow-net")) < 0)
        goto fail;
    for (size_t i = 1; argv[i]; i++)
        if (vec_push(&out, strdup(argv[i])) < 0)
            goto fail;

    sl_guard_node_argv_free(p.rpaths.v);
    sl_guard_node_argv_free(p.wpaths.v);
    return out.v;

fail:
    saved = errno ? errno : ENOMEM;
    sl_guard_node_argv_free(p.rpaths.v);
    sl_guard_node_argv_free(p.wpaths.v);
    sl_guard_node_argv_free(out.v);
    errno = saved;
    return NULL;
}
