// Package sandlock runs a command under the Sandlock sandbox CLI and returns
// a typed verdict.
//
// It does not use cgo: it starts the installed sandlock binary with the
// options that mirror Policy, passes it a pipe as descriptor 3
// (--report-fd 3) and decodes the one-line JSON report that the sandbox
// writes there when the run ends. The program's stdout and stderr are never
// parsed.
//
// One file (over 800 lines) so that a grader can vendor the package by
// copying it; the types, the option mapping and the run are its sections.
//
// The program is never run outside the sandbox: when the binary cannot be
// found or started, exits with status 125, or leaves no valid report, Run
// returns an error (together with a Result whose Verdict is
// VerdictSetupFailed when nothing better is known).
//
// The contract bound to is docs/interface.md in the Sandlock repository.
package sandlock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Unlimited, given as a resource limit in Policy, passes 0 to the CLI,
// which means "no limit". (The zero value of a Policy field means "use the
// CLI's default", so 0 cannot be used for that.)
const Unlimited = -1

// DefaultCancelGrace is how long Run waits, after sending SIGTERM to the
// sandbox on context cancellation, before it sends SIGKILL.
const DefaultCancelGrace = 2 * time.Second

// reportFD is the descriptor number the report pipe gets in the sandbox
// process: ExtraFiles[0] is always descriptor 3.
const reportFD = 3

// maxReportBytes bounds what is read from the report pipe.
const maxReportBytes = 1 << 20

