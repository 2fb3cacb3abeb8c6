#!/usr/bin/python3
"""Language profiles (--profile NAME[:STEP]): each built-in profile compiles
and runs a real program in its language, where the toolchain is installed,
and stops that language's usual escapes.

    SANDLOCK=path tests/profiles.py     (SANDLOCK_EXTRA_FLAGS)

Every escape is first run bare, the same program on the same files without
the sandbox, and must work there; under the profile's run step it must
leave no evidence: a file outside the working directory read (its secret
printed), one written, a connection to a listener of ours made, a process
started (the file it writes), the program's own directory changed.  The
files are open to every uid, so that only the sandbox's layers, not the
uid a root grader's run gets, stand in the way.  On a host without Landlock
a profile is refused (125, the reason named), or with --best-effort runs
and names landlock missing.  Last line: "profiles: P passed, F failed, S skipped".
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import Listener, Results  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
HOST = os.environ.get("SANDLOCK_HOSTSIM", "full")
EXTRA = os.environ.get("SANDLOCK_EXTRA_FLAGS", "").split()
result = Results(HOST)
WORK = tempfile.mkdtemp(prefix="sandlock-profiles.")
os.chmod(WORK, 0o755)
OUT = os.path.join(WORK, "out")         # where escapes write: open to all
os.mkdir(OUT)
os.chmod(OUT, 0o1777)
SECRET = os.path.join(WORK, "secret.txt")
TOKEN = "sl-secret-%d" % os.getpid()
with open(SECRET, "w") as f:
    f.write(TOKEN + "\n")
os.chmod(SECRET, 0o644)


def which(*names):
    for n in names:
        p = shutil.which(n, path="/usr/bin:/bin:/usr/local/bin:/usr/local/go/bin")
        if p:
            return p
    return None


def run(profile, argv, cwd, stdin=b"", extra=(), timeout=240):
    rpath = os.path.join(WORK, "r.json")
    if os.path.exists(rpath):
        os.unlink(rpath)
    p = subprocess.run([SANDLOCK, *EXTRA, "--profile", profile, "--workdir", cwd,
                        "--report", rpath, *extra, "--", *argv],
                       input=stdin, capture_output=True, timeout=timeout)
    try:
        r = json.load(open(rpath))
    except (OSError, ValueError):
        r = {}
    return p, r


def bare(argv, cwd, timeout=120):
    return subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout)


LISTEN = Listener()

# ---- the programs: an honest one (numbers on stdin, their sum, with what
# the language's runtime does: threads, a JIT, a collector), and one that
# tries an escape: read FILE, write FILE, connect PORT, spawn FILE (a shell
# that writes FILE), or tamper (write into its own directory)
C_HONEST = r"""
#include <pthread.h>
#include <stdio.h>
static void *work(void *a) { return a; }
int main(void) {
	long s = 0, x;
	while (scanf("%ld", &x) == 1) s += x;
	pthread_t t; pthread_create(&t, 0, work, 0); pthread_join(t, 0);
	printf("sum %ld\n", s);
	return 0;
}
"""
C_ESCAPE = r"""
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
	if (argc < 3) return 2;
	const char *m = argv[1], *a = argv[2];
	if (!strcmp(m, "read")) {
		char b[128] = ""; FILE *f = fopen(a, "r");
		if (!f || !fgets(b, sizeof b, f)) return 1;
		printf("read %s", b);
	} else if (!strcmp(m, "write") || !strcmp(m, "tamper")) {
		FILE *f = fopen(a, "w");
		if (!f || fputs("x\n", f) < 0 || fclose(f)) return 1;
	} else if (!strcmp(m, "connect")) {
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(atoi(a)) };
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		int s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa)) return 1;
	} else if (!strcmp(m, "spawn")) {
		char cmd[4200];
		snprintf(cmd, sizeof cmd, "echo x > '%s'", a);
		return system(cmd) ? 1 : 0;
	}
	printf("did %s\n", m);
	return 0;
}
"""
PY_HONEST = r"""
import sys, threading
try:
    import numpy
    extra = int(numpy.arange(10).sum())
except ImportError:
    extra = 45
t = threading.Thread(target=lambda: None); t.start(); t.join()
print("sum", sum(map(int, sys.stdin.read().split())) + extra - 45)
"""
PY_ESCAPE = r"""
import os, socket, subprocess, sys
m, a = sys.argv[1], sys.argv[2]
if m == "read":
    print("read", open(a).read(), end="")
