#!/usr/bin/python3
"""Runs cannot reach each other (issue 24): two runs of the same options and
the same uid, at once and one after the other, each trying what one
submission can do to another:

    plant   code into what the next run's runtime reads at start from HOME
            (Python's user site .pth and usercustomize, ~/.node_modules,
            ~/.bashrc), or into a running neighbour's HOME
    read    a neighbour's tempfile scratch, its working directory (found by
            listing the parent), /proc/PID/cmdline and environ
    change  its input file in its working directory, a fixed-name scratch
            file in /tmp, while it runs
    starve  write into a shared /dev/shm or /tmp (what fills it for all)
    leave   files in HOME, TMPDIR, /tmp, /dev/shm for the next run; SysV
            shared memory

Every attack first runs between two bare processes of the same uid, which
share a HOME and TMPDIR as --clean-env's runs did (HOME=TMPDIR=/tmp; here a
directory of the test's, not the machine's /tmp, which other programs use),
and must work there; then under the seed command line, a forking run with
the default options, and --profile python, where it must leave no evidence
while the victim still gives its right answer (the honest program works in
the same setup).  Run as root and as an ordinary user, on the full host and
under tests/hosts/hostsim.

    SANDLOCK=path tests/neighbours.py
Last line: "neighbours: P passed, F failed, S skipped".
"""
import glob
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import Results, read_report  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
EXTRA = os.environ.get("SANDLOCK_EXTRA_FLAGS", "").split()
result = Results(HOST)
WORK = tempfile.mkdtemp(prefix="sandlock-neighbours.")
os.chmod(WORK, 0o755)
PY = "/usr/bin/python3"
ROOT = os.geteuid() == 0

MODES = {
    "seed": ["--no-fork", "--no-network", "--clean-env", "--cpu", "5", "--mem", "256"],
    "fork": ["--no-network", "--clean-env", "--cpu", "5", "--mem", "256"],
    # (the profile's limits widened to the other modes': where /tmp is the
    # host's (serverless), the attacker's walk of it costs more than the
    # profile's 2 s of CPU, and the victim waits longer than its 6 s wall,
    # on a machine whose /tmp is full of other runs' files)
    "profile": ["--profile", "python", "--cpu", "5", "--timeout", "120"],
}

VICTIM = r'''
import os, sys, tempfile, time
tok = sys.argv[1]
home = os.environ.get("HOME", ".")
fd, path = tempfile.mkstemp()
os.write(fd, ("TMPSECRET" + tok).encode())
os.close(fd)
# a fixed name, of this test's group only (sys.argv[3]): two lanes' bare
# attackers truncated each other's victims' files (root may write them all)
fixed = "/tmp/sl-nb-fixed-" + sys.argv[3] + "-" + tok
try:
    with open(fixed, "w") as f:
        f.write("7")
except OSError:
    fixed = None
def listing(d):
    try:
        return set(os.listdir(d))
    except OSError:
        return set()  # a HOME no run may write (or read)
before = listing(home)
print("READY", flush=True)
end = time.time() + 120  # the attacker's walk of /tmp is slow on a loaded machine
while not os.path.exists("go") and time.time() < end:
    time.sleep(0.02)
a, b = map(int, open("input.txt").read().split())
print("SUM", a + b)
if fixed:
    print("FIXED", open(fixed).read())
    os.unlink(fixed)
print("HOMENEW", sorted(listing(home) - before))
os.unlink(path)
'''

ATTACKER = r'''
import glob, os, re, stat, sys, threading, time
tok = sys.argv[1]
# Bounded in time whatever the host holds: the bare run (which must find
# the secrets) walks the places a neighbour's files are first; a busy CI
# host's /tmp and a /proc read that waits on another process's memory lock
# (only SIGKILL wakes it) must not hold the check past its timeout.
deadline = time.monotonic() + 25
# ... and by its own CPU, under every mode's --cpu 5: a host /tmp full of
# other lanes' files (serverless: it is the host's) cost more than 5 s of
# CPU to walk where a system call costs 1 us, and the attacker was killed
# (SIGXCPU) before it said anything: 2 s for the walk, 3.5 s with /proc
def spent(cpu=2.0):
    return time.monotonic() > deadline or time.process_time() > cpu
# a secret is its mark and a token (the programs' text has only the mark)
marks = re.compile(rb"(TMP|WD|ARG|ENV)SECRET[0-9a-f]{12}")
found = set()
lock = threading.Lock()
def look(data):
    with lock:
        for m in marks.finditer(data):
            found.add(m.group(1).decode() + "SECRET")
def walk(top, depth=3):
    # a directory's files before its subdirectories: a neighbour's scratch
    # file at the top is found before the walk goes into deep trees
    if spent():
        return
    try:
        names = os.listdir(top)
    except OSError:
        return
    subdirs = []
    for n in names:
        if spent():
            return
        p = os.path.join(top, n)
        try:
            st = os.lstat(p)
            if stat.S_ISDIR(st.st_mode):
                subdirs.append(p)
            # a FIFO would block the read
            elif stat.S_ISREG(st.st_mode) and st.st_size < 65536 and time.time() - st.st_mtime < 120:
                look(open(p, "rb").read())
        except OSError:
            pass
    for p in subdirs if depth > 0 else ():
        walk(p, depth - 1)
home = os.environ.get("HOME", ".")
tmpdir = os.environ.get("TMPDIR", "/tmp")
for top in dict.fromkeys([tmpdir, home, "..", "/tmp", "/var/tmp", "/dev/shm"]):
    walk(top)
homes = set()
try:
    pids = os.listdir("/proc")
except OSError:
    pids = []
def read_proc(pid):
    for f in ("cmdline", "environ"):
        try:
            data = open("/proc/%s/%s" % (pid, f), "rb").read()
        except OSError:
            continue
        look(data)
        if f == "environ" and b"SL_NB_VICTIM=1" in data:
            for kv in data.split(b"\0"):
                if kv.startswith((b"HOME=", b"TMPDIR=")):
                    with lock:
                        homes.add(kv.split(b"=", 1)[1].decode())
# newest first: the neighbour started a moment ago, and a loaded host's
# older processes (other lanes' thousands) spent the budget before it; the
# newest 256 are read whatever the walk of the files spent (on a host at
# load average 100 its wall deadline passed before /proc was reached).
# Newest is nearest below our own pid, counted around pid_max: a CI run
# wraps 32,768 pids in minutes, and after a wrap the largest are the oldest
try:
    pid_max = int(open("/proc/sys/kernel/pid_max").read())
except (OSError, ValueError):
    pid_max = 1 << 22
me = os.getpid()
for n, pid in enumerate(sorted((p for p in pids if p.isdigit()), key=lambda p: (me - int(p)) % pid_max)):
    if int(pid) == me:
        continue
    if n >= 256 and spent(3.5):
        break
    # one process whose memory is locked must not hide the others
    reader = threading.Thread(target=read_proc, args=(pid,), daemon=True)
    reader.start()
    reader.join(2)
with lock:
    homes = set(homes)
homes |= set(glob.glob("/tmp/sandlock.*")) | set(glob.glob(os.path.dirname(tmpdir) + "/sandlock.*"))
homes |= {tmpdir, home}
homes.discard(os.environ.get("HOME"))
changed = []
for d in glob.glob("../*/input.txt"):
    if os.path.realpath(d) != os.path.realpath("input.txt"):
        try:
            with open(d, "w") as f:
                f.write("100 200")
            changed.append(d)
        except OSError:
            pass
for d in glob.glob("/tmp/sl-nb-fixed-" + (sys.argv[2] if len(sys.argv) > 2 else "") + "-*"):
    try:
        with open(d, "w") as f:
            f.write("666")
        changed.append(d)
    except OSError:
        pass
planted = []
for h in homes:
    try:
        with open(os.path.join(h, "planted-" + tok), "w") as f:
            f.write("x")
        planted.append(h)
    except OSError:
        pass
left = []
for d in ("/dev/shm", "/tmp", "/var/tmp", home, tmpdir):
    try:
        with open(os.path.join(d, "sl-nb-left-" + tok), "wb") as f:
            f.write(b"\0" * (1 << 20))
        left.append(d)
    except OSError:
        pass
with lock:
    print("FOUND", sorted(found))
print("CHANGED", changed)
print("PLANTED", planted)
print("LEFT", left, flush=True)
os._exit(0)  # not held by a /proc read still waiting
'''