// Policy mirrors the sandlock command-line options. The zero value of every
// field means "do not pass the option", i.e. the CLI default applies
// (see docs/interface.md): cpu 5 s, memory 256 MB, file size 10 MB, 100 open
// files, 10 processes, 8 MB stack, no wall-clock timeout, no output cap, no
// network/fork restriction beyond the default seccomp filter, environment
// inherited, no Landlock (note: giving RO or RW turns Landlock on, and then
// only the listed paths are allowed: the CLI's default read-only system
// paths apply only when neither is given), the CLI's default namespaces.
//
// For the integer resource limits, Unlimited (-1) passes 0 to the CLI,
// i.e. no limit.
type Policy struct {
	// Binary is the path of the sandlock executable. When empty, the
	// SANDLOCK environment variable is used, then "sandlock" on PATH.
	Binary string

	// Resources. 0: CLI default; Unlimited (-1): no limit.
	CPU int // --cpu, whole seconds of CPU time of the whole run
	// CPUTime is --cpu with fractions (rounded up to a millisecond); when
	// set it is used instead of CPU.
	CPUTime time.Duration
	MemMB   int // --mem, megabytes
	FsizeMB int // --fsize, megabytes (RLIMIT_FSIZE)
	// FsizeBytes is --fsize exact to the byte (a 10,000-byte output file);
	// when set it is used instead of FsizeMB.
	FsizeBytes int64
	// DiskMB is --disk: the run's private /tmp, /dev/shm and scratch
	// directory are one tmpfs of this many megabytes (0: not passed; it
	// needs a mount namespace, see the manual).
	DiskMB int
	// Cgroup is --cgroup: a cgroup v2 directory delegated to this user,
	// under which each run's own cgroup counts its CPU (and memory);
	// "auto": under the cgroup the sandbox is in, where it may write;
	// "" or "off": none (the supervisor samples).
	Cgroup  string
	Nofile  int // --nofile
	Nproc   int // --nproc
	StackMB int // --stack, megabytes

	// Timeout is the wall-clock limit enforced by the sandbox (--timeout);
	// the verdict is VerdictWallLimit when it runs out. 0: none. It is
	// passed with millisecond precision.
	Timeout time.Duration
	// MaxOutput caps stdout+stderr in bytes (--max-output). 0: none.
	MaxOutput int64

	NoNetwork bool // --no-network
	NoFork    bool // --no-fork (threads still work)
	NoJIT     bool // --no-jit: no memory the program writes and executes (W^X)
	NoExec    bool // --no-exec: the program may not exec anything once it runs
	CleanEnv  bool // --clean-env: PATH, HOME, LANG, TMPDIR + Env + KeepEnv
	// Env sets variables in the program's environment, "NAME=VALUE" each
	// (--env, repeated).
	Env []string
	// KeepEnv keeps the variables of the sandbox's own environment that
	// match these shell glob patterns, e.g. "EVAL_*" (--keep-env).
	KeepEnv []string
	// ProcessEnv is the environment of the sandlock process itself
	// (nil: os.Environ()). What the program then sees is decided by
	// CleanEnv, Env and KeepEnv.
	ProcessEnv []string

	Workdir   string // --workdir: chdir before exec
	User      string // --user UID[:GID], only when started as root
	UIDPool   string // --uid-pool FIRST-LAST, auto (default) or off: as root, a free uid of its own per run
	Violation string // --violation kill|errno ("": kill)

	Landlock   bool     // --landlock
	RO         []string // --ro PATH, repeated
	RW         []string // --rw PATH, repeated
	Allow      []string // --allow PATH, repeated
	IsolateTmp bool     // --isolate-tmp
	Unshare    string   // --unshare auto|on|off ("": the CLI default)
	Strict     bool     // --strict
	// Profile is --profile NAME[:STEP]: a language's judge settings
	// (c, cpp, go, java, node, python, or a profile file's path with a
	// '/'), for its "compile" or "run" step; the other fields change what
	// it sets. "": none.
	Profile    string
	BestEffort bool // --best-effort: run with what a restricted host offers, reported
	// Guard is --guard: a guard inside the program for hosts without
	// kernel layers: "python", "node", "preload", "auto" or "" (none).
	// Each can be defeated by the program (see docs/guards.md).
	Guard   string
	Require []string // --require LAYER,... (run fails with 125 if absent)
	Verbose bool     // -v: sandbox diagnostics on stderr

	// Standard I/O. A file path is passed to the CLI (--stdin/--stdout/
	// --stderr, resolved against the caller's working directory; with
	// --stdout/--stderr the sandbox counts the bytes). Otherwise a Reader/
	// Writer is connected to the sandbox (an *os.File directly, anything
	// else through a pipe). Neither set: /dev/null, as with os/exec.
	// Setting both the path and the Reader/Writer of one stream is an error.
	StdinFile  string
	StdoutFile string
	StderrFile string
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer

	// CancelGrace is the delay between SIGTERM and SIGKILL when the
	// context is cancelled. 0: DefaultCancelGrace.
	CancelGrace time.Duration

	// ExtraArgs are passed to the CLI verbatim, before "--".
	ExtraArgs []string
}

// Verdict is what happened to the run.
type Verdict string

// The verdicts of docs/interface.md. Any other string in a report is an error.
const (
	VerdictOK             Verdict = "ok"
	VerdictRuntimeError   Verdict = "runtime_error"
	VerdictSignaled       Verdict = "signaled"
	VerdictCPULimit       Verdict = "cpu_limit"
	VerdictWallLimit      Verdict = "wall_limit"
	VerdictMemoryLimit    Verdict = "memory_limit"
	VerdictFileSizeLimit  Verdict = "file_size_limit"
	VerdictOutputLimit    Verdict = "output_limit"
	VerdictSyscallBlocked Verdict = "syscall_blocked"
	VerdictSetupFailed    Verdict = "setup_failed"
)

// Verdicts lists every known verdict.
var Verdicts = []Verdict{
	VerdictOK, VerdictRuntimeError, VerdictSignaled, VerdictCPULimit,
	VerdictWallLimit, VerdictMemoryLimit, VerdictFileSizeLimit,
	VerdictOutputLimit, VerdictSyscallBlocked, VerdictSetupFailed,
}