elif m in ("write", "tamper"):
    open(a, "w").write("x\n")
elif m == "connect":
    socket.create_connection(("127.0.0.1", int(a)), timeout=5)
elif m == "spawn":
    subprocess.run(["/bin/sh", "-c", "echo x > '%s'" % a], check=True)
print("did", m)
"""
JAVA_HONEST = r"""
import java.util.*;
public class Main {
	public static void main(String[] args) throws Exception {
		Scanner in = new Scanner(System.in);
		long s = 0;
		while (in.hasNextLong()) s += in.nextLong();
		Thread t = new Thread(() -> {}); t.start(); t.join();
		int[] big = new int[10_000_000]; big[1] = 1;
		System.out.println("sum " + (s + big[1] - 1));
	}
}
"""
JAVA_ESCAPE = r"""
import java.io.*;
import java.net.*;
import java.nio.file.*;
public class Main {
	public static void main(String[] args) throws Exception {
		String m = args[0], a = args[1];
		if (m.equals("read")) System.out.print("read " + Files.readString(Path.of(a)));
		else if (m.equals("write") || m.equals("tamper")) Files.writeString(Path.of(a), "x\n");
		else if (m.equals("connect")) new Socket("127.0.0.1", Integer.parseInt(a)).close();
		else if (m.equals("spawn")) {
			Process p = new ProcessBuilder("/bin/sh", "-c", "echo x > '" + a + "'").start();
			if (p.waitFor() != 0) System.exit(1);
		}
		System.out.println("did " + m);
	}
}
"""
JS_HONEST = r"""
const fs = require('fs');
const { Worker } = require('worker_threads');
const n = fs.readFileSync(0, 'utf8').split(/\s+/).filter(Boolean).map(Number);
new Worker('require("worker_threads").parentPort.postMessage(1)', { eval: true })
  .on('message', () => console.log('sum ' + n.reduce((a, b) => a + b, 0)));
"""
JS_ESCAPE = r"""
const [m, a] = process.argv.slice(2);
const fs = require('fs');
if (m === 'read') process.stdout.write('read ' + fs.readFileSync(a, 'utf8'));
else if (m === 'write' || m === 'tamper') fs.writeFileSync(a, 'x\n');
else if (m === 'spawn') require('child_process').execFileSync('/bin/sh', ['-c', `echo x > '${a}'`]);
if (m === 'connect') {
  require('net').connect(+a, '127.0.0.1', function () { console.log('did ' + m); this.end(); })
    .on('error', () => process.exit(1));
} else console.log('did ' + m);
"""
GO_HONEST = r"""
package main

import (
	"bufio"
	"fmt"
	"os"
	"sync"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var s, x int64
	for {
		if _, err := fmt.Fscan(r, &x); err != nil {
			break
		}
		s += x
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done() }()
	}
	wg.Wait()
	fmt.Println("sum", s)
}
"""
GO_ESCAPE = r"""
package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
)

