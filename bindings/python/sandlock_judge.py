"""Run a command under the Sandlock sandbox CLI and get a typed verdict.

Standard library only; works with a plain ``python3`` (3.8+).  One module
(over 800 lines) so that it can be copied next to a grader and imported
without installing anything.

The module starts the installed ``sandlock`` binary with options that mirror
:class:`Policy`, passes it the write end of a pipe (``--report-fd N`` with
``pass_fds``) and decodes the one-line JSON report the sandbox writes there
when the run ends. The program's stdout and stderr are never parsed.

The program is never run outside the sandbox: when the binary cannot be found
or started, exits with status 125, or leaves no valid report, :func:`run`
raises a :class:`SandlockError` (its ``result`` attribute holds whatever is
known, with verdict ``setup_failed`` unless a report said otherwise).

Installed as the distribution ``sandlock-judge`` (``pip install
bindings/python``), imported as ``sandlock_judge``: the name ``sandlock`` on
the package index belongs to an unrelated project, and neither name here can
pull it in.

Example::

    import sandlock_judge as sandlock
    res = sandlock.run(sandlock.Policy(cpu=2, mem_mb=128, timeout=5, no_fork=True,
                                       no_network=True, clean_env=True),
                       ["python3", "student.py"], capture_output=True)
    if res.verdict is sandlock.Verdict.OK:
        print(res.stdout)

The contract bound to is docs/interface.md in the Sandlock repository.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

__all__ = [
    "UNLIMITED", "DEFAULT_CANCEL_GRACE", "Verdict", "Policy", "Result",
    "SandlockError", "SandlockNotFound", "SandlockSetupFailed",
    "SandlockBadReport", "SandlockCancelled", "PolicyError",
    "find_binary", "parse_report", "run", "Run", "spawn", "run_async",
]

#: A resource limit of 0 means "no limit" to the CLI (``None`` means "CLI default").
UNLIMITED = 0

#: Seconds between SIGTERM and SIGKILL when a run is cancelled.
DEFAULT_CANCEL_GRACE = 2.0

_MAX_REPORT_BYTES = 1 << 20

PathLike = Union[str, "os.PathLike[str]"]


class Verdict(str, enum.Enum):
    """What happened to the run (docs/interface.md). Any other string in a
    report is an error."""

    OK = "ok"
    RUNTIME_ERROR = "runtime_error"
    SIGNALED = "signaled"
    CPU_LIMIT = "cpu_limit"
    WALL_LIMIT = "wall_limit"
    MEMORY_LIMIT = "memory_limit"
    FILE_SIZE_LIMIT = "file_size_limit"
    OUTPUT_LIMIT = "output_limit"
    SYSCALL_BLOCKED = "syscall_blocked"
    SETUP_FAILED = "setup_failed"

    def __str__(self) -> str:
        return self.value


class SandlockError(Exception):
    """Base class: the run did not produce a trustworthy result.

    ``result`` is a :class:`Result` with what is known (or None)."""

    def __init__(self, message: str, result: Optional["Result"] = None):
        super().__init__(message)
        self.result = result


class SandlockNotFound(SandlockError):
    """The sandlock binary could not be found or started."""


class SandlockSetupFailed(SandlockError):
    """The sandbox could not be set up (exit 125 or a setup_failed verdict);
    the program did not run."""


class SandlockBadReport(SandlockError):
    """The sandbox left no report, or an invalid one."""


class SandlockCancelled(SandlockError):
    """The run was cancelled (``timeout`` or ``cancel`` of :func:`run`) and
    the sandbox was stopped; ``result.cancelled`` is True."""


class PolicyError(SandlockError, ValueError):
    """The policy or argv cannot be turned into command-line options."""


StdSpec = Union[None, PathLike, int, Any]


@dataclass
class Policy:
    """Mirrors the sandlock command-line options.

    ``None``/``False``/empty means "do not pass the option", so the CLI
    default applies (docs/interface.md): cpu 5 s, memory 256 MB, file size
    10 MB, 100 open files, 10 processes, 8 MB stack, no wall-clock timeout,
    no output cap, environment inherited, no Landlock, the CLI's default
    namespaces. Note: giving ``ro`` or ``rw`` turns Landlock on, and then only
    the listed paths are allowed (the CLI's default read-only system paths
    apply only when neither is given).
    For resource limits, 0 (:data:`UNLIMITED`) means no limit, as in the CLI.
    """

    #: Path of the sandlock executable; None: $SANDLOCK, then ``sandlock`` on PATH.
    binary: Optional[PathLike] = None

    cpu: Optional[float] = None  #: --cpu, seconds of CPU time of the whole run (0.5 allowed)
    mem_mb: Optional[int] = None  #: --mem
    fsize_mb: Optional[int] = None  #: --fsize
    #: --fsize exact to the byte (a 10,000-byte output file); used instead of fsize_mb
    fsize_bytes: Optional[int] = None
    #: --disk: the private /tmp, /dev/shm and scratch directory as one tmpfs of this many MB
    disk_mb: Optional[int] = None
    #: --cgroup: a cgroup v2 directory delegated to this user, under which each
    #: run's own cgroup counts its CPU (and memory); "auto": under our own
    #: cgroup where we may write; None or "off": none (the supervisor samples)
    cgroup: Optional[PathLike] = None
    nofile: Optional[int] = None  #: --nofile
    nproc: Optional[int] = None  #: --nproc
    stack_mb: Optional[int] = None  #: --stack
    #: --timeout: wall-clock limit in seconds (verdict wall_limit), ms precision.
    timeout: Optional[float] = None
    max_output: Optional[int] = None  #: --max-output: cap on stdout+stderr bytes

    no_network: bool = False
    no_fork: bool = False
    #: --no-jit: no memory the program writes and then executes (W^X; breaks JIT runtimes)
    no_jit: bool = False
    #: --no-exec: the program may not exec anything once it runs
    no_exec: bool = False
    clean_env: bool = False  #: PATH, HOME, LANG, TMPDIR + env + keep_env
    #: --env: variables set in the program's environment (dict or "NAME=VALUE" list)
    env: Union[Mapping[str, str], Sequence[str]] = field(default_factory=dict)
    #: --keep-env: glob patterns of the sandbox's own variables to keep, e.g. "EVAL_*"
    keep_env: Sequence[str] = ()
    #: environment of the sandlock process itself (None: os.environ)
    process_env: Optional[Mapping[str, str]] = None

    workdir: Optional[PathLike] = None  #: --workdir
    user: Optional[str] = None  #: --user UID[:GID] (only when started as root)
    uid_pool: Optional[str] = None  #: --uid-pool FIRST-LAST, auto (default) or off (as root: a uid of its own per run)
    violation: Optional[str] = None  #: --violation kill|errno

    landlock: bool = False
    ro: Sequence[PathLike] = ()
    rw: Sequence[PathLike] = ()
    allow: Sequence[PathLike] = ()
    isolate_tmp: bool = False
    unshare: Optional[str] = None  #: auto|on|off (None: the CLI default)
    strict: bool = False
    #: --profile NAME[:STEP]: a language's judge settings (c, cpp, go, java, node,
    #: python, or a profile file's path with a '/') for its "compile" or "run"
    #: step; the other fields change what it sets
    profile: Optional[str] = None
    #: --best-effort: run where the host refuses layers (serverless), reported in missing
    best_effort: bool = False
    #: --guard: a guard inside the program for hosts without kernel layers:
    #: "python", "node", "preload", "auto" or None; each can be defeated by
    #: the program (docs/guards.md)
    guard: Optional[str] = None
    require: Sequence[str] = ()  #: --require LAYER,... (125 if one is missing)
    verbose: bool = False

    #: Standard I/O. A str/PathLike is a file path given to the CLI
    #: (--stdin/--stdout/--stderr, resolved against the caller's working
    #: directory). An int descriptor or a file object is connected to the
    #: sandbox directly. None: inherited, as with subprocess (see also
    #: run()'s ``input`` and ``capture_output``).
    stdin: StdSpec = None
    stdout: StdSpec = None
    stderr: StdSpec = None

    #: seconds between SIGTERM and SIGKILL when a run is cancelled
    cancel_grace: float = DEFAULT_CANCEL_GRACE
    #: passed to the CLI verbatim, before "--"
    extra_args: Sequence[str] = ()

    def args(self, argv: Sequence[str], report_fd: int = 3) -> List[str]:
        """The sandlock arguments (without the binary) for running argv."""
        argv = [os.fspath(a) for a in argv]
        if not argv or not argv[0]:
            raise PolicyError("empty command")
        # -q: a failed setup is in the report, which is raised; not printed
        # on the program's stderr as well
        out = ["--report-fd", str(int(report_fd)), "-q"]
        if self.cpu is not None:
            if isinstance(self.cpu, bool) or not isinstance(self.cpu, (int, float)) \
                    or not self.cpu >= 0 or self.cpu == float("inf"):
                raise PolicyError(f"--cpu: {self.cpu!r} is not a non-negative number of seconds")
            cms = -(-int(round(self.cpu * 1e6)) // 1000)  # ceil to whole ms
            out += ["--cpu", _fmt_seconds(cms)]
        if self.disk_mb is not None:
            if isinstance(self.disk_mb, bool) or not isinstance(self.disk_mb, int) \
                    or self.disk_mb < 1:
                raise PolicyError(f"--disk: {self.disk_mb!r} is not a positive integer")
            out += ["--disk", str(self.disk_mb)]
        if self.cgroup is not None:
            cg = os.fspath(self.cgroup)
            if cg not in ("off", "auto") and not os.path.isabs(cg):
                raise PolicyError(f"--cgroup: {cg!r} is not an absolute path, 'auto' or 'off'")
            out += ["--cgroup", cg]
        for opt, v in (("--mem", self.mem_mb),
                       ("--fsize", self.fsize_mb), ("--nofile", self.nofile),
                       ("--nproc", self.nproc), ("--stack", self.stack_mb),
                       ("--max-output", self.max_output)):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise PolicyError(f"{opt}: {v!r} is not a non-negative integer")
            out += [opt, str(v)]
        if self.fsize_bytes is not None:
            if isinstance(self.fsize_bytes, bool) or not isinstance(self.fsize_bytes, int) \
                    or self.fsize_bytes < 0:
                raise PolicyError(f"--fsize: {self.fsize_bytes!r} is not a non-negative number of bytes")
            if "--fsize" in out:
                i = out.index("--fsize")
                del out[i:i + 2]
            out += ["--fsize", f"{self.fsize_bytes}B"]
        if self.timeout is not None:
            if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) \
                    or not self.timeout > 0 or self.timeout == float("inf"):
                raise PolicyError(f"--timeout: {self.timeout!r} is not a positive number of seconds")
            ms = -(-int(round(self.timeout * 1e6)) // 1000)  # ceil to whole ms
            out += ["--timeout", _fmt_seconds(ms)]
        for on, opt in ((self.no_network, "--no-network"), (self.no_fork, "--no-fork"),
                        (self.no_jit, "--no-jit"), (self.no_exec, "--no-exec"), (self.clean_env, "--clean-env")):
            if on:
                out.append(opt)
        if isinstance(self.env, Mapping):
            pairs = [f"{k}={v}" for k, v in self.env.items()]
        elif isinstance(self.env, (str, bytes)):
            raise PolicyError("env must be a mapping or a list of NAME=VALUE strings")
        else:
            pairs = list(self.env)
        for kv in pairs:
            if not isinstance(kv, str) or kv.find("=") <= 0:
                raise PolicyError(f"env entry {kv!r} is not NAME=VALUE")
            out += ["--env", kv]
        out += _many("--keep-env", self.keep_env)
        for opt, v in (("--workdir", self.workdir), ("--user", self.user),
                       ("--uid-pool", self.uid_pool), ("--violation", self.violation)):
            if v is not None and os.fspath(v) != "":
                out += [opt, os.fspath(v)]
        if self.landlock:
            out.append("--landlock")
        out += _many("--ro", self.ro) + _many("--rw", self.rw) + _many("--allow", self.allow)
        if self.isolate_tmp:
            out.append("--isolate-tmp")
        if self.unshare:
            out += ["--unshare", self.unshare]
        if self.strict:
            out.append("--strict")
        if self.profile is not None:
            if not isinstance(self.profile, str) or not self.profile:
                raise PolicyError(f"--profile: {self.profile!r} is not a profile name")
            out += ["--profile", self.profile]
        if self.best_effort:
            out.append("--best-effort")
        if self.guard is not None:
            if self.guard not in ("none", "auto", "python", "node", "preload"):
                raise PolicyError(f"--guard: {self.guard!r} (none, auto, python, node or preload)")
            out += ["--guard", self.guard]
        if isinstance(self.require, str):
            raise PolicyError("require must be a list of layer names")
        if self.require:
            for r in self.require:
                if not r or "," in r:
                    raise PolicyError(f"require entry {r!r}")
            out += ["--require", ",".join(self.require)]
        for opt, v in (("--stdin", self.stdin), ("--stdout", self.stdout),
                       ("--stderr", self.stderr)):
            if _is_path(v):
                p = os.fspath(v)
                if not p:
                    raise PolicyError(f"{opt}: empty path")
                out += [opt, p]
        if self.verbose:
            out.append("--verbose")
        out += [str(a) for a in self.extra_args]
        return out + ["--"] + argv


def _fmt_seconds(ms: int) -> str:
    s, r = divmod(ms, 1000)
    return str(s) if r == 0 else f"{s}.{r:03d}".rstrip("0")


def _many(opt: str, values: Sequence[Any]) -> List[str]:
    if isinstance(values, (str, bytes)):
        raise PolicyError(f"{opt}: expected a list, got a string")
    out: List[str] = []
    for v in values:
        v = os.fspath(v)
        if not v:
            raise PolicyError(f"{opt}: empty value")
        out += [opt, v]
    return out


def _is_path(v: Any) -> bool:
    return isinstance(v, (str, os.PathLike))


@dataclass
class Result:
    """The decoded report of one run."""

    verdict: Verdict
    #: the sandbox's exit status (program's N, 128+signal, 124, 125, 126, 127)
    status: int
    exit_code: int = -1  #: the program's exit code, -1 if killed by a signal
    signal: int = 0  #: terminating signal, 0 if none
    blocked_syscall: Optional[str] = None
    blocked_args: Optional[List[int]] = None
    cpu_ms: float = 0  #: user+system CPU of every process of the run
    user_ms: float = 0
    sys_ms: float = 0
    wall_ms: float = 0
    #: wall time in microseconds when the binary reports it (else None)
    wall_us: Optional[float] = None
    #: the phases of the run in microseconds (ours before the program's exec,
    #: the program's, ours after it), when the binary reports them (else None)
    setup_us: Optional[float] = None
    run_us: Optional[float] = None
    teardown_us: Optional[float] = None
    peak_kb: int = 0
    #: how the whole run's CPU and memory were counted: "cgroup", "cgroup_cpu",
    #: "supervisor" or "none"
    accounting: Optional[str] = None
    supervisor_cpu_ms: float = 0  #: what watching the run cost the sandbox
    #: counted only when the sandbox relays output (max_output, stdout/stderr files)
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    limits: Dict[str, Any] = field(default_factory=dict)
    layers: Dict[str, bool] = field(default_factory=dict)
    #: what this host could not give the run, with why, in one line
    #: ("pidns (Operation not permitted), privdrop (refused)"); None if nothing
    missing: Optional[str] = None
    error: Optional[str] = None
    #: True when run() stopped the sandbox (timeout/cancel)
    cancelled: bool = False
    #: the decoded report object (None if there was none)
    report: Optional[Dict[str, Any]] = None
    #: captured output (run(..., capture_output=True)), else None
    stdout: Optional[bytes] = None
    stderr: Optional[bytes] = None

    @property
    def cpu(self) -> float:
        """CPU time in seconds."""
        return self.cpu_ms / 1000.0

    @property
    def wall(self) -> float:
        """Wall time in seconds (from wall_us when reported)."""
        if self.wall_us is not None:
            return self.wall_us / 1e6
        return self.wall_ms / 1000.0


def _int(obj: Mapping[str, Any], key: str, default: Optional[int] = None) -> int:
    v = obj.get(key, default)
    if v is None and default is not None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise SandlockBadReport(f"report: {key} is {v!r}, not an integer")
    return v


def _num(obj: Mapping[str, Any], key: str) -> float:
    v = obj.get(key, 0)
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise SandlockBadReport(f"report: {key} is {v!r}, not a number")
    return v


def parse_report(data: Union[bytes, str]) -> Result:
    """Decode one JSON report. An unknown or missing verdict, a missing
    status, or anything else than one JSON object raises SandlockBadReport."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise SandlockBadReport(f"report is not UTF-8: {e}") from None
    text = data.strip()
    if not text:
        raise SandlockBadReport("empty report")
    try:
        obj = json.loads(text)
    except ValueError as e:
        raise SandlockBadReport(f"report is not JSON: {e}") from None
    if not isinstance(obj, dict):
        raise SandlockBadReport("report is not a JSON object")
    if "verdict" not in obj or obj["verdict"] is None:
        raise SandlockBadReport("report has no verdict")
    try:
        verdict = Verdict(obj["verdict"])
    except ValueError:
        raise SandlockBadReport(f"unknown verdict {obj['verdict']!r}") from None
    if "status" not in obj:
        raise SandlockBadReport("report has no status")
    blocked = obj.get("blocked_syscall")
    if blocked is not None and not isinstance(blocked, str):
        raise SandlockBadReport(f"report: blocked_syscall is {blocked!r}")
    args = obj.get("blocked_args")
    if args is not None:
        if not isinstance(args, list) or any(isinstance(a, bool) or not isinstance(a, int) for a in args):
            raise SandlockBadReport(f"report: blocked_args is {args!r}")
        args = [a & 0xFFFFFFFFFFFFFFFF for a in args]
    layers = obj.get("layers") or {}
    if not isinstance(layers, dict) or any(not isinstance(v, bool) for v in layers.values()):
        raise SandlockBadReport(f"report: layers is {layers!r}")
    limits = obj.get("limits") or {}
    if not isinstance(limits, dict):
        raise SandlockBadReport(f"report: limits is {limits!r}")
    err = obj.get("error")
    if err is not None and not isinstance(err, str):
        raise SandlockBadReport(f"report: error is {err!r}")
    missing = obj.get("missing")
    if missing is not None and not isinstance(missing, str):
        raise SandlockBadReport(f"report: missing is {missing!r}")
    return Result(
        verdict=verdict,
        status=_int(obj, "status"),
        exit_code=_int(obj, "exit_code", -1),
        signal=_int(obj, "signal", 0),
        blocked_syscall=blocked,
        blocked_args=args,
        cpu_ms=_num(obj, "cpu_ms"),
        user_ms=_num(obj, "user_ms"),
        sys_ms=_num(obj, "sys_ms"),
        wall_ms=_num(obj, "wall_ms"),
        wall_us=_num(obj, "wall_us") if obj.get("wall_us") is not None else None,
        setup_us=_num(obj, "setup_us") if obj.get("setup_us") is not None else None,
        run_us=_num(obj, "run_us") if obj.get("run_us") is not None else None,
        teardown_us=_num(obj, "teardown_us") if obj.get("teardown_us") is not None else None,
        peak_kb=_int(obj, "peak_kb", 0),
        accounting=obj.get("accounting") if isinstance(obj.get("accounting"), str) else None,
        supervisor_cpu_ms=_num(obj, "supervisor_cpu_ms") if obj.get("supervisor_cpu_ms") is not None else 0,
        stdout_bytes=_int(obj, "stdout_bytes", 0),
        stderr_bytes=_int(obj, "stderr_bytes", 0),
        limits=limits,
        layers=layers,
        missing=missing or None,
        error=err,
        report=obj,
    )


