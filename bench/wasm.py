#!/usr/bin/python3
"""bench/wasm.py - the WebAssembly backend's costs (issue 29): start-up of
`python3 -c pass` and a pure-Python workload (wasm/workload.py), native
against CPython-as-WebAssembly, bare and under sandlock (and against the
Python guard, the other answer for a host without kernel layers); a small
JavaScript program (wasm/small.js) with node against Duktape-as-WebAssembly;
with the peak resident memory of each.  Interleaved rounds, medians.

    SANDLOCK=../build/sandlock ./wasm.py       (make -C bench wasm)

Writes results/wasm.txt.  Needs `make wasm` (skips, saying so, without it).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SANDLOCK = os.path.abspath(os.environ.get("SANDLOCK", os.path.join(HERE, "..", "build", "sandlock")))
ROUNDS = int(os.environ.get("BENCH_WASM_ROUNDS", "15"))
OUT = os.path.join(HERE, "results", "wasm.txt")

feat = subprocess.run([SANDLOCK, "--features"], capture_output=True, text=True).stdout
line = next((l for l in feat.splitlines() if l.startswith("wasm:")), "")
if not line.startswith("wasm: available"):
    print("bench/wasm.py: skipped: " + (line or "no wasm line in --features") + " (run make wasm)")
    sys.exit(0)
WASM = line.split("as WebAssembly: ", 1)[1].rstrip(")").strip()
HOSTEXE = os.path.join(WASM, "python")
NODEEXE = os.path.join(WASM, "node")
NODE = "/usr/bin/node"
LIB = os.path.realpath(os.path.join(WASM, "lib"))
work = tempfile.mkdtemp(prefix="bench-wasm.")
os.chmod(work, 0o755)
for name in ("workload.py", "small.js"):
    with open(os.path.join(HERE, "wasm", name)) as f, open(os.path.join(work, name), "w") as g:
        g.write(f.read())

SL = [SANDLOCK, "--clean-env", "--cpu", "20", "--mem", "512", "--"]
# JavaScript: a small program (wasm/small.js), node against Duktape as
# WebAssembly (where make wasm built it and the host has node)
JS_CONFIGS = {
    "native node": [NODE],
    "wasm host (node), bare": [NODEEXE, "--rw", ".", "/", "--", "node"],
    "sandlock node": SL + ["node"],
    "sandlock --runtime wasm node": [SANDLOCK, "--runtime", "wasm"] + SL[1:] + ["node"],
} if os.access(NODEEXE, os.X_OK) and os.access(NODE, os.X_OK) else {}
CONFIGS = {
    "native python3": ["/usr/bin/python3"],
    "wasm host, bare": [HOSTEXE, "--ro", LIB, "/usr/local/lib", "--rw", ".", "/", "--", "python3"],
    "sandlock python3": SL + ["python3"],
    "sandlock --guard python": [SANDLOCK, "--guard", "python"] + SL[1:] + ["python3"],
    "sandlock --runtime wasm": [SANDLOCK, "--runtime", "wasm"] + SL[1:] + ["python3"],
}


def once(argv):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    o, e = p.communicate()
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"bench/wasm.py: {argv}: status {p.returncode}: {e[-300:]!r}")
    return dt * 1000, o


def rss(argv):
    """peak RSS (KB) of the command's largest process: GNU time's %M where
    there is one (a child forked from this Python inherits its high-water
    mark through exec: wait4 alone floors every figure at ours, ~15 MB),
    else wait4's"""
    if os.access("/usr/bin/time", os.X_OK):
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "--", *argv], cwd=work, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        return int(p.stderr.split()[-1])
    p = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_maxrss


results = {}
outputs = {}
for what, configs, tail in (("-c pass", CONFIGS, ["-c", "pass"]), ("workload", CONFIGS, ["workload.py"]),
                            ("JS small.js", JS_CONFIGS, ["small.js"])):
    if not configs:
        continue
    times = {k: [] for k in configs}
    for k, v in configs.items():  # warm the page cache
        once(v + tail)
    for _ in range(ROUNDS):
        for k, v in configs.items():
            dt, o = once(v + tail)
            times[k].append(dt)
            outputs.setdefault((what, o), []).append(k)
    results[what] = {k: statistics.median(t) for k, t in times.items()}
mem = {k: rss(v + ["workload.py"]) for k, v in CONFIGS.items() if not k.startswith("sandlock")}
mem.update({k: rss(v + ["small.js"]) for k, v in JS_CONFIGS.items() if not k.startswith("sandlock")})

load = os.getloadavg()
lines = [f"# bench/wasm.py: {ROUNDS} interleaved rounds, medians (ms); ratio to native python3 (to native node for JS)",
         f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load[0]:.1f} {load[1]:.1f}"
         f" {load[2]:.1f} (shared machine: trust the ratios more than the milliseconds)",
         f"# artifacts: {WASM}"]
for what in results:
    base = results[what].get("native python3") or results[what]["native node"]
    lines.append(f"{what}:")
    for k, v in results[what].items():
        lines.append(f"  {k:28s} {v:9.1f} ms  {v / base:5.2f}x")
for what in ("workload", "JS small.js"):
    if what in results:
        same = [ks for (w, o), ks in outputs.items() if w == what]
        lines.append(f"{what} output identical in every configuration: {len(same) == 1}")
lines.append("peak RSS, workload / small.js (GNU time %M):")
for k, v in mem.items():
    lines.append(f"  {k:28s} {v / 1024:7.1f} MB")
text = "\n".join(lines) + "\n"
print(text, end="")
with open(OUT, "w") as f:
    f.write(text)
