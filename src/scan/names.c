/* Qualified names the Python, JavaScript and Go rules look up, and the
 * import aliases a file sets up (import os as o; from os import system;
 * cp := exec; const cp = require('child_process')). */
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python.  QN_MODULE: importing it is the finding; QN_ATTR: using it. */
static const struct qname py_names[] = {
    {"subprocess", "process", SEV_HIGH, QN_MODULE},
    {"_posixsubprocess", "process", SEV_HIGH, QN_MODULE},
    {"pty", "process", SEV_HIGH, QN_MODULE},
    {"multiprocessing", "process", SEV_MEDIUM, QN_MODULE},
    {"concurrent.futures.ProcessPoolExecutor", "process", SEV_MEDIUM, QN_ATTR},
    {"asyncio.subprocess", "process", SEV_HIGH, QN_MODULE},
    {"asyncio.create_subprocess_exec", "process", SEV_HIGH, QN_ATTR},
    {"asyncio.create_subprocess_shell", "process", SEV_HIGH, QN_ATTR},
    {"asyncio.open_connection", "network", SEV_HIGH, QN_ATTR},
    {"asyncio.start_server", "network", SEV_HIGH, QN_ATTR},
    {"socket", "network", SEV_HIGH, QN_MODULE},
    {"_socket", "network", SEV_HIGH, QN_MODULE},
    {"ssl", "network", SEV_HIGH, QN_MODULE},
    {"http.client", "network", SEV_HIGH, QN_MODULE},
    {"http.server", "network", SEV_HIGH, QN_MODULE},
    {"urllib.request", "network", SEV_HIGH, QN_MODULE},
    {"urllib3", "network", SEV_HIGH, QN_MODULE},
    {"requests", "network", SEV_HIGH, QN_MODULE},
    {"httpx", "network", SEV_HIGH, QN_MODULE},
    {"aiohttp", "network", SEV_HIGH, QN_MODULE},
    {"ftplib", "network", SEV_HIGH, QN_MODULE},
    {"smtplib", "network", SEV_HIGH, QN_MODULE},
    {"poplib", "network", SEV_HIGH, QN_MODULE},
    {"imaplib", "network", SEV_HIGH, QN_MODULE},
    {"nntplib", "network", SEV_HIGH, QN_MODULE},
    {"telnetlib", "network", SEV_HIGH, QN_MODULE},
    {"socketserver", "network", SEV_HIGH, QN_MODULE},
    {"xmlrpc", "network", SEV_HIGH, QN_MODULE},
    {"asyncore", "network", SEV_HIGH, QN_MODULE},
    {"websocket", "network", SEV_HIGH, QN_MODULE},
    {"websockets", "network", SEV_HIGH, QN_MODULE},
    {"ctypes", "dynload", SEV_HIGH, QN_MODULE},
    {"_ctypes", "dynload", SEV_HIGH, QN_MODULE},
    {"cffi", "dynload", SEV_HIGH, QN_MODULE},
    {"_cffi_backend", "dynload", SEV_HIGH, QN_MODULE},
    {"imp", "dynload", SEV_HIGH, QN_MODULE},
    {"_imp", "dynload", SEV_HIGH, QN_MODULE},
    {"importlib.machinery", "dynload", SEV_HIGH, QN_MODULE},
    {"zipimport", "dynload", SEV_MEDIUM, QN_MODULE},
    {"importlib", "dynamic-import", SEV_MEDIUM, QN_MODULE},
    {"marshal", "eval", SEV_HIGH, QN_MODULE},
    {"code", "eval", SEV_HIGH, QN_MODULE},
    {"codeop", "eval", SEV_HIGH, QN_MODULE},
    {"runpy", "eval", SEV_HIGH, QN_MODULE},
    {"dill", "eval", SEV_HIGH, QN_MODULE},
    {"cloudpickle", "eval", SEV_HIGH, QN_MODULE},
    {"pickle.loads", "eval", SEV_HIGH, QN_ATTR},
    {"pickle.load", "eval", SEV_HIGH, QN_ATTR},
    {"pickle.Unpickler", "eval", SEV_HIGH, QN_ATTR},
    {"_pickle", "eval", SEV_HIGH, QN_MODULE},
    {"shelve", "eval", SEV_MEDIUM, QN_MODULE},
    {"types.CodeType", "eval", SEV_HIGH, QN_ATTR},
    {"types.FunctionType", "eval", SEV_HIGH, QN_ATTR},
    {"builtins", "introspection", SEV_MEDIUM, QN_MODULE},
    {"gc.get_objects", "introspection", SEV_HIGH, QN_ATTR},
    {"gc.get_referrers", "introspection", SEV_HIGH, QN_ATTR},
    {"gc.get_referents", "introspection", SEV_HIGH, QN_ATTR},
    {"sys._getframe", "introspection", SEV_HIGH, QN_ATTR},
    {"sys.addaudithook", "introspection", SEV_HIGH, QN_ATTR},
    {"sys.settrace", "introspection", SEV_HIGH, QN_ATTR},
    {"sys.setprofile", "introspection", SEV_HIGH, QN_ATTR},
    {"sys.modules", "introspection", SEV_MEDIUM, QN_ATTR},
    {"sys._current_frames", "introspection", SEV_HIGH, QN_ATTR},
    {"inspect.currentframe", "introspection", SEV_HIGH, QN_ATTR},
    {"inspect.stack", "introspection", SEV_HIGH, QN_ATTR},
    {"mmap.PROT_EXEC", "exec-memory", SEV_HIGH, QN_ATTR},
    {NULL, NULL, 0, 0}};

