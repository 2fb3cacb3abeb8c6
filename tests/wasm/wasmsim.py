"""What tests/wasm.py (Python) and tests/wasm_js.py (JavaScript) share (a
helper, not a suite: beside the programs the runs use): the
simulated host, the secret, the working directories with their planted
links, the runs (bare on the host, under sandlock), the evidence of an
escape, the escape loop, and the documents' tables (docs/wasm.md's of the
backend, docs/hosts.md's of the attack classes by host)."""
import json
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import time

from results import Listener

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/
HOSTSIM = os.path.join(HERE, "hosts", "hostsim")
HOST = os.environ.get("SANDLOCK_WASM_HOST", "lambda")
DOCS = os.path.join(HERE, "..", "docs")


# the escapes of tests/wasm/escape.py and escape.js (argv[1]) and the rows
# of docs/wasm.md's table of the backend ("## Attacks it stops")
ESCAPE_ROWS = {
    "abs_secret": "read a file outside by its absolute path",
    "passwd": "read /etc/passwd",
    "dotdot": "read a file outside through ../",
    "dotdot_deep": "climb out through a subdirectory's ../..",
    "proc_environ": "read /proc/self/environ",
    "proc_list": "list /proc",
    "env": "read a secret of the caller's environment",
    "socket": "connect to a listener on 127.0.0.1",
    "subprocess": "start another program (subprocess)",
    "kill": "signal a process outside the run",
    "fork": "fork",
    "planted_link": "read through an absolute symbolic link planted in the working directory",
    "planted_rel_link": "read through a relative symbolic link planted in the working directory",
    "planted_dir_link": "read through a planted link to /",
    "made_link": "make a symbolic link to a file outside, read it",
    "hard_link": "make a hard link to a file outside, read it",
    "write_outside": "write a file outside through ../",
}


def wasm_line(sandlock):
    feat = subprocess.run([sandlock, "--features"], capture_output=True, text=True).stdout
    return next((l for l in feat.splitlines() if l.startswith("wasm:")), "wasm: (not listed)")


def out(p):
    return p.stdout.decode("utf-8", "replace")


def died(victim, wait):
    """the victim of the kill attack is dead (reaped here), within wait s"""
    end = time.time() + wait
    while victim.poll() is None and time.time() < end:
        time.sleep(0.05)
    return victim.poll() is not None


def doc_table(doc, heading, ncells, column):
    """the table under the heading (a regular expression) of docs/doc:
    {row: first word of its cell in column}, from rows of ncells cells"""
    try:
        text = open(os.path.join(DOCS, doc), encoding="utf-8").read()
    except OSError:
        return None
    m = re.search(heading + r".*?\n(\|.*?)(\n\n|\n#|$)", text, re.S)
    if not m:
        return None
    rows = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == ncells and not set(cells[0]) <= set("-") and cells[0] != "attack":
            rows[cells[0]] = cells[column].split()[0]
    return rows


def backend_table(column):
    """docs/wasm.md's table of the backend: column 1 Python, 2 JavaScript"""
    return doc_table("wasm.md", r"## Attacks it stops", 3, column)