# What the next run's runtime runs at start, from HOME: relative path,
# content, and the command that would run it (None: not on this host).
NODE = shutil.which("node", path="/usr/bin:/usr/local/bin")
PLANTS = [
    (".local/lib/python%d.%d/site-packages/nbplant.pth" % sys.version_info[:2],
     "import sys; sys.stdout.write('PLANTED\\n')\n", [PY, "student.py"]),
    (".local/lib/python%d.%d/site-packages/usercustomize.py" % sys.version_info[:2],
     "print('PLANTED')\n", [PY, "student.py"]),
    (".node_modules/nbplant.js", "console.log('PLANTED')\n",
     [NODE, "-e", "try { require('nbplant') } catch (e) { console.log('clean') }"] if NODE else None),
    (".bashrc", "echo PLANTED\n", ["/bin/bash", "-i", "-c", "echo clean"]),
]

PLANTER = r'''
import os, sys, json
for rel, text in json.loads(sys.argv[1]):
    p = os.path.join(os.environ["HOME"], rel)
    try:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    except OSError as e:
        print("cannot", rel, e)
print("planted")
'''


def group(tag):
    """A directory of the pair's own: what the attacker finds by listing
    its parent is its neighbour's, not earlier tests' leftovers."""
    g = os.path.join(WORK, tag)
    os.mkdir(g)
    os.chmod(g, 0o755)
    return g


def new_dir(g, name):
    d = os.path.join(g, name)
    os.mkdir(d)
    os.chmod(d, 0o777)
    with open(os.path.join(d, "input.txt"), "w") as f:
        f.write("2 3")
    os.chmod(os.path.join(d, "input.txt"), 0o666)
    for n, text in (("victim.py", VICTIM), ("attacker.py", ATTACKER),
                    ("planter.py", PLANTER), ("student.py", "print('clean')\n")):
        with open(os.path.join(d, n), "w") as f:
            f.write(text)
        os.chmod(os.path.join(d, n), 0o644)
    return d


def command(mode, cwd, argv, env_extra):
    """The command line of a run in mode, with env_extra in its
    environment (a bare run: HOME and TMPDIR are the shared directory)."""
    if mode == "bare":
        return argv
    env = []
    for k, v in env_extra.items():
        env += ["--env", "%s=%s" % (k, v)]
    return [SANDLOCK, *EXTRA, *MODES[mode], "--workdir", cwd, *env, "--", *argv]


def bare_env(shared, extra):
    env = dict(os.environ)
    env.update(HOME=shared, TMPDIR=shared, **extra)
    return env


def shared_dir(g):
    s = os.path.join(g, "shared")
    os.makedirs(s, exist_ok=True)
    os.chmod(s, 0o1777)
    return s


def at_once(mode):
    """Victim and attacker side by side: what did the attacker get?"""
    tag = mode + "-" + secrets.token_hex(4)
    g = group(tag)
    vdir, adir = new_dir(g, "v"), new_dir(g, "a")
    shared = shared_dir(g)
    tok, atok = secrets.token_hex(6), secrets.token_hex(6)
    with open(os.path.join(vdir, "secret.txt"), "w") as f:
        f.write("WDSECRET" + tok)
    os.chmod(os.path.join(vdir, "secret.txt"), 0o644)
    venv = {"SL_NB_VICTIM": "1", "NB_TOKEN": "ENVSECRET" + tok}
    vcmd = command(mode, vdir, [PY, "victim.py", tok, "ARGSECRET" + tok, tag], venv)
    victim = subprocess.Popen(vcmd, cwd=vdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=bare_env(shared, venv) if mode == "bare" else None)
    first = victim.stdout.readline()  # READY: its scratch is made
    acmd = command(mode, adir, [PY, "attacker.py", atok, tag], {})
    att = subprocess.run(acmd, cwd=adir, capture_output=True, timeout=60,
                         env=bare_env(shared, {}) if mode == "bare" else None)
    # what the attacker left where the next run (or the host) sees it,
    # looked at while the victim still runs
    host_left = [d for d in ("/dev/shm", "/tmp", "/var/tmp")
                 if os.path.exists(os.path.join(d, "sl-nb-left-" + atok))]
    with open(os.path.join(vdir, "go"), "w"):
        pass
    vout, verr = victim.communicate(timeout=60)
    vout = first + vout
    for d in ("/dev/shm", "/tmp", "/var/tmp"):
        try:
            os.unlink(os.path.join(d, "sl-nb-left-" + atok))
        except OSError:
            pass
    out = att.stdout.decode(errors="replace")
    lines = {ln.split(" ", 1)[0]: ln.split(" ", 1)[1] for ln in out.splitlines() if " " in ln}
    return {
        "victim": vout.decode(errors="replace"), "verr": verr.decode(errors="replace"),
        "vstatus": victim.returncode, "astatus": att.returncode,
        "aout": out, "aerr": att.stderr.decode(errors="replace"),
        "found": eval(lines.get("FOUND", "[]")), "changed": eval(lines.get("CHANGED", "[]")),
        "planted": eval(lines.get("PLANTED", "[]")), "host_left": host_left,
    }


def one_after_other(mode, rel, text, vargv):
    """A run plants rel under its HOME; does the next run's start run it?"""
    tag = mode + "-" + secrets.token_hex(4)
    g = group(tag)
    adir, vdir = new_dir(g, "p"), new_dir(g, "n")
    shared = shared_dir(g)
    a = subprocess.run(command(mode, adir, [PY, "planter.py", json.dumps([[rel, text]])], {}),
                       cwd=adir, capture_output=True, timeout=60,
                       env=bare_env(shared, {}) if mode == "bare" else None)
    v = subprocess.run(command(mode, vdir, vargv, {}), cwd=vdir, capture_output=True,
                       timeout=60, env=bare_env(shared, {}) if mode == "bare" else None)
    return a, v