/* os, posix and nt share the process calls */
static const char *const py_os_calls[] = {
    "system", "popen", "fork", "forkpty", "vfork", "execl", "execle", "execlp", "execlpe", "execv", "execve",
    "execvp", "execvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
    "posix_spawn", "posix_spawnp", "startfile", NULL};

/* attribute names that are suspect on any object */
static const struct qname py_any_attr[] = {
    {"__subclasses__", "introspection", SEV_HIGH, QN_ATTR},
    {"__globals__", "introspection", SEV_HIGH, QN_ATTR},
    {"__builtins__", "introspection", SEV_HIGH, QN_ATTR},
    {"__code__", "introspection", SEV_HIGH, QN_ATTR},
    {"__closure__", "introspection", SEV_HIGH, QN_ATTR},
    {"__bases__", "introspection", SEV_HIGH, QN_ATTR},
    {"__base__", "introspection", SEV_HIGH, QN_ATTR},
    {"__mro__", "introspection", SEV_HIGH, QN_ATTR},
    {"__self__", "introspection", SEV_HIGH, QN_ATTR},
    {"__loader__", "introspection", SEV_HIGH, QN_ATTR},
    {"__getattribute__", "introspection", SEV_MEDIUM, QN_ATTR},
    {"__dict__", "introspection", SEV_MEDIUM, QN_ATTR},
    {"__reduce__", "eval", SEV_MEDIUM, QN_ATTR},
    {"__reduce_ex__", "eval", SEV_MEDIUM, QN_ATTR},
    {"f_globals", "introspection", SEV_HIGH, QN_ATTR},
    {"f_locals", "introspection", SEV_HIGH, QN_ATTR},
    {"f_builtins", "introspection", SEV_HIGH, QN_ATTR},
    {"f_back", "introspection", SEV_HIGH, QN_ATTR},
    {"gi_frame", "introspection", SEV_HIGH, QN_ATTR},
    {"gi_code", "introspection", SEV_HIGH, QN_ATTR},
    {"cr_frame", "introspection", SEV_HIGH, QN_ATTR},
    {"ag_frame", "introspection", SEV_HIGH, QN_ATTR},
    {"tb_frame", "introspection", SEV_HIGH, QN_ATTR},
    {"co_code", "eval", SEV_HIGH, QN_ATTR},
    {"__import__", "dynamic-import", SEV_HIGH, QN_ATTR},
    {NULL, NULL, 0, 0}};