class Sim:
    """one test's world on the simulated host: WORK (removed by close), the
    secret file (outside every working directory) and the environment's
    secret, our TCP listener"""

    def __init__(self, sandlock, prefix, programs):
        self.sandlock = sandlock
        self.programs = programs
        self.work = tempfile.mkdtemp(prefix=prefix)
        os.chmod(self.work, 0o755)
        self.token = "tok-" + secrets.token_hex(8)
        self.secret = os.path.join(self.work, "secret", "flag.txt")
        os.mkdir(os.path.dirname(self.secret), 0o755)
        with open(self.secret, "w") as f:
            f.write(self.token + "\n")
        os.chmod(self.secret, 0o644)
        self.env = dict(os.environ, SECRET_TOKEN=self.token)
        self.listener = Listener()

    def close(self):
        self.listener.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def workdir(self, name):
        """a fresh working directory with the programs, writable by the uid
        the sandbox may drop to"""
        d = os.path.join(self.work, name)
        os.mkdir(d)
        os.chmod(d, 0o777)
        for p in self.programs:
            shutil.copy(os.path.join(HERE, "wasm", p), d)
        return d

    def run(self, argv, cwd, input=None, timeout=120, env=None):
        """argv on the simulated host (env: the caller's environment, else
        ours with the secret)"""
        return subprocess.run([HOSTSIM, HOST, "--", *argv], cwd=cwd, env=env or self.env, input=input,
                              capture_output=True, timeout=timeout)

    def sandbox(self, cmd, cwd, flags=(), wasm=True, input=None, timeout=120, clean=True, env=None):
        """cmd (what follows --) under sandlock there: (process, report);
        clean=False: without --clean-env, the issue's own command line"""
        rpath = os.path.join(self.work, "r.json")
        if os.path.exists(rpath):
            os.unlink(rpath)
        rt = ["--runtime", "wasm"] if wasm else []
        ce = ["--clean-env"] if clean else []
        p = self.run([self.sandlock, "--best-effort", *rt, *ce, "--report", rpath, *flags, "--", *cmd],
                     cwd, input=input, timeout=timeout, env=env)
        try:
            r = json.load(open(rpath))
        except (OSError, ValueError):
            r = {}
        return p, r

    def worker(self, cmd, cwd, n=20):
        """a persistent stdio worker (cmd after --) under the backend: n JSON
        requests, each sent after the answer to the one before; then EOF.
        Returns (answers, what it had to answer, report, stderr)"""
        rpath = os.path.join(self.work, "worker.json")
        w = subprocess.Popen([HOSTSIM, HOST, "--", self.sandlock, "--best-effort", "--runtime", "wasm",
                              "--clean-env", "--report", rpath, "--", *cmd], cwd=cwd, env=self.env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        answers, err = [], b""
        try:
            for k in range(n):
                w.stdin.write((json.dumps({"id": k, "op": "add", "args": [k, k * k]}) + "\n").encode())
                w.stdin.flush()
                answers.append(json.loads(w.stdout.readline()))
            w.stdin.close()
            err = w.stderr.read()
            w.wait(timeout=30)
            report = json.load(open(rpath))
        except (ValueError, OSError, subprocess.TimeoutExpired) as e:
            w.kill()
            w.wait()
            report = {"error": str(e)}
        return answers, [{"id": k, "result": k + k * k} for k in range(n)], report, err

    def evidence(self, kind, mark, stdout, before, victim, bare):
        """the attack of this kind left its mark (bare runs wait for the
        asynchronous ones)"""
        if kind == "kill":
            return died(victim, 5.0 if bare else 0.3)
        if kind == "socket":
            end = time.time() + (10.0 if bare else 0.3)
            while self.listener.accepted <= before and time.time() < end:
                time.sleep(0.05)
            return self.listener.accepted > before
        if kind in ("subprocess", "fork"):
            return os.path.exists(mark)
        if kind == "write_outside":
            return os.path.exists(os.path.join(self.work, "outside-" + os.path.basename(mark)))
        if kind == "passwd":
            return "ESCAPED root:" in stdout
        if kind == "proc_list":
            return "ESCAPED" in stdout and " self" in stdout
        return self.token in stdout

    def escapes(self, result, kinds, bare, guest, table, lang):
        """each attack of kinds ({kind: the table's row}) bare (bare(i, args):
        argv on the host) then under the backend (guest(i, args): the
        command after --); the table's cell checked against what was
        measured.  Returns {kind: "stopped" | "open"}."""
        measured = {}
        for i, kind in enumerate(kinds):
            got = {}
            for mode in ("bare", "wasm"):
                d = self.workdir(f"esc-{i}-{mode}")
                os.symlink(self.secret, os.path.join(d, "link_abs"))
                os.symlink("../secret/flag.txt", os.path.join(d, "link_rel"))
                os.symlink("/", os.path.join(d, "rootlink"))
                os.mkdir(os.path.join(d, "sub"))
                mark = os.path.join(self.work, f"mark-{i}-{mode}")
                # the kill attack's victim: a process of the caller's, outside the run
                victim = subprocess.Popen(["sleep", "120"]) if kind == "kill" else None
                args = [kind, self.secret, str(victim.pid if victim else self.listener.port), mark]
                before = self.listener.accepted
                if mode == "bare":
                    p = self.run(bare(i, args), d)
                else:
                    p, _ = self.sandbox(guest(i, args), d)
                s = out(p)
                got[mode] = (self.evidence(kind, mark, s, before, victim, mode == "bare"), "DONE" in s,
                             s.strip()[-200:], p.stderr.decode("utf-8", "replace")[-300:])
                if victim and victim.poll() is None:
                    victim.kill()
                    victim.wait()
            bare_ok, _, bare_out, bare_err = got["bare"]
            w_esc, w_ran, w_out, w_err = got["wasm"]
            if not bare_ok:
                result(False, f"escape {kind}: works bare", f"no evidence bare: {bare_out!r} {bare_err!r}")
                continue
            result(w_ran and not w_esc, f"escape {kind}: works bare, contained under wasm",
                   f"ran={w_ran} escaped={w_esc}: {w_out!r} {w_err!r}")
            if w_ran:
                word = "open" if w_esc else "stopped"
                measured[kind] = word
                want = (table or {}).get(kinds[kind])
                result(want == word, f"docs/wasm.md: {kinds[kind]} ({lang}): says {want}, measured {word}")
        for row, word in (table or {}).items():
            if row not in kinds.values():
                result(word == "n/a", f"docs/wasm.md: {row} ({lang}): n/a, not measured", f"says {word}")
        return measured