def leave_next(mode):
    """What one run leaves in HOME, TMPDIR, /tmp, /dev/shm: does the next
    run find it?"""
    tag = mode + "-" + secrets.token_hex(4)
    g = group(tag)
    adir, vdir = new_dir(g, "l"), new_dir(g, "m")
    shared = shared_dir(g)
    atok = secrets.token_hex(6)
    a = subprocess.run(command(mode, adir, [PY, "attacker.py", atok], {}), cwd=adir,
                       capture_output=True, timeout=60,
                       env=bare_env(shared, {}) if mode == "bare" else None)
    look = ("import os\nseen=[]\nfor d in {'/dev/shm','/tmp','/var/tmp',os.environ['HOME'],"
            "os.environ['TMPDIR']}:\n    try:\n        seen += [d for n in os.listdir(d) "
            "if n == 'sl-nb-left-%s']\n    except OSError: pass\nprint('SEEN', sorted(seen))\n" % atok)
    with open(os.path.join(vdir, "look.py"), "w") as f:
        f.write(look)
    os.chmod(os.path.join(vdir, "look.py"), 0o644)
    v = subprocess.run(command(mode, vdir, [PY, "look.py"], {}), cwd=vdir,
                       capture_output=True, timeout=60,
                       env=bare_env(shared, {}) if mode == "bare" else None)
    for d in ("/dev/shm", "/tmp", "/var/tmp"):
        try:
            os.unlink(os.path.join(d, "sl-nb-left-" + atok))
        except OSError:
            pass
    return a, v


def ipc_left(mode):
    """A SysV shared memory segment made by a run: still there after it?"""
    key = 0x5E000000 + secrets.randbelow(1 << 20)
    d = new_dir(group("i-" + mode + "-" + secrets.token_hex(4)), "i")
    code = ("import ctypes\nc=ctypes.CDLL(None,use_errno=True)\n"
            "print('SHM', c.shmget(%d, 4096, 0o1600))\n" % key)
    r = subprocess.run(command(mode, d, [PY, "-c", code], {}), cwd=d, capture_output=True,
                       timeout=60)
    ipcs = subprocess.run(["ipcs", "-m"], capture_output=True, text=True).stdout
    there = ("0x%08x" % key) in ipcs
    if there:
        subprocess.run(["ipcrm", "-M", str(key)], capture_output=True)
    return r, there


def means(mode):
    """Does the host give this mode's runs a wall between them (a Landlock
    allow-list or a mount namespace)?  Else their report's missing must
    name what they share (the serverless host)."""
    d = new_dir(group("r-" + mode + "-" + secrets.token_hex(4)), "r")
    rpath = os.path.join(d, "r.json")
    p = subprocess.run([SANDLOCK, *EXTRA, *MODES[mode], "--workdir", d, "--report", rpath, "--",
                        "/bin/true"], capture_output=True, timeout=60)
    if p.returncode == 125:
        return None, p.stderr.decode(errors="replace").strip()
    try:
        with open(rpath) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        return True, None
    layers = rep.get("layers", {})
    return bool(layers.get("landlock") or layers.get("mountns")), rep.get("missing") or ""


WALLED = {}


def judge(mode, name, ok, why):
    """ok: contained by evidence; where the host gives no means, the
    report names the sharing instead"""
    if WALLED[mode][0]:
        result(ok, name, why)
    else:
        result(None, name, "no Landlock or mount namespace here (checked: missing names it)")


def check_means():
    for mode in list(MODES):
        WALLED[mode] = means(mode)
        walled, missing = WALLED[mode]
        if walled is None:
            # a profile where the host has no Landlock: refused, by design
            result(None, "%s: every check" % mode, "refused on this host: %s" % missing)
            del MODES[mode]
            continue
        if not walled:
            result("neighbours" in missing, "%s: no wall here, and the report's missing says "
                   "what is shared" % mode, "missing: %s" % missing)


def check_at_once():
    bare = at_once("bare")
    attacks = {
        "read tempfile scratch": lambda r: "TMPSECRET" in r["found"],
        "read working directory": lambda r: "WDSECRET" in r["found"],
        "read /proc/PID/cmdline": lambda r: "ARGSECRET" in r["found"],
        "read /proc/PID/environ": lambda r: "ENVSECRET" in r["found"],
        "change input file": lambda r: "SUM 5" not in r["victim"],
        "change fixed-name /tmp scratch": lambda r: "FIXED 666" in r["victim"],
        "plant into its HOME": lambda r: "HOMENEW []" not in r["victim"],
        "fill shared /dev/shm or /tmp": lambda r: bool(r["host_left"]),
    }
    worked = {}
    for name, hit in attacks.items():
        worked[name] = hit(bare)
        result(worked[name], "bare: %s works between two processes" % name,
               "%s / victim: %s" % (bare["aout"][-300:], bare["victim"][-200:]))
    for mode in MODES:
        r = at_once(mode)
        honest = r["vstatus"] == 0 and "SUM" in r["victim"] and r["astatus"] == 0
        result(honest, "%s: victim and attacker run (the honest part works)" % mode,
               "victim %s %s / attacker %s %s" % (r["vstatus"], r["verr"][-300:],
                                                  r["astatus"], r["aerr"][-300:]))
        for name, hit in attacks.items():
            if not worked[name]:
                result(None, "%s: %s" % (mode, name), "the attack did not work bare")
            elif not honest:
                result(False, "%s: %s" % (mode, name), "no honest run to judge by")
            else:
                judge(mode, "%s: %s contained" % (mode, name), not hit(r),
                      "attacker: %s / victim: %s" % (r["aout"][-400:], r["victim"][-200:]))


def check_one_after_other():
    for rel, text, vargv in PLANTS:
        if vargv is None:
            result(None, "plant %s" % rel, "no such runtime here")
            continue
        a, v = one_after_other("bare", rel, text, vargv)
        worked = b"PLANTED" in v.stdout
        result(worked, "bare: plant ~/%s, the next run runs it" % rel,
               (a.stdout + a.stderr + v.stdout + v.stderr).decode(errors="replace")[-300:])
        for mode in MODES:
            if mode in ("seed", "profile") and vargv[0] != PY:
                continue  # no-fork/no-exec steps run python here
            a, v = one_after_other(mode, rel, text, vargv)
            name = "%s: plant ~/%s for the next run" % (mode, rel)
            if not worked:
                result(None, name, "the attack did not work bare")
            elif b"planted" not in a.stdout or v.returncode != 0:
                result(False, name, "no honest pair to judge by: %s" %
                       (a.stdout + a.stderr + v.stderr).decode(errors="replace")[-300:])
            else:
                judge(mode, name + " contained", b"PLANTED" not in v.stdout,
                       v.stdout.decode(errors="replace")[-200:])


