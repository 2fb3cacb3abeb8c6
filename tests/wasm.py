#!/usr/bin/python3
"""The WebAssembly backend (--runtime wasm) on a simulated host (default:
the serverless one, where it is the only boundary):

    SANDLOCK=path tests/wasm.py          (SANDLOCK_WASM_HOST=lambda)

- escapes (tests/wasm/escape.py): each first proven to work with the
  host's own python3, bare under the same simulation, judged by evidence
  (the secret's bytes printed, a connection accepted, a file made); then
  contained under the backend, in a run that printed DONE;
- honest programs (tests/wasm/honest.py as a script, -c, -m and stdin;
  asyncio without sockets, tests/wasm/aio.py; a few MB of output; a
  persistent stdio worker): the same output as native; what asyncio cannot
  do there fails with the errors docs/wasm.md names;
- verdicts: CPU, wall, memory (caught MemoryError too), output, exit
  status, traceback; as a native run of sandlock gives them;
- the layers around the WASI host, on a host that has them
  (SANDLOCK_WASM_HOST=full or docker; skipped elsewhere): its
  /proc/PID/status shows sandlock's seccomp filter, the report names
  seccomp and landlock, and a native escape played by ptrace
  (tests/wasm/inject.py: the host's own openat and read of the secret)
  works bare and is contained under sandlock;
- RLIMIT_AS below the 8 GiB the guest's memory reserves: one line naming
  it, status 125 (the executable alone and under sandlock), no crash.

Skipped, with the reason, where the artifacts of `make wasm` are absent
(sandlock finds them next to itself, build/wasm, or by SANDLOCK_WASM_DIR:
a staged copy of the binary needs SANDLOCK_WASM_DIR=$(readlink -f build/wasm)).
SANDLOCK_WASM_HOST=old-kernel runs it where openat2 is refused (the WASI
host's component walk); full and docker work too.
Last line: "wasm: P passed, F failed, S skipped".
"""
import hashlib
import json
import os
import resource
import secrets
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "wasm"))
import inject  # noqa: E402  (tests/wasm/inject.py)
from results import Results  # noqa: E402
from wasmsim import ESCAPE_ROWS, HOST, HOSTSIM, Sim, backend_table, doc_table, out, wasm_line  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
NATIVE = "/usr/bin/python3"
result = Results(HOST)

line = wasm_line(SANDLOCK)
if not line.startswith("wasm: available"):
    result(None, "wasm backend", "artifacts absent (" + line + "): run `make wasm`")
    sys.exit(result.finish("wasm"))
print("#", line)

S = Sim(SANDLOCK, "sandlock-wasm.", ("escape.py", "honest.py", "worker.py", "aio.py", "envleak.py"))
WORK, SECRET = S.work, S.secret
workdir = S.workdir


def sandbox(args, cwd, flags=(), wasm=True, input=None, timeout=120, clean=True, env=None):
    return S.sandbox(["python3", *args], cwd, flags, wasm, input, timeout, clean, env)


# ---- escapes ----
# kind: the row of docs/wasm.md's table ("## Attacks it stops")
ESCAPES = ESCAPE_ROWS

# what docs/hosts.md's "Attack classes by host" says in its last column
# ("serverless with `--runtime wasm`"), checked at the end on the
# serverless simulation: its Python rows are attacks measured here
CLASS_ROWS = {
    "read a file outside the allowed paths (Python)": "abs_secret",
    "write a file outside the allowed paths (Python)": "write_outside",
    "connect to a network listener (Python)": "socket",
    "start another program (Python)": "subprocess",
    "signal a process outside the run (Python)": "kill",
    "read the sandbox's environment through /proc (Python)": "proc_environ",
    "leave a process behind after the run (Python)": "fork",
    "hold memory past --mem (Python)": "memory",
    "spend CPU past --cpu (Python)": "cpu",
}


def class_table():
    """{row: first word of the "serverless with `--runtime wasm`" cell}"""
    return doc_table("hosts.md", r"## Attack classes by host", 5, 4)