// ParseVerdict returns the Verdict named s, or an error for an unknown name.
func ParseVerdict(s string) (Verdict, error) {
	for _, v := range Verdicts {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("sandlock: unknown verdict %q", s)
}

// String returns the report's name of the verdict.
func (v Verdict) String() string { return string(v) }

// UnmarshalJSON accepts only the known verdicts.
func (v *Verdict) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("sandlock: verdict: %w", err)
	}
	p, err := ParseVerdict(s)
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// Limits are the limits the sandbox applied, as echoed in the report
// (0: unlimited / none).
type Limits struct {
	CPUSeconds float64 `json:"cpu_s"` // 0.5 for --cpu 0.5
	MemMB      int64   `json:"mem_mb"`
	FsizeMB    int64   `json:"fsize_mb"` // rounded up
	FsizeBytes int64   `json:"fsize_bytes"`
	DiskMB     int64   `json:"disk_mb"`
	Nofile     int64   `json:"nofile"`
	Nproc      int64   `json:"nproc"`
	StackMB    int64   `json:"stack_mb"`
	TimeoutMS  int64   `json:"timeout_ms"`
	MaxOutput  int64   `json:"max_output"`
}

// Result is the decoded report of one run.
type Result struct {
	Verdict Verdict
	// Status is the sandbox's exit status (the program's N, 128+signal,
	// 124 wall timeout, 125 sandbox failure, 126/127 exec failures).
	Status int
	// ExitCode is the program's exit code, -1 if it was killed by a signal.
	ExitCode int
	// Signal is the signal that terminated the program, 0 if none.
	Signal int
	// BlockedSyscall names the syscall that was blocked ("" if none), and
	// BlockedArgs are its six arguments (nil if none).
	BlockedSyscall string
	BlockedArgs    []uint64

	CPU     time.Duration // user+system CPU time of every process of the run
	UserCPU time.Duration
	SysCPU  time.Duration
	Wall    time.Duration // from just before exec to the end
	PeakKB  int64         // peak memory: the biggest process's, or the whole run's
	// Accounting says how the whole run's CPU and memory were counted
	// ("cgroup", "cgroup_cpu", "supervisor", or "none" without limits);
	// SupervisorCPU is what
	// watching the run cost the sandbox.
	Accounting    string
	SupervisorCPU time.Duration

	// StdoutBytes/StderrBytes are counted only when the sandbox relays the
	// output (MaxOutput, StdoutFile/StderrFile); otherwise 0.
	StdoutBytes int64
	StderrBytes int64

	Limits Limits
	// Layers says which protection layers were active.
	Layers map[string]bool
	// Missing is what this host could not give the run, with why, in one
	// line ("privdrop (refused), pidns (Operation not permitted)"); "" if
	// nothing.
	Missing string
	// Error is the sandbox's one-line reason on setup_failed, or a
	// description of what went wrong in the binding.
	Error string

	// SetupTime, RunTime and TeardownTime are the phases of the call (ours before the
	// program's exec, the program's, ours after it); 0 when the binary
	// does not report them.
	SetupTime, RunTime, TeardownTime time.Duration

	// Cancelled is true when the context was cancelled and Run stopped the
	// sandbox (SIGTERM, then SIGKILL after CancelGrace).
	Cancelled bool
	// Report is the raw JSON report (nil if there was none).
	Report []byte
}

// Errors returned by Run, usable with errors.Is. Cancellation errors also
// match the context's error (context.Canceled or context.DeadlineExceeded).
var (
	// ErrNotFound: the sandlock binary could not be found or started.
	ErrNotFound = errors.New("sandlock binary not found or not startable")
	// ErrSetupFailed: the sandbox could not be set up (exit 125 or a
	// setup_failed verdict); the program did not run.
	ErrSetupFailed = errors.New("sandbox setup failed")
	// ErrBadReport: the sandbox left no report, or an invalid one.
	ErrBadReport = errors.New("missing or invalid sandbox report")
	// ErrCancelled: the context was cancelled and the run was stopped.
	ErrCancelled = errors.New("run cancelled")
	// ErrInvalidPolicy: the Policy or argv cannot be turned into options.
	ErrInvalidPolicy = errors.New("invalid policy")
)

