#!/usr/bin/python3
"""The client contract of a real grader, on whatever host this runs on.

    tests/hosts/contract.py            (SANDLOCK=path, SANDLOCK_HOSTSIM=host)

Run under tests/hosts/hostsim HOST, it checks what a grader relies on:
file mode (the seed command line with stdin/stdout files and a report), a
persistent JSON-RPC worker, a SIGTERM to the grader's process group followed
by a SIGKILL of the wrapper (nothing of the run may survive), secrets in the
grader's environment (never visible to the program), silence (nothing on
stderr from the sandbox itself), and that the report names exactly the
layers this host offers.  Each containment check has a control run that
shows the check can fail (the same program outside the sandbox, or without
the option).  Last line: "contract: P passed, F failed, S skipped".
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from results import Results, read_report as report, wait_for  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
result = Results(HOST)
EXTRA = os.environ.get("SANDLOCK_EXTRA_FLAGS", "").split()
PY = "/usr/bin/python3"
SEED = ["--no-fork", "--no-network", "--clean-env", "--cpu", "5", "--mem", "256"]
ROOT = os.geteuid() == 0
WORK = tempfile.mkdtemp(prefix="sandlock-contract.")
os.chmod(WORK, 0o755)


def sandbox(*args):
    return [SANDLOCK, *EXTRA, *args]


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    return path


# ---- file mode: the seed command line, as the original Go grader called it
prog = write("sum.py", "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()))\n")
inp = write("in.txt", "3 4 5\n")
out, rep = os.path.join(WORK, "out.txt"), os.path.join(WORK, "r.json")
p = subprocess.run(sandbox(*SEED, "--stdin", inp, "--stdout", out, "--report", rep, "--",
                           PY, prog), capture_output=True, timeout=60)
got = open(out).read() if os.path.exists(out) else ""
r = report(rep)
result(p.returncode == 0 and got == "12\n" and r.get("verdict") == "ok", "file mode: seed command line",
       f"status {p.returncode}, output {got!r}, report {r.get('verdict')}, stderr {p.stderr[:300]!r}")
result(p.stderr == b"", "silence: nothing on stderr from the sandbox", repr(p.stderr[:300]))

# ---- a host that refuses seccomp filters: only with --best-effort
if HOST == "lambda":
    q = subprocess.run([SANDLOCK, *SEED, "--", PY, "-c", "open('%s/ran', 'w')" % WORK],
                       capture_output=True, timeout=60)
    lines = q.stderr.decode(errors="replace").strip().splitlines()
    result(q.returncode == 125 and len(lines) == 1 and "--best-effort" in lines[0]
           and not os.path.exists(WORK + "/ran"),
           "no seccomp here: without --best-effort, 125 and one line, nothing ran",
           f"status {q.returncode}, stderr {lines}")

# ---- the layers the report names, against what this host offers
layers = r.get("layers", {})
# host -> layers that must be on / off for the seed command line
expect_on = {"seccomp": True, "rlimits": True}
expect_off = {"pidns"}  # a --no-fork run gets no namespace ...
if HOST in ("no-landlock", "old-kernel", "old-docker", "lambda"):
    expect_off |= {"landlock_scope"}
if HOST in ("no-landlock", "old-kernel"):
    # ... but where there is no Landlock for the default allow-list, one
    # gives it a /tmp and /dev/shm of its own (user namespaces allowed)
    expect_off.discard("pidns")
    expect_on["mountns"] = True
if HOST in ("old-kernel", "old-docker"):
    expect_off |= {"seccomp_notify"}
if HOST in ("no-pdeathsig", "lambda"):
    expect_off |= {"pdeathsig"}
    expect_on["watchdog"] = True
if HOST == "lambda":
    expect_on.pop("seccomp")
    expect_off |= {"seccomp", "seccomp_notify", "no_new_privs"}
if HOST in ("full", "docker", "podman", "userns-refused", "userns-nocaps", "no-pdeathsig"):
    expect_on["seccomp_notify"] = True
    expect_on["landlock_scope"] = True
wrong = [k for k in expect_on if layers.get(k) is not True] + \
        [k for k in expect_off if layers.get(k) is not False]
result(layers and not wrong, "report: the layers this host offers",
       f"wrong: {wrong}; layers {layers}")

# ---- --landlock: where the host has it, a file outside the allowed paths
# stays unread (the same program reads it outside the sandbox); where it
# has none, 125 naming it, or with --best-effort a run that names it missing
secret = write("ll-secret.txt", "ll-%d\n" % os.getpid())
readit = [PY, "-c", "print(open(%r).read(), end='')" % secret]
bare = subprocess.run(readit, capture_output=True, timeout=60)
no_ll = HOST in ("no-landlock", "old-kernel", "old-docker", "lambda")
rep3 = os.path.join(WORK, "r3.json")
box = os.path.join(WORK, "box")  # the working directory: allowed in full
os.mkdir(box)
os.chmod(box, 0o755)
p = subprocess.run(sandbox("--landlock", "--workdir", box, "--report", rep3, "--", *readit),
                   capture_output=True, timeout=60)
r3 = report(rep3)
leaked = open(secret).read().encode() in p.stdout
# where the run may have a mount namespace, the list is a root of bind
# mounts in Landlock's place (src/lib/bind_root.c)
binds = r3.get("layers", {}).get("bind_root") is True
if no_ll and binds:
    h = subprocess.run(sandbox("--landlock", "--workdir", box, "--", PY, "-c", "print('honest')"),
                       capture_output=True, timeout=60)
    result(bare.stdout == open(secret).read().encode() and not leaked and p.returncode != 0
           and r3.get("layers", {}).get("landlock") is False and h.stdout == b"honest\n",
           "--landlock where Landlock is missing: a root of binds, the file out of reach "
           "(an honest one runs)",
           f"bare {bare.stdout!r}, sandboxed {p.returncode} {p.stdout[:80]!r} {r3.get('layers')}, "
           f"honest {h.returncode} {h.stdout!r}")
elif no_ll and "--best-effort" not in EXTRA:
    result(p.returncode == 125 and b"landlock" in p.stderr and not leaked,
           "--landlock where Landlock is missing: 125, named", f"{p.returncode} {p.stderr[:200]!r}")
elif no_ll:
    result(p.returncode == 0 and "landlock" in (r3.get("missing") or "")
           and r3.get("layers", {}).get("landlock") is False,
           "--best-effort --landlock where Landlock is missing: runs, landlock in missing",
           f"{p.returncode} missing {r3.get('missing')!r} stderr {p.stderr[:200]!r}")
else:
    # the same setup runs an honest program: the containment is Landlock's
    h = subprocess.run(sandbox("--landlock", "--workdir", box, "--", PY, "-c", "print('honest')"),
                       capture_output=True, timeout=60)
    result(bare.stdout == open(secret).read().encode() and not leaked and p.returncode != 0
           and r3.get("layers", {}).get("landlock") is True and h.stdout == b"honest\n",
           "--landlock: a file the program reads bare is out of reach (an honest one runs)",
           f"bare {bare.stdout!r}, sandboxed {p.returncode} {p.stdout[:80]!r} {r3.get('layers')}, "
           f"honest {h.returncode} {h.stdout!r}")

# a run that may fork: namespaces where the host has them, else the watchdog
rep2 = os.path.join(WORK, "r2.json")
p = subprocess.run(sandbox("--report", rep2, "--", "/bin/sh", "-c", "/bin/true; echo ok"),
                   capture_output=True, timeout=60)
l2 = report(rep2).get("layers", {})
ns_host = HOST in ("full", "podman", "no-pdeathsig", "no-landlock", "old-kernel")
if ns_host:
    ok = l2.get("pidns") is True
else:
    ok = l2.get("pidns") is False and l2.get("watchdog") is True
result(p.returncode == 0 and p.stdout == b"ok\n" and ok, "forking run: pid namespace, or the watchdog",
       f"status {p.returncode}, stdout {p.stdout!r}, layers {l2}, stderr {p.stderr[:200]!r}")

# ---- a persistent JSON-RPC worker over stdio
worker = os.path.join(os.environ.get("PROGS", os.path.dirname(__file__) + "/../progs"), "rpc_worker.py")
if os.path.exists(worker):
    w = subprocess.Popen(sandbox(*SEED, "--", PY, worker), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = []
    try:
        for i in range(3):
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "sum", "params": [i, 10]}).encode()
            w.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            w.stdin.flush()
            n = int(w.stdout.readline().split(b":")[1])
            w.stdout.readline()
            answers.append(json.loads(w.stdout.read(n))["result"])
        body = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "exit"}).encode()
        w.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        w.stdin.close()
        st = w.wait(timeout=30)
    except Exception as e:  # noqa: BLE001 - any failure is the finding
        w.kill()
        st = f"error {e!r}"
    result(answers == [10, 11, 12] and st == 0, "JSON-RPC worker: three calls and a clean exit",
           f"answers {answers}, status {st}, stderr {w.stderr.read()[:200]!r}")
else:
    result(None, "JSON-RPC worker", "tests/progs/rpc_worker.py not found")


# ---- SIGTERM to the grader's group, then SIGKILL of the wrapper
def alive(marker):
    """pids whose command line carries the marker (the evidence)"""
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        pids.append(int(d))
            except OSError:
                pass
    return pids


def sleeping(marker):
    """pids of /bin/sleep MARKER, exec'd (the wrapper's and a child's
    command line carry the marker before that)"""
    return [p for p in alive(marker) if _cmdline(p).startswith(b"/bin/sleep\0" + marker.encode())]


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def term_then_kill(cmd, marker, want, control=False):
    """start cmd as a grader does (its own process group), wait for its
    want processes, SIGTERM the group, SIGKILL the wrapper, and return
    what is left of the marker (the control's survivor at once; else what
    is still there when every process is gone, or at the deadline)"""
    g = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    # exec'd: the processes are past their own set-up (setsid)
    wait_for(lambda: len(sleeping(marker)) >= want)
    started = len(sleeping(marker))
    try:
        os.killpg(g.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    time.sleep(0.05)
    try:
        os.kill(g.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    g.wait()
    if not control:
        wait_for(lambda: not alive(marker))
    left = alive(marker)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return started, left


tag = f"{os.getpid()}{int(time.time() * 1000) % 100000}"
# the program leaves the grader's group: a survivor outside the sandbox
# (the control: the check sees one)
m0 = f"1000.{tag}0"
_, left = term_then_kill(["/bin/sh", "-c", f"setsid /bin/sleep {m0} & /bin/sleep {m0}"], m0, 2,
                        control=True)
control_ok = len(left) > 0
m1 = f"1000.{tag}1"
started, left = term_then_kill(sandbox("--", "/bin/sh", "-c",
                                       f"/bin/sleep {m1} & /bin/sleep {m1}"), m1, 2)
result(control_ok and started >= 1 and not left, "SIGTERM of the group, SIGKILL of the wrapper: nothing survives",
       f"control survivors {control_ok}, started {started}, left {left}")
m2 = f"1000.{tag}2"
started, left = term_then_kill(sandbox(*SEED, "--", "/bin/sleep", m2), m2, 1)
result(started >= 1 and not left, "the same with the seed command line",
       f"started {started}, left {left}")
# SIGKILL of the wrapper alone (the grader's own timeout)
m3 = f"1000.{tag}3"
g = subprocess.Popen(sandbox("--", "/bin/sh", "-c", f"/bin/sleep {m3} & /bin/sleep {m3}"),
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wait_for(lambda: len(sleeping(m3)) >= 2)
started = len(sleeping(m3))
g.kill()
g.wait()
wait_for(lambda: not alive(m3))
left = alive(m3)
for pid in left:
    os.kill(pid, signal.SIGKILL)
result(started >= 2 and not left, "SIGKILL of the wrapper alone: nothing survives",
       f"started {started}, left {left}")

# ---- secrets in the grader's environment
secret = f"sk-{os.urandom(12).hex()}"
env = dict(os.environ, GRADER_SECRET=secret)
look = ("import os\nprint(os.environ)\n"
        "for p in ('/proc/%d/environ' % os.getppid(), '/proc/1/environ'):\n"
        "    try: print(open(p, 'rb').read())\n"
        "    except OSError as e: print(p, e)\n")
probe = write("env.py", look)
control = subprocess.run(sandbox("--no-fork", "--", PY, probe), env=env, capture_output=True, timeout=60)
p = subprocess.run(sandbox(*SEED, "--", PY, probe), env=env, capture_output=True, timeout=60)
result(secret.encode() in control.stdout and p.returncode == 0 and secret.encode() not in p.stdout,
       "secrets in the environment: --clean-env hides them",
       f"control shows it {secret.encode() in control.stdout}, status {p.returncode}, "
       f"leaked {secret.encode() in p.stdout}")


# ---- concurrent threaded runs as root: with --uid-pool each has its own
# process count; without a user namespace of their own and without the pool
# (the control) they share one, and the run that asks last is refused
def threaded_pair(extra):
    """A holds 8 threads while B starts 8 more; returns B's and A's status"""
    sync = tempfile.mkdtemp(prefix="sandlock-nproc.", dir=WORK)
    os.chmod(sync, 0o777)
    code = ("import threading, time, os, sys\n"
            "d, me, other = sys.argv[1], sys.argv[2], sys.argv[3]\n"
            "ev = threading.Event()\n"
            "if me == 'b':\n"
            "    while not os.path.exists(d + '/a'): time.sleep(0.01)\n"
            "ts = [threading.Thread(target=ev.wait) for _ in range(8)]\n"
            "try:\n"
            "    [t.start() for t in ts]\n"
            "finally:\n"
            "    open(d + '/' + me, 'w').close()\n"
            "    deadline = time.time() + 30\n"
            "    while not os.path.exists(d + '/' + other) and time.time() < deadline: time.sleep(0.01)\n"
            "    ev.set()\n")
    prog = write("threads.py", code)
    flags = ["--nproc", "10", "--no-network", "--clean-env", *extra, "--"]
    a = subprocess.Popen(sandbox(*flags, PY, prog, sync, "a", "b"), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    b = subprocess.run(sandbox(*flags, PY, prog, sync, "b", "a"), capture_output=True, timeout=60)
    # (B's last words: what a status alone does not say)
    threaded_pair.said = b.stderr.decode(errors="replace")[-200:]
    return b.returncode, a.wait(timeout=60)


if ROOT and layers.get("userns") is False and HOST not in ("full",):
    own = subprocess.run(sandbox("--report", os.path.join(WORK, "u.json"), "--", "/bin/true"),
                         capture_output=True)
    if report(os.path.join(WORK, "u.json")).get("layers", {}).get("userns"):
        result(None, "uid pool: concurrent threaded runs", "runs get a user namespace of their own here")
    else:
        # where the seccomp listener counts each run's tasks (rlimits.c),
        # every run has its own count with or without the pool; only the
        # last resort (no listener) shares the uid's, and says so
        shared = "nproc (" in (report(os.path.join(WORK, "u.json")).get("missing") or "")
        control = threaded_pair([])
        pooled = threaded_pair(["--uid-pool", "61000-61099"])
        if shared:
            result(control != (0, 0) and pooled == (0, 0),
                   "uid pool: concurrent threaded runs each get --nproc",
                   f"without the pool (b, a) = {control} (a failure expected), with it {pooled}"
                   f" (b said {threaded_pair.said!r})")
        else:
            result(control == (0, 0) and pooled == (0, 0),
                   "concurrent threaded runs each get --nproc (counted by the supervisor), "
                   "with or without the uid pool",
                   f"without the pool (b, a) = {control}, with it {pooled}")
else:
    result(None, "uid pool: concurrent threaded runs", "not root, or runs have a user namespace of their own")

# A grandchild that left the process group (setsid, where no filter refuses
# it) and keeps writing: the run's end kills every descendant the
# supervisor can find, also without a pid namespace.  Evidence: the file
# stops growing once sandlock has returned.  Control: bare, it goes on.
ESCAPE = """import os, sys, time
f = sys.argv[1]
if os.fork() == 0:
    try:
        os.setsid()
    except OSError:
        pass
    if os.fork() == 0:
        open(f + ".pid", "w").write(str(os.getpid()))
        end = time.time() + 15
        while time.time() < end:
            with open(f, "a") as out:
                out.write("x")
            time.sleep(0.02)
        os._exit(0)
    os._exit(0)
