#!/usr/bin/python3
"""docs/graders.md's and the README's examples, run: every fenced block in
sh, python, go or c, in a directory holding the submission solution.py and
its input.txt, with sandlock first on PATH.  Each must print "accepted" and exit 0 for the right
solution, and must not for a wrong one (so an example that accepted anything
would fail here).

    SANDLOCK=path [SANDLOCK_LIB=dir-of-libsandlock.a] [CFLAGS=... LDFLAGS=...] tests/graders.py

Last line: "graders: P passed, F failed, S skipped".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import Results  # noqa: E402

SANDLOCK = os.path.abspath(os.environ["SANDLOCK"])
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
check = Results(os.environ.get("SANDLOCK_HOSTSIM", "full"))
LIBDIR = os.environ.get("SANDLOCK_LIB") or next(
    (d for d in (os.path.join(ROOT, "lib"), os.path.join(ROOT, "build"))
     if os.path.exists(os.path.join(d, "libsandlock.a"))), None)

blocks = []
for rel, least in (("docs/graders.md", 5), ("README.md", 4)):
    doc = open(os.path.join(ROOT, rel), encoding="utf-8").read()
    found = re.findall(r"^```(sh|python|go|c)\n(.*?)^```", doc, re.S | re.M)
    check(len(found) >= least and {"sh", "python", "go", "c"} <= {b[0] for b in found},
          f"{rel} has its examples ({len(found)} blocks, one in each language)")
    blocks += [(rel, lang, code) for lang, code in found]

WORK = tempfile.mkdtemp(prefix="sandlock-graders.")
os.chmod(WORK, 0o755)
BIN = os.path.join(WORK, "bin")
os.mkdir(BIN)
os.symlink(SANDLOCK, os.path.join(BIN, "sandlock"))
GO = shutil.which("go")
GOENV = {"GOTOOLCHAIN": "local", "GOFLAGS": "-buildvcs=false", "GOPROXY": "off", "GOSUMDB": "off",
         "GO111MODULE": "on", "GOWORK": "off", "GOPATH": os.path.join(WORK, "gopath"),
         "GOCACHE": os.path.join(WORK, "gocache"), "GOENV": "off"}
RIGHT = "a, b = map(int, input().split())\nprint(a + b)\n"
WRONG = "a, b = map(int, input().split())\nprint(a + b + 1)\n"


def workdir(n, solution):
    d = os.path.join(WORK, f"ex{n}-{'right' if solution == RIGHT else 'wrong'}")
    os.mkdir(d)
    os.chmod(d, 0o777)  # the program writes out.txt here as 65534 under root
    with open(os.path.join(d, "solution.py"), "w") as f:
        f.write(solution)
    with open(os.path.join(d, "input.txt"), "w") as f:
        f.write("2 3\n")
    for name in ("solution.py", "input.txt"):
        os.chmod(os.path.join(d, name), 0o644)
    return d


def build(lang, code, d):
    """the command that runs the example in d, or (None, why)"""
    env = dict(os.environ, PATH=BIN + ":" + os.environ.get("PATH", "/usr/bin:/bin"))
    if lang == "sh":
        path = os.path.join(d, "example.sh")
        open(path, "w").write(code)
        return ["/bin/bash", path], env, None
    if lang == "python":
        path = os.path.join(d, "example.py")
        open(path, "w").write(code)
        env["PYTHONPATH"] = os.path.join(ROOT, "bindings", "python")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return ["/usr/bin/python3", path], env, None
    if lang == "go":
        if not GO:
            return None, env, "go not found"
        src = os.path.join(d, "gosrc")
        os.mkdir(src)
        open(os.path.join(src, "main.go"), "w").write(code)
        open(os.path.join(src, "go.mod"), "w").write(
            "module graderdoc\n\ngo 1.19\n\nrequire sandlock v0.0.0\n\nreplace sandlock => %s\n"
            % os.path.abspath(os.path.join(ROOT, "bindings", "go")))
        env.update(GOENV)
        p = subprocess.run([GO, "build", "-o", os.path.join(d, "example"), "."], cwd=src, env=env,
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            return None, env, "go build failed: " + p.stderr[-500:]
        return [os.path.join(d, "example")], env, None
    if lang == "c":
        if not LIBDIR:
            return None, env, "no libsandlock.a (SANDLOCK_LIB)"
        path = os.path.join(d, "example.c")
        open(path, "w").write(code)
        # CFLAGS/LDFLAGS: those the library was built with (a sanitizer build's)
        p = subprocess.run(["cc", "-std=gnu11", "-Wall", "-Werror",
                            *os.environ.get("CFLAGS", "").split(), "-I",
                            os.path.join(ROOT, "include"), path,
                            os.path.join(LIBDIR, "libsandlock.a"), "-pthread",
                            *os.environ.get("LDFLAGS", "").split(), "-o",
                            os.path.join(d, "example")], capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            return None, env, "cc failed: " + p.stderr[-500:]
        return [os.path.join(d, "example")], env, None
    return None, env, "unknown language"


for n, (rel, lang, code) in enumerate(blocks):
    first = code.strip().splitlines()[0][:50]
    for sol in (RIGHT, WRONG):
        d = workdir(n, sol)
        cmd, env, why = build(lang, code, d)
        name = f"{rel} example {n} ({lang}: {first}) with the {'right' if sol == RIGHT else 'wrong'} solution"
        if cmd is None:
            check(False if lang in ("sh", "python", "c") else None, name, why)
            continue
        p = subprocess.run(cmd, cwd=d, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=120)
        if sol == RIGHT:
            check(p.returncode == 0 and p.stdout.strip().endswith("accepted"), name + ": accepted",
                  f"status {p.returncode}, stdout {p.stdout[-300:]!r}, stderr {p.stderr[-300:]!r}")
        else:
            check(p.returncode != 0 and "accepted" not in p.stdout, name + ": not accepted",
                  f"status {p.returncode}, stdout {p.stdout[-300:]!r}")

shutil.rmtree(WORK, ignore_errors=True)
sys.exit(check.finish("graders"))