/* JavaScript modules (node: prefix removed before the lookup) */
static const struct qname js_modules[] = {
    {"child_process", "process", SEV_HIGH, QN_MODULE},
    {"cluster", "process", SEV_HIGH, QN_MODULE},
    {"worker_threads", "process", SEV_MEDIUM, QN_MODULE},
    {"net", "network", SEV_HIGH, QN_MODULE},
    {"http", "network", SEV_HIGH, QN_MODULE},
    {"https", "network", SEV_HIGH, QN_MODULE},
    {"http2", "network", SEV_HIGH, QN_MODULE},
    {"dgram", "network", SEV_HIGH, QN_MODULE},
    {"tls", "network", SEV_HIGH, QN_MODULE},
    {"dns", "network", SEV_HIGH, QN_MODULE},
    {"undici", "network", SEV_HIGH, QN_MODULE},
    {"axios", "network", SEV_HIGH, QN_MODULE},
    {"node-fetch", "network", SEV_HIGH, QN_MODULE},
    {"vm", "eval", SEV_HIGH, QN_MODULE},
    {"inspector", "eval", SEV_HIGH, QN_MODULE},
    {"repl", "eval", SEV_HIGH, QN_MODULE},
    {"module", "dynamic-import", SEV_MEDIUM, QN_MODULE},
    {"v8", "introspection", SEV_MEDIUM, QN_MODULE},
    {"wasi", "dynload", SEV_MEDIUM, QN_MODULE},
    {"ffi", "dynload", SEV_HIGH, QN_MODULE},
    {"ffi-napi", "dynload", SEV_HIGH, QN_MODULE},
    {"koffi", "dynload", SEV_HIGH, QN_MODULE},
    {NULL, NULL, 0, 0}};

/* Go: import paths, then package-qualified names */
static const struct qname go_names[] = {
    {"os/exec", "process", SEV_HIGH, QN_MODULE},
    {"net", "network", SEV_HIGH, QN_MODULE},
    {"crypto/tls", "network", SEV_HIGH, QN_MODULE},
    {"plugin", "dynload", SEV_HIGH, QN_MODULE},
    {"C", "dynload", SEV_HIGH, QN_MODULE},
    {"os.StartProcess", "process", SEV_HIGH, QN_ATTR},
    {"syscall.ForkExec", "process", SEV_HIGH, QN_ATTR},
    {"syscall.Exec", "process", SEV_HIGH, QN_ATTR},
    {"syscall.StartProcess", "process", SEV_HIGH, QN_ATTR},
    {"syscall.Syscall", "syscall", SEV_HIGH, QN_ATTR},
    {"syscall.Syscall6", "syscall", SEV_HIGH, QN_ATTR},
    {"syscall.Syscall9", "syscall", SEV_HIGH, QN_ATTR},
    {"syscall.RawSyscall", "syscall", SEV_HIGH, QN_ATTR},
    {"syscall.RawSyscall6", "syscall", SEV_HIGH, QN_ATTR},
    {"syscall.Socket", "network", SEV_HIGH, QN_ATTR},
    {"syscall.Connect", "network", SEV_HIGH, QN_ATTR},
    {"syscall.Bind", "network", SEV_HIGH, QN_ATTR},
    {"syscall.Listen", "network", SEV_HIGH, QN_ATTR},
    {"syscall.Mprotect", "exec-memory", SEV_MEDIUM, QN_ATTR},
    {"golang.org/x/sys/unix.Syscall", "syscall", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.Syscall6", "syscall", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.RawSyscall", "syscall", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.RawSyscall6", "syscall", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.ForkExec", "process", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.Exec", "process", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.Socket", "network", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.Connect", "network", SEV_HIGH, QN_ATTR},
    {"golang.org/x/sys/unix.Bind", "network", SEV_HIGH, QN_ATTR},
    {NULL, NULL, 0, 0}};

/* name equals entry, or starts with it followed by '.' or '/' */
static int prefix_of(const char *entry, const char *name)
{
    size_t l = strlen(entry);
    return !strncmp(entry, name, l) && (name[l] == 0 || name[l] == '.' || name[l] == '/');
}

const struct qname *qn_module(enum lang lang, const char *mod)
{
    const struct qname *tab = lang == L_PY ? py_names : lang == L_JS ? js_modules : go_names;
    for (int k = 0; tab[k].name; k++)
        if (tab[k].kind == QN_MODULE && (lang == L_PY ? prefix_of(tab[k].name, mod) : !strcmp(tab[k].name, mod)))
            return &tab[k];
    return NULL;
}

const struct qname *qn_attr(enum lang lang, const char *qual)
{
    static struct qname os_call = {NULL, "process", SEV_HIGH, QN_ATTR};
    if (lang == L_PY) {
        const char *dot = strrchr(qual, '.');
        if (dot && dot == strchr(qual, '.')
            && (!strncmp(qual, "os.", 3) || !strncmp(qual, "posix.", 6) || !strncmp(qual, "nt.", 3))) {
            for (int k = 0; py_os_calls[k]; k++)
                if (!strcmp(dot + 1, py_os_calls[k])) {
                    os_call.name = py_os_calls[k];
                    return &os_call;
                }
        }
        for (int k = 0; py_names[k].name; k++)
            if (py_names[k].kind == QN_ATTR && !strcmp(py_names[k].name, qual))
                return &py_names[k];
        return NULL;
    }
    if (lang == L_GO) {
        static struct qname sysnum = {"SYS_", "syscall", SEV_HIGH, QN_ATTR};
        const char *dot = strrchr(qual, '.');
        if (dot && !strncmp(dot + 1, "SYS_", 4)
            && (!strncmp(qual, "syscall.", 8) || !strncmp(qual, "golang.org/x/sys/unix.", 22)))
            return &sysnum;
        for (int k = 0; go_names[k].name; k++)
            if (go_names[k].kind == QN_ATTR && !strcmp(go_names[k].name, qual))
                return &go_names[k];
    }
    return NULL;
}

const struct qname *qn_dunder(const char *name)
{
    for (int k = 0; py_any_attr[k].name; k++)
        if (!strcmp(py_any_attr[k].name, name))
            return &py_any_attr[k];
    return NULL;
}

const struct qname *qn_any_attr(const char *name)
{
    for (int k = 0; py_any_attr[k].name; k++)
        if (!strcmp(py_any_attr[k].name, name))
            return &py_any_attr[k];
    for (int k = 0; py_os_calls[k]; k++)
        if (!strcmp(py_os_calls[k], name)) {
            static struct qname c = {NULL, "process", SEV_HIGH, QN_ATTR};
            c.name = py_os_calls[k];
            return &c;
        }
    if (!strcmp(name, "eval") || !strcmp(name, "exec") || !strcmp(name, "compile")) {
        static const struct qname e = {"eval", "eval", SEV_HIGH, QN_ATTR};
        return &e;
    }
    return NULL;
}

static size_t name_hash(const char *s)
{
    size_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h;
}

static size_t *alias_slot(aliases_t *a, const char *name)
{
    size_t h = name_hash(name) & (a->hcap - 1);
    while (a->hash[h] && strcmp(a->name[a->hash[h] - 1], name))
        h = (h + 1) & (a->hcap - 1);
    return &a->hash[h];
}

void aliases_set(aliases_t *a, const char *name, const char *qual)
{
    if (hash_reserve(&a->hash, &a->hcap, a->n))
        for (size_t k = 0; k < a->n; k++)
            *alias_slot(a, a->name[k]) = k + 1;
    size_t *slot = alias_slot(a, name);
    if (*slot) {
        free(a->qual[*slot - 1]);
        a->qual[*slot - 1] = xstrndup(qual, strlen(qual));
        return;
    }
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->name = xrealloc(a->name, a->cap * sizeof *a->name);
        a->qual = xrealloc(a->qual, a->cap * sizeof *a->qual);
    }
    a->name[a->n] = xstrndup(name, strlen(name));
    a->qual[a->n] = xstrndup(qual, strlen(qual));
    *slot = ++a->n;
}