MEASURED = S.escapes(result, ESCAPES, lambda i, a: [NATIVE, "escape.py", *a],
                     lambda i, a: ["python3", "escape.py", *a], backend_table(1), "Python")

# ---- honest programs: the same output as native ----
d = workdir("honest")
nat = S.run([NATIVE, "honest.py", "x", "y"], d)
for name, args, inp in [("script", ["honest.py", "x", "y"], None),
                        ("-m", ["-m", "honest", "x", "y"], None),
                        ("stdin", ["-", "x", "y"], open(os.path.join(d, "honest.py"), "rb").read()),
                        ("-c", ["-c", open(os.path.join(d, "honest.py")).read(), "x", "y"], None)]:
    p, r = sandbox(args, d, input=inp)
    same = p.stdout == nat.stdout and nat.returncode == 0
    result(same and r.get("verdict") == "ok" and r.get("backend") == "wasm",
           f"honest program ({name}): native output, verdict ok, backend wasm",
           f"verdict {r.get('verdict')} backend {r.get('backend')} same={same} "
           f"stderr {p.stderr[-400:]!r} out {p.stdout[-200:]!r}")

# asyncio without sockets: timers, tasks, gather, a queue, locks, events,
# wait_for and timeout(), stdin by add_reader
lines = b"one\ntwo\n"
nat = S.run([NATIVE, "aio.py"], d, input=lines)
p, r = sandbox(["aio.py"], d, input=lines)
result(nat.returncode == 0 and b"TimeoutError" in nat.stdout and p.stdout == nat.stdout
       and r.get("verdict") == "ok",
       "asyncio (gather, Queue, wait_for timeout, locks, add_reader on stdin): native output",
       f"verdict {r.get('verdict')} stderr {p.stderr[-400:]!r} out {p.stdout[-300:]!r} "
       f"native {nat.stdout[-300:]!r} {nat.stderr[-300:]!r}")

# what needs a pipe transport, a socket, a process, a thread or a signal:
# the errors docs/wasm.md names, and the loop still closes
AIO_REFUSED = """import asyncio, signal, sys
async def main():
    loop = asyncio.get_running_loop()
    async def pipe():
        await loop.connect_read_pipe(asyncio.Protocol, sys.stdin)
    async def sig():
        loop.add_signal_handler(signal.SIGTERM, print)
    for name, f in [("connect_read_pipe", pipe),
                    ("open_connection", lambda: asyncio.open_connection("127.0.0.1", 9)),
                    ("create_subprocess_exec", lambda: asyncio.create_subprocess_exec("true")),
                    ("run_in_executor", lambda: loop.run_in_executor(None, print)),
                    ("add_signal_handler", sig)]:
        try:
            await f()
            print(name, "worked")
        except Exception as e:
            print(name, type(e).__name__)
asyncio.run(main())
print("closed")
"""
p, r = sandbox(["-c", AIO_REFUSED], d, input=b"")
want = ("connect_read_pipe ValueError\nopen_connection OSError\ncreate_subprocess_exec OSError\n"
        "run_in_executor RuntimeError\nadd_signal_handler NotImplementedError\nclosed\n")
result(out(p) == want and r.get("verdict") == "ok",
       "asyncio: pipes, sockets, processes, threads, signals fail as documented; the loop closes",
       f"verdict {r.get('verdict')} out {out(p)!r} stderr {p.stderr[-300:]!r}")

big = "import sys\nfor i in range(60000):\n    sys.stdout.write('%08d ' % i + 'x' * 60 + '\\n')\n"
nat = S.run([NATIVE, "-c", big], d)
p, r = sandbox(["-c", big], d)
result(len(nat.stdout) > 4_000_000 and p.stdout == nat.stdout and r.get("verdict") == "ok",
       "a few MB of output, byte for byte",
       f"{len(p.stdout)} vs {len(nat.stdout)} bytes, sha {hashlib.sha256(p.stdout).hexdigest()[:12]}, "
       f"verdict {r.get('verdict')}")

