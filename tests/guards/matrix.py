#!/usr/bin/python3
"""What each class of host stops, measured: docs/hosts.md's table "Attack
classes by host" is checked cell by cell against what happens here.

    SANDLOCK=path tests/guards/matrix.py [--print]

For each attack class a small program (Python, the usual submission on a
serverless grader; C for native code) runs on each host: the full host as it
is, a default Docker container and a serverless (Lambda-like) host, the last
two simulated by tests/hosts/hostsim.  On each host the program first runs
bare and must leave its evidence there (a secret's bytes printed, a file
written outside, a connection our listener accepted, a marker a new process
wrote, a process of ours killed, memory held, CPU spent, a process left
behind); a class whose attack does not work bare on a host is not measured
there.  Then under the sandbox with the same options on every host:

    --landlock --workdir W --clean-env --no-network --no-fork --mem 64 --cpu 0.5

plus, on the serverless host, --best-effort --guard auto.  A cell is
"stopped" when the evidence is absent and an honest program ran in the same
setup, "open" when the evidence is there.  With --print the measured table
is printed as docs/hosts.md has it.  Last line: "matrix: P passed, F failed, S skipped".
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from results import Listener, Results  # noqa: E402

SANDLOCK = os.environ.get("SANDLOCK", os.path.join(ROOT, "build", "sandlock"))
SIM = os.path.join(os.path.dirname(HERE), "hosts", "hostsim")
README = os.environ.get("SANDLOCK_HOSTS_DOC", os.path.join(ROOT, "docs", "hosts.md"))
PY = "/usr/bin/python3"
result = Results("matrix")
WORK = tempfile.mkdtemp(prefix="sandlock-matrix.")
os.chmod(WORK, 0o755)
TOKEN = "sl-matrix-%d" % os.getpid()
HOSTS = ["full", "docker", "lambda"]
COMMON = ["--landlock", "--clean-env", "--no-network", "--no-fork", "--mem", "64",
          "--cpu", "0.5", "--timeout", "8"]
# the table is what a host class gives a run of one identity: as root, not
# a uid of the default pool per run (a container's root gets one, and the
# kernel then keeps signals to other uids' processes from it too)
if os.geteuid() == 0:
    COMMON += ["--uid-pool", "off"]
EXTRA = {"full": [], "docker": [], "lambda": ["--best-effort", "--guard", "auto"]}

# the secret and the place escapes write: outside every allowed path, open
# to every uid, so only the sandbox stands in the way
SECRET_DIR = os.path.join(WORK, "private")
os.mkdir(SECRET_DIR)
os.chmod(SECRET_DIR, 0o777)
SECRET = os.path.join(SECRET_DIR, "secret.txt")
with open(SECRET, "w") as f:
    f.write(TOKEN + "\n")
os.chmod(SECRET, 0o644)


def victim():
    """a process of the program's uid, outside the run"""
    uid = 65534 if os.geteuid() == 0 else os.geteuid()
    pid = os.fork()
    if pid == 0:
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(uid)
            os.execv("/bin/sleep", ["sleep", "30"])
        finally:
            os._exit(127)
    return pid


def alive(pid):
    try:
        r, _ = os.waitpid(pid, os.WNOHANG)
        return r == 0
    except ChildProcessError:
        return False


def reap(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def marker(name):
    d = os.path.join(WORK, "out")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o1777)
    return os.path.join(d, name)


