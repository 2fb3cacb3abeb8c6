#!/usr/bin/env python3
"""An example judge over the sandlock command (see README.md).

    judge.py [-v] [--sandlock PATH] [--best-effort] PROBLEM_DIR SUBMISSION
    judge.py [-v] [--sandlock PATH] [--best-effort] --check PROBLEM_DIR...

Standard and checker problems go through one `sandlock batch` (compile once,
run every test); interactive ones through `sandlock interactive`, one run per
test.  Prints `PROBLEM VERDICT PASSED/TOTAL` (with --check: every reference
submission against the verdict problem.json expects).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

# How a language is built and run: the compile step (None: none) and the run
# step's argv, each with its profile.  The source is copied in as SOURCE.
LANGUAGES = {
    ".c": {"source": "sol.c",
           "compile": (["gcc", "-O2", "-std=gnu11", "-o", "prog", "sol.c", "-lm"],
                       ["--profile", "c:compile"]),
           "run": (["./prog"], ["--profile", "c:run"])},
    ".py": {"source": "sol.py", "compile": None,
            "run": (["python3", "sol.py"], ["--profile", "python:run"])},
}

# The problem's own programs failing is the judge's fault, not the submission's.
JUDGE_FAULTS = {"checker_failed", "interactor_failed", "setup_failed"}


class JudgeError(Exception):
    pass


def profile_for(argv):
    """The run profile of a problem's own program (checker, interactor)."""
    return ["--profile", "python:run"] if os.path.basename(argv[0]).startswith("python") \
        else ["--profile", "c:run"]


def load_problem(pdir):
    try:
        with open(os.path.join(pdir, "problem.json")) as f:
            prob = json.load(f)
    except (OSError, ValueError) as e:
        raise JudgeError("%s: %s" % (pdir, e))
    kind = prob.get("type")
    if kind not in ("standard", "checker", "interactive"):
        raise JudgeError("%s: type must be standard, checker or interactive" % pdir)
    tdir = os.path.join(pdir, "tests")
    prob["tests"] = sorted(n[:-3] for n in os.listdir(tdir) if n.endswith(".in"))
    if not prob["tests"]:
        raise JudgeError("%s: no tests" % pdir)
    cpu = float(prob.get("cpu", 1))
    prob["cpu"] = cpu
    prob["mem"] = int(prob.get("mem", 256))
    prob["timeout"] = float(prob.get("timeout", 3 * cpu + 1))
    prob["name"] = os.path.basename(os.path.normpath(pdir))
    prob["dir"] = os.path.abspath(pdir)
    return prob


def limits(prob):
    return ["--cpu", "%g" % prob["cpu"], "--mem", str(prob["mem"]),
            "--timeout", "%g" % prob["timeout"]]


