#!/usr/bin/env python3
"""One source of truth for the options and their defaults: the program.

Every option sandlock(1) accepts (its --help) is described in the manual
page and in the README's option table; every default --help states is the
default the program applies (its report's "limits"), and the manual page and
the README's table state the same one; the namespaces a run gets by default
are those --help, the manual page and the README say.

    tests/docs.py SANDLOCK [REPO]       last line: "docs: P passed, F failed, 0 skipped"
"""
import json
import os
import re
import subprocess
import sys
import tempfile

S = sys.argv[1]
ROOT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
P = F = 0


def check(ok, what):
    global P, F
    if ok:
        P += 1
        print("PASS", what)
    else:
        F += 1
        print("FAIL", what)


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


help_text = subprocess.run([S, "--help"], capture_output=True, text=True).stdout
man = read("man/sandlock.1").replace("\\-", "-")
readme = read("README.md")
table = "\n".join(l for l in readme.splitlines() if l.startswith(("| `-", "| `sandlock ")))

options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", help_text)))
check(len(options) > 30, f"--help lists the options ({len(options)})")
for o in options:
    check(re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", man) is not None,
          f"{o}: in sandlock(1)")
    check(re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", table) is not None,
          f"{o}: in the README's option table")

# the defaults of the numeric limits: --help, the program, man, README
with tempfile.TemporaryDirectory() as d:
    rep = os.path.join(d, "r.json")
    subprocess.run([S, "--no-fork", "--report", rep, "--", "/bin/true"], capture_output=True)
    with open(rep) as f:
        report = json.load(f)
limits = report["limits"]
keys = {"--cpu": "cpu_s", "--mem": "mem_mb", "--fsize": "fsize_mb", "--nofile": "nofile",
        "--nproc": "nproc", "--stack": "stack_mb"}
for opt, key in keys.items():
    line = next((l for l in help_text.splitlines() if l.strip().startswith(opt + " ")), "")
    m = re.search(r"\(default (\d+)", line)
    check(m is not None, f"{opt}: --help states a default")
    if not m:
        continue
    want = m.group(1)
    got = limits.get(key)
    check(str(got) == want or (isinstance(got, float) and got == float(want)),
          f"{opt}: --help's default {want} is the program's ({key}={got})")
    sect = re.search(r"\.BI? " + re.escape(opt) + r"\b(.*?)(?=\n\.TP|\n\.SS|\n\.SH)", man, re.S)
    check(sect is not None and re.search(r"Default " + want + r"\b", sect.group(1)) is not None,
          f"{opt}: sandlock(1) says Default {want}")
    row = next((l for l in table.splitlines() if l.startswith("| `" + opt)), "")
    check(row.rstrip().endswith("| " + want + " |"), f"{opt}: the README's table says {want}")

# namespaces by default: a run that may fork gets a pid namespace where the
# host has them, a --no-fork run none; --help, man and README say so
feat = subprocess.run([S, "--features"], capture_output=True, text=True).stdout
if re.search(r"^pidns: available", feat, re.M):
    def layers(*flags):
        with tempfile.TemporaryDirectory() as d:
            rep = os.path.join(d, "r.json")
            subprocess.run([S, *flags, "--report", rep, "--", "/bin/true"], capture_output=True)
            with open(rep) as f:
                return json.load(f)["layers"]
    check(layers()["pidns"] is True, "a run that may fork gets a pid namespace by default")
    check(layers("--no-fork")["pidns"] is False, "a --no-fork run gets no namespace by default")
else:
    print("SKIP the default namespaces: no pid namespace on this host")
unshare_help = " ".join(l.strip() for l in help_text.splitlines() if "--unshare" in l or "run that may fork" in l)
check("auto for a" in unshare_help and "may fork" in unshare_help, "--help: namespaces auto for a run that may fork")
sect = re.search(r"\.BI --unshare(.*?)(?=\n\.TP|\n\.SS|\n\.SH)", man, re.S)
check(sect is not None and "may fork" in sect.group(1), "sandlock(1): namespaces for a run that may fork by default")
check("may fork" in read("docs/interface.md"), "docs/interface.md: namespaces for a run that may fork by default")
hdr = read("include/sandlock.h")
check("auto for a run that may fork" in hdr, "sandlock.h: unshare default is auto for a run that may fork")
print(f"docs: {P} passed, {F} failed, 0 skipped")
sys.exit(F != 0)