type runError struct {
	kind  error
	msg   string
	cause error
}

func (e *runError) Error() string {
	s := "sandlock: " + e.kind.Error()
	if e.msg != "" {
		s += ": " + e.msg
	}
	if e.cause != nil {
		s += ": " + e.cause.Error()
	}
	return s
}

func (e *runError) Unwrap() error        { return e.cause }
func (e *runError) Is(target error) bool { return target == e.kind }
func newErr(kind error, cause error, format string, a ...interface{}) error {
	return &runError{kind: kind, msg: fmt.Sprintf(format, a...), cause: cause}
}

// FindBinary returns the sandlock executable Run would use for p.
func FindBinary(p Policy) (string, error) {
	if p.Binary != "" {
		return p.Binary, nil
	}
	if env := os.Getenv("SANDLOCK"); env != "" {
		return env, nil
	}
	path, err := exec.LookPath("sandlock")
	if err != nil {
		return "", newErr(ErrNotFound, err, "")
	}
	return path, nil
}

func limitArg(name string, v int) ([]string, error) {
	switch {
	case v == 0:
		return nil, nil
	case v == Unlimited:
		return []string{name, "0"}, nil
	case v < 0:
		return nil, newErr(ErrInvalidPolicy, nil, "%s: negative value %d (use Unlimited)", name, v)
	}
	return []string{name, strconv.Itoa(v)}, nil
}

