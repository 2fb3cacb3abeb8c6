#!/usr/bin/python3
"""The LD_PRELOAD layer (--guard preload, libsandlock-preload.so).

    SANDLOCK=path tests/guards/preload.py      through sandlock (default
                                               ../../build/sandlock from here)
    GUARD_DIRECT=1 tests/guards/preload.py     the library alone: LD_PRELOAD and
                                               SANDLOCK_GUARD_POLICY set here
                                               (PRELOAD_LIB=path, else built
                                               from src/preload)

Every attack is a C program compiled here (tests/guards/c) and run twice on
the same files: bare, where it must work (judged by evidence: the secret's
bytes printed, a file created outside, a marker a child wrote, a connection
our listener accepted, the evil library's token), else SKIP; then under the
layer, where it must leave no evidence and the layer must have said so on
stderr.  An honest C program and an honest python3 (threads, numpy, a file
read in the working directory, one written to TMPDIR) run first under the
same setup, so that "nothing leaked" is not a layer that breaks everything.
The two label checks pass when the bypass works: an inline syscall
instruction and a static binary read the secret under the layer.
Last line: "guard-preload: P passed, F failed, S skipped".
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from results import Listener, Results  # noqa: E402
from guardrun import guard_named as named, through_sandlock, workspace  # noqa: E402

DIRECT = os.environ.get("GUARD_DIRECT") == "1"
SANDLOCK = os.environ.get("SANDLOCK", os.path.join(ROOT, "build", "sandlock"))
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
PY = "/usr/bin/python3"
result = Results(HOST)
SUITE = "guard-preload"
CFLAGS = ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Wshadow",
          "-Wno-missing-field-initializers"]

WORK, BIN, OUT, WD, TMP = workspace("sandlock-preload.")
TOKEN = "sl-preload-secret-%d" % os.getpid()
SECRET = os.path.join(OUT, "secret-%d.txt" % os.getpid())
with open(SECRET, "w") as f:
    f.write(TOKEN + "\n")
os.chmod(SECRET, 0o644)
with open(os.path.join(WD, "input.txt"), "w") as f:
    f.write(" ".join(str(i) for i in range(1, 101)) + "\n")
os.chmod(os.path.join(WD, "input.txt"), 0o644)
HONEST_SUM = "sum 5050"


def cc(name, out, flags, libs=()):
    src = os.path.join(HERE, "c", name)
    p = subprocess.run(["cc", *CFLAGS, *flags, "-o", out, src, *libs], capture_output=True, text=True)
    return p.returncode == 0, p.stderr[-400:]


def build():
    progs = {}
    for name, out, flags, libs in (
            ("attack.c", "attack", ["-O1"], ["-ldl"]),
            ("honest.c", "honest", ["-O1"], ["-lpthread"]),
            ("raw_syscall.c", "raw_syscall", ["-O1"], []),
            ("fortified.c", "fortified", ["-O2", "-D_FORTIFY_SOURCE=2"], []),
            ("attack.c", "attack-static", ["-static", "-O1"], ["-ldl"])):
        path = os.path.join(BIN, out)
        ok, err = cc(name, path, flags, libs)
        progs[out] = path if ok else None
        if not ok and out != "attack-static":
            result(False, "build-" + out, err)
    evil = os.path.join(OUT, "evil.so")
    ok, err = cc("evil.c", evil, ["-shared", "-fPIC"])
    progs["evil"] = evil if ok else None
    return progs


def library():
    """the library for the direct contract, as bytes"""
    lib = os.environ.get("PRELOAD_LIB")
    if not lib:
        src = os.path.join(ROOT, "src", "preload")
        lib = os.path.join(BIN, "libsandlock-preload.so")
        c = sorted(os.path.join(src, n) for n in os.listdir(src) if n.endswith(".c"))
        p = subprocess.run(["cc", *CFLAGS, "-O2", "-g", "-fPIC", "-shared", "-fvisibility=hidden",
                            "-D_GNU_SOURCE", "-I" + src, *c, "-o", lib, "-ldl"],
                           capture_output=True, text=True)
        if p.returncode:
            result(False, "build-library", p.stderr[-600:])
            return None
    with open(lib, "rb") as f:
        return f.read()


def policy(net=0, fork=0, exec_=0):
    rules = ["r " + p for p in ("/usr", "/bin", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/localtime",
                                "/etc/ssl", "/etc/python3", "/etc/python3.11", "/proc/cpuinfo",
                                "/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu",
                                "/dev/urandom", "/dev/zero") if os.path.exists(p)]
    rules += ["r /proc/self", "w /dev/null", "r " + BIN, "w " + WD, "w " + TMP,
              "net %d" % net, "fork %d" % fork, "exec %d" % exec_]
    return "\n".join(rules)


BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": WD, "TMPDIR": TMP}
LIB = None          # the library's bytes (direct contract)
REPORT = os.path.join(WORK, "report.json")


def run_bare(argv, timeout=20):
    return subprocess.run(argv, cwd=WD, env=BASE_ENV, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout)


def run_guarded(argv, net=0, fork=0, exec_=0, timeout=20):
    """the program under the layer; (completed process, what the report said)"""
    if DIRECT:
        # as sandlock does it: the library in a memfd the program inherits
        fd = os.memfd_create("sandlock-preload", 0)
        try:
            os.write(fd, LIB)
            env = dict(BASE_ENV, LD_PRELOAD="/proc/self/fd/%d" % fd,
                       SANDLOCK_GUARD_POLICY=policy(net, fork, exec_))
            p = subprocess.run(argv, cwd=WD, env=env, stdin=subprocess.DEVNULL, pass_fds=(fd,),
                               capture_output=True, timeout=timeout)
        finally:
            os.close(fd)
        p.preload_fd = fd
        return p, None
    p, rep = through_sandlock(SANDLOCK, "preload", argv, WD, REPORT, net, fork, exec_,
                              timeout=timeout)
    p.preload_fd = 3
    return p, rep


def guard_named(rep):
    """through sandlock: the report must name the layer"""
    return named(rep, "preload")


def clean():
    for d in (WD, OUT):
        for n in os.listdir(d):
            if n.startswith(("marker", "pwned", "moved", "link", "dangle", "mine")):
                p = os.path.join(d, n)
                if os.path.islink(p) or os.path.isfile(p):
                    os.unlink(p)


def attack(name, argv, evidence, setup=None, net=0, fork=0, exec_=0, honest_ok=True):
    """bare first (must work), then under the layer (no evidence, a refusal said)"""
    if argv is None:
        result(None, name, "its program did not build here")
        return
    clean()
    if setup:
        setup()
    bare = run_bare(argv)
    if not evidence(bare):
        result(None, name, "the attack does not work bare here: rc=%d %s" %
               (bare.returncode, (bare.stdout + bare.stderr)[-200:]))
        return
    clean()
    if setup:
        setup()
    p, rep = run_guarded(argv, net, fork, exec_)
    if evidence(p):
        result(False, name, "escaped under the layer: rc=%d out=%r err=%r" %
               (p.returncode, p.stdout[-200:], p.stderr[-300:]))
    elif not honest_ok:
        result(False, name, "contained, but the honest program failed in the same setup")
    elif rep and rep.get("verdict") == "syscall_blocked":
        result(None, name, "sandlock's seccomp filter stopped %s before the layer saw it "
               "(the layer is tested on hosts without one)" % rep.get("blocked_syscall"))
    elif b"sandlock guard: refused" not in p.stderr:
        result(False, name, "no evidence, but the layer did not refuse anything: rc=%d err=%r" %
               (p.returncode, p.stderr[-300:]))
    elif not guard_named(rep):
        result(False, name, "the report does not name the preload layer: %r" % (rep,))
    else:
        result(True, name)


def printed(token):
    return lambda p: token.encode() in p.stdout


def exists(path):
    return lambda p: os.path.exists(path)


def main():
    global LIB
    if not DIRECT and not os.access(SANDLOCK, os.X_OK):
        result(None, "all", "no sandlock binary at %s (GUARD_DIRECT=1 tests the library alone)"
               % SANDLOCK)
        return result.finish(SUITE)
    if not shutil.which("cc"):
        result(None, "all", "no C compiler")
        return result.finish(SUITE)
    progs = build()
    if DIRECT:
        LIB = library()
        if LIB is None:
            return result.finish(SUITE)
    A = progs["attack"]

    def at(*args):
        return [A, *args] if A else None

    # the honest programs, in the setup every attack below runs in
    honest_ok = True
    if progs["honest"]:
        p, rep = run_guarded([progs["honest"]])
        ok = p.returncode == 0 and HONEST_SUM.encode() in p.stdout and guard_named(rep)
        if DIRECT:
            out = os.path.join(TMP, "honest.out")
            ok = ok and os.path.exists(out) and open(out).read().strip() == "5050"
        honest_ok &= ok
        result(ok, "honest-c", "rc=%d out=%r err=%r" % (p.returncode, p.stdout[-200:], p.stderr[-300:]))
    code = ("import os, threading, numpy\n"
            "n = [int(x) for x in open('input.txt').read().split()]\n"
            "s = []\n"
            "t = threading.Thread(target=lambda: s.append(int(numpy.array(n).sum())))\n"
            "t.start(); t.join()\n"
            "open(os.path.join(os.environ['TMPDIR'], 'py.out'), 'w').write(str(s[0]))\n"
            "print('sum', s[0], 'policy-visible', 'SANDLOCK_GUARD_POLICY' in os.environ)\n")
    p, rep = run_guarded([PY, "-c", code])
    ok = p.returncode == 0 and b"sum 5050 policy-visible False" in p.stdout and guard_named(rep)
    honest_ok &= ok
    result(ok, "honest-python", "rc=%d out=%r err=%r" % (p.returncode, p.stdout[-200:], p.stderr[-400:]))

    read = printed(TOKEN)
    # reading the secret through every wrapper
    for w in ("open", "open64", "openat", "openat64", "fopen", "fopen64", "freopen"):
        attack("read-" + w, at(w, SECRET), read, honest_ok=honest_ok)
    f = progs["fortified"]
    if f and b"__open_2" not in open(f, "rb").read():
        result(None, "read-fortified-__open_2", "the compiler did not emit __open_2")
    else:
        attack("read-fortified-__open_2", [f, SECRET] if f else None, read, honest_ok=honest_ok)
    attack("read-syscall-openat", at("syscall-openat", SECRET), read, honest_ok=honest_ok)
    attack("read-dotdot", at("open", WD + "/../outside/" + os.path.basename(SECRET)), read,
           honest_ok=honest_ok)
    attack("read-proc-self-root", at("open", "/proc/self/root" + SECRET), read, honest_ok=honest_ok)
    attack("read-proc-self-cwd-dotdot",
           at("open", "/proc/self/cwd/../outside/" + os.path.basename(SECRET)), read,
           honest_ok=honest_ok)
    attack("read-symlink-made-inside", at("symlink", os.path.join(WD, "link"), SECRET), read,
           honest_ok=honest_ok)

    def updir():
        os.symlink(OUT, os.path.join(WD, "linkup"))
    # wd/linkup -> outside; the kernel takes ".." from outside (WORK), not from wd
    attack("read-symlink-dotdot",
           at("open", os.path.join(WD, "linkup", "..", "outside", os.path.basename(SECRET))),
           read, setup=updir, honest_ok=honest_ok)
    attack("stat-secret-name", at("stat", SECRET), printed("exists size="), honest_ok=honest_ok)
    attack("access-secret-name", at("access", SECRET), printed("exists"), honest_ok=honest_ok)
    attack("opendir-outside", at("opendir", OUT), printed(os.path.basename(SECRET)),
           honest_ok=honest_ok)
    attack("dlopen-outside", at("dlopen", progs["evil"] or "/nonexistent"),
           printed("evil-library-code-ran"), honest_ok=honest_ok)

    # writing outside
    attack("write-creat", at("creat", os.path.join(OUT, "pwned-creat")),
           exists(os.path.join(OUT, "pwned-creat")), honest_ok=honest_ok)
    attack("write-fopen", at("fopen-write", os.path.join(OUT, "pwned-fopen")),
           exists(os.path.join(OUT, "pwned-fopen")), honest_ok=honest_ok)

    def mine():
        with open(os.path.join(WD, "mine.txt"), "w") as f:
            f.write("x")
        os.chmod(os.path.join(WD, "mine.txt"), 0o666)
    attack("write-rename-out", at("rename", os.path.join(WD, "mine.txt"), os.path.join(OUT, "moved.txt")),
           exists(os.path.join(OUT, "moved.txt")), setup=mine, honest_ok=honest_ok)
    attack("write-dangling-symlink", at("symlink-create", os.path.join(WD, "dangle"),
                                        os.path.join(OUT, "pwned-dangle")),
           exists(os.path.join(OUT, "pwned-dangle")), honest_ok=honest_ok)

    # processes: a marker the new process writes
    def marker(n):
        return os.path.join(WD, "marker-" + n)

    sh = "/bin/sh"
    for w, argv in (("execve", at("execve", sh, "echo x > " + marker("execve"))),
                    ("execvp", at("execvp", "sh", "echo x > " + marker("execvp"))),
                    ("system", at("system", "echo x > " + marker("system"))),
                    ("popen", at("popen", "echo x > " + marker("popen"))),
                    ("posix_spawn", at("posix_spawn", sh, "echo x > " + marker("posix_spawn"))),
                    ("fork", at("fork", marker("fork"))),
                    ("vfork", at("vfork", marker("vfork"))),
                    ("clone", at("clone", marker("clone")))):
        attack("process-" + w, argv, exists(marker(w)), honest_ok=honest_ok)
    attack("python-subprocess", [PY, "-c", "import subprocess; subprocess.run(['sh', '-c', 'echo x > %s'])"
                                 % marker("pysub")], exists(marker("pysub")), honest_ok=honest_ok)

    # network: a connection our listener accepts
    lis = Listener()
    seen = {}

    def connected(p):
        got = lis.accepted > seen.get("n", 0)
        seen["n"] = lis.accepted
        return got
    attack("net-connect", at("connect", str(lis.port)), connected, honest_ok=honest_ok)
    attack("python-socket", [PY, "-c", "import socket; socket.create_connection(('127.0.0.1', %d))"
                             % lis.port], connected, honest_ok=honest_ok)

    # Python's open (open64/openat underneath: the predecessor's miss)
    attack("python-open", [PY, "-c", "print(open(%r).read())" % SECRET], read, honest_ok=honest_ok)
    attack("python-listdir", [PY, "-c", "print(__import__('os').listdir(%r))" % OUT],
           printed(os.path.basename(SECRET)), honest_ok=honest_ok)

    # exec allowed: the new program stays under the layer (policy put back)
    p, _ = run_guarded(at("execve", sh, "echo exec-allowed-ran"), fork=1, exec_=1)
    exec_ok = b"exec-allowed-ran" in p.stdout
    result(exec_ok, "exec-allowed-runs", "rc=%d err=%r" % (p.returncode, p.stderr[-300:]))
    for name, argv in (("exec-child-guarded", at("execve", sh, "cat " + SECRET)),
                       ("exec-child-guarded-empty-env", at("execve-noenv", "/bin/cat", SECRET)),
                       ("exec-child-guarded-system", at("system", "cat " + SECRET)),
                       ("exec-child-guarded-popen", at("popen", "cat " + SECRET)),
                       ("exec-child-guarded-posix_spawn", at("posix_spawn", sh, "cat " + SECRET)),
                       ("exec-child-guarded-python",
                        [PY, "-c", "import subprocess; subprocess.run(['cat', %r])" % SECRET])):
        attack(name, argv, read, fork=1, exec_=1, honest_ok=honest_ok and exec_ok)
    fdno = "3"
    if DIRECT:
        # the memfd's number in the child: run once to learn it
        probe, _ = run_guarded([PY, "-c", "import os; print(os.environ['LD_PRELOAD'])"])
        fdno = probe.stdout.decode().strip().rsplit("/", 1)[-1] or "3"
    attack("exec-child-guarded-fd-closed", at("close-exec", "/bin/cat", SECRET, fdno), read,
           fork=1, exec_=1, honest_ok=honest_ok and exec_ok)

    # the label: what the layer cannot see, proven to get through
    for name, argv in (("label-bypass-raw-syscall",
                        [progs["raw_syscall"], SECRET] if progs["raw_syscall"] else None),
                       ("label-bypass-static",
                        [progs["attack-static"], "open", SECRET] if progs["attack-static"] else None)):
        if argv is None:
            result(None, name, "its program did not build here (no static libc?)")
            continue
        bare = run_bare(argv)
        p, _ = run_guarded(argv)
        if not read(bare):
            result(None, name, "does not read the secret bare here")
        elif read(p):
            result(True, name)
        else:
            result(False, name, "the bypass did not work under the layer: the label would be "
                   "wrong or the run broke: rc=%d err=%r" % (p.returncode, p.stderr[-300:]))
    return result.finish(SUITE)


if __name__ == "__main__":
    try:
        rc = main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    sys.exit(rc)
