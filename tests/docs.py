#!/usr/bin/env python3
"""One source of truth for the options, their defaults and the report: the
program, and its reference, the manual page.

Every option sandlock(1) accepts (its --help) is described in the manual
page; every default --help states is the default the program applies (its
report's "limits"), and the manual page states the same one; every field of
a real report (and of its "limits" and "layers") is specified in the manual
page's REPORT section; the namespaces a run gets by default are those --help
and the manual page say.  The README is a front door that points at the
references: every path it names under docs/, man/ and the other folders of
the tree exists, and every #anchor it gives is a heading there.

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

options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+|-[a-z](?=[ ,]))", help_text)))
check(len(options) > 30, f"--help lists the options ({len(options)})")
for o in options:
    check(re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", man) is not None,
          f"{o}: in sandlock(1)")

# the defaults of the numeric limits: --help, the program, man
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

# namespaces by default: a run that may fork gets a pid namespace where the
# host has them, a --no-fork run none; --help and man say so
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
hdr = read("include/sandlock.h")
check("auto for a run that may fork" in hdr, "sandlock.h: unshare default is auto for a run that may fork")
# every field of a real report is specified in sandlock(1)'s REPORT section:
# the top-level fields, the limits and the layers, by name
sect = re.search(r"\n\.SH REPORT\n(.*?)(?=\n\.SH )", man, re.S)
check(sect is not None, "sandlock(1) has a REPORT section")
rep_text = re.sub(r"\\f[BIRP]|\\\(dq", "", sect.group(1)) if sect else ""
rep_text = "\n".join(l for l in rep_text.splitlines() if not l.startswith(("{", " \"")))
for key, sub in [("", report), ("limits.", report["limits"]), ("layers.", report["layers"])]:
    for field in sub:
        check(re.search(r"(?<![\w-])" + re.escape(field) + r"(?![\w-])", rep_text) is not None,
              f"report field {key}{field}: specified in sandlock(1), REPORT")

# the README's paths: every file or folder of the tree it names exists, and
# every #anchor of a link is a heading of the file it points into
TOP = ("docs", "man", "bindings", "examples", "src", "tests", "tools", "include", "contrib", "bench")
named = set(re.findall(r"(?<![\w./-])((?:%s)/[\w./-]*[\w/])" % "|".join(TOP), readme))
named |= set(m for m in re.findall(r"\]\(([^)#\s]+)", readme) if not re.match(r"\w+:", m))
check(len([n for n in named if n.startswith("docs/")]) >= 10 and
      len([n for n in named if n.startswith("man/")]) >= 4,
      f"the README names the guides and the manual pages ({len(named)} paths)")
for n in sorted(named):
    check(os.path.exists(os.path.join(ROOT, n)), f"README names {n}: it exists")


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to -"""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


for path, frag in sorted(set(re.findall(r"\]\(([^)#\s]+)#([^)\s]+)\)", readme))):
    full = os.path.join(ROOT, path)
    heads = [anchor(l.lstrip("#")) for l in open(full, encoding="utf-8").read().splitlines()
             if l.startswith("#")] if os.path.isfile(full) else []
    check(frag in heads, f"README links {path}#{frag}: a heading there")

# the guides' own links: every relative link of docs/*.md names a file that
# exists, and its #anchor (if any) is a heading there
for doc in sorted(f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md")):
    for target, frag in re.findall(r"\]\(([^)#\s:]*)(?:#([^)\s]+))?\)", read("docs/" + doc)):
        full = os.path.normpath(os.path.join(ROOT, "docs", target)) if target else os.path.join(ROOT, "docs", doc)
        ok = os.path.exists(full)
        if ok and frag:
            ok = frag in [anchor(l.lstrip("#")) for l in open(full, encoding="utf-8").read().splitlines()
                          if l.startswith("#")]
        check(ok, f"docs/{doc} links {target}{'#' + frag if frag else ''}: it exists")
print(f"docs: {P} passed, {F} failed, 0 skipped")
sys.exit(F != 0)
