#!/usr/bin/python3
"""A run cannot fill a /tmp it shares with its neighbours (issue 24: starve).

Where the run has no mount namespace of its own (every default container),
its scratch directory (HOME and TMPDIR under --clean-env) and the seed
line's TMPDIR (its working directory) are in the host's /tmp: a tmpfs (a
container's --tmpfs /tmp, Kubernetes' emptyDir in memory) or a disk (a
container's overlay, a host's /tmp), which the runs share.  An attacker
writes there until it is full (named files, in a subdirectory, unlinked
files held open) and holds it, while a victim beside
it writes and removes a 4 MiB scratch file in a loop, with a 20 MB input of
the grader's in its working directory.

Bare (two processes of one uid, one shared TMPDIR) the victim's writes fail
(ENOSPC): the proof.  Sandboxed (the seed line, a forking run, and as root
also with one uid for every run) the attacker is stopped at its share: as
memory_limit on a tmpfs (a quarter of it), as file_size_limit on a disk (a
quarter of what was free); the victim's writes work once it is
(in a real container, where the suite runs alone: every write of the
victim works, also during the attacker's burst), and nothing of the
attacker is left in /tmp.

Needs /tmp to be small: as root on the full host the suite makes one for
itself (a mount namespace of its own), a tmpfs and then an ext4 file system
on a loop device, and runs in each twice, as the full host and under the
Docker simulation; in a real container, one started with --tmpfs
/tmp:size=64m or with a small disk bound at /tmp (tests/containers.sh).
Elsewhere the checks are skipped as not applicable.

    SANDLOCK=path tests/tmp_fill.py
Last line: "tmp_fill: P passed, F failed, S skipped".
"""
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import Results, read_report  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
EXTRA = os.environ.get("SANDLOCK_EXTRA_FLAGS", "").split()
PY = "/usr/bin/python3"
ROOT = os.geteuid() == 0
SMALL_MB = 64
DISK_MB = 128
result = Results(HOST)
REPORTS = tempfile.mkdtemp(prefix="sl-tf-reports.", dir=next(
    (d for d in ("/var/tmp", "/dev/shm") if os.access(d, os.W_OK | os.X_OK)), None))

MODES = {
    "seed": ["--no-fork", "--no-network", "--clean-env", "--cpu", "5", "--mem", "256"],
    "fork": ["--no-network", "--clean-env", "--cpu", "5", "--mem", "256"],
}
if ROOT:
    MODES["fork, one uid"] = MODES["fork"] + ["--uid-pool", "off"]
    # a shared directory opened with --rw as its TMPDIR (a grader's
    # --rw /tmp), each run a uid of its own: "SHARED" is the pair's
    MODES["fork, --rw a shared directory"] = MODES["fork"] + ["--rw", "SHARED", "--env",
                                                              "TMPDIR=SHARED"]

ATTACKER = r'''
import os, sys, time
how, d = sys.argv[1], os.environ.get("TMPDIR", ".")
if how == "subdir":
    d = os.path.join(d, "a", "b", "c")
    os.makedirs(d)
held, n, chunk = [], 0, b"x" * (1 << 20)
try:
    while True:
        p = os.path.join(d, "fill%d" % n)
        f = open(p, "wb")
        if how == "unlinked":
            os.unlink(p)
            held.append(f)
        for _ in range(4):
            f.write(chunk)
            f.flush()
        if how != "unlinked":
            f.close()
        n += 1
except OSError as e:
    print("FILLED", n * 4, e.errno, flush=True)
# and every page a neighbour lets go, until told
more = os.open(os.path.join(d, "more"), os.O_CREAT | os.O_WRONLY, 0o600)
if how == "unlinked":
    os.unlink(os.path.join(d, "more"))
end = time.time() + 60
while not os.path.exists("go") and time.time() < end:
    try:
        os.write(more, b"z" * 65536)
    except OSError:
        time.sleep(0.0005)
'''

VICTIM = r'''
import os, time
d = os.environ.get("TMPDIR", ".")
size = len(open("input.bin", "rb").read())
ok = fail = 0
print("READY", size, flush=True)
end = time.time() + 90
while not os.path.exists("stop") and time.time() < end:
    p = os.path.join(d, "scratch")
    try:
        with open(p, "wb") as f:
            for _ in range(4):
                f.write(b"y" * (1 << 20))
        ok += 1
    except OSError:
        fail += 1
        print("FAILAT %.4f" % time.time(), flush=True)
    try:
        os.unlink(p)
    except OSError:
        pass
    time.sleep(0.002)
print("VICTIM ok=%d fail=%d" % (ok, fail), flush=True)
'''


