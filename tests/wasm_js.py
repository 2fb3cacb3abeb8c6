#!/usr/bin/python3
"""The WebAssembly backend's JavaScript path (--runtime wasm with a node
command or a .js program: Duktape under our WASI host) on a simulated host
(default: the serverless one, where it is the only boundary):

    SANDLOCK=path tests/wasm_js.py          (SANDLOCK_WASM_HOST=lambda)

- escapes (tests/wasm/escape.js): each first proven to work with the host's
  own node, bare under the same simulation, judged by evidence (the
  secret's bytes printed, a connection accepted, a file made); then
  contained under the backend, in a run that printed DONE; docs/wasm.md's
  table of the backend says what is measured here (its JavaScript column);
- honest programs (tests/wasm/honest.js as a script, a .js program, -e,
  stdin; a few MB of output; a persistent stdio worker): the same output
  as node;
- verdicts: CPU, wall, output, exit status, an error with its stack, as a
  native run of node under sandlock gives them; memory: memory_limit when
  the guest cannot grow past --mem, caught or not.

Skipped, with the reason, where `make wasm` has not built the JavaScript
guest (artifacts as for tests/wasm.py) or where the host has no node.
Last line: "wasm-js: P passed, F failed, S skipped".
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "wasm"))
from results import Results  # noqa: E402
from wasmsim import ESCAPE_ROWS, HOST, Sim, backend_table, out, wasm_line  # noqa: E402

SANDLOCK = os.environ["SANDLOCK"]
NODE = shutil.which("node") or "/usr/bin/node"
result = Results(HOST)

line = wasm_line(SANDLOCK)
if not line.startswith("wasm: available") or "node" not in line:
    result(None, "wasm backend, JavaScript", "no JavaScript guest (" + line + "): run `make wasm`")
    sys.exit(result.finish("wasm-js"))
if not os.access(NODE, os.X_OK):
    result(None, "wasm backend, JavaScript", "no node on this host to compare with")
    sys.exit(result.finish("wasm-js"))
print("#", line)

S = Sim(SANDLOCK, "sandlock-wasm-js.", ("escape.js", "honest.js", "worker.js"))
sim, sandbox, workdir = S.run, S.sandbox, S.workdir

# ---- escapes ----
# kind: the row of docs/wasm.md's table ("## Attacks it stops"), as
# tests/wasm.py names them; its "fork" has no JavaScript twin (n/a)
ESCAPES = {k: v for k, v in ESCAPE_ROWS.items() if k != "fork"}
TABLE = backend_table(2)
result(bool(TABLE), "docs/wasm.md: the backend's table has a JavaScript column", f"{TABLE}")
# the guest by `node escape.js` and, for every other attack, by the
# program's name alone (the .js command line)
S.escapes(result, ESCAPES, lambda i, a: [NODE, "escape.js", *a],
          lambda i, a: (["node"] if i % 2 == 0 else []) + ["escape.js", *a], TABLE, "JavaScript")

# ---- honest programs: the same output as node ----
d = workdir("honest")
src = open(os.path.join(d, "honest.js"), "rb").read()
# each form against node given the same form (-e puts no script in argv)
for name, cmd, inp in [("node script", ["node", "honest.js", "x", "y"], None),
                       (".js program", ["honest.js", "x", "y"], None),
                       ("stdin (node -)", ["node", "-", "x", "y"], src),
                       ("stdin (node)", ["node"], src),
                       ("-e", ["node", "-e", src.decode(), "x", "y"], None)]:
    nat = sim([NODE] + (cmd[1:] if cmd[0] == "node" else cmd), d, input=inp)
    p, r = sandbox(cmd, d, input=inp)
    same = p.stdout == nat.stdout and nat.returncode == 0 and b"args" in p.stdout
    result(same and r.get("verdict") == "ok" and r.get("backend") == "wasm",
           f"honest program ({name}): node's output, verdict ok, backend wasm",
           f"verdict {r.get('verdict')} backend {r.get('backend')} same={same} "
           f"stderr {p.stderr[-400:]!r} out {p.stdout[-300:]!r} node {nat.stdout[-300:]!r}")

big = ("var s = ''; for (var j = 0; j < 60; j++) s += 'x';\n"
       "for (var i = 0; i < 60000; i++) console.log(('0000000' + i).slice(-8) + ' ' + s);\n")
nat = sim([NODE, "-e", big], d)
p, r = sandbox(["node", "-e", big], d)
result(len(nat.stdout) > 4_000_000 and p.stdout == nat.stdout and r.get("verdict") == "ok",
       "a few MB of output, byte for byte, as node",
       f"{len(p.stdout)} vs {len(nat.stdout)} bytes, verdict {r.get('verdict')} {p.stderr[-200:]!r}")

# the persistent worker: one request at a time, each answered before the next
answers, want, rw, werr = S.worker(["node", "worker.js"], d)
result(answers == want and rw.get("verdict") == "ok" and b"worker: end" in werr,
       "a persistent stdio worker (readline) answers line by line, then sees the end",
       f"{answers[-3:]} {rw} {werr[-200:]!r}")

# ---- bad input: one line, 125 ----
for name, argv in [("a node option the guest has not", [SANDLOCK, "--runtime", "wasm", "--", "node", "--inspect", "x.js"]),
                   ("not a node, python3 or .js command", [SANDLOCK, "--runtime", "wasm", "--", "/bin/true"])]:
    p = subprocess.run(argv, cwd=d, capture_output=True, timeout=60)
    result(p.returncode == 125 and len(p.stderr.splitlines()) == 1 and not p.stdout,
           f"bad input ({name}): one line, 125", f"{p.returncode} {p.stderr!r}")

# ---- verdicts, as a native run of node gives them ----
VERDICTS = [
    ("cpu", ["--cpu", "1"], "while (true) {}", "cpu_limit"),
    ("wall", ["--timeout", "1"], "setTimeout(function () {}, 30000)", "wall_limit"),
    # (a cap below a pipe's 64 KiB: native node's console.log to a full pipe
    # queues in memory and, in a loop that never yields, never flushes, so a
    # cap above what the pipe holds was reached or not by how fast the relay
    # read: cpu_limit at 86,961 bytes, under load; what the pipe holds is
    # always read)
    ("output", ["--max-output", "30000"], "for (;;) console.log(new Array(101).join('x'))",
     "output_limit"),
    ("exit status", [], "process.exit(3)", "runtime_error"),
    ("error with stack", [], "function deep() { throw new Error('boom'); }\ndeep();", "runtime_error"),
    ("ok", [], "console.log('fine')", "ok"),
]
for name, flags, code, want in VERDICTS:
    t0 = time.time()
    with open(os.path.join(d, "v.js"), "w") as f:
        f.write(code + "\n")
    os.chmod(os.path.join(d, "v.js"), 0o644)
    p, r = sandbox(["node", "v.js"], d, flags)
    # native node needs more address space than --mem's default gives it
    pn, rn = sandbox(["node", "v.js"], d, list(flags) + ["--mem", "4096"], wasm=False)
    ok = r.get("verdict") == want and r.get("verdict") == rn.get("verdict") and \
        r.get("exit_code") == rn.get("exit_code")
    if name == "error with stack":
        ok = ok and b"Error: boom" in p.stderr and re.search(rb"at deep \(\S*v\.js:1", p.stderr) is not None
    result(ok, f"verdict {name}: {want}, as native node",
           f"wasm {r.get('verdict')}/{r.get('exit_code')} native {rn.get('verdict')}/{rn.get('exit_code')} "
           f"stderr {p.stderr[-300:]!r} native stderr {pn.stderr[-200:]!r} ({time.time() - t0:.1f}s)")

# memory: the guest's own allocation fails at --mem; caught or not, memory_limit
hog = ("var keep = [], n = 0;\ntry {\n  for (;;) { var b = []; for (var i = 0; i < 262144; i++) b.push(i + 0.5);"
       " keep.push(b); n++; }\n} catch (e) {\n  keep = null;\n  console.log('caught', e.name, n);\n}\n")
p, r = sandbox(["node", "-e", hog], d, ["--mem", "128"])
result(r.get("verdict") == "memory_limit" and out(p).startswith("caught "),
       "memory: an allocation refused at --mem, caught, still memory_limit",
       f"{r.get('verdict')} {out(p)!r} {p.stderr[-300:]!r}")
p, r = sandbox(["node", "-e", "var a = []; for (var i = 0; i < 1000000; i++) a.push(i); console.log(a.length)"],
               d, ["--mem", "128"])
result(r.get("verdict") == "ok" and out(p).strip() == "1000000",
       "memory: a million numbers under --mem 128 is fine", f"{r.get('verdict')} {p.stderr[-300:]!r}")
p, r = sandbox(["node", "-e", "var keep = [];\nfor (;;) { var b = []; for (var i = 0; i < 262144; i++) b.push(i + 0.5);"
                " keep.push(b); }\n"], d, ["--mem", "128"])
result(r.get("verdict") == "memory_limit" and b"Error" in p.stderr,
       "memory: uncaught, memory_limit with the error on stderr", f"{r.get('verdict')} {p.stderr[-300:]!r}")

# the environment without --clean-env (the command line): the
# caller's secret, which node bare prints, stays out; --env still reaches it
show = "console.log(Object.keys(process.env).sort().join(' ')); console.log(JSON.stringify(process.env))"
pb = sim([NODE, "-e", show], d)
p, r = sandbox(["node", "-e", show], d, ["--env", "GRADER_SEED=42"], clean=False)
result(S.token in out(pb) and S.token not in out(p) + p.stderr.decode("utf-8", "replace")
       and out(p).split("\n")[0] == "GRADER_SEED HOME LANG PATH" and r.get("verdict") == "ok",
       "environment without --clean-env: the caller's secret stays out of process.env; --env reaches it",
       f"bare has it: {S.token in out(pb)}; guest {out(p)[-300:]!r} {p.stderr[-200:]!r}")

S.close()
sys.exit(result.finish("wasm-js"))
