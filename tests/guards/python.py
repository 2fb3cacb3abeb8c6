#!/usr/bin/env python3
"""Suite guard-python: the Python guard (src/guards/python/python_guard.py) against
the known escapes, each proven to work bare first, and honest programs.

Runs through sandlock (env SANDLOCK, default ../../build/sandlock) with
--guard python --best-effort --clean-env --no-network --workdir D; with
GUARD_DIRECT=1 (or a sandlock without --guard) through the direct contract:
  PY -I -c <guard source> prog args   with SANDLOCK_GUARD_POLICY set.
Evidence is what a program leaves behind: a file outside the allowed
directories, a secret's bytes on stdout, a connection to our listener."""
import concurrent.futures
import dis
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from results import Listener, Results  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
PROGS = os.path.join(HERE, "py")
GUARD = os.environ.get("PYTHON_GUARD", os.path.join(ROOT, "src", "guards", "python", "python_guard.py"))
PY = sys.executable
SANDLOCK = os.environ.get("SANDLOCK", os.path.join(ROOT, "build", "sandlock"))
HOST = os.environ.get("SANDLOCK_HOST", "host")
R = Results(HOST)
GUARD_SRC = open(GUARD).read()


def sandlock_has_guard():
    try:
        p = subprocess.run([SANDLOCK, "--features"], capture_output=True, text=True, timeout=20)
    except OSError:
        return False
    return "guard" in (p.stdout + p.stderr)


DIRECT = os.environ.get("GUARD_DIRECT") == "1" or not sandlock_has_guard()


LISTENER = Listener()
CC = shutil.which("cc") or shutil.which("gcc")
EVIL_C = r"""
#include <stdio.h>
#include <stdlib.h>
void *PyInit_evil(void) {
    const char *out = getenv("EVIL_OUT");
    FILE *f = out ? fopen(out, "w") : NULL;
    if (f) { fputs("escaped", f); fclose(f); }
    return NULL;
}
"""


class Setup:
    """A fresh tree the test user owns: work/ (the working directory, writable),
    tmp/ (writable), outside/ (neither: the secret and the markers)."""

    def __init__(self, name):
        self.root = tempfile.mkdtemp(prefix="guard-py-")
        self.work = os.path.join(self.root, "work")
        self.tmp = os.path.join(self.root, "tmp")
        self.outside = os.path.join(self.root, "outside")
        for d in (self.work, self.tmp, self.outside):
            os.mkdir(d)
        self.token = "SECRET-" + secrets.token_hex(8)
        self.secret = os.path.join(self.outside, "secret.txt")
        with open(self.secret, "w") as f:
            f.write(self.token + "\n")
        self.out = os.path.join(self.outside, "marker-" + name)
        with open(os.path.join(self.work, "in.txt"), "w") as f:
            f.write("3 4 5\n")
        if os.geteuid() == 0:
            # sandlock runs a root caller's program as nobody: let nobody
            # reach everything, so only the sandbox can stop it
            for d in (self.root, self.work, self.tmp, self.outside):
                os.chmod(d, 0o777)
            os.chmod(self.secret, 0o644)

    def prog(self, name):
        dst = os.path.join(self.work, name)
        shutil.copy(os.path.join(PROGS, name), dst)
        os.chmod(dst, 0o644)
        return name

    def policy(self):
        lines = ["r /usr", "r /bin", "r /lib", "r /lib64", "r /etc/ld.so.cache", "r /etc/localtime",
                 "r /etc/ssl", "r /proc/cpuinfo", "r /proc/meminfo", "r /proc/stat",
                 "r /sys/devices/system/cpu", "r /proc/self", "r /dev/urandom", "r /dev/zero",
                 "w /dev/null", "w " + os.path.realpath(self.work), "w " + os.path.realpath(self.tmp),
                 "net 0", "fork 0", "exec 0"]
        return "\n".join(lines)

    def clean(self):
        shutil.rmtree(self.root, ignore_errors=True)


