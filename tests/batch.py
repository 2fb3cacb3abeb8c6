#!/usr/bin/python3
"""`sandlock batch`: compile once, run many tests (docs/batch.md).

    SANDLOCK=path tests/batch.py        (SANDLOCK_EXTRA_FLAGS: --best-effort)

Judged by evidence: the bytes a program printed, the files a test left (the
next test looks for them), the batch's exit status and its stderr line
count, and a secret's token that must not appear anywhere in the results.
Last line: "batch: P passed, F failed, S skipped".
"""
import atexit
import json
import os
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
for what, text in BAD.items():
    path = write("bad.jsonl", text)
    p = subprocess.run([SANDLOCK, "batch"] + EXTRA + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=30)
    lines = p.stderr.splitlines()
    result(p.returncode == 125 and len(lines) == 1 and p.stdout == "",
           "manifest error: %s: 125, one line" % what,
           "rc %d stderr %r stdout %r" % (p.returncode, p.stderr, p.stdout[:100]))
p = subprocess.run([SANDLOCK, "batch", os.path.join(WORK, "missing.jsonl")],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
result(p.returncode == 125 and len(p.stderr.splitlines()) == 1,
       "manifest error: a missing manifest: 125, one line", p.stderr)
p = subprocess.run([SANDLOCK, "batch", "--bogus", write("ok.jsonl", "")],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
result(p.returncode == 125 and len(p.stderr.splitlines()) == 1,
       "option error: an unknown option: 125, one line", p.stderr)

sys.exit(result.finish("batch"))