time.sleep(0.3)
"""
ESCDIR = os.path.join(WORK, "esc")
os.mkdir(ESCDIR)
os.chmod(ESCDIR, 0o1777)


def grows(flags):
    """did a writer outlive the run? (None: it never started)"""
    f = os.path.join(ESCDIR, "out-%d" % len(os.listdir(ESCDIR)))
    cmd = [PY, "-c", ESCAPE, f]
    subprocess.run(sandbox(*flags, "--", *cmd) if flags is not None else cmd,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=30)
    time.sleep(0.3)
    a = os.path.getsize(f) if os.path.exists(f) else None
    time.sleep(0.5)
    b = os.path.getsize(f) if os.path.exists(f) else None
    try:
        os.kill(int(open(f + ".pid").read()), signal.SIGKILL)
    except (OSError, ValueError):
        pass
    return None if a is None else b > a


control = grows(None)
for name, flags in (("forking run", ["--nproc", "20", "--timeout", "10"]),
                    ("--no-fork", ["--no-fork", "--timeout", "10"])):
    g = grows(flags)
    if not control:
        result(False, "a setsid'd grandchild does not outlive the run (%s)" % name,
               "control: bare, the writer did not go on")
    elif g is None:
        result(None, "a setsid'd grandchild does not outlive the run (%s)" % name,
               "no process could be made here")
    else:
        result(not g, "a setsid'd grandchild does not outlive the run (%s)" % name,
               "the file kept growing after sandlock returned")

subprocess.run(["rm", "-rf", WORK])
status = result.finish("contract")
sys.exit(status)