def check_leave():
    a, v = leave_next("bare")
    worked = b"SEEN []" not in v.stdout and b"SEEN" in v.stdout
    result(worked, "bare: files left in HOME/TMPDIR//tmp//dev/shm reach the next run",
           (v.stdout + v.stderr).decode(errors="replace")[-300:])
    for mode in MODES:
        a, v = leave_next(mode)
        name = "%s: files left for the next run" % mode
        if not worked:
            result(None, name, "the attack did not work bare")
        elif a.returncode != 0 or b"SEEN" not in v.stdout:
            result(False, name, "no honest pair: %s" %
                   (a.stderr + v.stdout + v.stderr).decode(errors="replace")[-300:])
        else:
            judge(mode, name + " contained", b"SEEN []" in v.stdout,
                   v.stdout.decode(errors="replace")[-300:])
    r, there = ipc_left("bare")
    result(there, "bare: a SysV shared memory segment outlives its process",
           (r.stdout + r.stderr).decode(errors="replace")[-200:])
    for mode in MODES:
        r, there = ipc_left(mode)
        judge(mode, "%s: SysV shared memory left for the next run contained" % mode, not there,
              (r.stdout + r.stderr).decode(errors="replace")[-200:])


def check_paths():
    """What the default allow-list must still give, and what it must not:
    a grader's request and response files named in the command line (the
    original grader's file mode), but not their neighbour in the same
    directory; a run from / (a container's default working directory)
    reads nothing outside; a profile from / is refused in one line."""
    g = group("f-" + secrets.token_hex(4))
    io, wd = new_dir(g, "io"), new_dir(g, "wd")
    tok = secrets.token_hex(6)
    req, resp, other = (os.path.join(io, n) for n in ("request.json", "response.json", "other.txt"))
    for path, text in ((req, "21"), (resp, ""), (other, "OTHER" + tok)):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o666)
    worker = ("import sys\n"
              "n = int(open(sys.argv[1]).read())\n"
              "open(sys.argv[2], 'w').write(str(2 * n))\n"
              "try:\n"
              "    print(open(sys.argv[3]).read())\n"
              "except OSError as e:\n"
              "    print('denied', e.errno)\n")
    with open(os.path.join(wd, "worker.py"), "w") as f:
        f.write(worker)
    os.chmod(os.path.join(wd, "worker.py"), 0o644)
    # the third argument names the neighbour file inside a word, as a
    # program could learn it: not a path of the command line (NAME=/path
    # would be one: an option's value)
    hidden = "@" + other
    look3 = worker.replace("open(sys.argv[3])", "open(sys.argv[3][1:])")
    with open(os.path.join(wd, "worker.py"), "w") as f:
        f.write(look3)
    bare = subprocess.run([PY, "worker.py", req, resp, hidden], cwd=wd, capture_output=True, timeout=60)
    result(("OTHER" + tok).encode() in bare.stdout and open(resp).read() == "42",
           "bare: the worker answers, and reads an unnamed file beside its request",
           (bare.stdout + bare.stderr).decode(errors="replace")[-300:])
    for mode in ("seed", "fork"):
        with open(resp, "w"):
            pass
        p = subprocess.run([SANDLOCK, *EXTRA, *MODES[mode], "--workdir", wd, "--", PY, "worker.py",
                            req, resp, hidden], cwd=wd, capture_output=True, timeout=60)
        got = open(resp).read()
        result(p.returncode == 0 and got == "42", "%s: request and response files named in the "
               "command line are read and written" % mode,
               "status %d, response %r, %s" % (p.returncode, got, p.stderr[-300:]))
        judge(mode, "%s: their unnamed neighbour is not read" % mode,
              ("OTHER" + tok).encode() not in p.stdout, p.stdout.decode(errors="replace")[-200:])
    # /proc/self/root and /proc/self/cwd lead to / and to the working
    # directory: the rules are the kernel's on where a path ends
    ways = "/proc/self/root" + other, "/proc/self/cwd/../io/other.txt"
    code = ("import sys\nfor p in sys.argv[1:]:\n    try:\n        print(open(p).read())\n"
            "    except OSError as e:\n        print('denied', e.errno)\n")
    p = subprocess.run([PY, "-c", code, *ways], cwd=wd, capture_output=True, timeout=60)
    result(p.stdout.count(("OTHER" + tok).encode()) == 2, "bare: /proc/self/root and cwd reach the file")
    for mode in ("seed", "fork"):
        # (named inside a word: not paths of the command line)
        p = subprocess.run([SANDLOCK, *EXTRA, *MODES[mode], "--workdir", wd, "--", PY, "-c",
                            code.replace("open(p)", "open(p[1:])"), *("x" + w for w in ways)],
                           cwd=wd, capture_output=True, timeout=60)
        judge(mode, "%s: /proc/self/root and /proc/self/cwd lead nowhere else" % mode,
              p.returncode == 0 and p.stdout.count(b"denied") == 2,
              (p.stdout + p.stderr).decode(errors="replace")[-300:])
    # a run from /: its working directory is no rule, and it reads nothing
    # it was not given
    look = "try:\n    print(open(%r).read())\nexcept OSError as e:\n    print('denied', e.errno)\n" % other
    p = subprocess.run([PY, "-c", look], cwd="/", capture_output=True, timeout=60)
    result(("OTHER" + tok).encode() in p.stdout, "bare: a program started in / reads the file")
    for mode in ("seed", "fork"):
        rpath = os.path.join(g, "r-%s.json" % mode)
        p = subprocess.run([SANDLOCK, *EXTRA, *MODES[mode], "--report", rpath, "--", PY, "-c", look],
                           cwd="/", capture_output=True, timeout=60)
        try:
            with open(rpath) as f:
                rep = json.load(f)
        except (OSError, ValueError):
            rep = {}
        if not WALLED[mode][0]:
            result(None, "%s from /" % mode, "no Landlock or mount namespace here")
            continue
        if not (rep.get("layers") or {}).get("landlock"):
            result(None, "%s from /" % mode, "no Landlock here (a mount namespace alone)")
            continue
        result(p.returncode == 0 and b"denied" in p.stdout and ("OTHER" + tok).encode() not in p.stdout,
               "%s from /: runs, reads nothing outside" % mode,
               "status %d, %s %s" % (p.returncode, p.stdout[-200:], p.stderr[-200:]))
        result("landlock_workdir" in (rep.get("missing") or ""),
               "%s from /: the report's missing names the working directory left out" % mode,
               "missing: %s" % rep.get("missing"))
    p = subprocess.run([SANDLOCK, *EXTRA, "--profile", "python", "--", PY, "-c", look], cwd="/",
                       capture_output=True, timeout=60)
    lines = p.stderr.decode(errors="replace").strip().splitlines()
    if "profile" not in MODES or not WALLED["profile"][0] or \
            p.returncode != 125 and b"denied" in p.stdout:
        result(None, "profile from /", "no Landlock here")
    else:
        result(p.returncode == 125 and len(lines) == 1 and "--workdir" in lines[0] and
               ("OTHER" + tok).encode() not in p.stdout,
               "profile from /: refused in one line asking for --workdir",
               "status %d, stderr %r" % (p.returncode, lines))