def find_binary(policy: Optional[Policy] = None) -> str:
    """The sandlock executable run() would use: policy.binary, else
    $SANDLOCK, else ``sandlock`` on PATH. Raises SandlockNotFound."""
    if policy is not None and policy.binary:
        return os.fspath(policy.binary)
    env = os.environ.get("SANDLOCK")
    if env:
        return env
    found = shutil.which("sandlock")
    if not found:
        raise SandlockNotFound("sandlock binary not found (set SANDLOCK or put sandlock on PATH)")
    return found


def _failed(message: str, status: int = -1, **kw: Any) -> Result:
    return Result(verdict=Verdict.SETUP_FAILED, status=status, error=message, **kw)


class _ReportReader(threading.Thread):
    """Reads the report pipe until EOF, or until told to stop."""

    def __init__(self, fd: int):
        super().__init__(name="sandlock-report", daemon=True)
        self.fd = fd
        self.data = bytearray()
        self.eof = False
        self.error: Optional[BaseException] = None
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            # poll, not select: a grader may hold more than 1,024 descriptors
            poller = select.poll()
            poller.register(self.fd, select.POLLIN)
            while not self.stop.is_set():
                if not poller.poll(50):
                    continue
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    self.eof = True
                    return
                if len(self.data) + len(chunk) > _MAX_REPORT_BYTES:
                    self.error = SandlockBadReport("report too large")
                    return
                self.data += chunk
        except OSError as e:
            self.error = e
        finally:
            os.close(self.fd)