func main() {
	m, a := os.Args[1], os.Args[2]
	var err error
	switch m {
	case "read":
		var b []byte
		if b, err = os.ReadFile(a); err == nil {
			fmt.Print("read ", string(b))
		}
	case "write", "tamper":
		err = os.WriteFile(a, []byte("x\n"), 0644)
	case "connect":
		var c net.Conn
		if c, err = net.Dial("tcp", "127.0.0.1:"+a); err == nil {
			c.Close()
		}
	case "spawn":
		err = exec.Command("/bin/sh", "-c", "echo x > '"+a+"'").Run()
	}
	if err != nil {
		os.Exit(1)
	}
	fmt.Println("did", m)
}
"""

GCC, GXX, PY3 = which("gcc"), which("g++"), "/usr/bin/python3"
JAVAC, JAVA, NODE = which("javac"), which("java"), which("node")
GO = which("go")

# name, toolchain present, source file, source texts, compile argv, run argv
LANGS = [
    ("c", GCC, "main.c", C_HONEST, C_ESCAPE, [GCC, "-O2", "-o", "prog", "main.c"], ["./prog"]),
    ("cpp", GXX, "main.cpp", C_HONEST, C_ESCAPE, [GXX, "-O2", "-o", "prog", "main.cpp"], ["./prog"]),
    ("python", os.path.exists(PY3) and PY3, "main.py", PY_HONEST, PY_ESCAPE,
     [PY3, "-m", "py_compile", "main.py"], [PY3, "main.py"]),
    ("java", JAVAC and JAVA, "Main.java", JAVA_HONEST, JAVA_ESCAPE,
     [JAVAC, "Main.java"], [JAVA, "Main"]),
    ("node", NODE, "main.js", JS_HONEST, JS_ESCAPE, [NODE, "--check", "main.js"], [NODE, "main.js"]),
    ("go", GO, "main.go", GO_HONEST, GO_ESCAPE, [GO, "build", "-o", "prog", "main.go"], ["./prog"]),
]


def evidence(mode, target, p):
    """what the escape left: True if it worked"""
    if mode == "read":
        return TOKEN.encode() in p.stdout
    if mode == "connect":
        # the listener's thread counts what the kernel accepted
        for _ in range(20):
            if LISTEN.count > evidence.before:
                return True
            time.sleep(0.05)
        return False
    return os.path.exists(target)


def layers_missing(r):
    return r.get("verdict") == "setup_failed" and "landlock" in (r.get("error") or "")


def box(name, kind):
    d = os.path.join(WORK, f"{name}-{kind}")
    os.mkdir(d)
    os.chmod(d, 0o777)  # a root grader's run is another uid: it compiles here
    return d


for name, tool, src, honest, escape, compile_argv, run_argv in LANGS:
    if not tool:
        result(None, f"{name}: profile", "the toolchain is not installed here")
        continue
    # the honest program: compiled and run under the profile's two steps
    d = box(name, "honest")
    with open(os.path.join(d, src), "w") as f:
        f.write(honest)
    p, r = run(f"{name}:compile", compile_argv, d)
    if layers_missing(r) and p.returncode == 125:
        result(b"landlock" in p.stderr, f"{name}: refused where Landlock is missing (125, named)",
               f"stderr {p.stderr[:200]!r}")
        continue
    if r.get("verdict") != "ok":
        result(False, f"{name}: compiles under --profile {name}:compile",
               f"verdict {r.get('verdict')} status {p.returncode} stderr {p.stderr[-400:]!r}")
        continue
    result(True, f"{name}: compiles under --profile {name}:compile "
           f"({r.get('cpu_ms')} ms CPU, {r.get('peak_kb')} kB)")
    p, r = run(name, run_argv, d, stdin=b"1 2 3\n40\n")
    result(r.get("verdict") == "ok" and p.stdout.strip() == b"sum 46",
           f"{name}: runs under --profile {name}, right answer",
           f"verdict {r.get('verdict')} stdout {p.stdout[:100]!r} stderr {p.stderr[-300:]!r}")
    if "landlock" in (r.get("missing") or ""):
        result(None, f"{name}: escapes", "Landlock is missing here (--best-effort): "
               f"reported as {r.get('missing')!r}")
        continue
    # the escapes: bare first, then under the run step
    d = box(name, "escape")
    with open(os.path.join(d, src), "w") as f:
        f.write(escape)
    # the compile step itself: the compiler made to show a file it should
    # not read (#include of a secret: its first line is in the error)
    if name in ("c", "cpp"):
        inc = os.path.join(d, "inc." + src.split(".")[1])
        with open(inc, "w") as f:
            f.write(f'#include "{SECRET}"\n')
        cargv = [compile_argv[0], "-c", "-o", "inc.o", os.path.basename(inc)]
        b = bare(cargv, d)
        p, r = run(f"{name}:compile", cargv, d)
        ok = TOKEN.encode() in b.stderr and TOKEN.encode() not in p.stdout + p.stderr
        result(ok if TOKEN.encode() in b.stderr else None,
               f"{name}: compile step: #include of a file outside the allowed paths shows nothing",
               f"bare shows it: {TOKEN.encode() in b.stderr}; sandboxed stderr {p.stderr[:200]!r}")
    p, r = run(f"{name}:compile", compile_argv, d)
    if r.get("verdict") != "ok":
        result(False, f"{name}: the escape program compiles", f"{p.stderr[-300:]!r}")
        continue
    for mode in ("read", "write", "connect", "spawn", "tamper"):
        target = {"read": SECRET, "connect": str(LISTEN.port),
                  "write": os.path.join(OUT, f"{name}-write"),
                  "spawn": os.path.join(OUT, f"{name}-spawn"),
                  "tamper": os.path.join(d, "tampered")}[mode]
        evidence.before = LISTEN.count
        b = bare([*run_argv, mode, target], d)
        worked = evidence(mode, target, b)
        if not worked:
            result(None, f"{name}: {mode} escape", f"it does not work bare here either: "
                   f"status {b.returncode} {b.stderr[-200:]!r}")
            continue
        if mode not in ("read", "connect"):
            os.unlink(target)
        evidence.before = LISTEN.count
        p, r = run(name, [*run_argv, mode, target], d)
        left = evidence(mode, target, p)
        result(not left and r.get("verdict") in ("runtime_error", "syscall_blocked"),
               f"{name}: {mode} escape works bare, stopped under --profile {name} "
               f"({r.get('verdict')}{', ' + r['blocked_syscall'] if r.get('blocked_syscall') else ''})",
               f"evidence left {left}, verdict {r.get('verdict')}, stdout {p.stdout[:80]!r}")

# the format: errors are one line, status 125, before anything runs
bad = os.path.join(WORK, "bad.profile")
for text, want in [("cpu 2\nmem lots\n", b"line 2: invalid value for --mem"),
                   ("[build]\n", b"unknown section [build]"),
                   ("stdout /tmp/x\n", b"names one run's files"),
                   ("frobnicate\n", b"unknown option 'frobnicate'"),
                   ("cpu? 2\n", b"only ro? and rw? may be optional")]:
    with open(bad, "w") as f:
        f.write(text)
    p = subprocess.run([SANDLOCK, "--profile", bad, "--", "/bin/true"], capture_output=True)
    result(p.returncode == 125 and want in p.stderr and p.stderr.count(b"\n") == 1,
           f"a bad profile ({text.strip()!r}): one line, 125", f"{p.returncode} {p.stderr!r}")
for args, want in [(["--profile", "fortran"], b"unknown profile 'fortran'"),
                   (["--profile", "c:link"], b"unknown profile 'c:link'"),
                   (["--profile", "c", "--profile", "go"], b"--profile is given twice"),
                   (["--profile", "/nonexistent/p"], b"cannot open profile /nonexistent/p")]:
    p = subprocess.run([SANDLOCK, *args, "--", "/bin/true"], capture_output=True)
    result(p.returncode == 125 and want in p.stderr, f"{' '.join(args)}: one line, 125",
           f"{p.returncode} {p.stderr!r}")

# an operator's own, and the command line over the profile: the limits
# the report shows are the last word's
with open(bad, "w") as f:
    f.write("# mine\ncpu 3\n[run]\nmem 100\n[compile]\nmem 900\n")
p = subprocess.run([SANDLOCK, *EXTRA, "--profile", bad, "--report", os.path.join(WORK, "o.json"),
                    "--", "/bin/true"], capture_output=True, cwd=WORK)
lim = json.load(open(os.path.join(WORK, "o.json"))).get("limits", {}) if p.returncode == 0 else {}
result(lim.get("cpu_s") == 3 and lim.get("mem_mb") == 100, "a profile file: its [run] section",
       f"{p.returncode} {lim} {p.stderr[:200]!r}")
p = subprocess.run([SANDLOCK, *EXTRA, "--mem", "64", "--profile", f"{bad}:compile", "--cpu", "1",
                    "--report", os.path.join(WORK, "o.json"), "--", "/bin/true"],
                   capture_output=True, cwd=WORK)
lim = json.load(open(os.path.join(WORK, "o.json"))).get("limits", {}) if p.returncode == 0 else {}
result(lim.get("cpu_s") == 1 and lim.get("mem_mb") == 64,
       "the command line's options change what the profile set, wherever they are",
       f"{p.returncode} {lim} {p.stderr[:200]!r}")
for name, *_ in LANGS:
    p = subprocess.run([SANDLOCK, "--show-profile", name], capture_output=True)
    result(p.returncode == 0 and b"no-network" in p.stdout and b"[run]" in p.stdout,
           f"--show-profile {name}", f"{p.returncode} {p.stderr!r}")

# every run step has a wall clock of 3 x its CPU limit, shown by
# --show-profile and in the report's limits; a submission that sleeps is
# stopped by it (wall_limit), where without one it held the grader forever
for name, *_ in LANGS:
    p = subprocess.run([SANDLOCK, "--show-profile", name], capture_output=True, text=True)
    run_part = p.stdout.split("[run]")[-1].splitlines()
    val = {l.split()[0]: l.split()[1] for l in run_part if len(l.split()) == 2}
    ok = "timeout" in val and "cpu" in val and float(val["timeout"]) == 3 * float(val["cpu"])
    result(ok, f"--show-profile {name}: the run step's wall clock is 3 x its CPU limit "
           f"(timeout {val.get('timeout')}, cpu {val.get('cpu')})", p.stdout[-300:])
d = box("python", "sleep")
with open(os.path.join(d, "sol.py"), "w") as f:
    f.write("import time\ntime.sleep(1000)\n")
t0 = time.monotonic()
try:
    p, r = run("python", ["python3", "sol.py"], d, timeout=60)
    took = time.monotonic() - t0
    if layers_missing(r) and p.returncode == 125:
        result(b"landlock" in p.stderr, "--profile python: refused where Landlock is missing (125, named)",
               f"{p.stderr[-300:]!r}")
    else:
      result(r.get("verdict") == "wall_limit" and p.returncode == 124 and
           r.get("limits", {}).get("timeout_ms") == 6000 and took < 30,
             f"--profile python stops a sleeping submission: wall_limit after {took:.1f} s "
             f"(timeout_ms {r.get('limits', {}).get('timeout_ms')})",
             f"verdict {r.get('verdict')} status {p.returncode} stderr {p.stderr[-300:]!r}")
except subprocess.TimeoutExpired:
    result(False, "--profile python stops a sleeping submission", "still running after 60 s")

# The profile examples of the README (and of docs/*.md and
# examples/*/README.md), run exactly as written: each indented block with a
# `sandlock ... --profile` line, by bash -e, in a directory holding the
# files the README's example names (main.c, test1.in), with `sandlock` on
# PATH.  (As written before,
# `box` did not exist, and a root-owned one failed the compile.)
def code_blocks(path):
    block, blocks, prev_blank = [], [], True
    for line in open(path, encoding="utf-8").read().splitlines() + [""]:
        if line.startswith("    ") and (block or prev_blank):
            block.append(line[4:])
        else:
            if block:
                blocks.append(block)
            block = []
        prev_blank = not line.strip()
    return blocks


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
docs = [os.path.join(ROOT, "README.md")] + sorted(
    os.path.join(ROOT, "docs", f) for f in
    (os.listdir(os.path.join(ROOT, "docs")) if os.path.isdir(os.path.join(ROOT, "docs")) else [])
    if f.endswith(".md")) + sorted(
    os.path.join(ROOT, "examples", d, "README.md") for d in
    (os.listdir(os.path.join(ROOT, "examples")) if os.path.isdir(os.path.join(ROOT, "examples")) else [])
    if os.path.isfile(os.path.join(ROOT, "examples", d, "README.md")))
examples = [(doc, b) for doc in docs if os.path.isfile(doc) for b in code_blocks(doc)
            if any(re.match(r"sandlock .*--profile ", l) for l in b)]
if not os.path.isfile(docs[0]):
    result(None, "the README's profile examples", "no README.md beside tests/ here")
elif not examples:
    result(False, "the README's profile examples", "no block with a sandlock --profile line found")
for n, (doc, b) in enumerate(examples):
    d = box("readme", str(n))
    bindir = os.path.join(d, ".bin")
    os.mkdir(bindir)
    os.symlink(SANDLOCK, os.path.join(bindir, "sandlock"))
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write("#include <stdio.h>\nint main(void) { long a, s = 0;\n"
                "  while (scanf(\"%ld\", &a) == 1) s += a;\n  printf(\"sum %ld\\n\", s); return 0; }\n")
    with open(os.path.join(d, "test1.in"), "w") as f:
        f.write("1 2 3\n40\n")
    os.chmod(d, 0o755)  # the example makes what the program writes
    script = "\n".join(b)
    p = subprocess.run(["/bin/bash", "-e", "-c", script], cwd=d, capture_output=True, text=True,
                       env={"PATH": bindir + ":/usr/bin:/bin", "HOME": d}, timeout=240)
    if p.returncode == 125 and re.search(r"landlock is (missing|refused) on this host|"
                                         r"no Landlock, and a root of bind mounts|"
                                         r"seccomp filters are refused here", p.stderr):
        # a profile is Landlock's allow-list (or a root of binds, which needs
        # a mount namespace), under a syscall filter: refused, named, where
        # the host has neither
        result(True, f"{os.path.relpath(doc, ROOT)}: the example refused where the host lacks its layers (125, named)")
        continue
    result(p.returncode == 0 and p.stdout.strip() == "sum 46",
           f"{os.path.relpath(doc, ROOT)}: the example run as written ({'; '.join(b)[:120]})",
           f"status {p.returncode} stdout {p.stdout[-200:]!r} stderr {p.stderr[-400:]!r}")

LISTEN.s.close()
status = result.finish("profiles")
subprocess.run(["rm", "-rf", WORK])
sys.exit(status)