# the persistent worker: one request at a time, each answered before the next
answers, want, rw, _ = S.worker(["python3", "worker.py"], d)
result(answers == want and rw.get("verdict") == "ok",
       "a persistent stdio worker answers line by line", f"{answers[-3:]} {rw}")

# ---- what the caller gives: --ro DIR, --rw DIR, --ro @workdir ----
data = os.path.join(WORK, "data")
os.mkdir(data)
os.chmod(data, 0o777)
with open(os.path.join(data, "in.txt"), "w") as f:
    f.write("given\n")
os.chmod(os.path.join(data, "in.txt"), 0o644)
readit = f"print(open({os.path.join(data, 'in.txt')!r}).read().strip())"
p0, _ = sandbox(["-c", readit], d)
p1, r1 = sandbox(["-c", readit], d, ["--ro", data])
result(b"given" not in p0.stdout and out(p1).strip() == "given" and r1.get("verdict") == "ok",
       "--ro DIR: the guest sees it at its path (and not without it)",
       f"without: {p0.stderr[-200:]!r}; with: {out(p1)!r} {p1.stderr[-200:]!r}")
writeit = f"open({os.path.join(data, 'new.txt')!r}, 'w').write('x')"
p2, _ = sandbox(["-c", writeit], d, ["--ro", data])
made_ro = os.path.exists(os.path.join(data, "new.txt"))
p3, r3 = sandbox(["-c", writeit], d, ["--rw", data])
made_rw = os.path.exists(os.path.join(data, "new.txt"))
result(not made_ro and made_rw and r3.get("verdict") == "ok",
       "--ro DIR is read-only to the guest, --rw DIR writable",
       f"ro made={made_ro} {p2.stderr[-200:]!r}; rw made={made_rw} {p3.stderr[-200:]!r}")
wd = workdir("ro-workdir")
p4, _ = sandbox(["-c", "open('w.txt', 'w').write('x')"], wd)
made = os.path.exists(os.path.join(wd, "w.txt"))
os.unlink(os.path.join(wd, "w.txt")) if made else None
p5, _ = sandbox(["-c", "open('w.txt', 'w').write('x')"], wd, ["--ro", "@workdir"])
result(made and not os.path.exists(os.path.join(wd, "w.txt")) and b"Read-only" in p5.stderr,
       "the working directory is writable, and read-only with --ro @workdir",
       f"made={made} {p4.stderr[-200:]!r} / {p5.stderr[-200:]!r}")

# ---- the environment, without --clean-env: the issue's own command line
# (`sandlock --best-effort --runtime wasm -- python3 student.py`) on a host
# whose environment holds the platform's credentials ----
AWS = "AKIA-sl-"  # what the program hunts for: the secrets' prefix, not their values
aws_key, aws_session = secrets.token_hex(16), secrets.token_hex(16)
lambda_env = dict(S.env, AWS_SECRET_ACCESS_KEY=AWS + aws_key, AWS_SESSION_TOKEN=AWS + aws_session,
                  AWS_LAMBDA_FUNCTION_NAME="grader", EVAL_CASE="7")
de = workdir("environment")


def leaked(p):
    got = p.stdout + p.stderr
    return [t for t in (aws_key, aws_session, S.token) if t.encode() in got]


def names(p):
    return next((l.split()[1:] for l in out(p).splitlines() if l.startswith("NAMES")), None)


nat = S.run([NATIVE, "envleak.py", AWS], de, env=lambda_env)
result(aws_key in out(nat) and aws_session in out(nat) and b"DONE" in nat.stdout,
       "environment: the credentials are there for a program run bare on the host",
       f"leaked {leaked(nat)} out {out(nat)[-300:]!r} {nat.stderr[-200:]!r}")