def _stream(spec: StdSpec) -> Any:
    if spec is None or _is_path(spec):
        return None  # inherited / given to the CLI
    return spec



def _check_call(policy, input, capture_output, timeout):
    """the arguments of run(), spawn() and run_async() that cannot go together"""
    if input is not None and policy.stdin is not None:
        raise PolicyError("both input and policy.stdin given")
    if capture_output and (policy.stdout is not None or policy.stderr is not None):
        raise PolicyError("both capture_output and policy.stdout/stderr given")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not timeout > 0 or timeout == float("inf")):
        raise PolicyError(f"timeout {timeout!r} is not a positive number of seconds")

def run(policy: Policy, argv: Sequence[str], *, timeout: Optional[float] = None,
        cancel: Optional[threading.Event] = None, input: Optional[bytes] = None,
        capture_output: bool = False) -> Result:
    """Run argv under the sandbox with ``policy`` and return its Result.

    The Result's verdict says what the program did (it can be anything but
    setup_failed). Raises a SandlockError subclass otherwise:
    SandlockNotFound, PolicyError, SandlockSetupFailed, SandlockBadReport,
    SandlockCancelled (each with ``.result``).

    ``timeout`` (seconds, as with subprocess.run) is the run's wall-clock
    limit: the sandbox enforces it (the smaller of it and
    ``policy.timeout``) and the Result's verdict is wall_limit, status 124,
    when it runs out; no exception.  Should the sandbox itself not end
    within ``policy.cancel_grace`` (+1 s) after that, it is stopped as
    ``cancel`` stops it.

    ``cancel`` (a threading.Event) stops the run from the outside: SIGTERM
    to the sandlock process, which kills the program's whole process tree
    and exits 128+15, then SIGKILL after ``policy.cancel_grace``;
    SandlockCancelled is raised with ``result.cancelled`` True.

    When the calling process dies (killed, crashed), the sandbox and the
    program die with it (the sandbox watches its report pipe).

    ``input`` (bytes) is fed to the program's stdin; ``capture_output``
    collects stdout/stderr into ``result.stdout``/``result.stderr``.
    """
    _check_call(policy, input, capture_output, timeout)
    policy.args(argv)  # validate before anything is created
    grace = policy.cancel_grace if policy.cancel_grace and policy.cancel_grace > 0 else DEFAULT_CANCEL_GRACE
    if timeout is not None:
        # the sandbox's own wall clock decides; ours only backs it up
        if policy.timeout is None or timeout < policy.timeout:
            policy = dataclasses.replace(policy, timeout=timeout)
        timeout = policy.timeout + grace + 1.0
    try:
        binary = find_binary(policy)
    except SandlockNotFound as e:
        e.result = _failed(str(e))
        raise
    if cancel is not None and cancel.is_set():
        res = _failed("run cancelled before start", cancelled=True)
        raise SandlockCancelled("sandlock: run cancelled before start", res)

    rfd, wfd = os.pipe()  # both close-on-exec; pass_fds hands wfd to sandlock only
    args = [binary] + policy.args(argv, report_fd=wfd)
    env = None if policy.process_env is None else dict(policy.process_env)
    stdin = subprocess.PIPE if input is not None else _stream(policy.stdin)
    stdout = subprocess.PIPE if capture_output else _stream(policy.stdout)
    stderr = subprocess.PIPE if capture_output else _stream(policy.stderr)
    try:
        proc = subprocess.Popen(args, pass_fds=(wfd,), env=env, stdin=stdin,
                                stdout=stdout, stderr=stderr, close_fds=True)
    except OSError as e:
        os.close(rfd)
        os.close(wfd)
        msg = f"sandlock: cannot start {binary}: {e}"
        raise SandlockNotFound(msg, _failed(msg)) from e
    os.close(wfd)
    reader = _ReportReader(rfd)
    reader.start()

    cancelled = False
    out = err = None
    try:
        start = time.monotonic()
        first = True
        while True:
            step = None
            if timeout is not None:
                step = max(0.0, timeout - (time.monotonic() - start))
            if cancel is not None:
                step = 0.05 if step is None else min(step, 0.05)
            try:
                out, err = proc.communicate(input if first else None, timeout=step)
                break
            except subprocess.TimeoutExpired:
                first = False
                expired = timeout is not None and time.monotonic() - start >= timeout
                if expired or (cancel is not None and cancel.is_set()):
                    cancelled = True
                    out, err = _stop(proc, grace)
                    break
    except BaseException:
        # KeyboardInterrupt or the like in the caller: never leave a sandbox behind.
        _stop(proc, grace)
        reader.stop.set()
        raise
    # sandlock has exited; its report is in the pipe (never wait forever).
    reader.join(grace)
    reader.stop.set()
    reader.join()

    why = "timeout" if cancel is None or not cancel.is_set() else "cancel"
    return _conclude(proc.returncode, bytes(reader.data), reader.eof, reader.error,
                     out, err, why if cancelled else None)