def judge_batch(args, prob, sub, lang, tmp):
    """Standard and checker problems: one manifest, one `sandlock batch`."""
    pdir = prob["dir"]
    lines = [{"settings": {"stop_on_failure": True,
                           "compare": prob.get("compare", "tokens")}}]
    files = {lang["source"]: os.path.abspath(sub)}
    if lang["compile"]:
        argv, opts = lang["compile"]
        lines.append({"compile": {"argv": argv, "options": opts, "files": files}})
        files = {}
    argv, opts = lang["run"]
    run = {"argv": argv, "options": opts + limits(prob)}
    if files:
        run["files"] = files
    lines.append({"run": run})
    if prob["type"] == "checker":
        ch = prob["checker"]
        lines.append({"checker": {"argv": ch["argv"],
                                  "options": profile_for(ch["argv"]) + ch.get("options", []),
                                  "workdir": pdir}})
    for t in prob["tests"]:
        test = {"name": t, "stdin": os.path.join(pdir, "tests", t + ".in")}
        out = os.path.join(pdir, "tests", t + ".out")
        if os.path.exists(out):
            test["expected"] = out
        lines.append({"test": test})
    manifest = os.path.join(tmp, "manifest.jsonl")
    with open(manifest, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    cmd = [args.sandlock, "batch"] + (["--best-effort"] if args.best_effort else []) + [manifest]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    if not results or results[-1].get("step") != "summary":
        raise JudgeError("sandlock batch failed (%d): %s" % (p.returncode, p.stderr.strip()))
    details = []
    for r in results:
        if r["step"] == "compile" and r["verdict"] != "ok":
            details.append(("compile", "compile_error", r))
        elif r["step"] == "test":
            details.append((r["name"], r["verdict"], r))
    summary = results[-1]
    verdict = summary["verdict"]
    if verdict == "setup_failed":
        raise JudgeError("sandlock batch: %s" % summary.get("why", p.stderr.strip()))
    return verdict, summary["passed"], summary["tests"], details


def judge_interactive(args, prob, sub, lang, tmp):
    """Interactive problems: the submission built once, then one
    `sandlock interactive` per test, whose --timeout (twice the problem's)
    is the pair's one wall budget and --idle the problem's timeout.  Each
    side is given --timeout 0 after its profile: a run profile's own wall
    clock (6 s) would otherwise end a side at the pair's budget or before
    it, and an interactor ended so is interactor_failed."""
    build = os.path.join(tmp, "build")
    os.mkdir(build)
    shutil.copyfile(sub, os.path.join(build, lang["source"]))
    # the program runs as another uid under root: it must reach its files
    os.chmod(tmp, 0o711)
    os.chmod(build, 0o777 if os.geteuid() == 0 else 0o755)
    os.chmod(os.path.join(build, lang["source"]), 0o644)
    be = ["--best-effort"] if args.best_effort else []
    details = []
    if lang["compile"]:
        argv, opts = lang["compile"]
        p = subprocess.run([args.sandlock] + opts + be + ["--workdir", build, "-q", "--"] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if p.returncode == 125:
            raise JudgeError("the compile step could not be run")
        if p.returncode != 0:
            return "compile_error", 0, len(prob["tests"]), [("compile", "compile_error", {})]
    if os.geteuid() == 0:
        os.chmod(build, 0o755)
    inter = prob["interactor"]
    argv, opts = lang["run"]
    passed, verdict = 0, "ok"
    for t in prob["tests"]:
        if verdict != "ok":
            details.append((t, "skipped", {}))
            continue
        rfd, wfd = os.pipe()
        cmd = ([args.sandlock, "interactive"] + be +
               ["--timeout", "%g" % (prob["timeout"] * 2), "--idle", "%g" % prob["timeout"],
                "--report-fd", str(wfd), "-q",
                "--interactor"] + profile_for(inter["argv"]) + ["--timeout", "0"] +
               inter.get("options", []) + ["--workdir", prob["dir"], "--"] + inter["argv"] +
               [os.path.join("tests", t + ".in"),
                "--submission"] + opts + ["--timeout", "0"] + limits(prob)[:4] +
               ["--workdir", build, "--"] + argv)
        p = subprocess.Popen(cmd, pass_fds=(wfd,), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(wfd)
        with os.fdopen(rfd) as f:
            text = f.read()
        p.wait()
        try:
            rep = json.loads(text)
        except ValueError:
            raise JudgeError("sandlock interactive left no report (status %d)" % p.returncode)
        v = rep.get("verdict", "setup_failed")
        if v in JUDGE_FAULTS:
            raise JudgeError("test %s: %s" % (t, v))
        details.append((t, v, rep.get("submission", {})))
        if v == "ok":
            passed += 1
        else:
            verdict = v
    return verdict, passed, len(prob["tests"]), details


def judge(args, pdir, sub):
    prob = load_problem(pdir)
    lang = LANGUAGES.get(os.path.splitext(sub)[1])
    if not lang:
        raise JudgeError("%s: unknown language (.c, .py)" % sub)
    tmp = tempfile.mkdtemp(prefix="judge-")
    try:
        if prob["type"] == "interactive":
            res = judge_interactive(args, prob, sub, lang, tmp)
        else:
            res = judge_batch(args, prob, sub, lang, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    verdict, passed, total, details = res
    if args.verbose:
        for name, v, r in details:
            extra = ""
            if r.get("cpu_ms") is not None and v != "skipped":
                extra = " %d ms cpu, %d ms wall, %d KiB" % (r.get("cpu_ms", 0),
                                                             r.get("wall_ms", 0),
                                                             r.get("peak_kb", 0))
            print("%s %s %s%s" % (prob["name"], name, v, extra))
    if verdict in JUDGE_FAULTS:
        raise JudgeError("%s: %s" % (prob["name"], verdict))
    return prob, verdict, passed, total


def main():
    ap = argparse.ArgumentParser(description="Grade submissions with sandlock.")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--sandlock", default=os.environ.get("SANDLOCK", "sandlock"))
    ap.add_argument("--best-effort", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="grade every reference submission of each PROBLEM_DIR")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    try:
        if not args.check:
            if len(args.paths) != 2:
                ap.error("PROBLEM_DIR SUBMISSION")
            prob, verdict, passed, total = judge(args, *args.paths)
            print("%s %s %d/%d" % (prob["name"], verdict, passed, total))
            return 0 if verdict == "ok" else 1
        bad = 0
        for pdir in args.paths:
            for sub, want in sorted(load_problem(pdir).get("expect", {}).items()):
                prob, verdict, passed, total = judge(
                    args, pdir, os.path.join(pdir, "submissions", sub))
                print("%s %s %s %d/%d expected %s" % (prob["name"], sub, verdict, passed,
                                                      total, want))
                bad += verdict != want
        return 1 if bad else 0
    except (JudgeError, OSError, KeyError) as e:
        print("judge: %s" % e, file=sys.stderr)
        return 125


if __name__ == "__main__":
    sys.exit(main())