p, r = sandbox(["envleak.py", AWS, "walk"], de, clean=False, env=lambda_env)
files = next((int(l.split()[1]) for l in out(p).splitlines() if l.startswith("FILES")), 0)
# every file it can list: its working directory and the standard library
result(not leaked(p) and b"DONE" in p.stdout and files > 500 and r.get("verdict") == "ok"
       and names(p) == ["HOME", "LANG", "PATH"],
       "environment without --clean-env: no credential in os.environ, /proc or any file the guest reads; "
       "only HOME, LANG, PATH",
       f"leaked {leaked(p)} names {names(p)} files {files} verdict {r.get('verdict')} "
       f"out {out(p)[-400:]!r} stderr {p.stderr[-300:]!r}")
p, r = sandbox(["envleak.py", AWS], de, env=lambda_env)
result(not leaked(p) and names(p) == ["HOME", "LANG", "PATH"] and r.get("verdict") == "ok",
       "environment with --clean-env: the same three variables",
       f"leaked {leaked(p)} names {names(p)} {p.stderr[-300:]!r}")
show = "import os; print(os.environ.get('EVAL_CASE'), os.environ.get('GRADER_SEED'), os.environ['HOME'])"
for clean in (False, True):
    p, r = sandbox(["-c", show], de, ["--env", "GRADER_SEED=42", "--keep-env", "EVAL_*"],
                   clean=clean, env=lambda_env)
    result(out(p).split() == ["7", "42", "/nonexistent"] and r.get("verdict") == "ok",
           f"environment{' with --clean-env' if clean else ''}: --env NAME=VALUE and --keep-env PATTERN "
           "still reach the guest", f"out {out(p)!r} {p.stderr[-300:]!r}")

# ---- the layers around the WASI host (issue 29, 4: defence in depth) ----
# On a host that offers them, the executable runs under seccomp and
# Landlock too: seen from outside (/proc, not sandlock's messages), and by
# what the WASI host's own native code can still do.  No guest program can
# reach the host's native code (that would be an escape of the
# WebAssembly sandbox, which the escapes above show none of), so the test
# takes that step itself: ptrace makes the sleeping process run openat and
# read of its own, as a guest that had escaped would.  The kernel checks
# them against the tracee's filter and domain, not ours.
WASM_DIR = os.environ.get("SANDLOCK_WASM_DIR") or os.path.join(os.path.dirname(os.path.realpath(SANDLOCK)), "wasm")
EXE = os.path.realpath(os.path.join(WASM_DIR, "python"))
WAIT_STDIN = "import sys; print('ready', flush=True); sys.stdin.read(); print('woke')"


