"""Running a program under a guard through sandlock, as the guard suites
do: the options every one of them uses, and the report read back."""
import json
import os
import subprocess
import tempfile


def through_sandlock(sandlock, guard, argv, workdir, report, net=0, fork=0, exec_=0,
                     extra=(), timeout=20, text=False, cwd=None):
    """(completed process, the report as a dict, {} if there was none)"""
    if os.path.exists(report):
        os.unlink(report)
    flags = ["--guard", guard, "--best-effort", "--clean-env", "--timeout", "10",
             "--workdir", workdir, "--isolate-tmp", "--report", report, *extra]
    flags += [] if net else ["--no-network"]
    flags += [] if fork else ["--no-fork"]
    flags += [] if exec_ else ["--no-exec"]
    p = subprocess.run([sandlock, *flags, "--", *argv], stdin=subprocess.DEVNULL, cwd=cwd,
                       capture_output=True, text=text, timeout=timeout + 10)
    try:
        with open(report) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        rep = {}
    return p, rep


def guard_named(rep, layer):
    """the report names the guard's layer as active (None: no report, the
    direct contract)"""
    return rep is None or rep.get("layers", {}).get(layer) is True


def workspace(prefix):
    """WORK and its bin, outside, wd and tmp directories: bin readable by
    all, the others open to every uid (as root the program runs as 65534)"""
    work = os.path.realpath(tempfile.mkdtemp(prefix=prefix))
    os.chmod(work, 0o755)
    dirs = tuple(os.path.join(work, d) for d in ("bin", "outside", "wd", "tmp"))
    for d, mode in zip(dirs, (0o755, 0o1777, 0o1777, 0o1777)):
        os.mkdir(d)
        os.chmod(d, mode)
    return (work,) + dirs