# ---- a shared /dev/shm (no mount namespace: a default container) ----
# As root each run may have a uid of its own (--uid-pool): then the
# default allow-list lets it make files in /dev/shm (POSIX semaphores and
# shared memory: Python's multiprocessing), its neighbours cannot read or
# change them, what it holds there counts against --mem and a quarter of
# the tmpfs, and it is removed when the run ends (src/shm.c).  Where runs
# share one uid, /dev/shm stays closed and the report's missing says so.
POOL = ["--uid-pool", "63000-63099"]
SHM_MB = 64  # a default container's /dev/shm
FILL_MB = 300  # past --mem 256, and past any small /dev/shm

# shared memory of a program's own: a file made, mapped, every page
# touched (one the tmpfs has no room for is SIGBUS), removed
SHM_TOUCH = r"""
import mmap, os
def touch(path, size):
    fd = os.open(path, os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o600)
    os.ftruncate(fd, size)
    m = mmap.mmap(fd, size)
    for off in range(0, size, 4096):
        m[off] = 1
    m.close()
    os.close(fd)
    os.unlink(path)
"""

SHM_VICTIM = SHM_TOUCH + r"""
import mmap, os, sys, time
tok = sys.argv[1]
name = "/dev/shm/sl-nb-shm-" + tok
fd = os.open(name, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
os.write(fd, ("SHMSECRET" + tok).encode())
print("READY", flush=True)
end = time.time() + 120
while not os.path.exists("go") and time.time() < end:
    time.sleep(0.02)
os.lseek(fd, 0, 0)
print("CONTENT", os.read(fd, 100).decode(errors="replace"))
print("STILL", os.path.exists(name), flush=True)
# shared memory of its own now, after its neighbour filled what it could
touch("/dev/shm/sl-nb-w-" + tok, 8 << 20)
print("SHMWRITE ok", flush=True)
try:
    os.unlink(name)
except OSError:
    pass  # its neighbour moved it (bare)
"""

SHM_ATTACKER = r"""
import errno, os, sys
tok, vtok, fill_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
name = "/dev/shm/sl-nb-shm-" + vtok
def attempt(what, f):
    try:
        r = f()
        print(what, "ok", r if r is not None else "", flush=True)
    except OSError as e:
        print(what, "denied", e.errno, flush=True)
attempt("READ", lambda: open(name).read())
attempt("LIST", lambda: len(os.listdir("/dev/shm")))
def change():
    with open(name, "r+") as f:
        f.write("CHANGED!")
attempt("WRITE", change)
attempt("RENAME", lambda: os.rename(name, name + ".x"))
attempt("UNLINK", lambda: os.unlink(name))
# fill: 8 MB files (under --fsize) until the tmpfs is full, or fill_mb;
# named ones stay when it ends; "open", "mapped" and "hidden" (not
# dumpable) ones are unlinked and held while it lives
how = sys.argv[4]
if how == "hidden":
    import ctypes
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
import mmap, time
made = 0
held = []
chunk = b"z" * (1 << 20)
try:
    for i in range(fill_mb // 8):
        n = "/dev/shm/sl-nb-fill-%s-%d" % (tok, i)
        fd = os.open(n, os.O_CREAT | os.O_RDWR, 0o600)
        for _ in range(8):
            os.write(fd, chunk)
            made += 1
        if how == "named":
            os.close(fd)
            continue
        os.unlink(n)
        if how == "mapped":
            held.append(mmap.mmap(fd, os.fstat(fd).st_size))  # (short at ENOSPC)
            os.close(fd)
        else:
            held.append(fd)
except (OSError, ValueError) as e:
    print("FILLERR", getattr(e, "errno", e), flush=True)
print("FILLED", made, flush=True)
end = time.time() + 120
while held and not os.path.exists("done") and time.time() < end:
    time.sleep(0.02)
"""

SHM_HONEST = {
    # forking: a pool of workers (semaphores in /dev/shm)
    "fork": "import multiprocessing as mp\n"
            "def sq(x):\n    return x * x\n"
            "if __name__ == '__main__':\n"
            "    with mp.Pool(2) as p:\n        print('HONEST', sum(p.map(sq, range(100))))\n",
    # one process: a semaphore and a shared mapping of its own
    "seed": "import multiprocessing as mp, mmap, os\n"
            "l = mp.Lock()\nl.acquire(); l.release()\n"
            "n = '/dev/shm/sl-nb-h-%d' % os.getpid()\n"
            "fd = os.open(n, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)\n"
            "os.ftruncate(fd, 1 << 20)\nm = mmap.mmap(fd, 1 << 20)\nm[0:5] = b'hello'\n"
            "os.unlink(n)\nprint('HONEST', 328350 if m[0:5] == b'hello' else 0)\n",
}


def as_nobody():
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def shm_left(*toks):
    try:
        names = os.listdir("/dev/shm")
    except OSError:
        return []
    return [n for n in names if any(t in n for t in toks)]


def shm_remove(names):
    """The test's own leftovers in /dev/shm, gone; names, as they were."""
    for n in names:
        try:
            os.unlink(os.path.join("/dev/shm", n))
        except OSError:
            pass
    return names


def shm_pair(mode, how="named"):
    """A victim and an attacker side by side in a shared /dev/shm: the
    victim writes shared memory once the attacker has filled what it could
    (and still holds it, or was stopped)."""
    d = group("shm-%s-%s" % (mode, secrets.token_hex(4)))
    vdir, adir = new_dir(d, "v"), new_dir(d, "a")
    for di, n, text in ((vdir, "victim.py", SHM_VICTIM), (adir, "attacker.py", SHM_ATTACKER)):
        with open(os.path.join(di, n), "w") as f:
            f.write(text)
    tok, atok = secrets.token_hex(6), secrets.token_hex(6)
    rep = os.path.join(adir, "r.json")
    bare = mode == "bare"
    pre = as_nobody if bare else None

    def cmd(wd, argv):
        if bare:
            return argv
        return [SANDLOCK, *EXTRA, *MODES["fork"], *POOL, "--report", os.path.join(wd, "r.json"),
                "--workdir", wd, "--", *argv]
    victim = subprocess.Popen(cmd(vdir, [PY, "victim.py", tok]), cwd=vdir, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, preexec_fn=pre)
    first = victim.stdout.readline()
    att = subprocess.Popen(cmd(adir, [PY, "attacker.py", atok, tok, str(FILL_MB), how]), cwd=adir,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=pre)
    aout = b""
    while True:  # until it has filled (and holds), or is gone
        ln = att.stdout.readline()
        aout += ln
        if ln.startswith(b"FILLED") and bare:
            break  # it holds what it filled
        if not ln or ln.startswith(b"FILLED"):
            # sandboxed: stopped (or done), and swept once its supervisor
            # is gone (its output closes before the files it held; what
            # a burst writes between two samples fills a small tmpfs for
            # a moment: the neighbour writes after)
            if ln:
                # it filled before a sample saw it: while it holds, the
                # next sample must (let go after 20 s: the verdict tells)
                try:
                    att.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    with open(os.path.join(adir, "done"), "w"):
                        pass
            att.wait(timeout=120)
            break
    left_between = shm_left(atok)
    with open(os.path.join(vdir, "go"), "w"):
        pass
    vout, verr = victim.communicate(timeout=120)
    if not os.path.exists(os.path.join(adir, "done")):
        with open(os.path.join(adir, "done"), "w"):
            pass
    rest, aerr = att.communicate(timeout=120)
    left_after = shm_remove(shm_left(atok, tok))
    verdict = read_report(rep).get("verdict")
    out = (aout + rest).decode(errors="replace")
    return {"victim": (first + vout).decode(errors="replace"), "verr": verr.decode(errors="replace"),
            "vstatus": victim.returncode, "aout": out, "aerr": aerr.decode(errors="replace"),
            "astatus": att.returncode, "verdict": verdict, "between": left_between,
            "after": left_after,
            "got": {ln.split()[0]: ln.split()[1] for ln in out.splitlines() if len(ln.split()) > 1}}