def _conclude(status: int, data: bytes, eof: bool, read_error: Optional[BaseException],
              out: Optional[bytes], err: Optional[bytes], cancelled: Optional[str]) -> Result:
    """The Result of a sandlock process that exited with ``status``
    (negative: killed by that signal) and left ``data`` in its report pipe,
    or the SandlockError to raise; ``cancelled`` says why we stopped it
    (None: we did not). Shared by run(), spawn() and run_async()."""
    res: Optional[Result] = None
    problem: Optional[SandlockError] = None
    if read_error is not None and not data:
        problem = SandlockBadReport(f"sandlock: reading report: {read_error}")
    elif not eof and data:
        problem = SandlockBadReport("sandlock: report not terminated (pipe still open)")
    else:
        try:
            res = parse_report(data)
        except SandlockBadReport as e:
            problem = e
    if problem is not None:
        res = _failed(str(problem), status=status)
        if status == 125:
            problem = SandlockSetupFailed(f"sandlock exited 125 without a valid report: {problem}")
        elif status < 0:
            problem = SandlockBadReport(f"sandlock was killed by signal {-status}: {problem}")
        else:
            problem = SandlockBadReport(f"sandlock exited {status}: {problem}")
    elif res.status != status:
        problem = SandlockBadReport(
            f"report says verdict {res.verdict}, status {res.status}, but sandlock exited {status}")
        res = dataclasses.replace(res, verdict=Verdict.SETUP_FAILED, status=status)
    elif res.verdict is Verdict.SETUP_FAILED and res.status not in (126, 127):
        # 126/127 (not executable, not found): the sandbox worked and the
        # command is the caller's to judge, as sandlock_run() returns 0
        problem = SandlockSetupFailed(f"sandbox setup failed: {res.error}")
    assert res is not None
    res.stdout, res.stderr = out, err
    if cancelled is not None:
        res.cancelled = True
        detail = str(problem) if problem else f"verdict {res.verdict}, status {res.status}"
        problem = SandlockCancelled(f"sandlock: run cancelled ({cancelled}): {detail}")
    if problem is not None:
        if res.error is None:
            res.error = str(problem)
        problem.result = res
        raise problem
    return res


