#!/usr/bin/python3
"""`sandlock batch`: compile once, run many tests (docs/batch.md).

    SANDLOCK=path tests/batch.py        (SANDLOCK_EXTRA_FLAGS: --best-effort;
                                        SANDLOCK_BATCH_ONLY=checker-files: that
                                        part alone, as tests/hosts.sh runs it)

Judged by evidence: the bytes a program printed, the files a test left (the
next test looks for them), the batch's exit status and its stderr line
count, and a secret's token that must not appear anywhere in the results.
Last line: "batch: P passed, F failed, S skipped".
"""
import atexit
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import Results  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
EXTRA = os.environ.get("SANDLOCK_EXTRA_FLAGS", "").split()
result = Results(HOST)
WORK = tempfile.mkdtemp(prefix="sandlock-batch.")
atexit.register(shutil.rmtree, WORK, True)
os.chmod(WORK, 0o755)
GCC = shutil.which("gcc")
PY = "/usr/bin/python3"
TOKEN = "sl-batch-secret-%d" % os.getpid()


def write(name, text, mode=0o644):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


def batch(lines, *opts, name="m.jsonl"):
    """Run a manifest: (exit status, result lines, stdout, stderr)."""
    path = write(name, "".join(json.dumps(x) + "\n" for x in lines))
    p = subprocess.run([SANDLOCK, "batch"] + EXTRA + list(opts) + [path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    res = []
    for line in p.stdout.splitlines():
        try:
            res.append(json.loads(line))
        except ValueError:
            res.append({"step": "garbage", "line": line})
    return p.returncode, res, p.stdout, p.stderr


def tests_of(res):
    return {r["name"]: r for r in res if r.get("step") == "test"}


def summary(res):
    return res[-1] if res and res[-1].get("step") == "summary" else {}


PYRUN = {"run": {"argv": [PY, "sol.py"], "files": {"sol.py": "sol.py"},
                 "options": ["--profile", "python:run", "--cpu", "2", "--timeout", "10"]}}


def py_batch(src, tests, settings=None, checker=None, run_extra=None, *opts):
    write("sol.py", src)
    run = json.loads(json.dumps(PYRUN))
    run["run"].update(run_extra or {})
    lines = [{"settings": settings or {}}, run]
    if checker:
        lines.append(checker)
    lines += [{"test": t} for t in tests]
    return batch(lines, *opts)


def io(name, stdin, expected):
    return {"name": name, "stdin": write(name + ".in", stdin),
            "expected": write(name + ".out", expected)}


# ---- the checker's copies live only while it runs: test 2's program looks
# for test 1's expected output and input in the box's check directory
# (without Landlock nothing else keeps it out; issue 27, 4).  As root the
# originals are unreadable to the program's uid, so a copy is all it could
# find; as an ordinary user the program's uid is the judge's and could read
# the originals where it knew their paths, but a copy left in check/ it
# finds knowing nothing.  A run's mount namespace (no-landlock, as root and
# as a user) replaces /tmp, /var/tmp and /dev/shm and binds back only the
# working directory, so a box there hides check/ whatever the batch does:
# as a user the box goes under the home directory (a grader's --dir outside
# those), where only the batch's own cleanup keeps the copies away; root's
# program (65534) could not enter root's home, so root's box stays in
# TMPDIR (only a host without a mount namespace, lambda, tests it there)
CBASE = WORK
if os.geteuid() != 0:
    home = pwd.getpwuid(os.geteuid()).pw_dir
    if os.path.isdir(home) and os.access(home, os.W_OK | os.X_OK):
        CBASE = tempfile.mkdtemp(prefix=".sandlock-batch-check.", dir=home)
        atexit.register(shutil.rmtree, CBASE, True)
        os.chmod(CBASE, 0o755)
CBOXES = os.path.join(CBASE, "check-boxes")
os.mkdir(CBOXES)
os.chmod(CBOXES, 0o755)
EVID = os.path.join(CBASE, "evidence")
os.mkdir(EVID)
os.chmod(EVID, 0o1777)
CTOKEN = "sl-check-secret-%d" % os.getpid()
SPY = """import os, sys
mode = sys.stdin.read().strip()
if mode == "spy":
    got = []
    for d in ("../check", os.path.join(os.path.dirname(os.getcwd()), "check")):
        for root, dirs, files in os.walk(d):
            for f in files:
                try:
                    got.append(open(os.path.join(root, f)).read())
                except OSError:
                    pass
        for f in ("expected", "input"):
            try:
                got.append(open(os.path.join(d, f)).read())
            except OSError:
                pass
    try:
        open(%r, "w").write("\\n".join(got))
    except OSError:
        pass   # Landlock: the evidence is the status below
    if any(%r in g for g in got):
        sys.exit(3)
print(1)
""" % (os.path.join(EVID, "spy.txt"), CTOKEN)
write("checker_any.py", "import sys\nsys.exit(0)\n")
exp1 = write("spy1.out", CTOKEN + "-expected\n", 0o600)
in1 = write("spy1.in", CTOKEN + "-input\n", 0o600)
rc, res, out, err = py_batch(SPY, [{"name": "first", "stdin": in1, "expected": exp1},
                                   {"name": "spy", "stdin": write("spy2.in", "spy\n")}],
                             None, {"checker": {"argv": [PY, "checker_any.py"],
                                                "options": ["--profile", "python:run"]}},
                             None, "--dir", CBOXES)
t = tests_of(res)
spy = os.path.join(EVID, "spy.txt")
seen = open(spy).read() if os.path.exists(spy) else None
# the spy exits 3 when it read the token (its evidence file, where it may
# write one, says what)
result(CTOKEN not in (seen or "") and
       [t.get(k, {}).get("verdict") for k in ("first", "spy")] == ["ok", "ok"],
       "checker files: test N+1 cannot read test N's expected output or input",
       "box under %s: it read %r; verdicts %s %s" % (
           CBOXES, (seen or "")[:200], {k: v["verdict"] for k, v in t.items()}, err.strip()[:200]))
# tests/hosts.sh runs this part alone on the hosts without Landlock
ONLY = os.environ.get("SANDLOCK_BATCH_ONLY")
if ONLY:
    if ONLY != "checker-files":
        result(False, "SANDLOCK_BATCH_ONLY=%s" % ONLY, "the only part that runs alone is checker-files")
    sys.exit(result.finish("batch"))

# ---- a C program compiled once, right and wrong answers
SUM_C = r"""
#include <stdio.h>
int main(void) { long a, b; if (scanf("%ld %ld", &a, &b) != 2) return 2;
  printf("%ld\n", a + b + (a == 40 ? 1 : 0)); return 0; }
"""
if GCC:
    write("sum.c", SUM_C)
    rc, res, out, err = batch([
        {"compile": {"argv": ["gcc", "-O2", "-o", "prog", "sum.c"],
                     "options": ["--profile", "c:compile"], "files": {"sum.c": "sum.c"}}},
        {"run": {"argv": ["./prog"], "options": ["--profile", "c:run"]}},
        {"test": io("t1", "1 2\n", "3\n")},
        {"test": io("t2", "10 20\n", "30\n")},
        {"test": io("t3", "40 2\n", "42\n")},   # the program's bug: 43
    ])
    t = tests_of(res)
    result(rc == 1 and [r["step"] for r in res].count("compile") == 1 and
           res[0]["verdict"] == "ok", "c: compiled once, exit 1 with a failing test",
           "rc %d steps %s %s" % (rc, [r.get("step") for r in res], err.strip()))
    result(t.get("t1", {}).get("verdict") == "ok" and t.get("t2", {}).get("verdict") == "ok",
           "c: right answers are ok", str({k: v.get("verdict") for k, v in t.items()}))
    result(t.get("t3", {}).get("verdict") == "wrong_answer" and t["t3"]["status"] == 1,
           "c: a wrong answer is wrong_answer", str(t.get("t3", {}).get("verdict")))
    s = summary(res)
    result(s.get("verdict") == "wrong_answer" and s.get("passed") == 2 and s.get("failed") == 1,
           "c: the summary counts", json.dumps(s)[:200])
    result(all(isinstance(t[k].get("report"), dict) and "cpu_ms" in t[k] and "peak_kb" in t[k]
               for k in t), "c: each test has its numbers and full report")
    write("bad.c", "int main(void) { return undefined_name; }\n")
    rc, res, out, err = batch([
        {"compile": {"argv": ["gcc", "-o", "prog", "bad.c"],
                     "options": ["--profile", "c:compile"], "files": {"bad.c": "bad.c"}}},
        {"run": {"argv": ["./prog"], "options": ["--profile", "c:run"]}},
        {"test": io("t1", "1 2\n", "3\n")},
    ])
    result(rc == 1 and summary(res).get("verdict") == "compile_error" and
           "undefined_name" in res[0].get("log", "") and
           tests_of(res).get("t1", {}).get("verdict") == "skipped",
           "c: a compile error skips the tests and keeps the compiler's message",
           "rc %d %s" % (rc, out[:300]))
else:
    result(None, "c: compiled once", "no gcc")

# ---- Python: right, wrong, TLE, crash, whitespace-tolerant compare
rc, res, out, err = py_batch("print(int(input()) * 2)\n",
                             [io("a", "2\n", "4\n"), io("b", "5\n", "10 \n\n"),
                              dict(io("c", "5\n", "10 \n"), compare="exact")],
                             {"compare": "tokens"})
t = tests_of(res)
result(rc == 1 and t["a"]["verdict"] == "ok" and t["b"]["verdict"] == "ok" and
       t["c"]["verdict"] == "wrong_answer", "python: tokens compare, exact per test",
       "rc %d %s %s" % (rc, {k: v["verdict"] for k, v in t.items()}, err.strip()))
rc, res, out, err = py_batch("print(int(input()) * 2)\n", [io("a", "2\n", "4\n"),
                                                            io("b", "3\n", "6\n")])
result(rc == 0 and summary(res).get("verdict") == "ok" and summary(res).get("passed") == 2,
       "python: all right is exit 0", "rc %d %s" % (rc, err.strip()))
rc, res, out, err = py_batch("import sys\nn = int(input())\nif n == 2:\n    while True: pass\n"
                             "if n == 3:\n    raise SystemExit(3)\nprint(n)\n",
                             [dict(io("spin", "2\n", "2\n"), options=["--cpu", "0.5"]),
                              io("crash", "3\n", "3\n"), io("fine", "4\n", "4\n")])
t = tests_of(res)
result(t["spin"]["verdict"] == "cpu_limit" and 400 <= t["spin"]["cpu_ms"] <= 2500,
       "python: a spinning test is cpu_limit at its own --cpu",
       "%s %s" % (t["spin"]["verdict"], t["spin"].get("cpu_ms")))
result(t["crash"]["verdict"] == "runtime_error" and t["crash"]["status"] == 3 and
       t["fine"]["verdict"] == "ok", "python: a crash is runtime_error, the batch goes on",
       str({k: v["verdict"] for k, v in t.items()}))

# ---- stop_on_failure
rc, res, out, err = py_batch("print(int(input()) * 2)\n",
                             [io("a", "1\n", "3\n"), io("b", "2\n", "4\n")],
                             {"stop_on_failure": True})
t = tests_of(res)
result(t["a"]["verdict"] == "wrong_answer" and t["b"]["verdict"] == "skipped" and
       "report" not in t["b"] and summary(res).get("skipped") == 1,
       "stop_on_failure skips the tests after the first failure",
       str({k: v["verdict"] for k, v in t.items()}))

# ---- budget: the batch's CPU, whatever each test may have
SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\nprint(1)\n"
rc, res, out, err = py_batch(SPIN, [io("s%d" % i, "", "1\n") for i in range(5)],
                             {"budget": {"cpu": 1.0}})
t = tests_of(res)
vs = [t["s%d" % i]["verdict"] for i in range(5)]
s = summary(res)
result(vs[:2] == ["ok", "ok"] and vs[2] == "cpu_limit" and vs[3:] == ["skipped"] * 2 and
       s.get("budget_exceeded") is True and s.get("cpu_ms", 0) <= 1600,
       "budget: the third 0.4 s test runs out of a 1 s budget, the rest skipped",
       "%s cpu %s" % (vs, s.get("cpu_ms")))

# ---- checker, run sandboxed: input, expected, output as arguments
write("checker.py", "import sys\ninp, exp, out = sys.argv[1:4]\n"
      "n = int(open(inp).read())\nv = open(out).read().split()\n"
      "sys.exit(0 if len(v) == 2 and int(v[0]) + int(v[1]) == n else 1)\n")
CHECKER = {"checker": {"argv": [PY, "checker.py"], "options": ["--profile", "python:run"]}}
rc, res, out, err = py_batch("n = int(input())\nprint(n - 1, 1 if n != 7 else 2)\n",
                             [{"name": "a", "stdin": write("c1.in", "5\n")},
                              {"name": "b", "stdin": write("c2.in", "7\n")},
                              {"name": "c", "stdin": write("c3.in", "9\n")}],
                             None, CHECKER)
t = tests_of(res)
result([t[k]["verdict"] for k in "abc"] == ["ok", "wrong_answer", "ok"] and
       t["a"].get("checker", {}).get("verdict") == "ok",
       "checker: accepts several answers, rejects a wrong one",
       "%s %s" % ({k: v["verdict"] for k, v in t.items()}, err.strip()))
write("badchecker.py", "import sys\nsys.exit(7)\n")
rc, res, out, err = py_batch("print(1)\n", [{"name": "a", "stdin": write("c1.in", "5\n")}],
                             None, {"checker": {"argv": [PY, "badchecker.py"],
                                                "options": ["--profile", "python:run"]}})
result(rc == 125 and tests_of(res)["a"]["verdict"] == "checker_failed",
       "checker: a checker that exits 7 is checker_failed, 125", "rc %d" % rc)

# ---- every test starts clean: test 1 leaves files, test 2 looks for them
MARK = "sl-mark-%d" % os.getpid()
LEAVE = """import os, sys
mode = sys.stdin.read().strip()
spots = ["/tmp/%(m)s", "/dev/shm/%(m)s", os.path.join(os.environ.get("TMPDIR", "/nonexistent"), "%(m)s"),
         os.path.join(os.environ.get("HOME", "/nonexistent"), "%(m)s"), "%(m)s"]
if mode == "leave":
    try:
        os.chmod(".", 0o755)   # undo the batch's read-only mode where it can
    except OSError:
        pass
    for s in spots:
        try:
            open(s, "w").write("x")
        except OSError:
            pass
    print(" ".join(str(int(os.path.exists(s))) for s in spots))
else:
    print(" ".join(str(int(os.path.exists(s))) for s in spots))
""" % {"m": MARK}
rc, res, out, err = py_batch(LEAVE, [{"name": "leave", "stdin": write("l.in", "leave\n"),
                                      "expected": write("l.out", "")},
                                     {"name": "look", "stdin": write("k.in", "look\n"),
                                      "expected": write("k.out", "0 0 0 0 0\n")}],
                             {"compare": "tokens"}, None, {"options": ["--profile", "python:run",
                                                                       "--cpu", "2"]})
t = tests_of(res)
try:
    rep = t["look"]["report"]["layers"]
    private_tmp = rep.get("mountns") or rep.get("landlock")
except (KeyError, TypeError):
    private_tmp = None
left = subprocess.run([PY, "-c", "import os; print(os.path.exists('/tmp/%s'))" % MARK],
                      stdout=subprocess.PIPE, text=True).stdout.strip()
for spot in ("/tmp/" + MARK, "/dev/shm/" + MARK):
    try:
        os.unlink(spot)
    except OSError:
        pass
if t.get("look", {}).get("verdict") == "ok":
    result(True, "clean state: test 2 sees none of test 1's files (/tmp, /dev/shm, TMPDIR, "
           "HOME, workdir)")
elif not private_tmp:
    result(None, "clean state: test 2 sees none of test 1's files",
           "no mount namespace and no Landlock here: /tmp is the host's (%s)" % left)
else:
    result(False, "clean state: test 2 sees none of test 1's files",
           "%s %s" % (t.get("leave", {}).get("why"), out[:400]))
# the workdir alone, which no host's layer protects: restored from memory
WD = """import os, sys
mode = sys.stdin.read().strip()
if mode == "leave":
    try:
        os.chmod(".", 0o755)
        open("planted", "w").write("x")
        os.chmod("sol.py", 0o644)
        open("sol.py", "a").write("# PLANTED" + "MARK\\n")
    except OSError:
        pass
print(int(os.path.exists("planted")), open("sol.py").read().count("PLANTED" + "MARK"))
"""
rc, res, out, err = py_batch(WD, [{"name": "leave", "stdin": write("l.in", "leave\n"),
                                   "expected": write("l.out", "")},
                                  {"name": "look", "stdin": write("k.in", "look\n"),
                                   "expected": write("k.out", "0 0\n")}],
                             {"compare": "tokens"})
t = tests_of(res)
result(t.get("look", {}).get("verdict") == "ok",
       "clean state: the program and its directory are as compiled for test 2",
       "%s restores %s" % ({k: v["verdict"] for k, v in t.items()}, summary(res).get("restores")))

# ---- a test that leaves a tree 100 levels deep (9 MB at the bottom) and
# directories it made unreadable and unwritable (0000): removed, whatever
# its depth and modes, charged to nobody (both answers are right), and
# nothing of it left on the host once the batch is over
DEEP = """import os, sys
a, b = map(int, sys.stdin.read().split())
top = os.getcwd()
if not os.path.exists("deep"):
    os.mkdir("deep"); os.chdir("deep")
    for i in range(100):
        os.mkdir("d" * 20); os.chdir("d" * 20)
    open("big", "wb").write(b"x" * (9 << 20))
    for i in range(100):
        os.chdir("..")
        if i % 7 == 0:
            os.chmod("d" * 20, 0)
    os.chdir(top)
    os.mkdir("locked"); open("locked/f", "w").write("x"); os.chmod("locked", 0)
open("answer.txt", "w").write("%d\\n" % (a + b))
"""
DEEPBOX = os.path.join(WORK, "deepboxes")
os.mkdir(DEEPBOX)
os.chmod(DEEPBOX, 0o755)
write("sol.py", DEEP)
rc, res, out, err = batch([
    {"settings": {"compare": "tokens"}},
    {"run": {"argv": [PY, "sol.py"], "files": {"sol.py": "sol.py"}, "output": "answer.txt",
             "options": ["--profile", "python:run", "--fsize", "16", "--cpu", "5",
                         "--timeout", "20"]}},
    {"test": io("deep1", "1 2\n", "3\n")},
    {"test": io("deep2", "40 2\n", "42\n")}], "--dir", DEEPBOX)
t = tests_of(res)
left = []
for root, dirs, files in os.walk(DEEPBOX):
    left += dirs + files
result(rc == 0 and [t.get(n, {}).get("verdict") for n in ("deep1", "deep2")] == ["ok", "ok"],
       "a tree 100 levels deep with 0000 directories: both tests ok, the batch 0",
       "rc %d %s %s" % (rc, {k: (v.get("verdict"), v.get("why")) for k, v in t.items()},
                        err.strip()[:300]))
result(not left, "a tree 100 levels deep with 0000 directories: nothing left on the host",
       "%d entries left under the box directory, e.g. %s" % (len(left), left[:3]))
for root, dirs, files in os.walk(DEEPBOX):   # what an old judge left, made removable
    for d in dirs:
        os.chmod(os.path.join(root, d), 0o700)
shutil.rmtree(DEEPBOX, ignore_errors=True)

# ---- an output file: read without following links out of the directory
SECRET = write("secret.txt", TOKEN + "\n", 0o600)
rc, res, out, err = py_batch("open('answer.txt', 'w').write(%r + '\\n')\n" % TOKEN,
                             [{"name": "honest", "stdin": write("h.in", "\n"),
                               "expected": SECRET}],
                             {"compare": "exact"}, None, {"output": "answer.txt"})
t = tests_of(res)
result(t.get("honest", {}).get("verdict") == "ok",
       "output file: a regular answer.txt is read and compared (control)",
       "%s %s" % (t.get("honest", {}).get("verdict"), t.get("honest", {}).get("why")))


def secret_unread(out):
    """The token is only in the manifest's paths, never in a result."""
    return TOKEN not in out


# the program's own symlink: stopped by the filter, or made and not followed
rc, res, out, err = py_batch("import os\nos.symlink(%r, 'answer.txt')\n" % SECRET,
                             [{"name": "link", "stdin": write("s.in", "\n"), "expected": SECRET}],
                             {"compare": "exact"}, None, {"output": "answer.txt"})
t = tests_of(res).get("link", {})
result((t.get("verdict") == "syscall_blocked" or
        (t.get("verdict") == "wrong_answer" and "symbolic link" in t.get("why", ""))) and
       secret_unread(out), "output file: the program's symlink to a secret is refused",
       "%s %s" % (t.get("verdict"), t.get("why")))
# a symlink planted in the working directory while the program runs (where
# the filter stops the program's own): the judge's reading alone must hold;
# planted once the program runs (before, the batch's restore would remove it)
BOXES = os.path.join(WORK, "boxes")
os.mkdir(BOXES)
os.chmod(BOXES, 0o755)
WAIT = ("import os, time\nopen('ready', 'w').close()\nend = time.time() + 8\n"
        "while not os.path.lexists('answer.txt') and time.time() < end:\n"
        "    time.sleep(0.02)\n")
write("sol.py", WAIT)
path = write("m.jsonl", "".join(json.dumps(x) + "\n" for x in [
    {"settings": {"compare": "exact"}},
    {"run": {"argv": [PY, "sol.py"], "files": {"sol.py": "sol.py"}, "output": "answer.txt",
             "options": ["--profile", "python:run", "--timeout", "10"]}},
    {"test": {"name": "planted", "stdin": write("s.in", "\n"), "expected": SECRET}}]))
proc = subprocess.Popen([SANDLOCK, "batch"] + EXTRA + ["--dir", BOXES, path],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
planted = False
deadline = time.time() + 8
while not planted and time.time() < deadline and proc.poll() is None:
    for box in os.listdir(BOXES):
        work = os.path.join(BOXES, box, "work")
        if os.path.exists(os.path.join(work, "ready")):   # the program runs
            try:
                os.symlink(SECRET, os.path.join(work, "answer.txt"))
                planted = True
            except OSError:
                pass
    time.sleep(0.01)
out, err = proc.communicate(timeout=30)
res = [json.loads(x) for x in out.splitlines() if x.strip()]
t = tests_of(res).get("planted", {})
if not planted:
    result(False, "output file: a planted symlink to a secret is not followed",
           "could not plant it (%s)" % err.strip())
else:
    result(t.get("verdict") == "wrong_answer" and "symbolic link" in t.get("why", "") and
           secret_unread(out), "output file: a planted symlink to a secret is not followed",
           "%s %s" % (t.get("verdict"), t.get("why")))
# a FIFO as the output file: a judge that opened it blocking would hang
rc, res, out, err = py_batch("import os\nos.mkfifo('answer.txt')\n",
                             [{"name": "fifo", "stdin": write("s.in", "\n"), "expected": SECRET}],
                             {"compare": "exact"}, None, {"output": "answer.txt"})
t = tests_of(res).get("fifo", {})
result(t.get("verdict") in ("wrong_answer", "syscall_blocked") and rc == 1,
       "output file: a FIFO is refused, not waited on", "%s %s" % (t.get("verdict"), t.get("why")))

# ---- size caps: the output read back, the files copied in
rc, res, out, err = py_batch("print('x' * 5000)\n", [io("big", "", "x\n")], {"max_copy": 1000})
result(tests_of(res).get("big", {}).get("verdict") == "output_limit",
       "size cap: 5000 bytes of output past max_copy 1000 is output_limit",
       str(tests_of(res).get("big", {}).get("verdict")))
write("big.txt", "y" * 5000)
run = {"run": {"argv": [PY, "sol.py"], "options": ["--profile", "python:run"],
               "files": {"sol.py": "sol.py", "big.txt": "big.txt"}}}
rc, res, out, err = batch([{"settings": {"max_copy": 1000}}, run, {"test": io("a", "", "x\n")}])
result(rc == 125 and "big.txt" in err and "max_copy" in err and summary(res).get("verdict") ==
       "setup_failed", "size cap: a file past max_copy is not copied in (125)",
       "rc %d %s" % (rc, err.strip()))

# ---- manifest errors: one line on stderr, 125, nothing run
BAD = {
    "invalid JSON": '{"run": {"argv": ["true"]}\n',
    "unknown line kind": '{"runn": {"argv": ["true"]}}\n',
    "unknown field": '{"run": {"argv": ["true"], "agrv": 1}}\n{"test": {"expected": "x"}}\n',
    "no run": '{"test": {"expected": "x"}}\n',
    "no test": '{"run": {"argv": ["true"]}}\n',
    "no expected nor checker": '{"run": {"argv": ["true"]}}\n{"test": {"name": "a"}}\n',
    "bad option value": '{"run": {"argv": ["true"], "options": ["--cpu", "abc"]}}\n'
                        '{"test": {"expected": "x"}}\n',
    "batch-owned option": '{"run": {"argv": ["true"], "options": ["--workdir", "/"]}}\n'
                          '{"test": {"expected": "x"}}\n',
    "file name with a slash": '{"run": {"argv": ["true"], "files": {"../x": "x"}}}\n'
                              '{"test": {"expected": "x"}}\n',
    "duplicate test name": '{"run": {"argv": ["true"]}}\n{"test": {"name": "a", "expected": '
                           '"x"}}\n{"test": {"name": "a", "expected": "x"}}\n',
    "two objects": '{"run": {"argv": ["true"]}} {}\n',
}
# where the message must point: the line and field, or for JSON itself the
# line and column (the parser's, jansson's)
WHERE = {
    "invalid JSON": "manifest line 1, column 26: ",
    "unknown field": "manifest line 1: unknown field run.agrv",
    "duplicate test name": "manifest line 3: test name 'a' is given twice",
    "two objects": "manifest line 1, column 29: ",
}
for what, text in BAD.items():
    path = write("bad.jsonl", text)
    p = subprocess.run([SANDLOCK, "batch"] + EXTRA + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=30)
    lines = p.stderr.splitlines()
    result(p.returncode == 125 and len(lines) == 1 and p.stdout == "" and
           WHERE.get(what, "") in p.stderr,
           "manifest error: %s: 125, one line%s" % (what, ", " + WHERE[what].rstrip(": ")
                                                    if what in WHERE else ""),
           "rc %d stderr %r stdout %r" % (p.returncode, p.stderr, p.stdout[:100]))
p = subprocess.run([SANDLOCK, "batch", os.path.join(WORK, "missing.jsonl")],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
result(p.returncode == 125 and len(p.stderr.splitlines()) == 1,
       "manifest error: a missing manifest: 125, one line", p.stderr)
p = subprocess.run([SANDLOCK, "batch", "--bogus", write("ok.jsonl", "")],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
result(p.returncode == 125 and len(p.stderr.splitlines()) == 1,
       "option error: an unknown option: 125, one line", p.stderr)

# a profile's run step brings its wall clock: a submission that sleeps is
# stopped (wall_limit), where without one the batch waited forever
write("sleeper.py", "import time\ntime.sleep(1000)\n")
path = write("sleep.jsonl", "".join(json.dumps(x) + "\n" for x in [
    {"run": {"argv": [PY, "sleeper.py"], "files": {"sleeper.py": "sleeper.py"},
             "options": ["--profile", "python:run"]}},
    {"test": io("slept", "\n", "x\n")}]))
t0 = time.monotonic()
try:
    p = subprocess.run([SANDLOCK, "batch"] + EXTRA + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    res = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
    t = tests_of(res).get("slept", {})
    result(t.get("verdict") == "wall_limit" and time.monotonic() - t0 < 30,
           "batch with --profile python:run stops a sleeping submission: wall_limit "
           f"after {time.monotonic() - t0:.1f} s", f"{t} {p.stderr[-300:]!r}")
except subprocess.TimeoutExpired:
    result(False, "batch with --profile python:run stops a sleeping submission",
           "still running after 60 s")

sys.exit(result.finish("batch"))
