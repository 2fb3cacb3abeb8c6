#!/usr/bin/python3
"""Interactive problems (`sandlock interactive`): an interactor and a
submission, each in its own sandbox, each one's stdout fed to the other's
stdin, one verdict.

    SANDLOCK=path tests/interactive.py     (SANDLOCK_EXTRA_FLAGS: options
                                            given to both sides, e.g.
                                            --best-effort)

The problem is "guess" (examples/judge/problems/guess): the interactor tells
N, answers each "? x" with <, > or =, and exits 0 when the number is found
within 20 questions, 1 otherwise.  Verdicts are judged by evidence: the
exit status, the report, the transcript's bytes (against the exchange
computed here), the time taken, what an attacking submission managed (its
own stderr, the interactor's fate), and processes left behind.  The attacks
on the other side (reading the interactor's files, its environment through
/proc, signalling it) are first run bare, the same programs joined by two
pipes without the sandbox, where they must work.  Last line:
"interactive: P passed, F failed, S skipped".
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import Results, wait_for  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
EXTRA = os.environ.get("SANDLOCK_EXTRA_FLAGS", "").split()
PY = shutil.which("python3", path="/usr/bin:/bin:/usr/local/bin") or "python3"
result = Results(HOST)
WORK = tempfile.mkdtemp(prefix="sandlock-interactive.")
os.chmod(WORK, 0o755)
PROB = os.path.join(WORK, "prob")   # the interactor's files
SUB = os.path.join(WORK, "sub")     # the submissions'
OUT = os.path.join(WORK, "out")     # where the harness leaves notes: open to all
for d in (PROB, SUB):
    os.mkdir(d)
    os.chmod(d, 0o755)
os.mkdir(OUT)
os.chmod(OUT, 0o1777)
TOKEN = "sl-token-%d" % os.getpid()
SECRET_NUMBER = 777777
N = 1000000

FILES = {
    # accepts after one line, whatever it is
    "prob/accept1.py": r'''
import sys
sys.stdin.readline()
print("=", flush=True)
''',
    "prob/abort.py": r'''
import os
print(1000000, flush=True)
os.abort()
''',
    "prob/spin.py": r'''
print(1000000, flush=True)
while True:
    pass
''',
    # 1 s of CPU first (over a --cpu 0.5 given to both), then the game
    "prob/slowinter.py": r'''
import runpy, sys, time
t = time.process_time()
while time.process_time() - t < 1.0:
    pass
sys.argv = sys.argv[:1] + sys.argv[1:]
runpy.run_path(sys.argv[0].replace("slowinter.py", "inter.py"), run_name="__main__")
''',
    "sub/linear.py": r'''
n = int(input())
for x in range(1, n + 1):
    print("?", x, flush=True)
    if input().strip() != ">":
        break
''',
    "sub/idle.py": r'''
import sys
n = int(input())
sys.stdin.readline()
''',
    "sub/crash.py": r'''
import os, signal
n = int(input())
print("? 1", flush=True)
input()
os.kill(os.getpid(), signal.SIGSEGV)
''',
    "sub/exit.py": r'''
import sys
n = int(input())
sys.exit(int(sys.argv[1]))
''',
    "sub/spin.py": r'''
n = int(input())
while True:
    pass
''',
    "sub/sleep.py": r'''
import time
time.sleep(37.25)
''',
    # writes on after the interactor accepted: EPIPE, a non-zero exit
    "sub/floodpy.py": r'''
import time
while True:
    print("? 1", flush=True)
    time.sleep(0.002)
''',
    # asks, then exits 1 later without writing again
    "sub/late1.py": r'''
import sys, time
print("? 1", flush=True)
time.sleep(0.5)
sys.exit(1)
''',
    # the interactor's file: read it and answer at once, else play
    "sub/leakfile.py": r'''
import sys
path = sys.argv[1]
try:
    secret = open(path).read().split()[0]
    print("LEAK:" + secret, file=sys.stderr, flush=True)
except OSError as e:
    print("DENIED:%s" % e.__class__.__name__, file=sys.stderr, flush=True)
n = int(input())
lo, hi = 1, n
while lo <= hi:
    m = (lo + hi) // 2
    print("?", m, flush=True)
    r = input().strip()
    if r in ("=", "-1"):
        break
    if r == "<":
        hi = m - 1
    else:
        lo = m + 1
''',
    # the interactor's process: its pid (the host's, left by the harness),
    # its environment, its working directory, a signal
    "sub/attack.py": r'''
import os, signal, sys, time
pidfile, token = sys.argv[1], sys.argv[2]
n = int(input())
pid = None
for _ in range(200):
    try:
        pid = int(open(pidfile).read())
        break
    except (OSError, ValueError):
        time.sleep(0.01)
got = []
if pid:
    for what in ("environ", "cmdline"):
        try:
            data = open("/proc/%d/%s" % (pid, what), "rb").read()
            if token.encode() in data:
                got.append("ENVLEAK" if what == "environ" else "SEEN")
        except OSError:
            pass
    try:
        os.listdir("/proc/%d/cwd" % pid)
        got.append("CWD")
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGKILL)
        got.append("KILLED")
    except OSError as e:
        got.append("kill:%s" % e.__class__.__name__)
print("ATTACK:%s:%s" % (pid, ",".join(got)), file=sys.stderr, flush=True)
time.sleep(0.3)
lo, hi = 1, n
while lo <= hi:
    m = (lo + hi) // 2
    print("?", m, flush=True)
    r = input().strip()
    if r in ("=", "-1"):
        break
    if r == "<":
        hi = m - 1
    else:
        lo = m + 1
''',
}
C_FILES = {
    # a sloppy interactor: answers every line, crashes at the end of its input
    "prob/eofsegv.c": r'''
#include <signal.h>
#include <stdio.h>
int main(void)
{
	char line[256];
	printf("1000000\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		printf(">\n");
		fflush(stdout);
	}
	raise(SIGSEGV);
	return 0;
}
''',
    "sub/flood.c": r'''
#include <unistd.h>
int main(void)
{
	for (;;) {
		if (write(1, "? 1\n", 4) < 0)
			return 1;
		usleep(1000);
	}
}
''',
}
# the example judge's interactive problem (examples/judge/problems/guess):
# its interactor and right answers, as a judge would run them
GUESS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                     "examples", "judge", "problems", "guess")
for name, rel in (("prob/inter.py", "interactor.py"), ("sub/ok.py", "submissions/ok.py")):
    with open(os.path.join(GUESS, rel)) as f:
        FILES[name] = f.read()
with open(os.path.join(GUESS, "submissions", "ok.c")) as f:
    C_FILES["sub/ok.c"] = f.read()
for name, text in FILES.items():
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text.lstrip())
    os.chmod(path, 0o644)
SECRET = os.path.join(PROB, "secret.in")
with open(SECRET, "w") as f:
    f.write("%d %s\n" % (SECRET_NUMBER, TOKEN))
os.chmod(SECRET, 0o644)
CC = shutil.which("cc") or shutil.which("gcc")
C_OK = bool(CC)
for name, text in C_FILES.items():
    src = os.path.join(WORK, name)
    with open(src, "w") as f:
        f.write(text.lstrip())
    exe = src[:-2]
    if not CC or subprocess.run([CC, "-O1", src, "-o", exe]).returncode != 0:
        C_OK = False
    else:
        os.chmod(exe, 0o755)


def p(name):
    return os.path.join(WORK, name)


INTER = [PY, p("prob/inter.py"), SECRET]


def expected_transcript(secret=SECRET_NUMBER):
    """The exchange of a binary search, as the transcript must show it."""
    lines = ["< %d\n" % N]
    lo, hi = 1, N
    while True:
        m = (lo + hi) // 2
        lines.append("> ? %d\n" % m)
        if m == secret:
            lines.append("< =\n")
            return "".join(lines).encode()
        if secret < m:
            lines.append("< <\n")
            hi = m - 1
        else:
            lines.append("< >\n")
            lo = m + 1


def run(sub, inter=None, both=(), iopts=(), sopts=(), timeout=30, transcript=False,
        report=True):
    """sandlock interactive; (process, report or {}, transcript bytes, seconds)"""
    rpath, tpath = p("out/r.json"), p("out/t.txt")
    for f in (rpath, tpath):
        if os.path.exists(f):
            os.unlink(f)
    cmd = [SANDLOCK, "interactive", *EXTRA, *both]
    if report:
        cmd += ["--report", rpath]
    if transcript:
        cmd += ["--transcript", tpath]
    cmd += ["--interactor", *iopts, "--", *(inter or INTER),
            "--submission", *sopts, "--", *sub]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        # a pair that outlives its deadline is that check's failure, not
        # the suite's end (subprocess.run has killed it)
        proc = subprocess.CompletedProcess(cmd, -1, e.stdout or b"",
                                           (e.stderr or b"") + b"timed out after %d s" % timeout)
    took = time.monotonic() - t0
    try:
        rep = json.load(open(rpath))
    except (OSError, ValueError):
        rep = {}
    try:
        tr = open(tpath, "rb").read()
    except OSError:
        tr = None
    return proc, rep, tr, took


def why(proc, rep):
    s = rep.get("submission", {})
    i = rep.get("interactor", {})
    return ("status %d, verdict %s; interactor %s/%s, submission %s/%s; stderr %r" %
            (proc.returncode, rep.get("verdict"), i.get("verdict"), i.get("exit_code"),
             s.get("verdict"), s.get("signal") or s.get("exit_code"), proc.stderr[-300:]))


def check_verdict(name, proc, rep, verdict, status, extra=True, extra_why=""):
    ok = proc.returncode == status and rep.get("verdict") == verdict and \
        rep.get("status") == status and extra
    result(ok, name, why(proc, rep) + (("; " + extra_why) if extra_why else ""))


def leftover(marker):
    """pids of processes whose command line holds marker"""
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if marker.encode() in open("/proc/%s/cmdline" % d, "rb").read():
                    found.append(int(d))
            except OSError:
                pass
    return found


def side(rep, s):
    return rep.get(s, {})


# ---- the verdicts ----

proc, rep, tr, took = run([PY, p("sub/ok.py")], transcript=True)
exp = expected_transcript()
check_verdict("ok_python", proc, rep, "ok", 0,
              tr == exp and side(rep, "interactor").get("exit_code") == 0,
              "transcript %r" % (tr or b"")[-80:])
result(tr == exp and rep.get("transcript_bytes") == len(exp) and
       rep.get("transcript_truncated") is False, "transcript_exact",
       "got %r (%s bytes reported), expected %r" % ((tr or b"")[:120], rep.get("transcript_bytes"),
                                                    exp[:120]))
keys = {"verdict", "status", "idle", "transcript_bytes", "transcript_truncated", "interactor",
        "submission"}
side_keys = {"verdict", "status", "exit_code", "signal", "cpu_ms", "wall_ms", "peak_kb", "limits",
             "layers", "uid", "error"}
result(set(rep) == keys and all(side_keys <= set(side(rep, s)) for s in ("interactor", "submission"))
       and rep.get("idle") is False, "report_shape",
       "keys %s; sides %s / %s" % (sorted(rep), sorted(side(rep, "interactor")),
                                   sorted(side(rep, "submission"))))

if C_OK:
    proc, rep, tr, took = run([p("sub/ok")])
    check_verdict("ok_c", proc, rep, "ok", 0)
else:
    result(None, "ok_c", "no C compiler")

proc, rep, tr, took = run([PY, p("sub/linear.py")], transcript=True)
check_verdict("wrong_answer", proc, rep, "wrong_answer", 1,
              side(rep, "interactor").get("exit_code") == 1 and tr is not None and
              tr.count(b"> ? ") in (20, 21) and b"< -1\n" in tr,
              "transcript has %d questions" % (tr or b"").count(b"> ? "))

# upper bounds of wall time are the pair's budget: the verdict says which
# end came first, the machine's load only how long the sides took to start
proc, rep, tr, took = run([PY, p("sub/idle.py")], both=["--idle", "1", "--timeout", "20"])
check_verdict("idle", proc, rep, "idle", 124, rep.get("idle") is True and 0.9 < took < 20,
              "took %.1f s" % took)

# idle is never called on a program that computes: 2 s of CPU between
# answers, under --idle 1, is not idle
THINK = p("sub/think.py")
with open(THINK, "w") as f:
    f.write("import time\nn = int(input())\nt = time.process_time()\n"
            "while time.process_time() - t < 2:\n    pass\n"
            "exec(open(%r).read().split('n = int(input())', 1)[1])\n" % p("sub/ok.py"))
os.chmod(THINK, 0o644)
# (it reads ok.py, which its command line does not name: --ro names it
# for the default allow-list)
proc, rep, tr, took = run([PY, THINK], both=["--idle", "1", "--timeout", "20"],
                          sopts=["--cpu", "10", "--ro", p("sub/ok.py")])
check_verdict("busy_is_not_idle", proc, rep, "ok", 0, took >= 2, "took %.1f s" % took)

proc, rep, tr, took = run([PY, p("sub/crash.py")])
check_verdict("crash", proc, rep, "runtime_error", 139, side(rep, "submission").get("signal") == 11)

proc, rep, tr, took = run([PY, p("sub/exit.py"), "3"])
check_verdict("exit_nonzero", proc, rep, "runtime_error", 3,
              side(rep, "submission").get("exit_code") == 3)
proc, rep, tr, took = run([PY, p("sub/exit.py"), "1"])
check_verdict("exit_1_is_not_wrong_answer", proc, rep, "runtime_error", 2,
              side(rep, "submission").get("exit_code") == 1)

proc, rep, tr, took = run([PY, p("sub/spin.py")], both=["--timeout", "20"], sopts=["--cpu", "0.5"])
# the interactor is stopped by us, or rejects the end of its input first
check_verdict("cpu_limit", proc, rep, "cpu_limit", 152,
              side(rep, "interactor").get("verdict") in ("signaled", "runtime_error") and took < 20,
              "took %.1f s" % took)

# one wall budget for the pair; both killed, nothing left behind
proc, rep, tr, took = run([PY, p("sub/sleep.py")], both=["--timeout", "1", "--idle", "0"])
left = leftover(p("sub/sleep.py"))
check_verdict("wall_budget", proc, rep, "wall_limit", 124,
              0.9 < took < 20 and not left and side(rep, "submission").get("verdict") == "signaled",
              "took %.1f s, left %s" % (took, left))

proc, rep, tr, took = run([PY, p("sub/ok.py")], inter=[PY, p("prob/abort.py")])
check_verdict("interactor_crash", proc, rep, "interactor_failed", 125,
              side(rep, "interactor").get("signal") == 6)

# The submission crashed first; the interactor crashes at the end of its
# input that follows (before or after our cancel reaches it, whichever the
# machine's load lets win): the submission's runtime_error, never
# interactor_failed.  A race: 10 runs (seen 1 in 20 wrong before the fix,
# more under load).  The same interactor, while the submission behaves
# (exits 0 at once), is the judge's fault.
if C_OK:
    bad = []
    for k in range(10):
        proc, rep, tr, took = run([PY, p("sub/crash.py")], inter=[p("prob/eofsegv")])
        if not (proc.returncode == 139 and rep.get("verdict") == "runtime_error" and
                side(rep, "submission").get("signal") == 11):
            bad.append(why(proc, rep))
    result(not bad, "crash_then_interactor_crash", "%d of 10: %s" % (len(bad), bad[:1]))
    proc, rep, tr, took = run([PY, p("sub/exit.py"), "0"], inter=[p("prob/eofsegv")])
    check_verdict("interactor_crash_at_eof", proc, rep, "interactor_failed", 125,
                  side(rep, "interactor").get("signal") == 11 and
                  side(rep, "submission").get("verdict") == "ok")
else:
    result(None, "crash_then_interactor_crash", "no C compiler")
    result(None, "interactor_crash_at_eof", "no C compiler")

proc, rep, tr, took = run([PY, p("sub/ok.py")], inter=[PY, p("prob/spin.py")],
                          both=["--timeout", "20"], iopts=["--cpu", "0.5"])
check_verdict("interactor_limit", proc, rep, "interactor_failed", 125,
              side(rep, "interactor").get("verdict") == "cpu_limit" and took < 20,
              "took %.1f s" % took)

# a side's own options change what both were given: --cpu 0.5 for both,
# 5 for the interactor, which uses 1 s
# (slowinter.py runs inter.py beside it, which its command line does not
# name: --ro names it for the default allow-list)
proc, rep, tr, took = run([PY, p("sub/ok.py")], inter=[PY, p("prob/slowinter.py"), SECRET],
                          both=["--cpu", "0.5", "--timeout", "60"],
                          iopts=["--cpu", "5", "--ro", p("prob/inter.py")], timeout=90)
check_verdict("side_options", proc, rep, "ok", 0,
              side(rep, "interactor").get("cpu_ms", 0) >= 900 and
              side(rep, "interactor").get("limits", {}).get("cpu_s") == 5 and
              side(rep, "submission").get("limits", {}).get("cpu_s") == 0.5,
              "interactor cpu %s ms, limits %s / %s" %
              (side(rep, "interactor").get("cpu_ms"), side(rep, "interactor").get("limits"),
               side(rep, "submission").get("limits")))

# writing on after the interactor accepted and exited: SIGPIPE, or an
# EPIPE exit, is not a runtime error
if C_OK:
    proc, rep, tr, took = run([p("sub/flood")], inter=[PY, p("prob/accept1.py")])
    check_verdict("sigpipe_after_accept", proc, rep, "ok", 0,
                  side(rep, "submission").get("signal") == 13)
else:
    result(None, "sigpipe_after_accept", "no C compiler")
proc, rep, tr, took = run([PY, p("sub/floodpy.py")], inter=[PY, p("prob/accept1.py")])
check_verdict("epipe_exit_after_accept", proc, rep, "ok", 0,
              side(rep, "submission").get("exit_code") not in (0, None))
# ... but a non-zero exit of its own after the interactor accepted is
proc, rep, tr, took = run([PY, p("sub/late1.py")], inter=[PY, p("prob/accept1.py")])
check_verdict("exit_after_accept", proc, rep, "runtime_error", 2,
              side(rep, "submission").get("exit_code") == 1)

# ---- the transcript's cap ----

proc, rep, tr, took = run([PY, p("sub/ok.py")], both=["--transcript-cap", "40"], transcript=True)
result(proc.returncode == 0 and tr == exp[:40] and rep.get("transcript_bytes") == 40 and
       rep.get("transcript_truncated") is True, "transcript_cap",
       "status %d, %r, reported %s / %s" % (proc.returncode, tr, rep.get("transcript_bytes"),
                                            rep.get("transcript_truncated")))

# ---- each side its own sandbox ----


def bare_pair(inter, sub, env_i=None, pidfile=None):
    """The same two programs joined by two pipes, no sandbox: (interactor
    status, submission stderr)"""
    a_r, a_w = os.pipe()
    b_r, b_w = os.pipe()
    ip = subprocess.Popen(inter, stdin=a_r, stdout=b_w, env=env_i)
    if pidfile:
        with open(pidfile, "w") as f:
            f.write(str(ip.pid))
    sp = subprocess.Popen(sub, stdin=b_r, stdout=a_w, stderr=subprocess.PIPE)
    for fd in (a_r, a_w, b_r, b_w):
        os.close(fd)
    err = sp.communicate(timeout=30)[1]
    return ip.wait(timeout=30), err


# the interactor's file: readable to the interactor (Landlock, its working
# directory), not to the submission (its own); bare, the submission reads it
leak = [PY, p("sub/leakfile.py"), SECRET]
_, err = bare_pair(INTER, leak)
bare_ok = ("LEAK:%d" % SECRET_NUMBER).encode() in err
proc, rep, tr, took = run(leak, iopts=["--landlock", "--workdir", PROB],
                          sopts=["--landlock", "--workdir", SUB])
ll = side(rep, "submission").get("layers", {}).get("landlock")
if not bare_ok:
    result(False, "file_of_interactor", "bare, the submission could not read it: %r" % err)
elif not ll:
    result(None, "file_of_interactor", "no Landlock on this host (%s)" %
           side(rep, "submission").get("missing"))
else:
    check_verdict("file_of_interactor", proc, rep, "ok", 0,
                  b"LEAK:" not in proc.stderr and b"DENIED:" in proc.stderr)


# the interactor's process: its host pid given to the submission by the
# harness; /proc/PID/environ (a token in the interactor's environment),
# /proc/PID/cwd, kill(PID, SIGKILL)
def find_pid_later(marker, pidfile, stop):
    while not stop.is_set():
        for pid in leftover(marker):
            try:
                if os.readlink("/proc/%d/exe" % pid).startswith(os.path.realpath(SANDLOCK)):
                    continue
            except OSError:
                pass
            # in place: the file the run was handed (its command line
            # names it, so the default allow-list lets it read that one)
            with open(pidfile, "w") as f:
                f.write(str(pid))
            return
        time.sleep(0.01)


MARK = "marker-%d" % os.getpid()
pidfile = p("out/pid")
env = dict(os.environ, SL_TOKEN=TOKEN)
bst, err = bare_pair(INTER + [MARK], [PY, p("sub/attack.py"), pidfile, TOKEN], env_i=env,
                     pidfile=pidfile)
bare_ok = bst == -9 and b"KILLED" in err and b"ENVLEAK" in err
os.unlink(pidfile)


def attack_run(name, both=()):
    """the attack against the sandboxed pair"""
    with open(pidfile, "w"):
        pass
    os.chmod(pidfile, 0o644)
    stop = threading.Event()
    th = threading.Thread(target=find_pid_later, args=(MARK, pidfile, stop))
    th.start()
    proc, rep, tr, took = run([PY, p("sub/attack.py"), pidfile, TOKEN], inter=INTER + [MARK],
                              both=both, iopts=["--env", "SL_TOKEN=" + TOKEN])
    stop.set()
    th.join()
    att = [ln for ln in proc.stderr.decode(errors="replace").splitlines()
           if ln.startswith("ATTACK:")]
    lay = side(rep, "submission").get("layers", {})
    uids = (side(rep, "interactor").get("uid"), side(rep, "submission").get("uid"))
    if not bare_ok:
        result(False, name, "bare, the attack did not work: status %s, %r" % (bst, err))
    elif not (lay.get("pidns") or lay.get("landlock_scope")) and uids[0] == uids[1]:
        # one uid, and no layer between two runs of it: see docs/interactive.md
        result(None, name, "nothing separates two runs of uid %s here (no pid namespace, no "
               "Landlock scope; as root: --uid-pool); the attack said %s" % (uids[0], att))
    else:
        check_verdict(name, proc, rep, "ok", 0,
                      len(att) == 1 and att[0].split(":")[1] != "None" and
                      not any(w in att[0] for w in ("KILLED", "ENVLEAK", "CWD")) and
                      side(rep, "interactor").get("signal") == 0,
                      "attack said %s, uids %s" % (att, uids))


attack_run("process_of_interactor")
if os.geteuid() == 0:
    # as root, each side a uid of its own: separated on any host
    attack_run("process_of_interactor_uid_pool", both=["--uid-pool", "61000-61099"])

# ---- the command line ----

BAD = [
    [],
    ["--interactor", "--", PY],
    ["--interactor", "--", PY, "--submission"],
    ["--cpu", "abc", "--interactor", "--", PY, "--submission", "--", PY],
    ["--interactor", "--mem", "x", "--", PY, "--submission", "--", PY],
    ["--bogus", "--interactor", "--", PY, "--submission", "--", PY],
    ["--idle", "-1", "--interactor", "--", PY, "--submission", "--", PY],
    ["--transcript-cap", "huge", "--interactor", "--", PY, "--submission", "--", PY],
    ["--interactor", "--", PY, "--submission", "--stdin", SECRET, "--", PY],
    ["--interactor", "--report", p("out/x"), "--", PY, "--submission", "--", PY],
    ["--report-fd", "999", "--interactor", "--", PY, "--submission", "--", PY],
    ["--timeout", "--interactor", "--", PY, "--submission", "--", PY],
    ["--submission", "--", PY, "--interactor", "--", PY],
]
bad = []
for args in BAD:
    rpath = p("out/bad.json")
    if os.path.exists(rpath):
        os.unlink(rpath)
    pr = subprocess.run([SANDLOCK, "interactive", "--report", rpath, *args],
                        stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    lines = pr.stderr.decode(errors="replace").splitlines()
    if pr.returncode != 125 or len(lines) != 1 or os.path.exists(rpath):
        bad.append("%s: status %d, stderr %r" % (args, pr.returncode, lines))
result(not bad, "bad_command_lines", "; ".join(bad))
pr = subprocess.run([SANDLOCK, "interactive", "--help"], capture_output=True, timeout=30)
result(pr.returncode == 0 and pr.stdout.startswith(b"Usage: sandlock interactive"), "help",
       "status %d, %r" % (pr.returncode, pr.stdout[:60]))

# a command that is not there: the interactor's is the judge's failure, the
# submission's is its own (127); with -q only the report says it
proc, rep, tr, took = run([PY, p("sub/ok.py")], inter=["/nonexistent/interactor"])
check_verdict("interactor_missing", proc, rep, "interactor_failed", 125)
# (an interactor that says nothing on stderr itself, whenever the missing
# submission's pipe closes: only ours is judged; accept1.py's first write
# could meet the closed pipe and print BrokenPipeError, seen once under load)
proc, rep, tr, took = run(["/nonexistent/submission"], both=["-q"],
                          inter=[PY, "-c", "import sys; sys.stdin.read()"])
check_verdict("submission_missing_quiet", proc, rep, "setup_failed", 127, proc.stderr == b"",
              "stderr %r" % proc.stderr)

# SIGTERM to the pair: both stopped, 128+15, nothing left
rpath = p("out/r.json")
if os.path.exists(rpath):
    os.unlink(rpath)
pr = subprocess.Popen([SANDLOCK, "interactive", *EXTRA, "--report", rpath, "--idle", "0",
                       "--interactor", "--", PY, p("sub/sleep.py"), "i",
                       "--submission", "--", PY, p("sub/sleep.py"), "s"],
                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
# once both programs run, the stop signals are ours (blocked before the
# sides start); a fixed 0.7 s was before that under the sanitizers' load
wait_for(lambda: len(leftover(p("sub/sleep.py"))) >= 2, 30)
pr.send_signal(signal.SIGTERM)
st = pr.wait(timeout=10)
time.sleep(0.1)
left = leftover(p("sub/sleep.py"))
try:
    rep = json.load(open(rpath))
except (OSError, ValueError):
    rep = {}
result(st == 143 and rep.get("verdict") == "signaled" and not left, "sigterm",
       "status %s, verdict %s, left %s" % (st, rep.get("verdict"), left))

shutil.rmtree(WORK, ignore_errors=True)
sys.exit(result.finish("interactive"))