def _stop(proc: subprocess.Popen, grace: float):
    """SIGTERM to sandlock (it kills the whole tree, exits 128+15), then
    SIGKILL after ``grace`` seconds. Returns whatever output was captured."""
    out = err = None
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
    try:
        out, err = proc.communicate(timeout=grace)
        return out, err
    except subprocess.TimeoutExpired:
        pass
    proc.kill()
    try:
        out, err = proc.communicate(timeout=grace)
    except subprocess.TimeoutExpired:
        # A stray process holds our output pipes: give up on them.
        for f in (proc.stdin, proc.stdout, proc.stderr):
            if f is not None:
                f.close()
        proc.wait()
    return out, err


# ---- runs driven by the caller: spawn() for selectors, run_async() for asyncio ----


def _binary_for(policy: Policy, argv: Sequence[str]) -> str:
    policy.args(argv)  # validate before anything is created
    try:
        return find_binary(policy)
    except SandlockNotFound as e:
        e.result = _failed(str(e))
        raise


def _grace(policy: Policy) -> float:
    return policy.cancel_grace if policy.cancel_grace and policy.cancel_grace > 0 else DEFAULT_CANCEL_GRACE


class Run:
    """A run started by :func:`spawn`: one sandlock process, no thread.

    ``fileno()`` is its report pipe: a selector (``selectors``,
    ``select.poll``) reports it readable once the run is over, as
    ``sandlock_handle_fd()`` in the C library; ``poll()`` then gives the
    Result. ``wait()`` blocks for it, ``kill()`` stops the run (SIGTERM to
    sandlock, which kills the program's whole tree; SIGKILL after
    ``policy.cancel_grace``). ``poll()`` and ``wait()`` return the Result or
    raise what :func:`run` would raise (SandlockCancelled after ``kill()``),
    the same each time once the run is over.

    ``close()`` (or the end of a ``with`` block, or the object's collection)
    stops a run that is not over and releases the descriptor: a Run dropped
    unawaited leaves nothing running. When the grader process dies, its
    runs die with it (sandlock watches the report pipe).
    """

    def __init__(self, proc: subprocess.Popen, rfd: int, grace: float):
        self._proc = proc
        self._fd = rfd
        self._grace = grace
        self._data = bytearray()
        self._eof = False
        self._read_error: Optional[BaseException] = None
        self._killed_at: Optional[float] = None
        self._exited_at: Optional[float] = None
        self._result: Optional[Result] = None
        self._error: Optional[SandlockError] = None
        self._done = False

    @property
    def pid(self) -> int:
        """The sandlock process's pid."""
        return self._proc.pid

    def fileno(self) -> int:
        """The descriptor to select on (readable once the run is over); -1
        after close()."""
        return self._fd

    def _read(self) -> None:
        while self._fd >= 0 and not self._eof and self._read_error is None:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                return
            except OSError as e:
                self._read_error = e
                return
            if not chunk:
                self._eof = True
            elif len(self._data) + len(chunk) > _MAX_REPORT_BYTES:
                self._read_error = SandlockBadReport("report too large")
            else:
                self._data += chunk

    def _outcome(self) -> Result:
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def poll(self) -> Optional[Result]:
        """The Result once the run is over (or the SandlockError raised),
        None while it goes on. Does not block (but for sandlock's own exit,
        which follows its report at once)."""
        if self._done:
            return self._outcome()
        self._read()
        now = time.monotonic()
        if self._killed_at is not None and self._proc.poll() is None \
                and now - self._killed_at >= self._grace:
            self._proc.kill()  # a sandbox that did not stop on SIGTERM
        # the report is one line, written when the run is over: then
        # sandlock is exiting (the selector woke us for the report, and
        # may not again: its data is read)
        complete = self._eof or self._read_error is not None or self._data.endswith(b"\n")
        if not complete:
            if self._proc.poll() is None:
                return None
            # sandlock has exited and something else holds its pipe:
            # never wait forever for the end of the report
            if self._exited_at is None:
                self._exited_at = now
            if now - self._exited_at < self._grace:
                return None
        try:
            status = self._proc.wait(self._grace)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            status = self._proc.wait()
        self._read()
        self._done = True
        try:
            self._result = _conclude(status, bytes(self._data), self._eof or complete,
                                     self._read_error, None, None,
                                     "kill" if self._killed_at is not None else None)
        except SandlockError as e:
            self._error = e
        return self._outcome()

    def wait(self, timeout: Optional[float] = None) -> Result:
        """Block until the run is over: its Result, or the SandlockError.
        ``timeout`` (seconds) raises subprocess.TimeoutExpired, the run
        going on (use the policy's timeout for a wall-clock verdict)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        poller = select.poll()
        if self._fd >= 0:
            poller.register(self._fd, select.POLLIN)
        while True:
            res = self.poll()
            if self._done:
                assert res is not None
                return res
            step = 0.05 if (self._killed_at is not None or self._exited_at is not None
                            or self._fd < 0) else 1.0
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise subprocess.TimeoutExpired(self._proc.args, timeout)
                step = min(step, left)
            poller.poll(int(step * 1000) + 1)

    def kill(self) -> None:
        """Stop the run (SIGTERM to sandlock, SIGKILL after the grace);
        returns at once. Nothing happens to a run that is over."""
        if self._done or self._killed_at is not None:
            return
        if self._proc.poll() is None:
            try:
                self._proc.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
            self._killed_at = time.monotonic()

    def close(self) -> None:
        """Stop the run if it is not over, and release the descriptor."""
        if not self._done and self._proc.poll() is None:
            # as kill(): sandlock cleans up (scratch space, cgroup) on SIGTERM
            self.kill()
            try:
                self._proc.wait(self._grace)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # collected while running: stop it without waiting (closing the
        # report pipe alone would stop it too: sandlock watches its reader)
        fd = getattr(self, "_fd", -1)
        proc = getattr(self, "_proc", None)
        if proc is not None and not getattr(self, "_done", True) and proc.poll() is None:
            try:
                proc.send_signal(signal.SIGTERM)
            except (ProcessLookupError, OSError):
                pass
        if fd >= 0:
            os.close(fd)
            self._fd = -1


def spawn(policy: Policy, argv: Sequence[str]) -> Run:
    """Start argv under the sandbox and return at once: a :class:`Run`, for
    graders that drive many runs from one thread with a selector.

    The policy's stdin/stdout/stderr are used as by :func:`run` (a path for
    the CLI, a file object or descriptor, or None: inherited); there is no
    ``input``/``capture_output`` here (a pipe would need a reader): give
    each run files of its own. Raises PolicyError and SandlockNotFound at
    once; what happens to the run comes from ``poll()``/``wait()``.
    """
    binary = _binary_for(policy, argv)
    rfd, wfd = os.pipe()  # both close-on-exec; pass_fds hands wfd to sandlock only
    args = [binary] + policy.args(argv, report_fd=wfd)
    env = None if policy.process_env is None else dict(policy.process_env)
    try:
        proc = subprocess.Popen(args, pass_fds=(wfd,), env=env, stdin=_stream(policy.stdin),
                                stdout=_stream(policy.stdout), stderr=_stream(policy.stderr),
                                close_fds=True)
    except OSError as e:
        os.close(rfd)
        os.close(wfd)
        msg = f"sandlock: cannot start {binary}: {e}"
        raise SandlockNotFound(msg, _failed(msg)) from e
    os.close(wfd)
    os.set_blocking(rfd, False)
    return Run(proc, rfd, _grace(policy))


class _AsyncReport:
    """The report pipe, read by the event loop as data comes."""

    def __init__(self, loop: Any, fd: int):
        os.set_blocking(fd, False)
        self.loop, self.fd = loop, fd
        self.data = bytearray()
        self.eof = False
        self.error: Optional[BaseException] = None
        self.done = loop.create_future()
        loop.add_reader(fd, self._readable)

    def _readable(self) -> None:
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError as e:
            self.error = e
            chunk = None
        if chunk:
            if len(self.data) + len(chunk) <= _MAX_REPORT_BYTES:
                self.data += chunk
                return
            self.error = SandlockBadReport("report too large")
        elif chunk is not None:
            self.eof = True
        self.loop.remove_reader(self.fd)
        if not self.done.done():
            self.done.set_result(None)

    async def wait(self, grace: float) -> None:
        import asyncio
        try:
            await asyncio.wait_for(asyncio.shield(self.done), grace)
        except asyncio.TimeoutError:
            pass  # something else holds the pipe: never wait forever

    def close(self) -> None:
        self.loop.remove_reader(self.fd)
        os.close(self.fd)


async def _stop_async(proc: Any, grace: float) -> None:
    """SIGTERM to sandlock (it kills the whole tree), SIGKILL after grace;
    cancelled meanwhile: SIGKILL at once, not waited for (the event loop's
    child watcher reaps it)."""
    import asyncio
    if proc.returncode is not None:
        return
    try:
        proc.send_signal(signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        await asyncio.wait_for(proc.wait(), grace)
    except asyncio.TimeoutError:
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        await proc.wait()
    except BaseException:
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        raise


async def run_async(policy: Policy, argv: Sequence[str], *, timeout: Optional[float] = None,
                    input: Optional[bytes] = None, capture_output: bool = False) -> Result:
    """:func:`run` for asyncio: the same arguments (but ``cancel``), the
    same Result and exceptions, with an asyncio subprocess and no thread.

    Cancelling the task stops the run (SIGTERM to sandlock, which kills the
    program's whole tree, SIGKILL after ``policy.cancel_grace``) before
    CancelledError propagates: nothing of it is left. Many runs at once::

        results = await asyncio.gather(*(run_async(p, argv) for argv in tests))
    """
    import asyncio
    _check_call(policy, input, capture_output, timeout)
    binary = _binary_for(policy, argv)
    grace = _grace(policy)
    backstop = None
    if timeout is not None:
        # the sandbox's own wall clock decides; ours only backs it up
        if policy.timeout is None or timeout < policy.timeout:
            policy = dataclasses.replace(policy, timeout=timeout)
        backstop = policy.timeout + grace + 1.0
    loop = asyncio.get_running_loop()
    rfd, wfd = os.pipe()
    args = [binary] + policy.args(argv, report_fd=wfd)
    env = None if policy.process_env is None else dict(policy.process_env)
    pipe = asyncio.subprocess.PIPE
    try:
        try:
            proc = await asyncio.create_subprocess_exec(
                *args, pass_fds=(wfd,), env=env, close_fds=True,
                stdin=pipe if input is not None else _stream(policy.stdin),
                stdout=pipe if capture_output else _stream(policy.stdout),
                stderr=pipe if capture_output else _stream(policy.stderr))
        finally:
            os.close(wfd)
    except OSError as e:
        os.close(rfd)
        msg = f"sandlock: cannot start {binary}: {e}"
        raise SandlockNotFound(msg, _failed(msg)) from e
    except BaseException:
        os.close(rfd)
        raise
    report = _AsyncReport(loop, rfd)
    cancelled = None
    out = err = None
    try:
        try:
            out, err = await asyncio.wait_for(proc.communicate(input), backstop)
        except asyncio.TimeoutError:
            cancelled = "timeout"
            await _stop_async(proc, grace)
        await report.wait(grace)
    except BaseException:
        # the task was cancelled: never leave a sandbox behind
        await _stop_async(proc, grace)
        raise
    finally:
        report.close()
    return _conclude(proc.returncode, bytes(report.data), report.eof, report.error,
                     out, err, cancelled)