def run(setup, argv, guarded, pyopts=(), stdin=None, extra_env=None):
    env = dict(os.environ)
    env["FAKE_CRED"] = "CRED-" + setup.token
    env.pop("SANDLOCK_GUARD_POLICY", None)
    if extra_env:
        env.update(extra_env)
    if not guarded:
        cmd = [PY] + list(pyopts) + argv
    elif DIRECT:
        env["SANDLOCK_GUARD_POLICY"] = setup.policy()
        cmd = [PY, "-I", "-c", GUARD_SRC] + list(pyopts) + argv
    else:
        cmd = [SANDLOCK, "--guard", "python", "--best-effort", "--clean-env", "--no-network",
               "--timeout", "10", "--workdir", setup.work, "--", PY] + list(pyopts) + argv
    # sh stays the parent (the command is not its last), so
    # /proc/<ppid>/environ holds FAKE_CRED as a platform's runtime would
    wrapped = ["/bin/sh", "-c", '"$@"; exit $?', "sh"] + cmd
    try:
        p = subprocess.run(wrapped, cwd=setup.work, env=env, input=stdin, capture_output=True,
                           timeout=25)
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def marker_evidence(setup):
    try:
        with open(setup.out) as f:
            return "escaped" in f.read()
    except OSError:
        return False


def secret_evidence(setup, out):
    return setup.token in out


# name -> (program, evidence kinds).  "file": the marker outside; "secret":
# the secret's bytes on stdout; "net": a connection to the listener; "step":
# stdout names a guard-disabling step that worked.
ATTACKS = [
    ("open-plain", "open_plain.py", ("secret", "file")),
    ("open-dotdot-and-symlink", "open_dotdot.py", ("secret", "file")),
    ("proc-self-root-cwd", "proc_root.py", ("secret", "file")),
    ("proc-self-fd", "proc_fd.py", ("secret", "file")),
    ("open-relative-to-dir-fd", "dirfd_open.py", ("secret", "file")),
    ("os-open", "os_open.py", ("secret", "file")),
    ("io-open-fileio", "io_open.py", ("secret", "file")),
    ("pathlib-and-lying-fspath", "pathlib_rw.py", ("secret", "file")),
    ("os-system", "os_system.py", ("file",)),
    ("subprocess", "subprocess_run.py", ("file",)),
    ("os-posix-spawn", "posix_spawn.py", ("file",)),
    ("os-fork-exec", "fork_exec.py", ("file",)),
    ("posixsubprocess-fork-exec", "posixsubprocess.py", ("file",)),
    ("socket-connect", "socket_connect.py", ("net",)),
    ("print-self-builtins", "print_self.py", ("file",)),
    ("subclasses-walk", "subclasses.py", ("file",)),
    ("getattr-obfuscated-import", "getattr_import.py", ("file",)),
    ("gc-get-objects", "gc_state.py", ("file", "step")),
    ("frames-f-globals", "frames.py", ("file", "step")),
    ("sys-modules-reload", "sysmodules.py", ("secret",)),
    ("builtins-swap", "builtins_swap.py", ("secret",)),
    ("ctypes-system", "ctypes_system.py", ("file",)),
    ("native-so-in-workdir", "native_so.py", ("file",)),
    ("code-crafting", "code_craft.py", ("step",)),
    ("teardown-after-hooks", "teardown.py", ("file",)),
]


def evidence(kinds, setup, out, conns):
    found = []
    if "file" in kinds and marker_evidence(setup):
        found.append("marker file written outside")
    if "secret" in kinds and secret_evidence(setup, out):
        found.append("secret printed")
    if "net" in kinds and conns:
        found.append("listener got a connection")
    if "step" in kinds:
        steps = [ln for ln in out.splitlines() if ln.startswith("STEP ") and ln != "STEP none"]
        if steps:
            found.append("guard-disabling step worked: " + steps[0])
    return found