def argv_of(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")[:-1]
    except OSError:
        return []


def status_of(pid):
    try:
        return dict(l.split(":\t", 1) for l in open(f"/proc/{pid}/status").read().splitlines() if ":\t" in l)
    except OSError:
        return {}


def wasi_host(pid):
    """the process under pid whose executable is the WASI host's, or None"""
    a = argv_of(pid)
    if a and os.path.realpath(a[0].decode()) == EXE:
        return pid
    for t in os.listdir(f"/proc/{pid}/task") if os.path.isdir(f"/proc/{pid}/task") else ():
        try:
            kids = open(f"/proc/{pid}/task/{t}/children").read().split()
        except OSError:
            kids = []
        for c in kids:
            h = wasi_host(int(c))
            if h:
                return h
    return None


def injected_read(pid):
    """the WASI host reads the secret by its own system calls; retried while
    it is between two of them (it prints, then blocks in read)"""
    for _ in range(50):
        got, how = inject.read_file_as(pid, SECRET)
        if how != "not stopped at a system call":
            return got, how
        time.sleep(0.1)
    return None, how


def waiting(argv, cwd):
    """argv on the simulated host, its guest blocked on stdin: the process
    and the WASI host's pid (None if it never got there)"""
    p = subprocess.Popen([HOSTSIM, HOST, "--", *argv], cwd=cwd, env=S.env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # a run that never gets there must not hang the suite on readline
    t = threading.Timer(90, p.kill)
    t.start()
    first = p.stdout.readline()
    t.cancel()
    return p, (wasi_host(p.pid) if first == b"ready\n" else None)


def finish(p):
    try:
        o, e = p.communicate(b"", timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        o, e = p.communicate()
    return o, e


dl = workdir("layers")
if HOST not in ("full", "docker"):
    why = (f"SANDLOCK_WASM_HOST={HOST}: on this simulated host the WASI host is the boundary "
           "(no seccomp filter or Landlock of ours around it to check)")
    for name in ("the WASI host process is under sandlock's seccomp filter (/proc)",
                 "the report names the layers seccomp and landlock",
                 "a native escape of the WASI host (its own openat of a file outside) works bare, "
                 "contained under sandlock"):
        result(None, f"layers: {name}", why)
else:
    rpath = os.path.join(WORK, "layers.json")
    p, h = waiting([SANDLOCK, "--best-effort", "--runtime", "wasm", "--clean-env", "--timeout", "90",
                    "--report", rpath, "--",
                    "python3", "-c", WAIT_STDIN], dl)
    top, host_argv = status_of(p.pid), argv_of(h) if h else []
    st = status_of(h) if h else {}
    # the sandlock process carries the host's own filters (hostsim's Docker
    # profile): the WASI host must have one more, sandlock's
    filters, own = int(st.get("Seccomp_filters", "0")), int(top.get("Seccomp_filters", "0"))
    result(h is not None and st.get("Seccomp") == "2" and filters > own,
           "layers: the WASI host process is under sandlock's seccomp filter (/proc)",
           f"pid {h} Seccomp {st.get('Seccomp')} filters {filters}, sandlock's own {own}; exe {EXE}")
    if not inject.supported():
        result(None, "layers: a native escape of the WASI host", "by design: the injection is x86_64 code")
        sandboxed = None
    elif h is None:
        sandboxed = (None, "no WASI host process found")
    else:
        try:
            sandboxed = injected_read(h)
        except OSError as e:
            sandboxed = None
            result(None, "layers: a native escape of the WASI host",
                   f"ptrace of the sandboxed process refused ({e}): needs root here")
    o, e = finish(p)
    try:
        r = json.load(open(rpath))
    except (OSError, ValueError):
        r = {}
    layers = r.get("layers") or {}
    feat = subprocess.run([HOSTSIM, HOST, "--", SANDLOCK, "--features"], capture_output=True, text=True).stdout
    want_ll = HOST == "full" or "landlock: available" in feat
    result(layers.get("seccomp") is True and (layers.get("landlock") is True or not want_ll)
           and layers.get("wasm") is True and r.get("verdict") == "ok" and o == b"woke\n",
           "layers: the report names the layers seccomp and landlock" + ("" if want_ll else " (seccomp: no Landlock here)"),
           f"layers {layers} verdict {r.get('verdict')} out {o!r} err {e[-300:]!r}")
    if sandboxed is not None:
        # the same executable with the same arguments, bare on this host
        b, bh = waiting([EXE, *[a.decode() for a in host_argv[1:]]] if host_argv else [EXE], dl)
        bare = injected_read(bh) if bh else (None, "no process")
        finish(b)
        got = sandboxed[0] or b""
        # contained: the calls ran in the sandboxed process and were refused
        # (or killed it), not merely never made
        ran = sandboxed[1].startswith(("openat: ", "read ", "died: "))
        result(S.token.encode() in (bare[0] or b"") and ran and S.token.encode() not in got,
               "layers: a native escape of the WASI host (its own openat of a file outside) works bare, "
               "contained under sandlock",
               f"bare {bare[1]} {bare[0]!r}; under sandlock {sandboxed[1]} {got!r}")

# ---- the 8 GiB reservation refused (issue 29, 2): one line, 125, no
# crash of the runtime; as the executable alone and under sandlock ----
AS_LIMIT = 4 << 30


def low_as():
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


for name, argv in [("the executable", [EXE, "--rw", ".", "/", "--", "python3", "-c", "print('ran')"]),
                   ("sandlock --runtime wasm",
                    [SANDLOCK, "--best-effort", "--runtime", "wasm", "--clean-env", "--", "python3", "-c", "print('ran')"])]:
    p = subprocess.run(argv, cwd=dl, capture_output=True, timeout=60, preexec_fn=low_as)
    lines = p.stderr.splitlines()
    result(p.returncode == 125 and len(lines) == 1 and b"8 GiB" in lines[0] and b"reserve" in lines[0]
           and not p.stdout,
           f"RLIMIT_AS of 4 GiB ({name}): one line naming the 8 GiB reservation, status 125",
           f"status {p.returncode} stderr {p.stderr[-400:]!r} out {p.stdout[-100:]!r}")

# ---- bad input: one line, 125 ----
for name, argv in [("not a python3 command", [SANDLOCK, "--runtime", "wasm", "--", "/bin/true"]),
                   ("no artifacts there", [SANDLOCK, "--runtime", "wasm", "--wasm-dir", WORK, "--", "python3"]),
                   ("--require wasm without it", [SANDLOCK, "--require", "wasm", "--", "/bin/true"]),
                   ("--ro FILE", [SANDLOCK, "--runtime", "wasm", "--ro", SECRET, "--", "python3", "-c", ""])]:
    p = subprocess.run(argv, cwd=d, capture_output=True, timeout=60)
    result(p.returncode == 125 and len(p.stderr.splitlines()) == 1 and not p.stdout,
           f"bad input ({name}): one line, 125", f"{p.returncode} {p.stderr!r}")

# ---- verdicts, as a native run gives them ----
VERDICTS = [
    ("cpu", ["--cpu", "1"], "while True: pass", "cpu_limit"),
    ("wall", ["--timeout", "1"], "import time; time.sleep(30)", "wall_limit"),
    # an event loop nothing can wake (docs/wasm.md, "asyncio")
    ("wall, asyncio", ["--timeout", "1"],
     "import asyncio\nasync def m(): await asyncio.get_running_loop().create_future()\nasyncio.run(m())",
     "wall_limit"),
    ("output", ["--max-output", "100000"], "while True: print('x' * 100)", "output_limit"),
    ("exit status", [], "import sys; sys.exit(3)", "runtime_error"),
    ("traceback", [], "raise ValueError('boom')", "runtime_error"),
    # measured: file_size_limit on the full, Docker and old-kernel hosts,
    # runtime_error (the write's EFBIG, an OSError) on the serverless one;
    # as native on each
    ("file size", ["--fsize", "1"], "open('big', 'wb').write(b'x' * (2 << 20))",
     ("runtime_error", "file_size_limit")),
    ("ok", [], "print('fine')", "ok"),
]
for name, flags, code, want in VERDICTS:
    t0 = time.time()
    p, r = sandbox(["-c", code], d, flags)
    pn, rn = sandbox(["-c", code], d, flags, wasm=False)
    wants = want if isinstance(want, tuple) else (want,)
    ok = r.get("verdict") in wants and r.get("verdict") == rn.get("verdict") and \
        r.get("exit_code") == rn.get("exit_code")
    want = "/".join(wants)
    if name == "traceback":
        ok = ok and b"Traceback" in p.stderr and b"ValueError: boom" in p.stderr
    if name == "cpu":
        # the attack class "spend CPU past --cpu": the loop was stopped there
        MEASURED["cpu"] = "stopped" if r.get("verdict") == "cpu_limit" else "open"
    result(ok, f"verdict {name}: {want}, as native",
           f"wasm {r.get('verdict')}/{r.get('exit_code')} native {rn.get('verdict')}/{rn.get('exit_code')} "
           f"stderr {p.stderr[-300:]!r} ({time.time() - t0:.1f}s)")

# --disk: 3 files of 1 MB under --disk 2.  Natively the run's /tmp is a
# tmpfs of 2 MiB (a mount namespace): ENOSPC, the program's own verdict
# (tests/verdicts.py); the guest's /tmp is in its working directory (the
# host's disk), where the WASI host counts what its files grow by.  Where
# the native run has no mount namespace (--best-effort: disk in missing)
# only the guest is capped.  (main's binary: the guest wrote all 3, ok.)
dd = workdir("disk")
tag = "sl-disk-" + secrets.token_hex(4)
disk_code = (f"import os\nos.makedirs('/tmp/{tag}', exist_ok=True)\n"
             f"for i in range(3):\n    open(f'/tmp/{tag}/f{{i}}', 'wb').write(b'x' * (1 << 20))\n")
p, r = sandbox(["-c", disk_code], dd, ["--disk", "2"])
pn, rn = sandbox(["-c", disk_code], dd, ["--disk", "2"], wasm=False)
subprocess.run(["rm", "-rf", os.path.join(dd, "tmp"), os.path.join("/tmp", tag)])
enospc = b"No space left on device" in p.stderr
if "disk" in (rn.get("missing") or ""):
    result(r.get("verdict") == "runtime_error" and r.get("exit_code") == 1 and enospc and
           "disk" not in (r.get("missing") or ""),
           "verdict disk: 3 MB under --disk 2, ENOSPC, runtime_error (native: no mount namespace, not capped)",
           f"wasm {r.get('verdict')}/{r.get('exit_code')} missing {r.get('missing')} stderr {p.stderr[-300:]!r}")
else:
    result(r.get("verdict") == "runtime_error" and r.get("verdict") == rn.get("verdict") and
           r.get("exit_code") == rn.get("exit_code") and enospc and b"No space left on device" in pn.stderr,
           "verdict disk: 3 MB under --disk 2, ENOSPC, runtime_error, as native",
           f"wasm {r.get('verdict')}/{r.get('exit_code')} native {rn.get('verdict')}/{rn.get('exit_code')} "
           f"stderr {p.stderr[-300:]!r} native {pn.stderr[-300:]!r}")

# memory: the guest's own allocation fails at --mem; caught or not, memory_limit
hog = ("chunks = []\ntry:\n    while True:\n        chunks.append(bytearray(8 << 20))\n"
       "except MemoryError:\n    n = len(chunks)\n    chunks.clear()\n    print('caught', n * 8)\n")
p, r = sandbox(["-c", hog], d, ["--mem", "128"])
caught = out(p).split()
result(r.get("verdict") == "memory_limit" and caught[:1] == ["caught"] and 64 <= int(caught[1]) <= 128,
       "memory: MemoryError at --mem, caught, still memory_limit",
       f"{r.get('verdict')} {out(p)!r} {p.stderr[-300:]!r}")
p, r = sandbox(["-c", "x = bytearray(64 << 20); print(len(x))"], d, ["--mem", "128"])
result(r.get("verdict") == "ok" and out(p).strip() == str(64 << 20),
       "memory: 64 MB under --mem 128 is fine", f"{r.get('verdict')} {p.stderr[-300:]!r}")
p, r = sandbox(["-c", "x = bytearray(200 << 20)\nprint('held')"], d, ["--mem", "128"])
result(r.get("verdict") == "memory_limit" and b"MemoryError" in p.stderr,
       "memory: uncaught MemoryError, memory_limit", f"{r.get('verdict')} {p.stderr[-300:]!r}")
# the attack class "hold memory past --mem": 200 MB under --mem 128
MEASURED["memory"] = "open" if b"held" in p.stdout else "stopped"

# ---- docs/hosts.md's "Attack classes by host", its wasm column ----
if HOST == "lambda":
    CLASSES = class_table()
    result(bool(CLASSES), "docs/hosts.md: \"Attack classes by host\" has the column serverless with wasm", f"{CLASSES}")
    for row, word in (CLASSES or {}).items():
        kind = CLASS_ROWS.get(row)
        if kind is None:
            result(word == "n/a", f"docs/hosts.md: attack classes: {row}: n/a for wasm (no native code)", f"says {word}")
        else:
            result(MEASURED.get(kind) == word,
                   f"docs/hosts.md: attack classes: {row}: says {word}, measured {MEASURED.get(kind)} ({kind})")

S.close()
sys.exit(result.finish("wasm"))