def used_mb():
    st = os.statvfs("/tmp")
    return (st.f_blocks - st.f_bfree) * st.f_frsize / (1 << 20)


def workdir(parent, name, files):
    d = os.path.join(parent, name)
    os.mkdir(d)
    os.chmod(d, 0o777)
    for n, text in files.items():
        with open(os.path.join(d, n), "wb") as f:
            f.write(text)
        os.chmod(os.path.join(d, n), 0o644)
    return d


def pair(mode, how):
    """Victim and attacker side by side; what the victim's writes got."""
    g = tempfile.mkdtemp(prefix="sl-tf-", dir="/tmp")
    os.chmod(g, 0o755)
    shared = os.path.join(g, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o1777)
    vdir = workdir(g, "v", {"v.py": VICTIM.encode(), "input.bin": b"\0" * 20000000})
    adir = workdir(g, "a", {"a.py": ATTACKER.encode()})
    # (the report outside the tmpfs the attacker fills)
    rpath = os.path.join(REPORTS, "r-%s.json" % secrets.token_hex(4))

    def cmd(d, argv, rep=None):
        if mode == "bare":
            return argv
        opts = [shared if o == "SHARED" else o.replace("=SHARED", "=" + shared)
                for o in MODES[mode]]
        if "--rw" in opts and d == vdir:
            opts = MODES["fork"]  # (the victim's scratch is its own)
        return [SANDLOCK, *EXTRA, *opts, "--workdir", d,
                *(["--report", rep] if rep else []), "--", *argv]
    env = dict(os.environ, TMPDIR=shared, HOME=shared) if mode == "bare" else None
    base = used_mb()
    peak = [base]
    done = threading.Event()

    def watch():
        while not done.is_set():
            peak[0] = max(peak[0], used_mb())
            time.sleep(0.002)
    threading.Thread(target=watch, daemon=True).start()
    victim = subprocess.Popen(cmd(vdir, [PY, "v.py"]), cwd=vdir, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = victim.stdout.readline().decode(errors="replace")
    att = subprocess.Popen(cmd(adir, [PY, "a.py", how], rpath), cwd=adir, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    aline = att.stdout.readline().decode(errors="replace")  # FILLED, or "" (stopped)
    time.sleep(0.3)  # the victim writes on while the attacker holds what it has
    open(os.path.join(adir, "go"), "w").close()
    aout, aerr = att.communicate(timeout=120)
    ended = time.time()
    time.sleep(0.2)  # and after it
    open(os.path.join(vdir, "stop"), "w").close()
    vout, verr = victim.communicate(timeout=120)
    done.set()
    rep = read_report(rpath) if mode != "bare" else {}
    verdict = rep.get("verdict")
    # (with a mount namespace its TMPDIR is a tmpfs of its own, --mem's,
    # but for a shared directory opened with --rw)
    own = (rep.get("layers") or {}).get("mountns") and "--rw" not in MODES.get(mode, [])
    stopped = "memory_limit" if KIND == "tmpfs" or own else "file_size_limit"
    # (the working directories are the grader's to remove: the seed
    # line's TMPDIR is one)
    shutil.rmtree(g, ignore_errors=True)
    left = used_mb()
    vtext = first + vout.decode(errors="replace")
    counts = dict(kv.split("=") for kv in vtext.split("VICTIM", 1)[-1].split()) \
        if "VICTIM" in vtext else {}
    return {
        "ok": int(counts.get("ok", 0)), "fail": int(counts.get("fail", -1)),
        "late": [t for t in (float(ln.split()[1]) for ln in vtext.splitlines()
                             if ln.startswith("FAILAT ")) if t > ended],
        "vstatus": victim.returncode, "verr": verr.decode(errors="replace")[-300:],
        "filled": aline.strip(), "astatus": att.returncode,
        "aerr": aerr.decode(errors="replace")[-300:],
        "verdict": verdict, "stopped": stopped,
        "base": base, "peak": peak[0], "left": left,
    }


def checks():
    for how in ("files", "subdir", "unlinked"):
        b = pair("bare", how)
        worked = b["fail"] > 0 and b["filled"].startswith("FILLED")
        result(worked, "bare: filling a shared /tmp (%s) fails a neighbour's scratch writes" % how,
               "victim ok %d fail %d, attacker %r %s" % (b["ok"], b["fail"], b["filled"], b["aerr"]))
        for mode in MODES:
            name = "%s: filling /tmp (%s)" % (mode, how)
            if not worked:
                result(None, name, "the attack did not work bare")
                continue
            # A burst is stopped as soon as the supervisor runs once a
            # write wakes it: beside make check's other lanes (2 CPUs
            # saturated) the seed line's attacker, whose files stay in its
            # working directory, was seen to fill the tmpfs first.  So a
            # pair whose timing is the only thing wrong is tried again, up
            # to three times; without the accounting every try fails.
            for attempt in range(1, 4):
                r = pair(mode, how)
                honest = r["vstatus"] == 0 and r["ok"] > 0
                strict = HOST == "container"
                if r["verdict"] == r["stopped"] and honest and not r["late"] and \
                        (not strict or r["fail"] == 0):
                    break
            why = ("verdict %s, attacker %r %s / victim %s ok %d fail %d %s / /tmp %.0f MiB "
                   "before, %.0f at most, %.0f after; try %d" % (
                       r["verdict"], r["filled"], r["aerr"], r["vstatus"], r["ok"], r["fail"],
                       r["verr"], r["base"], r["peak"], r["left"], attempt))
            result(honest, "%s: the victim runs beside it (its 20 MB input not charged)" % name, why)
            result(honest and not r["late"], "%s: the victim's scratch writes work once it is "
                   "stopped" % name, why)
            if strict:
                # every write, also during the attacker's burst: only
                # where this suite runs alone (real containers, the last
                # lane); beside make check's other lanes an ASan build's
                # attacker wrote 24 MiB past its share first
                result(honest and r["fail"] == 0, "%s: every scratch write of the victim works"
                       % name, why)
            result(r["verdict"] == r["stopped"], "%s: the attacker is stopped as %s" % (
                name, r["stopped"]), why)
            result(r["left"] <= r["base"] + 2, "%s: nothing of it is left in /tmp" % name, why)


LEAVE = r'''
import os, sys
tok = sys.argv[1]
open("/tmp/left-" + tok, "w").write("x")
os.makedirs("/tmp/dir-" + tok + "/sub")
open("/tmp/dir-" + tok + "/sub/f", "w").write("x")
open(sys.argv[2], "w").write("the grader reads this")
open("made-here-" + tok, "w").write("and this")
print("WROTE")
'''


def leave_shared():
    """What a run with a uid of its own leaves in the system's /tmp, opened
    to it with --rw, goes with it; an output its command line names stays,
    and so does what it made in its working directory (1777, a grader's)."""
    if not ROOT:
        result(None, "--rw /tmp: what a run leaves there", "a uid per run needs root")
        return
    g = tempfile.mkdtemp(prefix="sl-tf-", dir="/tmp")
    os.chmod(g, 0o755)
    d = workdir(g, "w", {"l.py": LEAVE.encode()})
    os.chmod(d, 0o1777)
    tok = secrets.token_hex(4)
    mine = ["left-", "dir-"]

    def left(t):
        return sorted(n for n in os.listdir("/tmp") if any(n == m + t for m in mine))
    subprocess.run([PY, "l.py", "bare" + tok, "/tmp/out-bare" + tok], cwd=d, capture_output=True,
                   timeout=60)
    bare = left("bare" + tok)
    result(len(bare) == 2, "bare: a process leaves files in /tmp", "left %s" % bare)
    for n in bare + ["out-bare" + tok]:
        shutil.rmtree(os.path.join("/tmp", n), ignore_errors=True)
        if os.path.lexists(os.path.join("/tmp", n)):
            os.unlink(os.path.join("/tmp", n))
    out = "/tmp/out-" + tok
    rep = os.path.join(REPORTS, "leave-%s.json" % tok)
    p = subprocess.run([SANDLOCK, *EXTRA, *MODES["fork"], "--uid-pool", "63100-63199", "--rw", "/tmp",
                        "--workdir", d, "--report", rep, "--", PY, "l.py", tok, out], cwd=d,
                       capture_output=True, timeout=120)
    # (with a mount namespace --rw /tmp is the run's own /tmp, as nsjail's
    # --tmpfsmount /tmp: nothing it writes there reaches the host's)
    own_tmp = bool((read_report(rep).get("layers") or {}).get("mountns"))
    gone = left(tok)
    result(p.returncode == 0 and b"WROTE" in p.stdout, "fork, --rw /tmp: the run writes there",
           "status %d %s" % (p.returncode, p.stderr[-300:]))
    result(p.returncode == 0 and not gone, "fork, --rw /tmp: nothing it made there is left",
           "left %s" % gone)
    result((own_tmp or os.path.exists(out)) and os.path.exists(os.path.join(d, "made-here-" + tok)),
           "fork, --rw /tmp: %swhat it made in its working directory stay%s" % (
               "" if own_tmp else "the output its command line names, and ",
               "s" if own_tmp else ""), "%s %s, workdir %s" % (out, os.path.exists(out), os.listdir(d)))
    if os.path.exists(out):
        os.unlink(out)
    shutil.rmtree(g, ignore_errors=True)


def small_tmp():
    """"tmpfs" or "disk" where /tmp is a small file system, else None."""
    st = os.statvfs("/tmp")
    with open("/proc/self/mountinfo") as f:
        fstype = [ln.split(" - ")[1].split()[0] for ln in f if ln.split()[4] == "/tmp"]
    if not fstype or st.f_blocks * st.f_frsize > 256 << 20:
        return None
    return "tmpfs" if fstype[-1] == "tmpfs" else "disk"


KIND = small_tmp()
if "--inside" in sys.argv or KIND:
    if KIND:
        checks()
        leave_shared()
    else:
        result(None, "a small /tmp", "none could be made here")
elif ROOT and HOST == "full" and shutil.which("unshare"):
    # a /tmp made for us, then the suite again inside it: as the full host
    # (the seed line has no mount namespace) and as a default container
    # (no namespaces for any run).  What lies under the host's /tmp (make
    # check's staged tree, the binary, the programs) is seen at the same
    # place under a directory of ours outside it.
    sim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hosts", "hostsim")
    old = tempfile.mkdtemp(prefix="sl-tf-old-tmp.", dir="/var/tmp")
    img = tempfile.mkstemp(prefix="sl-tf-disk.", dir="/var/tmp")[1]
    mkfs = subprocess.run(["sh", "-c", "truncate -s %dM \"$0\" && mkfs.ext4 -q -F \"$0\"" % DISK_MB,
                           img], capture_output=True)

    def moved(v):
        return old + v[4:] if v == "/tmp" or v.startswith("/tmp/") else v
    for fs, mount in (("%d MiB tmpfs /tmp" % SMALL_MB,
                       "mount -t tmpfs -o size=%dm,mode=1777 sl-tf-tmp /tmp" % SMALL_MB),
                      ("%d MiB ext4 /tmp" % DISK_MB,
                       "mount -o loop \"$1\" /tmp && chmod 1777 /tmp")):
        if "ext4" in fs and mkfs.returncode != 0:
            result(None, fs, "no ext4 image: %s" % mkfs.stderr.decode(errors="replace")[-200:])
            continue
        for label, pre in (("full", []), ("docker", [moved(sim), "docker", "--"])):
            env = {k: moved(v) for k, v in os.environ.items()}
            env["SANDLOCK_HOSTSIM"] = label
            p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                                "mount --rbind /tmp \"$0\" && %s && shift && exec \"$@\"" % mount,
                                old, img, *pre, PY, moved(os.path.abspath(__file__)), "--inside"],
                               capture_output=True, timeout=1800, env=env)
            out = p.stdout.decode(errors="replace")
            err = p.stderr.decode(errors="replace")
            if "ext4" in fs and "tmp_fill:" not in out and "loop" in err:
                # no loop device here (a container without /dev/loop*)
                result(None, "%s, %s" % (label, fs), "cannot mount one: %s" % err[-200:])
                continue
            result.relay(out.splitlines(), "%s, %s" % (label, fs))
            if "tmp_fill:" not in out:
                result(False, "%s, %s: the suite ran" % (label, fs), (out + err)[-400:])
    os.rmdir(old)
    os.unlink(img)
else:
    result(None, "filling a shared /tmp", "/tmp is no small file system here (as root on the full "
           "host the suite makes one; in a container: --tmpfs /tmp:size=64m, or a small disk)")
shutil.rmtree(REPORTS, ignore_errors=True)
sys.exit(result.finish("tmp_fill"))