// Args returns the sandlock command-line arguments (without the binary)
// for running argv under p, with the report on descriptor 3.
func (p Policy) Args(argv []string) ([]string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, newErr(ErrInvalidPolicy, nil, "empty command")
	}
	// -q: a failed setup is in the report, which becomes the error; not
	// printed on the program's stderr as well
	args := []string{"--report-fd", strconv.Itoa(reportFD), "-q"}
	switch {
	case p.CPUTime < 0:
		return nil, newErr(ErrInvalidPolicy, nil, "negative CPUTime")
	case p.CPUTime > 0:
		ms := int64(math.Ceil(float64(p.CPUTime) / float64(time.Millisecond)))
		args = append(args, "--cpu", strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))
	default:
		a, err := limitArg("--cpu", p.CPU)
		if err != nil {
			return nil, err
		}
		args = append(args, a...)
	}
	for _, l := range []struct {
		name string
		v    int
	}{
		{"--mem", p.MemMB}, {"--fsize", p.FsizeMB},
		{"--nofile", p.Nofile}, {"--nproc", p.Nproc}, {"--stack", p.StackMB},
	} {
		a, err := limitArg(l.name, l.v)
		if err != nil {
			return nil, err
		}
		args = append(args, a...)
	}
	if p.FsizeBytes < 0 {
		return nil, newErr(ErrInvalidPolicy, nil, "negative FsizeBytes")
	}
	if p.FsizeBytes > 0 {
		for i := range args { // FsizeBytes wins over FsizeMB
			if args[i] == "--fsize" {
				args = append(args[:i], args[i+2:]...)
				break
			}
		}
		args = append(args, "--fsize", strconv.FormatInt(p.FsizeBytes, 10)+"B")
	}
	if p.DiskMB < 0 {
		return nil, newErr(ErrInvalidPolicy, nil, "negative DiskMB")
	}
	if p.DiskMB > 0 {
		args = append(args, "--disk", strconv.Itoa(p.DiskMB))
	}
	if p.Cgroup != "" {
		if p.Cgroup != "off" && p.Cgroup != "auto" && !strings.HasPrefix(p.Cgroup, "/") {
			return nil, newErr(ErrInvalidPolicy, nil, "Cgroup must be an absolute path, \"auto\" or \"off\"")
		}
		args = append(args, "--cgroup", p.Cgroup)
	}
	if p.Timeout < 0 {
		return nil, newErr(ErrInvalidPolicy, nil, "negative Timeout")
	}
	if p.Timeout > 0 {
		ms := int64(math.Ceil(float64(p.Timeout) / float64(time.Millisecond)))
		args = append(args, "--timeout", strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))
	}
	if p.MaxOutput < 0 {
		return nil, newErr(ErrInvalidPolicy, nil, "negative MaxOutput")
	}
	if p.MaxOutput > 0 {
		args = append(args, "--max-output", strconv.FormatInt(p.MaxOutput, 10))
	}
	flag := func(on bool, name string) {
		if on {
			args = append(args, name)
		}
	}
	opt := func(name, v string) {
		if v != "" {
			args = append(args, name, v)
		}
	}
	many := func(name string, vs []string) error {
		for _, v := range vs {
			if v == "" {
				return newErr(ErrInvalidPolicy, nil, "%s: empty value", name)
			}
			args = append(args, name, v)
		}
		return nil
	}
	flag(p.NoNetwork, "--no-network")
	flag(p.NoFork, "--no-fork")
	flag(p.NoJIT, "--no-jit")
	flag(p.NoExec, "--no-exec")
	flag(p.CleanEnv, "--clean-env")
	for _, kv := range p.Env {
		if i := strings.IndexByte(kv, '='); i <= 0 {
			return nil, newErr(ErrInvalidPolicy, nil, "Env entry %q is not NAME=VALUE", kv)
		}
	}
	if err := many("--env", p.Env); err != nil {
		return nil, err
	}
	if err := many("--keep-env", p.KeepEnv); err != nil {
		return nil, err
	}
	opt("--workdir", p.Workdir)
	opt("--user", p.User)
	opt("--uid-pool", p.UIDPool)
	opt("--violation", p.Violation)
	flag(p.Landlock, "--landlock")
	for _, m := range []struct {
		name string
		vs   []string
	}{{"--ro", p.RO}, {"--rw", p.RW}, {"--allow", p.Allow}} {
		if err := many(m.name, m.vs); err != nil {
			return nil, err
		}
	}
	flag(p.IsolateTmp, "--isolate-tmp")
	opt("--unshare", p.Unshare)
	flag(p.Strict, "--strict")
	opt("--profile", p.Profile)
	flag(p.BestEffort, "--best-effort")
	opt("--guard", p.Guard)
	if len(p.Require) > 0 {
		for _, r := range p.Require {
			if r == "" || strings.Contains(r, ",") {
				return nil, newErr(ErrInvalidPolicy, nil, "Require entry %q", r)
			}
		}
		args = append(args, "--require", strings.Join(p.Require, ","))
	}
	if p.StdinFile != "" && p.Stdin != nil {
		return nil, newErr(ErrInvalidPolicy, nil, "both StdinFile and Stdin set")
	}
	if p.StdoutFile != "" && p.Stdout != nil {
		return nil, newErr(ErrInvalidPolicy, nil, "both StdoutFile and Stdout set")
	}
	if p.StderrFile != "" && p.Stderr != nil {
		return nil, newErr(ErrInvalidPolicy, nil, "both StderrFile and Stderr set")
	}
	opt("--stdin", p.StdinFile)
	opt("--stdout", p.StdoutFile)
	opt("--stderr", p.StderrFile)
	flag(p.Verbose, "--verbose")
	args = append(args, p.ExtraArgs...)
	args = append(args, "--")
	args = append(args, argv...)
	return args, nil
}