def attack(name, prog, kinds, honest_ok):
    setup = Setup(name)
    try:
        if prog == "native_so.py":
            if not CC:
                return None, "no C compiler to build the native module"
            src = os.path.join(setup.root, "evil.c")
            with open(src, "w") as f:
                f.write(EVIL_C)
            so = os.path.join(setup.work, "evil.so")
            p = subprocess.run([CC, "-shared", "-fPIC", "-o", so, src], capture_output=True)
            if p.returncode != 0:
                return None, "cc failed: " + p.stderr.decode(errors="replace")[:200]
            os.chmod(so, 0o755)
        argv = [setup.prog(prog), setup.out, setup.secret, str(LISTENER.port)]
        before = LISTENER.count
        rc, out, err = run(setup, argv, guarded=False)
        bare = evidence(kinds, setup, out, LISTENER.count - before)
        if not bare:
            return None, "the attack does not work bare on this host (rc %d: %s)" % (
                rc, (err.strip().splitlines() or [""])[-1][:160])
        if os.path.exists(setup.out):
            os.remove(setup.out)
        if not honest_ok:
            return False, "the honest program failed under the same setup: cannot judge"
        before = LISTENER.count
        rc, out, err = run(setup, argv, guarded=True)
        found = evidence(kinds, setup, out, LISTENER.count - before)
        if found:
            return False, "; ".join(found) + " (bare: %s)" % "; ".join(bare)
        return True, ""
    finally:
        setup.clean()


def honest(name, prog, args_of, check, pyopts=(), stdin=None):
    setup = Setup(name)
    try:
        argv = [setup.prog(prog)] + args_of(setup)
        bare = run(setup, argv, guarded=False, pyopts=pyopts, stdin=stdin)
        guarded = run(setup, argv, guarded=True, pyopts=pyopts, stdin=stdin)
        return check(setup, bare, guarded)
    finally:
        setup.clean()


def same_output(setup, bare, guarded):
    if bare[0] != 0:
        return None, "bare run failed (rc %d): %s" % (bare[0], bare[2][-200:])
    if guarded[:2] != bare[:2]:
        return False, "guarded rc %d stdout %r stderr %r; bare rc %d stdout %r" % (
            guarded[0], guarded[1][-300:], guarded[2][-300:], bare[0], bare[1][-300:])
    return True, ""


def tb_files(err):
    return [ln.strip() for ln in err.splitlines() if ln.strip().startswith("File ")]


def check_exception(setup, bare, guarded):
    if bare[0] != 1:
        return None, "bare run did not end with status 1"
    if guarded[0] != 1 or guarded[1] != bare[1]:
        return False, "guarded rc %d stdout %r" % (guarded[0], guarded[1])
    if "KeyError: 'missing'" not in guarded[2] or tb_files(guarded[2]) != tb_files(bare[2]):
        return False, "traceback differs: %r vs bare %r" % (guarded[2][-400:], bare[2][-400:])
    return True, ""


def check_exit3(setup, bare, guarded):
    if bare[0] != 3:
        return None, "bare status %d" % bare[0]
    return (guarded[0] == 3 and guarded[1] == bare[1]), "guarded rc %d out %r err %r" % (
        guarded[0], guarded[1], guarded[2][-200:])


def numpy_bare():
    p = subprocess.run([PY, "-c", "import numpy"], capture_output=True)
    return p.returncode == 0


def static_checks():
    """The hook and its helpers must read no globals, builtins or cells: a
    program that reaches the guard's globals through frames must change
    nothing it relies on."""
    code = compile(GUARD_SRC, "python_guard.py", "exec")
    bad = []
    funcs = [c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name.startswith("_h_")]
    for c in funcs:
        for ins in dis.get_instructions(c):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "STORE_GLOBAL",
                              "LOAD_CLASSDEREF", "STORE_NAME"):
                bad.append("%s: %s %s" % (c.co_name, ins.opname, ins.argval))
        if c.co_freevars or c.co_cellvars or c.co_kwonlyargcount:
            bad.append("%s has cells or keyword-only defaults (a mutable dict)" % c.co_name)
    R(len(funcs) >= 8 and not bad, "hook-reads-only-its-defaults", "; ".join(bad) or "hook not found")
    R(len(GUARD_SRC.encode()) < 100 * 1024, "guard-source-under-100kb", "%d bytes" % len(GUARD_SRC))