KILLED_WRITER = r"""
import os, sys, time
fd = os.open("/dev/shm/sl-nb-k-" + sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
os.write(fd, b"KILLEDSECRET")
os.close(fd)
print("MADE", flush=True)
time.sleep(120)
"""
KILLED_READER = r"""
import sys
try:
    print(open("/dev/shm/sl-nb-k-" + sys.argv[1]).read())
except OSError as e:
    print("gone", e.errno)
"""


def shm_killed_supervisor():
    """A run whose supervisor is killed (SIGKILL: nothing of it sweeps):
    the next run of its uid must still not find its files."""
    d = new_dir(group("shmk-" + secrets.token_hex(4)), "k")
    for n, text in (("w.py", KILLED_WRITER), ("r.py", KILLED_READER)):
        with open(os.path.join(d, n), "w") as f:
            f.write(text)
    tok = secrets.token_hex(6)
    w = subprocess.Popen([PY, "w.py", tok], cwd=d, stdout=subprocess.PIPE, preexec_fn=as_nobody)
    w.stdout.readline()
    w.kill()
    w.wait()
    r = subprocess.run([PY, "r.py", tok], cwd=d, capture_output=True, timeout=60, preexec_fn=as_nobody)
    worked = b"KILLEDSECRET" in r.stdout
    for n in shm_left(tok):
        os.unlink(os.path.join("/dev/shm", n))
    name = "a killed run's /dev/shm file reaches the next run of its uid"
    result(worked, "bare: %s" % name, (r.stdout + r.stderr).decode(errors="replace")[-200:])
    if not worked:
        result(None, "fork --uid-pool: %s" % name, "the attack did not work bare")
        return
    # a pool of one uid: the next run is sure to have it (another lane's
    # run may hold one: the next is tried)
    for attempt in range(20):
        uid = 63900 + (os.getpid() + 7 * attempt) % 90
        pool = ["--uid-pool", "%d-%d" % (uid, uid)]
        sup = subprocess.Popen([SANDLOCK, *EXTRA, *MODES["fork"], *pool, "--workdir", d, "--",
                                PY, "w.py", tok], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if sup.stdout.readline().startswith(b"MADE"):
            break
        err = sup.communicate(timeout=60)[1]
        if b"in use" not in err:
            result(False, "fork --uid-pool: %s contained" % name,
                   "the run did not make its file: %s" % err.decode(errors="replace")[-300:])
            return
    else:
        result(False, "fork --uid-pool: %s contained" % name, "no free uid in 63900-63989")
        return
    left = shm_left(tok)
    sup.kill()  # the supervisor: its watchdog ends the program
    sup.wait()
    out = b""
    end = time.time() + 60
    while time.time() < end:  # until the watchdog let the uid go
        r = subprocess.run([SANDLOCK, *EXTRA, *MODES["fork"], *pool, "--workdir", d, "--",
                            PY, "r.py", tok], cwd=d, capture_output=True, timeout=60)
        out = r.stdout + r.stderr
        if b"in use" not in r.stderr:
            break
        time.sleep(0.1)
    gone = shm_left(tok)
    for n in gone:
        os.unlink(os.path.join("/dev/shm", n))
    result(bool(left) and b"gone" in out and not gone,
           "fork --uid-pool: %s contained (the next run sweeps first)" % name,
           "left while it ran %s, next run %s, left after %s" % (left, out[-200:], gone))


SHM_TOUCHER = SHM_TOUCH + r"""
import os, sys
# a neighbour's honest shared memory, again and again while the attacker
# runs (a page the tmpfs has no room for is SIGBUS), and what the tmpfs
# holds as it sees it each round
n = "/dev/shm/sl-nb-t-%s-%d" % (sys.argv[1], os.getpid())
rounds = most = 0
print("READY", flush=True)
while not os.path.exists("stop"):
    f = os.statvfs("/dev/shm")
    most = max(most, (f.f_blocks - f.f_bfree) * f.f_frsize >> 10)
    print("MOST", most, flush=True)
    touch(n, 1 << 20)
    rounds += 1
print("ROUNDS", rounds, flush=True)
"""

SHM_BURST = r"""
import mmap, os, sys, threading, time
# as fast as it can, from four threads: 8 MiB files (under --fsize) made
# long first (ftruncate) and their pages written through a mapping, or
# written 1 MiB at a time, until each thread has its quarter of total_mb
tok, how, total_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
chunk = b"z" * (1 << 20)
def fill(t):
    for i in range(total_mb // 32):
        n = "/dev/shm/sl-nb-b-%s-%d-%d" % (tok, t, i)
        fd = os.open(n, os.O_CREAT | os.O_RDWR, 0o600)
        f = os.statvfs("/dev/shm")
        try:
            # (the last of the tmpfs written: a mapped page past it is
            # SIGBUS, for the attacker too)
            if how == "long" and f.f_bfree * f.f_frsize > 24 << 20:
                os.ftruncate(fd, 8 << 20)
                m = mmap.mmap(fd, 8 << 20)
                for _ in range(8):
                    m.write(chunk)
            else:
                for _ in range(8):
                    os.write(fd, chunk)
        except OSError:
            return
th = [threading.Thread(target=fill, args=(t,)) for t in range(4)]
for t in th:
    t.start()
for t in th:
    t.join()
print("FILLED", flush=True)
# and takes every page the neighbour lets go, for a second
end = time.time() + 1
fd = os.open("/dev/shm/sl-nb-b-%s-x" % tok, os.O_CREAT | os.O_RDWR, 0o600)
while time.time() < end:
    try:
        os.write(fd, chunk[:4096])
    except OSError:
        pass
"""


def shm_burst(mode, how):
    """A neighbour touches new shared memory all along while the attacker
    fills /dev/shm as fast as it can; the tmpfs's use is watched from
    outside.  Returns the victim's status and output, the attacker's
    verdict and the most the tmpfs held (kB) while the attacker ran."""
    d = group("shmb-%s-%s-%s" % (mode, how, secrets.token_hex(4)))
    vdir, adir = new_dir(d, "v"), new_dir(d, "a")
    for di, n, text in ((vdir, "t.py", SHM_TOUCHER), (adir, "b.py", SHM_BURST)):
        with open(os.path.join(di, n), "w") as f:
            f.write(text)
    tok = secrets.token_hex(6)
    bare = mode == "bare"
    st = os.statvfs("/dev/shm")
    size_mb = st.f_blocks * st.f_frsize >> 20
    # the attacker asks for all of it

    def cmd(wd, argv, rep=None):
        if bare:
            return argv
        return [SANDLOCK, *EXTRA, *MODES["fork"], *POOL, *(["--report", rep] if rep else []),
                "--workdir", wd, "--", *argv]
    rep = os.path.join(adir, "r.json")
    victim = subprocess.Popen(cmd(vdir, [PY, "t.py", tok]), cwd=vdir, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, preexec_fn=as_nobody if bare else None)
    first = victim.stdout.readline()
    base = used = (st.f_blocks - os.statvfs("/dev/shm").f_bfree) * st.f_frsize >> 10
    att = subprocess.Popen(cmd(adir, [PY, "b.py", tok, how, str(size_mb)], rep), cwd=adir,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           preexec_fn=as_nobody if bare else None)
    aout, aerr = att.communicate(timeout=120)
    if bare:
        time.sleep(0.5)  # the neighbour's rounds in what the attacker left
    with open(os.path.join(vdir, "stop"), "w"):
        pass
    vout, verr = victim.communicate(timeout=120)
    seen = [int(ln.split()[1]) for ln in (first + vout).decode(errors="replace").splitlines()
            if ln.startswith("MOST ")]
    used = max(seen + [used])
    shm_remove(shm_left(tok))
    report = read_report(rep)
    verdict = report.get("verdict")
    return {"vstatus": victim.returncode, "mountns": bool((report.get("layers") or {}).get("mountns")),
            "victim": "\n".join(ln for ln in (first + vout).decode(errors="replace").splitlines()
                                if not ln.startswith("MOST ")),
            "verr": verr.decode(errors="replace")[-300:], "verdict": verdict, "used_kb": used,
            "base_kb": base, "aout": (aout + aerr).decode(errors="replace")[-300:],
            "size_kb": size_mb << 10}


def shm_bursts():
    """What a burst writes between two samples (docs/graders.md): the
    supervisor watches /dev/shm (src/shm.c), so a run is looked at as its
    files there are made, made long or written, not 10 ms later."""
    st = os.statvfs("/dev/shm")
    size_kb = st.f_blocks * st.f_frsize >> 10
    share_kb = size_kb // 4
    for how, what in (("long", "8 MiB files made long, then written through mappings"),
                      ("write", "8 MiB files written 1 MiB at a time")):
        name = "a burst of %s, four threads" % what
        b = shm_burst("bare", how)
        # (the neighbour dies of SIGBUS: a page of its file found the
        # tmpfs full, nothing else truncates it; or it keeps the 1 MiB it
        # held when the tmpfs filled: its own next round took the pages
        # it freed before the attacker did.  The test's own look at the
        # tmpfs may miss the moment it was full: 43 MiB seen once beside
        # make check's other lanes, with the SIGBUS)
        worked = b["vstatus"] == -signal.SIGBUS or b["used_kb"] >= size_kb - (2 << 10)
        result(worked, "bare: %s fills a %d MiB /dev/shm, the neighbour's shared memory dies "
               "of SIGBUS or has no page but the ones it held" % (name, size_kb >> 10),
               "held at most %d kB, victim %s %s" % (b["used_kb"], b["vstatus"], b["victim"][-100:]))
        if not worked:
            result(None, "fork --uid-pool: %s" % name, "the attack did not work bare")
            continue
        r = shm_burst("fork", how)
        if r["mountns"]:
            result(None, "fork --uid-pool: %s" % name, "a /dev/shm of the run's own here "
                   "(a mount namespace)")
            continue
        print("    (%s: the run's burst held the tmpfs at %d kB at most, over %d kB before)" % (
            how, r["used_kb"], r["base_kb"]), flush=True)
        honest = r["vstatus"] == 0 and "ROUNDS" in r["victim"]
        # made long: charged at its length, before its pages; written: by
        # the write that passed the share, give or take a few per thread
        # (on a loaded 2-CPU guest up to 30 MiB were seen)
        bound = share_kb + (2 << 10) if how == "long" else size_kb - (8 << 10)
        result(honest and r["verdict"] == "memory_limit" and r["used_kb"] - r["base_kb"] <= bound,
               "fork --uid-pool: %s stopped as memory_limit with the tmpfs at %d MiB at most "
               "(the run's share %d MiB), the neighbour's shared memory works all along" % (
                   name, bound >> 10, share_kb >> 10),
               "verdict %s, held at most %d kB over %d kB, victim %s %s %s, attacker %s" % (
                   r["verdict"], r["used_kb"], r["base_kb"], r["vstatus"], r["victim"][-100:],
                   r["verr"], r["aout"]))


def runs_get_mountns():
    """Do runs with a uid of their own get a mount namespace here (so a
    /dev/shm of their own, and none shared)?"""
    d = new_dir(group("shmns-" + secrets.token_hex(4)), "p")
    rpath = os.path.join(d, "r.json")
    subprocess.run([SANDLOCK, *EXTRA, *MODES["fork"], *POOL, "--workdir", d, "--report", rpath, "--",
                    "/bin/true"], cwd=d, capture_output=True, timeout=120)
    return bool((read_report(rpath).get("layers") or {}).get("mountns"))


def shm_checks(small):
    """small: /dev/shm is a tmpfs of SHM_MB here (else the host's)."""
    if runs_get_mountns():
        # (the configurations of real containers with the shipped or
        # Podman's profile: what a run leaves or fills in its own /dev/shm
        # is checked by check_leave and the attacks' suites)
        result(None, "fork --uid-pool: a shared /dev/shm", "a /dev/shm of the run's own here "
               "(a mount namespace): runs share none")
        return
    bare = shm_pair("bare")
    g = bare["got"]
    attacks = {
        "read a neighbour's 0600 /dev/shm file": (g.get("READ") == "ok", lambda r: r["got"].get("READ") == "ok"),
        "change a neighbour's /dev/shm file": (g.get("WRITE") == "ok" and "CHANGED!" in bare["victim"],
                                               lambda r: r["got"].get("WRITE") == "ok" or
                                               "CONTENT SHMSECRET" not in r["victim"]),
        "remove a neighbour's /dev/shm file": (g.get("RENAME") == "ok" or g.get("UNLINK") == "ok",
                                               lambda r: "ok" in (r["got"].get("RENAME"), r["got"].get("UNLINK"))),
        # on a small tmpfs the neighbour's shared write dies; on a large
        # one what was written stays, counted by nobody
        "fill /dev/shm (files counted by nobody, left behind)":
            ((bare["vstatus"] == -signal.SIGBUS and "SHMWRITE ok" not in bare["victim"]) if small
             else int(g.get("FILLED", 0)) >= FILL_MB - 8 and bool(bare["between"]),
             lambda r: r["verdict"] != "memory_limit" or "SHMWRITE ok" not in r["victim"]),
        "leave /dev/shm files for the next run": (bool(bare["between"]), lambda r: bool(r["after"])),
    }
    r = shm_pair("fork")
    honest = r["vstatus"] == 0 and "SHMWRITE ok" in r["victim"] and "READ" in r["got"]
    result(honest, "fork --uid-pool: victim and attacker run in a shared /dev/shm, the victim's "
           "shared-memory write works after its neighbour's fill",
           "victim %s %s %s / attacker %s %s %s" % (r["vstatus"], r["victim"][-200:], r["verr"][-300:],
                                                   r["astatus"], r["aout"][-200:], r["aerr"][-200:]))
    result(r["verdict"] == "memory_limit", "fork --uid-pool: the run that fills /dev/shm is stopped "
           "as memory_limit", "verdict %s, attacker %s" % (r["verdict"], r["aout"][-200:]))
    for name, (worked, hit) in attacks.items():
        result(worked, "bare: %s works between two processes of one uid" % name,
               "attacker %s / victim %s %s" % (bare["aout"][-300:], bare["vstatus"], bare["victim"][-200:]))
        if not worked:
            result(None, "fork --uid-pool: %s" % name, "the attack did not work bare")
        elif not honest:
            result(False, "fork --uid-pool: %s" % name, "no honest run to judge by")
        else:
            result(not hit(r), "fork --uid-pool: %s contained" % name,
                   "attacker %s / victim %s / left %s" % (r["aout"][-300:], r["victim"][-200:], r["after"]))
    # the same fill with files unlinked and held while the attacker lives:
    # by descriptors, by mappings alone, by a process that hides its
    # descriptors (not dumpable)
    for how in ("open", "mapped", "hidden"):
        name = "fill /dev/shm with unlinked files held %s" % {
            "open": "open", "mapped": "by mappings", "hidden": "by a process not dumpable"}[how]
        b = shm_pair("bare", how)
        worked = ((b["vstatus"] == -signal.SIGBUS and "SHMWRITE ok" not in b["victim"]) if small
                  else int(b["got"].get("FILLED", 0)) >= FILL_MB - 8)
        result(worked, "bare: %s works between two processes of one uid" % name,
               "attacker %s / victim %s %s" % (b["aout"][-300:], b["vstatus"], b["victim"][-200:]))
        if not worked:
            result(None, "fork --uid-pool: %s" % name, "the attack did not work bare")
            continue
        r = shm_pair("fork", how)
        result(r["verdict"] == "memory_limit" and r["vstatus"] == 0 and "SHMWRITE ok" in r["victim"],
               "fork --uid-pool: %s contained (memory_limit, the neighbour's write works)" % name,
               "verdict %s, attacker %s / victim %s %s %s" % (r["verdict"], r["aout"][-200:],
                                                             r["vstatus"], r["victim"][-200:], r["verr"][-200:]))
    shm_killed_supervisor()
    if small and HOST == "container":
        # a burst is held by how soon the supervisor runs once the watch
        # wakes it: in real containers (their lane runs alone) and not in
        # the full host's simulation of one, which runs beside make
        # check's other lanes (2 CPUs saturated: 24 MiB and 43 MiB were
        # seen with four busy loops beside it)
        shm_bursts()
    # honest programs, seed line and forking, each with a uid of its own
    for mode in ("seed", "fork"):
        d = new_dir(group("shmh-%s-%s" % (mode, secrets.token_hex(4))), "h")
        with open(os.path.join(d, "h.py"), "w") as f:
            f.write(SHM_HONEST[mode])
        p = subprocess.run([SANDLOCK, *EXTRA, *MODES[mode], *POOL, "--workdir", d, "--", PY, "h.py"],
                           cwd=d, capture_output=True, timeout=120)
        result(p.returncode == 0 and b"HONEST 328350" in p.stdout,
               "%s --uid-pool: multiprocessing in a shared /dev/shm works" % mode,
               "status %d %s %s" % (p.returncode, p.stdout[-200:], p.stderr[-300:]))


def shm_shared_uid():
    """Runs of one uid in a shared /dev/shm: closed, and named."""
    for mode in ("seed", "fork"):
        d = new_dir(group("shmu-%s-%s" % (mode, secrets.token_hex(4))), "u")
        rpath = os.path.join(d, "r.json")
        # (as root one identity for every run: not the default pool's uid
        # per run, which a container's root gets)
        one = ["--uid-pool", "off"] if ROOT else []
        p = subprocess.run([SANDLOCK, *EXTRA, *MODES[mode], *one, "--workdir", d, "--report", rpath,
                            "--", PY, "-c", SHM_HONEST["seed"]], cwd=d, capture_output=True, timeout=120)
        try:
            with open(rpath) as f:
                rep = json.load(f)
        except (OSError, ValueError):
            rep = {}
        layers = rep.get("layers") or {}
        if layers.get("mountns") or not layers.get("landlock"):
            result(None, "%s: /dev/shm of one uid" % mode, "a /dev/shm of the run's own here "
                   "(a mount namespace)" if layers.get("mountns") else "no Landlock here")
            continue
        result(p.returncode != 0 and "shm (/dev/shm closed" in (rep.get("missing") or ""),
               "%s: runs of one uid find /dev/shm closed, and the report's missing says so" % mode,
               "status %d, missing %r" % (p.returncode, rep.get("missing")))


def check_shm():
    shm_shared_uid()
    if not ROOT:
        result(None, "/dev/shm with a uid per run", "--uid-pool needs root")
        return
    if HOST not in ("docker", "podman", "full", "container"):
        result(None, "/dev/shm with a uid per run", "not on this simulated host (%s)" % HOST)
        return
    st = os.statvfs("/dev/shm")
    small = st.f_blocks * st.f_frsize < FILL_MB << 20  # a container's own
    here = os.path.dirname(os.path.abspath(__file__))
    sim = os.path.join(here, "hosts", "hostsim")
    if not small and HOST == "full" and shutil.which("unshare") and os.path.exists(sim):
        # a default container: its own 64 MiB /dev/shm, no namespaces
        # for the runs (the simulation), root
        p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs -o size=%dm,mode=1777 sl-nb-shm /dev/shm && "
                            "exec \"$@\"" % SHM_MB, "sh", sim, "docker", "--", PY,
                            os.path.abspath(__file__), "--shm-small"],
                           capture_output=True, timeout=900)
        lines = p.stdout.decode(errors="replace").splitlines()
        if result.relay(lines, "docker, %d MiB /dev/shm" % SHM_MB):
            return
        result(None, "docker, %d MiB /dev/shm" % SHM_MB, "cannot make a small /dev/shm here: %s" %
               (p.stdout + p.stderr).decode(errors="replace")[-300:])
    shm_checks(small)


# --shm-small: the checks inside a small /dev/shm (check_shm); --shm-only:
# check_shm alone
if "--shm-small" in sys.argv or "--shm-only" in sys.argv:
    try:
        if "--shm-small" in sys.argv:
            shm_checks(small=True)
        else:
            check_shm()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    sys.exit(result.finish("neighbours"))

try:
    check_shm()
    check_means()
    check_paths()
    check_at_once()
    check_one_after_other()
    check_leave()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
sys.exit(result.finish("neighbours"))