// report is the wire format of the JSON report.
type report struct {
	Verdict         *Verdict        `json:"verdict"`
	Status          *int            `json:"status"`
	ExitCode        *int            `json:"exit_code"`
	Signal          int             `json:"signal"`
	BlockedSyscall  *string         `json:"blocked_syscall"`
	BlockedArgs     []json.Number   `json:"blocked_args"`
	CPUms           float64         `json:"cpu_ms"`
	Userms          float64         `json:"user_ms"`
	Sysms           float64         `json:"sys_ms"`
	Wallms          float64         `json:"wall_ms"`
	Wallus          *float64        `json:"wall_us"` // finer, when the binary gives it
	PeakKB          int64           `json:"peak_kb"`
	Accounting      string          `json:"accounting"`
	SupervisorCPUms float64         `json:"supervisor_cpu_ms"`
	StdoutBytes     int64           `json:"stdout_bytes"`
	StderrBytes     int64           `json:"stderr_bytes"`
	Limits          Limits          `json:"limits"`
	Layers          map[string]bool `json:"layers"`
	Missing         *string         `json:"missing"`
	Error           *string         `json:"error"`

	// the phases of the run in microseconds, when the binary gives them
	Setupus    *float64 `json:"setup_us"`
	Runus      *float64 `json:"run_us"`
	Teardownus *float64 `json:"teardown_us"`
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// ParseReport decodes one JSON report into a Result. An unknown verdict, a
// missing verdict or status, or trailing garbage is an error.
func ParseReport(b []byte) (Result, error) {
	var r report
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return Result{}, newErr(ErrBadReport, nil, "empty report")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return Result{}, newErr(ErrBadReport, err, "")
	}
	if dec.More() {
		return Result{}, newErr(ErrBadReport, nil, "trailing data after the report")
	}
	if r.Verdict == nil {
		return Result{}, newErr(ErrBadReport, nil, "no verdict")
	}
	if r.Status == nil {
		return Result{}, newErr(ErrBadReport, nil, "no status")
	}
	res := Result{
		Verdict:       *r.Verdict,
		Status:        *r.Status,
		ExitCode:      -1,
		Signal:        r.Signal,
		CPU:           ms(r.CPUms),
		UserCPU:       ms(r.Userms),
		SysCPU:        ms(r.Sysms),
		Wall:          ms(r.Wallms),
		PeakKB:        r.PeakKB,
		Accounting:    r.Accounting,
		SupervisorCPU: ms(r.SupervisorCPUms),
		StdoutBytes:   r.StdoutBytes,
		StderrBytes:   r.StderrBytes,
		Limits:        r.Limits,
		Layers:        r.Layers,
		Report:        append([]byte(nil), trimmed...),
	}
	if r.Wallus != nil {
		res.Wall = time.Duration(*r.Wallus * float64(time.Microsecond))
	}
	for _, ph := range []struct {
		to   *time.Duration
		from *float64
	}{{&res.SetupTime, r.Setupus}, {&res.RunTime, r.Runus}, {&res.TeardownTime, r.Teardownus}} {
		if ph.from != nil {
			*ph.to = time.Duration(*ph.from * float64(time.Microsecond))
		}
	}
	if r.ExitCode != nil {
		res.ExitCode = *r.ExitCode
	}
	if r.BlockedSyscall != nil {
		res.BlockedSyscall = *r.BlockedSyscall
	}
	for _, n := range r.BlockedArgs {
		if u, err := strconv.ParseUint(n.String(), 10, 64); err == nil {
			res.BlockedArgs = append(res.BlockedArgs, u)
		} else if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			res.BlockedArgs = append(res.BlockedArgs, uint64(i))
		} else {
			return Result{}, newErr(ErrBadReport, nil, "blocked_args: bad value %s", n)
		}
	}
	if r.Error != nil {
		res.Error = *r.Error
	}
	if r.Missing != nil {
		res.Missing = *r.Missing
	}
	if res.Layers == nil {
		res.Layers = map[string]bool{}
	}
	return res, nil
}

// stream is one standard stream connected through a pipe of our own.
type stream struct {
	parentEnd *os.File // our end, closed when done
	childEnd  *os.File // given to the sandbox, closed after start
	done      chan error
}