def options_checks(honest_ok):
    setup = Setup("opts")
    try:
        prog = "import sys, warnings; print(sys.argv[1:], sys.path[0] == '', __doc__ is None)"
        rc, out, err = run(setup, ["-c", prog, "a", "b"], guarded=True, pyopts=("-u", "-B", "-OO", "-W", "ignore", "-Xdev"))
        R(rc == 0 and out.strip() == "['a', 'b'] True True", "options-u-B-OO-W-X",
          "rc %d out %r err %r" % (rc, out, err[-300:]))
        rc, out, err = run(setup, ["-c", "print(1)"], guarded=True, pyopts=("-Z",))
        R(rc == 2 and "Unknown option: -Z" in err, "unknown-option-exit-2", "rc %d err %r" % (rc, err[-200:]))
        rc, out, err = run(setup, ["-"], guarded=True, stdin=b"import sys; print('stdin', sys.argv)\n")
        R(rc == 0 and out.strip() == "stdin ['-']", "script-from-stdin", "rc %d out %r err %r" % (rc, out, err[-200:]))
        rc, out, err = run(setup, ["-m", "json.tool"], guarded=True, stdin=b'{"a": [1, 2]}')
        R(rc == 0 and '"a"' in out, "run-module-m", "rc %d out %r err %r" % (rc, out, err[-300:]))
        if DIRECT:
            rc, out, err = run(setup, ["-c", "import os; print('SANDLOCK_GUARD_POLICY' in os.environ)"], guarded=True)
            R(rc == 0 and out.strip() == "False", "policy-variable-removed", "rc %d out %r" % (rc, out))
    finally:
        setup.clean()


def main():
    print("# guard-python: %s" % ("direct contract (GUARD_DIRECT=1 or sandlock without --guard)"
                                   if DIRECT else "through " + SANDLOCK))
    static_checks()
    ok, why = honest("honest-basic", "honest_basic.py",
                     lambda s: [os.path.realpath(s.tmp) if DIRECT else ""], same_output)
    R(ok, "honest-basic", why)
    honest_ok = bool(ok)
    if numpy_bare():
        ok, why = honest("honest-numpy", "honest_numpy.py", lambda s: [], same_output)
        R(ok, "honest-numpy", why)
    else:
        R(None, "honest-numpy", "the bare interpreter cannot import numpy")
    ok, why = honest("honest-exception", "honest_exception.py", lambda s: [], check_exception)
    R(ok, "honest-exception-traceback-status-1", why)
    ok, why = honest("honest-exit3", "honest_exit3.py", lambda s: [], check_exit3)
    R(ok, "honest-sys-exit-3", why)
    options_checks(honest_ok)
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        futs = [(name, pool.submit(attack, name, prog, kinds, honest_ok)) for name, prog, kinds in ATTACKS]
        for name, fut in futs:
            try:
                ok, why = fut.result()
            except Exception as e:  # a broken test is a failure, not a pass
                ok, why = False, "test error: %r" % (e,)
            R(ok, "escape-" + name, why)
    cred_setup = Setup("cred")
    try:
        argv = [cred_setup.prog("environ_cred.py")]
        cred = "CRED-" + cred_setup.token
        rc, out, err = run(cred_setup, argv, guarded=False)
        files_bare = [ln for ln in out.splitlines() if ln.startswith("FILE")] if cred in out else []
        rc, gout, gerr = run(cred_setup, argv, guarded=True)
        if not files_bare:
            R(None, "escape-proc-environ-credentials", "bare the /proc environ files did not show the credential")
        elif "ENV" not in gout:
            R(False, "escape-proc-environ-credentials", "the program did not run under the guard: %r" % gerr[-300:])
        else:
            leaked = [ln for ln in gout.splitlines() if ln.startswith("FILE") and (cred in ln or "SANDLOCK_GUARD_POLICY" in ln)]
            R(not leaked, "escape-proc-environ-credentials", "leaked: %r" % leaked[:1])
        env_line = [ln for ln in gout.splitlines() if ln.startswith("ENV")]
        R(bool(env_line) and "POLICY" not in env_line[0], "policy-not-in-os-environ", "%r" % env_line)
        if DIRECT:
            R(None, "escape-os-environ-credentials", "the environment is sandlock's --clean-env, not the guard's: only through sandlock")
        else:
            R(bool(env_line) and cred not in env_line[0], "escape-os-environ-credentials", "%r" % env_line)
    finally:
        cred_setup.clean()
    return R.finish("guard-python")


if __name__ == "__main__":
    sys.exit(main())