const char *aliases_get(const aliases_t *a, const char *name)
{
    if (!a->hcap)
        return NULL;
    size_t *slot = alias_slot((aliases_t *)a, name);
    return *slot ? a->qual[*slot - 1] : NULL;
}

void aliases_free(aliases_t *a)
{
    for (size_t k = 0; k < a->n; k++) {
        free(a->name[k]);
        free(a->qual[k]);
    }
    free(a->name);
    free(a->qual);
    free(a->hash);
}

/* from M import *: the listed names of M become bare names */
void qn_star(aliases_t *a, enum lang lang, const char *mod)
{
    char buf[256];
    if (lang == L_PY && (!strcmp(mod, "os") || !strcmp(mod, "posix") || !strcmp(mod, "nt")))
        for (int k = 0; py_os_calls[k]; k++) {
            snprintf(buf, sizeof buf, "%s.%s", mod, py_os_calls[k]);
            aliases_set(a, py_os_calls[k], buf);
        }
    const struct qname *tab = lang == L_PY ? py_names : lang == L_GO ? go_names : NULL;
    if (!tab)
        return;
    size_t l = strlen(mod);
    for (int k = 0; tab[k].name; k++)
        if (tab[k].kind == QN_ATTR && !strncmp(tab[k].name, mod, l) && tab[k].name[l] == '.')
            aliases_set(a, tab[k].name + l + 1, tab[k].name);
}