def cc(name, src, static=False):
    if not shutil.which("cc"):
        return None
    c = os.path.join(WORK, name + ".c")
    with open(c, "w") as f:
        f.write(src)
    # in the working directory: the program's own files are allowed
    out = os.path.join(WORK, "w", name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    r = subprocess.run(["cc", "-O1", *(["-static"] if static else []), c, "-o", out],
                       capture_output=True)
    return out if r.returncode == 0 else None


C_OPEN = r'''
#include <stdio.h>
int main(int argc, char **argv) {
    char buf[128] = "";
    FILE *f = fopen(argv[1], "r");
    if (f && fgets(buf, sizeof buf, f)) printf("%s", buf);
    return 0;
}
'''
C_RAW = r'''
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
static long raw(long n, long a, long b, long c, long d) {
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile ("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
                      : "rcx", "r11", "memory");
    return r;
}
int main(int argc, char **argv) {
    char buf[128];
    long fd = raw(SYS_openat, AT_FDCWD, (long)argv[1], O_RDONLY, 0);
    if (fd < 0) return 1;
    long n = raw(SYS_read, fd, (long)buf, sizeof buf, 0);
    if (n > 0) raw(SYS_write, 1, (long)buf, n, 0);
    return 0;
}
'''

C_KILL = r'''
#include <signal.h>
#include <stdlib.h>
int main(int argc, char **argv) { return kill(atoi(argv[1]), SIGKILL) != 0; }
'''
C_RAW_EXEC = r'''
#include <unistd.h>
#include <sys/syscall.h>
int main(int argc, char **argv) {
    char *args[] = { "/bin/sh", "-c", argv[1], 0 };
    long r;
    __asm__ volatile ("syscall" : "=a"(r) : "a"(SYS_execve), "D"(args[0]), "S"(args), "d"(0)
                      : "rcx", "r11", "memory");
    return 1;
}
'''

# glibc's other names for the same code, linked by name as a program may
C_ALIAS_READ = r'''
#include <stdio.h>
#include <unistd.h>
int __open64(const char *, int, ...);
FILE *_IO_fopen(const char *, const char *);
int main(int argc, char **argv) {
    char buf[128];
    int fd = __open64(argv[1], 0);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
    if (n > 0) fwrite(buf, 1, n, stdout);
    FILE *f = _IO_fopen(argv[1], "r");
    if (f && fgets(buf, sizeof buf, f)) printf("%s", buf);
    return 0;
}
'''
# the new process says so at once, on stdout (a write no layer judges):
# whether it would also outlive the run depends on the end-of-run kill,
# not on the layer that let it start
C_ALIAS_FORK = r'''
#include <sys/wait.h>
#include <unistd.h>
int __fork(void);
int main(void) {
    int pid = __fork();
    if (pid == 0) {
        write(1, "child-ran\n", 10);
        _exit(0);
    }
    return pid > 0 ? waitpid(pid, 0, 0) < 0 : 1;
}
'''
# what the shell prints is the evidence that it ran (under the previous
# library it ran with a layer that refused all it saw: started all the same)
C_ALIAS_POPEN = r'''
#include <stdio.h>
FILE *_IO_popen(const char *, const char *);
int main(int argc, char **argv) {
    char buf[128];
    FILE *p = _IO_popen(argv[1], "r");
    if (p && fgets(buf, sizeof buf, p)) printf("%s", buf);
    return p ? pclose(p) : 1;
}
'''
# libc's open found by the program itself, in libc's symbol tables: no
# call through the dynamic linker for the preload to interpose
C_ELF_LOOKUP = r'''
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void *found;
static int look(struct dl_phdr_info *info, size_t size, void *arg) {
    const ElfW(Dyn) *dyn = 0;
    if (!strstr(info->dlpi_name, "libc.so")) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    const ElfW(Sym) *sym = 0; const char *str = 0; const unsigned *gnu = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        ElfW(Addr) p = dyn->d_un.d_ptr;
        if (p < info->dlpi_addr) p += info->dlpi_addr;
        if (dyn->d_tag == DT_SYMTAB) sym = (const void *)p;
        if (dyn->d_tag == DT_STRTAB) str = (const void *)p;
        if (dyn->d_tag == DT_GNU_HASH) gnu = (const void *)p;
    }
    if (!sym || !str || !gnu) return 0;
    const unsigned *buckets = (const void *)((const ElfW(Addr) *)(gnu + 4) + gnu[2]);
    const unsigned *chain = buckets + gnu[0];
    unsigned h = 5381;
    for (const char *c = arg; *c; c++) h = h * 33 + (unsigned char)*c;
    for (unsigned i = buckets[h % gnu[0]]; i >= gnu[1]; i++) {
        if (!strcmp(str + sym[i].st_name, arg) && sym[i].st_value) {
            found = (void *)(info->dlpi_addr + sym[i].st_value);
            return 1;
        }
        if (chain[i - gnu[1]] & 1) break;
    }
    return 0;
}
int main(int argc, char **argv) {
    char buf[128];
    dl_iterate_phdr(look, "open");
    int fd = found ? ((int (*)(const char *, int, ...))found)(argv[1], 0) : -1;
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
    if (n > 0) fwrite(buf, 1, n, stdout);
    return 0;
}
'''

# class: (the table's row name, program argv builder, setup, evidence)
# each program is given the files it needs by path; an honest twin runs
# first in the same setup (prints "honest-ok")


def py(code):
    path = os.path.join(WORK, "w", "prog_%d.py" % abs(hash(code)))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(code)
    os.chmod(path, 0o644)
    return [PY, path]


class Case:
    def __init__(self, row, argv, evidence, setup=None, after=None, skip=None, kind="py"):
        self.row, self.argv, self.evidence, self.kind = row, argv, evidence, kind
        self.setup, self.after, self.skip = setup, after, skip


def cases():
    out = []
    out.append(Case("read a file outside the allowed paths (Python)",
                    lambda ctx: py("print(open(%r).read())" % SECRET),
                    lambda ctx, p: TOKEN.encode() in p.stdout))
    w = marker("written")
    out.append(Case("write a file outside the allowed paths (Python)",
                    lambda ctx: py("open(%r, 'w').write('x')" % w),
                    lambda ctx, p: os.path.exists(w),
                    setup=lambda ctx: os.path.exists(w) and os.unlink(w)))
    out.append(Case("connect to a network listener (Python)",
                    lambda ctx: py("import socket\ns=socket.create_connection(('127.0.0.1',%d))\n"
                                   "print('connected')" % ctx["listener"].port),
                    lambda ctx, p: ctx["listener"].count > ctx["count0"],
                    setup=lambda ctx: ctx.__setitem__("count0", ctx["listener"].count)))
    m = marker("spawned")
    out.append(Case("start another program (Python)",
                    lambda ctx: py("import subprocess\nsubprocess.run(['/bin/sh','-c','echo x > %s'])"
                                   % m),
                    lambda ctx, p: os.path.exists(m),
                    setup=lambda ctx: os.path.exists(m) and os.unlink(m)))
    out.append(Case("signal a process outside the run (Python)",
                    lambda ctx: py("import os, signal\nos.kill(%d, signal.SIGKILL)" % ctx["victim"]),
                    lambda ctx, p: (time.sleep(0.1), not alive(ctx["victim"]))[1],
                    setup=lambda ctx: ctx.__setitem__("victim", victim()),
                    after=lambda ctx: reap(ctx["victim"])))
    out.append(Case("read the sandbox's environment through /proc (Python)",
                    lambda ctx: py("import os\nfor pid in os.listdir('/proc'):\n"
                                   "    try: print(open('/proc/%s/environ' % pid, 'rb').read())\n"
                                   "    except Exception: pass\n"),
                    lambda ctx, p: b"SL_MATRIX_CREDENTIAL" in p.stdout))
    out.append(Case("hold memory past --mem (Python)",
                    lambda ctx: py("import time\nb = bytearray(200 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\n"
                                   "time.sleep(1.5)\nprint('held')"),
                    lambda ctx, p: b"held" in p.stdout))
    out.append(Case("spend CPU past --cpu (Python)",
                    lambda ctx: py("import time\nt = time.process_time()\n"
                                   "while time.process_time() - t < 1.5: pass\nprint('spent')"),
                    lambda ctx, p: b"spent" in p.stdout))
    m2 = marker("outlived")
    out.append(Case("leave a process behind after the run (Python)",
                    lambda ctx: py("import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(1)\n"
                                   "    open(%r, 'w').write('x')\n    os._exit(0)\n" % m2),
                    lambda ctx, p: (time.sleep(1.8), os.path.exists(m2))[1],
                    setup=lambda ctx: os.path.exists(m2) and os.unlink(m2)))
    copen = cc("open_secret", C_OPEN)
    out.append(Case("read a file outside, dynamically linked C",
                    lambda ctx: [copen, SECRET],
                    lambda ctx, p: TOKEN.encode() in p.stdout,
                    skip=None if copen else "no C compiler", kind="c"))
    ckill = cc("kill_pid", C_KILL)
    out.append(Case("signal a process outside the run, dynamically linked C",
                    lambda ctx: [ckill, str(ctx["victim"])],
                    lambda ctx, p: (time.sleep(0.1), not alive(ctx["victim"]))[1],
                    setup=lambda ctx: ctx.__setitem__("victim", victim()),
                    after=lambda ctx: reap(ctx["victim"]),
                    skip=None if ckill else "no C compiler", kind="c"))
    m3 = marker("raw-exec")
    cexec = cc("raw_exec", C_RAW_EXEC)
    out.append(Case("start another program, C with a raw system call",
                    lambda ctx: [cexec, "echo x > " + m3],
                    lambda ctx, p: (time.sleep(0.2), os.path.exists(m3))[1],
                    setup=lambda ctx: os.path.exists(m3) and os.unlink(m3),
                    skip=None if cexec else "no C compiler", kind="c"))
    calias = cc("alias_read", C_ALIAS_READ)
    out.append(Case("read a file outside, C through libc's other names (`__open64`, `_IO_fopen`)",
                    lambda ctx: [calias, SECRET],
                    lambda ctx, p: TOKEN.encode() in p.stdout,
                    skip=None if calias else "no C compiler", kind="c"))
    cfork = cc("alias_fork", C_ALIAS_FORK)
    out.append(Case("start a process (`--no-fork`), C through `__fork`",
                    lambda ctx: [cfork],
                    lambda ctx, p: b"child-ran" in p.stdout,
                    skip=None if cfork else "no C compiler", kind="c"))
    cpopen = cc("alias_popen", C_ALIAS_POPEN)
    out.append(Case("start another program, C through `_IO_popen`",
                    lambda ctx: [cpopen, "echo sh''-ran"],
                    lambda ctx, p: b"sh-ran" in p.stdout,
                    skip=None if cpopen else "no C compiler", kind="c"))
    celf = cc("elf_lookup", C_ELF_LOOKUP)
    out.append(Case("read a file outside, C that finds libc's `open` in libc's symbol table itself",
                    lambda ctx: [celf, SECRET],
                    lambda ctx, p: TOKEN.encode() in p.stdout,
                    skip=None if celf else "no C compiler", kind="c"))
    craw = cc("raw_secret", C_RAW, static=True)
    out.append(Case("read a file outside, C with a raw system call, static",
                    lambda ctx: [craw, SECRET],
                    lambda ctx, p: TOKEN.encode() in p.stdout,
                    skip=None if craw else "no static C toolchain", kind="c"))
    return out


def on_host(host, argv, **kw):
    pre = [] if host == "full" else [SIM, host, "--"]
    env = dict(os.environ, SL_MATRIX_CREDENTIAL="SL_MATRIX_CREDENTIAL=" + TOKEN)
    try:
        return subprocess.run(pre + argv, capture_output=True, timeout=60, env=env, **kw)
    except subprocess.TimeoutExpired as e:
        # a failed cell, not the end of the suite (returncode None: timed out)
        return subprocess.CompletedProcess(e.cmd, None, e.stdout or b"", (e.stderr or b"") + b" (timed out after 60 s)")


def sandboxed(host, argv, workdir):
    return on_host(host, [SANDLOCK, *COMMON, *EXTRA[host], "--workdir", workdir, "--", *argv])


def honest(host, workdir, kind):
    """the same setup runs an honest program of the same kind"""
    if kind == "c":
        prog = cc("honest_c", '#include <stdio.h>\nint main(void){puts("honest-ok");return 0;}\n')
        argv = [prog]
    else:
        argv = py("import json, threading\nt = threading.Thread(target=lambda: None); t.start(); t.join()\n"
                  "print(json.dumps('honest-ok'))")
    p = sandboxed(host, argv, workdir)
    return p.returncode == 0 and b"honest-ok" in p.stdout, p


def readme_table():
    """rows of docs/hosts.md's table: {row: {host: word}}"""
    text = open(README, encoding="utf-8").read()
    m = re.search(r"#+ Attack classes by host\n(.*?)(\n#|$)", text, re.S)
    if not m:
        return None
    rows = {}
    for line in m.group(1).splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        # a fifth column, the WebAssembly backend's, is tests/wasm.py's
        if len(cells) not in (4, 5) or cells[0] in ("attack", "") or set(cells[0]) <= set("-"):
            continue
        rows[cells[0]] = {h: cells[i + 1].split()[0].strip("*") for i, h in enumerate(HOSTS)}
    return rows


def main():
    table = readme_table()
    if table is None:
        result(False, "docs/hosts.md has the table", "no 'Attack classes by host' section")
    workdir = os.path.join(WORK, "w")
    os.makedirs(workdir, exist_ok=True)
    os.chmod(workdir, 0o777)
    os.chmod(WORK, 0o755)
    ctx = {"listener": Listener()}
    measured = {}
    honest_ok = {}
    for host in HOSTS:
        for kind in ("py", "c"):
            ok, p = honest(host, workdir, kind)
            honest_ok[(host, kind)] = ok
            result(ok, f"{host}: an honest {kind} program runs in this setup",
                   p.stderr.decode(errors="replace")[-300:])
    for case in cases():
        for host in HOSTS:
            name = f"{host}: {case.row}"
            if case.skip:
                result(None, name, case.skip)
                continue
            if not honest_ok[(host, case.kind)]:
                result(None, name, "the honest program did not run in this setup")
                continue
            if case.setup:
                case.setup(ctx)
            p = on_host(host, case.argv(ctx), cwd=workdir)
            bare = case.evidence(ctx, p)
            if case.after:
                case.after(ctx)
            if p.returncode is None:
                result(False, name, "the bare run timed out after 60 s")
                continue
            if not bare:
                result(None, name, "the attack does not work bare on this host")
                continue
            if case.setup:
                case.setup(ctx)
            p = sandboxed(host, case.argv(ctx), workdir)
            escaped = case.evidence(ctx, p)
            if case.after:
                case.after(ctx)
            word = "open" if escaped else "stopped"
            measured.setdefault(case.row, {})[host] = word
            if table is None:
                continue
            want = table.get(case.row, {}).get(host)
            result(want == word, f"{name}: docs/hosts.md says {want}, measured {word}",
                   p.stderr.decode(errors="replace")[-300:])
    ctx["listener"].close()
    if "--print" in sys.argv:
        for row, cells in measured.items():
            print("| " + row + " | " + " | ".join(cells.get(h, "?") for h in HOSTS) + " |")
    shutil.rmtree(WORK, ignore_errors=True)
    return result.finish("matrix")


if __name__ == "__main__":
    sys.exit(main())