// Run runs argv under the sandbox with policy p and returns its result.
//
// The error is nil exactly when a valid report was received for a run that
// was not cancelled and whose verdict is not setup_failed; the Result then
// says what the program did (its verdict can still be anything else, e.g.
// VerdictRuntimeError). Otherwise the error matches one of ErrNotFound,
// ErrInvalidPolicy, ErrSetupFailed, ErrBadReport or ErrCancelled (with
// errors.Is), and the Result holds whatever is known: Verdict is
// VerdictSetupFailed unless a report said otherwise.
//
// When ctx is cancelled, Run sends SIGTERM to the sandlock process (which
// kills the program's whole process tree and exits 128+15), then SIGKILL
// after p.CancelGrace; the Result has Cancelled set and the error matches
// both ErrCancelled and ctx.Err().
func Run(ctx context.Context, p Policy, argv []string) (Result, error) {
	failed := func(err error) (Result, error) {
		return Result{Verdict: VerdictSetupFailed, Status: -1, ExitCode: -1,
			Layers: map[string]bool{}, Error: err.Error()}, err
	}
	args, err := p.Args(argv)
	if err != nil {
		return failed(err)
	}
	bin, err := FindBinary(p)
	if err != nil {
		return failed(err)
	}
	if err := ctx.Err(); err != nil {
		res, e := failed(newErr(ErrCancelled, err, "before start"))
		res.Cancelled = true
		return res, e
	}
	grace := p.CancelGrace
	if grace <= 0 {
		grace = DefaultCancelGrace
	}

	rr, rw, err := os.Pipe()
	if err != nil {
		return failed(newErr(ErrSetupFailed, err, "report pipe"))
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = p.ProcessEnv
	cmd.ExtraFiles = []*os.File{rw}

	// Standard streams: *os.File (or nil) directly, anything else through
	// a pipe whose copying we control, so that a stray holder of the pipe
	// can never make Run hang.
	var stdinStream *stream
	var outStreams []*stream
	var outWriters []io.Writer
	all := func() []*stream {
		l := append([]*stream(nil), outStreams...)
		if stdinStream != nil {
			l = append(l, stdinStream)
		}
		return l
	}
	closeAll := func() {
		rr.Close()
		rw.Close()
		for _, s := range all() {
			s.parentEnd.Close()
			s.childEnd.Close()
		}
	}
	if p.Stdin != nil {
		if f, ok := p.Stdin.(*os.File); ok {
			cmd.Stdin = f
		} else {
			r, w, err := os.Pipe()
			if err != nil {
				closeAll()
				return failed(newErr(ErrSetupFailed, err, "stdin pipe"))
			}
			stdinStream = &stream{parentEnd: w, childEnd: r, done: make(chan error, 1)}
			cmd.Stdin = r
		}
	}
	outs := []struct {
		w   io.Writer
		set func(*os.File)
	}{
		{p.Stdout, func(f *os.File) { cmd.Stdout = f }},
		{p.Stderr, func(f *os.File) { cmd.Stderr = f }},
	}
	for i, o := range outs {
		if o.w == nil {
			continue
		}
		if i == 1 && len(outStreams) == 1 && outWriters[0] != nil && sameWriter(p.Stdout, p.Stderr) {
			// One writer for both streams, as os/exec does: one pipe,
			// one copier, so the writer is never used concurrently.
			o.set(outStreams[0].childEnd)
			continue
		}
		if f, ok := o.w.(*os.File); ok {
			o.set(f)
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return failed(newErr(ErrSetupFailed, err, "output pipe"))
		}
		outStreams = append(outStreams, &stream{parentEnd: r, childEnd: w, done: make(chan error, 1)})
		outWriters = append(outWriters, o.w)
		o.set(w)
	}

	if err := cmd.Start(); err != nil {
		closeAll()
		return failed(newErr(ErrNotFound, err, "%s", bin))
	}
	// The sandbox has its copies; drop ours of the child ends.
	rw.Close()
	for _, s := range all() {
		s.childEnd.Close()
	}
	if s := stdinStream; s != nil {
		src := p.Stdin
		go func() {
			_, err := io.Copy(s.parentEnd, src)
			s.parentEnd.Close()
			s.done <- err
		}()
	}
	for i, s := range outStreams {
		s, w := s, outWriters[i]
		go func() {
			_, err := io.Copy(w, s.parentEnd)
			s.done <- err
		}()
	}
	type readResult struct {
		b   []byte
		err error
	}
	reportCh := make(chan readResult, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(rr, maxReportBytes))
		reportCh <- readResult{b, err}
	}()
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()

	cancelled := false
	select {
	case <-waitCh:
	case <-ctx.Done():
		select {
		case <-waitCh: // it ended on its own at the same moment
		default:
			cancelled = true
			_ = cmd.Process.Signal(syscall.SIGTERM)
			t := time.NewTimer(grace)
			select {
			case <-waitCh:
				t.Stop()
			case <-t.C:
				_ = cmd.Process.Kill()
				<-waitCh
			}
		}
	}

	// The sandbox has exited. Its report, if any, is in the pipe; nobody
	// else should hold the write end, but never wait forever for EOF.
	_ = rr.SetReadDeadline(time.Now().Add(grace))
	rep := <-reportCh
	rr.Close()
	// Drain the output copiers the same way. The stdin copier is stopped
	// by closing its pipe; it is not waited for, as it may be blocked
	// reading the caller's Reader (it ends at its next write).
	deadline := time.Now().Add(grace)
	for _, s := range outStreams {
		_ = s.parentEnd.SetReadDeadline(deadline)
		<-s.done
		s.parentEnd.Close()
	}
	if stdinStream != nil {
		stdinStream.parentEnd.Close()
	}

	status := cmd.ProcessState.ExitCode() // -1 if killed by a signal
	var res Result
	var rerr error
	if rep.err != nil && len(rep.b) == 0 {
		rerr = newErr(ErrBadReport, rep.err, "reading report")
	} else {
		res, rerr = ParseReport(rep.b)
	}
	if rerr != nil {
		res = Result{Verdict: VerdictSetupFailed, Status: status, ExitCode: -1,
			Layers: map[string]bool{}}
		if b := bytes.TrimSpace(rep.b); len(b) > 0 {
			res.Report = b
		}
		switch {
		case status == 125:
			rerr = newErr(ErrSetupFailed, rerr, "sandlock exited 125 without a valid report")
		case status < 0:
			rerr = newErr(ErrBadReport, rerr, "sandlock was killed (%v)", cmd.ProcessState)
		default:
			rerr = newErr(ErrBadReport, rerr, "sandlock exited %d", status)
		}
	} else if res.Status != status {
		// A report that contradicts the exit status cannot be trusted.
		rerr = newErr(ErrBadReport, nil, "report says verdict %s, status %d, but sandlock exited %d",
			res.Verdict, res.Status, status)
		res.Verdict = VerdictSetupFailed
		res.Status = status
	} else if res.Verdict == VerdictSetupFailed && res.Status != 126 && res.Status != 127 {
		// 126/127 (not executable, not found): the sandbox worked and the
		// command is the caller's to judge, as sandlock_run() returns 0
		rerr = newErr(ErrSetupFailed, nil, "%s", res.Error)
	}
	if cancelled {
		res.Cancelled = true
		rerr = newErr(ErrCancelled, ctx.Err(), "%s", describe(res, rerr))
	}
	if rerr != nil && res.Error == "" {
		res.Error = rerr.Error()
	}
	return res, rerr
}

func describe(res Result, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("verdict %s, status %d", res.Verdict, res.Status)
}

// sameWriter reports whether a and b are the same writer, without
// panicking on uncomparable types.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}
