// Command go-grader runs one submission under Sandlock the way an
// autograder worker does: one sandbox per submission, file-mode I/O.
//
//	go-grader [flags] -- COMMAND [ARGS...]
//
// The worker
//   - makes a private run directory and copies the request (-request FILE,
//     or stdin) to RUN/request.json, readable by the sandbox;
//   - creates RUN/out/, the only place the submission may write (owned by
//     the sandbox user when the worker runs as root, since sandlock then
//     drops to that user);
//   - runs COMMAND ARGS... RUN/request.json RUN/out/response.json in the
//     sandbox, with the same two paths in EVAL_REQUEST and EVAL_RESPONSE.
//     The program gets a clean environment (--clean-env) plus only the
//     EVAL_* variables (--keep-env 'EVAL_*'); the worker's own EVAL_*
//     variables are not passed on;
//   - reads the response (a regular file, not through a symlink, at most
//     1 MiB, valid JSON) and prints a JSON summary on stdout.
//
// Exit status: 0 when the submission succeeded (verdict ok and a valid
// response), 1 when it did not (any other verdict, no or invalid response),
// 2 when the worker or the sandbox failed (bad usage, sandlock missing,
// setup_failed, cancelled). SIGINT/SIGTERM to the worker cancel the run,
// which takes the whole sandbox tree down.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"sandlock"
)

const maxResponse = 1 << 20

// Config is one submission's run.
type Config struct {
	Binary    string        // sandlock binary ("" : $SANDLOCK, then PATH)
	Request   []byte        // request contents
	Argv      []string      // submission command; the two paths are appended
	CPU       int           // seconds
	MemMB     int           // megabytes
	Timeout   time.Duration // wall clock
	MaxOutput int64         // stdout+stderr bytes
	User      string        // sandbox identity when running as root
	Landlock  bool          // restrict writes to RUN/out with Landlock
	TmpRoot   string        // where run directories are made ("": os.TempDir())
}

// Summary is what the worker prints.
type Summary struct {
	Verdict        string          `json:"verdict"`
	Status         int             `json:"status"`
	ExitCode       int             `json:"exit_code"`
	Signal         int             `json:"signal"`
	BlockedSyscall string          `json:"blocked_syscall,omitempty"`
	CPUms          int64           `json:"cpu_ms"`
	Wallms         int64           `json:"wall_ms"`
	PeakKB         int64           `json:"peak_kb"`
	Response       json.RawMessage `json:"response"`
	ResponseError  string          `json:"response_error,omitempty"`
	Stdout         string          `json:"stdout"`
	Stderr         string          `json:"stderr"`
	Error          string          `json:"error,omitempty"`
	Success        bool            `json:"success"`
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	buf bytes.Buffer
	n   int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.n - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}

// sandboxOwner returns the uid/gid the sandbox runs as: ours, unless we are
// root, in which case sandlock drops to --user (default 65534:65534).
func sandboxOwner(user string) (uid, gid int, err error) {
	if os.Geteuid() != 0 {
		return os.Geteuid(), os.Getegid(), nil
	}
	if user == "" {
		return 65534, 65534, nil
	}
	u, g, hasG := strings.Cut(user, ":")
	if uid, err = strconv.Atoi(u); err != nil {
		return 0, 0, fmt.Errorf("-user %q: numeric UID[:GID] expected", user)
	}
	gid = uid
	if hasG {
		if gid, err = strconv.Atoi(g); err != nil {
			return 0, 0, fmt.Errorf("-user %q: numeric UID[:GID] expected", user)
		}
	}
	return uid, gid, nil
}

// childEnv is the worker's environment without its own EVAL_* variables,
// plus the two paths. Only these EVAL_* reach the program.
func childEnv(req, resp string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "EVAL_") {
			env = append(env, kv)
		}
	}
	return append(env, "EVAL_REQUEST="+req, "EVAL_RESPONSE="+resp)
}

// systemRO is what an interpreter or a compiled program needs to start
// (missing ones are skipped).
var systemRO = []string{
	"/usr", "/bin", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache",
	"/etc/alternatives", "/etc/localtime", "/dev/urandom",
}

// submissionFiles are the absolute paths of the command's arguments that
// name existing files (the program, its script).
func submissionFiles(argv []string) []string {
	var files []string
	for _, a := range argv {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if abs, err := filepath.Abs(a); err == nil {
			if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
				files = append(files, abs)
			}
		}
	}
	return files
}

// absArgs makes the arguments that name files here (the submission,
// "./prog") absolute: the program runs in out/, where a relative path would
// name nothing. A bare command name is left to the PATH search.
func absArgs(argv []string) []string {
	out := append([]string(nil), argv...)
	for i, a := range out {
		if strings.HasPrefix(a, "-") || filepath.IsAbs(a) || (i == 0 && !strings.Contains(a, "/")) {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			if abs, err := filepath.Abs(a); err == nil {
				out[i] = abs
			}
		}
	}
	return out
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// readResponse reads the response without following a symlink the program
// could have planted, and only from a regular file with one link.
func readResponse(path string) (json.RawMessage, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, errors.New("response is a symlink")
		}
		return nil, err
	}
	defer f.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Nlink != 1 {
		return nil, errors.New("response is not a plain regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxResponse+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxResponse {
		return nil, errors.New("response larger than 1 MiB")
	}
	if !json.Valid(b) {
		return nil, errors.New("response is not valid JSON")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		return nil, err
	}
	return compact.Bytes(), nil
}

// Grade runs one submission. The error is non-nil when the worker or the
// sandbox failed (exit 2); otherwise Summary.Success says whether the
// submission succeeded.
func Grade(ctx context.Context, c Config) (Summary, error) {
	sum := Summary{Verdict: string(sandlock.VerdictSetupFailed), Status: -1, ExitCode: -1}
	if len(c.Argv) == 0 {
		return sum, errors.New("no submission command")
	}
	uid, gid, err := sandboxOwner(c.User)
	if err != nil {
		return sum, err
	}
	run, err := os.MkdirTemp(c.TmpRoot, "grader-run-")
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(run)
	// The sandbox user may traverse the run directory but not list or
	// change it; it reads the request and writes only in out/.
	if err := os.Chmod(run, 0o711); err != nil {
		return sum, err
	}
	req := filepath.Join(run, "request.json")
	if err := os.WriteFile(req, c.Request, 0o644); err != nil {
		return sum, err
	}
	if err := os.Chmod(req, 0o644); err != nil { // umask
		return sum, err
	}
	out := filepath.Join(run, "out")
	if err := os.Mkdir(out, 0o700); err != nil {
		return sum, err
	}
	if err := os.Chown(out, uid, gid); err != nil {
		return sum, err
	}
	resp := filepath.Join(out, "response.json")

	stdout := &limitedBuffer{n: 4096}
	stderr := &limitedBuffer{n: 4096}
	p := sandlock.Policy{
		Binary:     c.Binary,
		CPU:        c.CPU,
		MemMB:      c.MemMB,
		Timeout:    c.Timeout,
		MaxOutput:  c.MaxOutput,
		NoNetwork:  true,
		NoFork:     true,
		CleanEnv:   true,
		KeepEnv:    []string{"EVAL_*"},
		ProcessEnv: childEnv(req, resp),
		Workdir:    out,
		User:       c.User,
		Stdout:     stdout,
		Stderr:     stderr,
	}
	if c.Landlock {
		// Explicit allow-lists replace sandlock's defaults, so list what an
		// interpreter needs to start, the submission's files and the
		// request (read-only), and out/ (read-write).
		p.Landlock = true
		p.RO = existing(append(append([]string(nil), systemRO...), submissionFiles(c.Argv)...))
		p.RO = append(p.RO, req)
		p.RW = []string{out, "/dev/null"}
	}
	argv := append(absArgs(c.Argv), req, resp)
	res, err := sandlock.Run(ctx, p, argv)
	sum = Summary{
		Verdict:        string(res.Verdict),
		Status:         res.Status,
		ExitCode:       res.ExitCode,
		Signal:         res.Signal,
		BlockedSyscall: res.BlockedSyscall,
		CPUms:          res.CPU.Milliseconds(),
		Wallms:         res.Wall.Milliseconds(),
		PeakKB:         res.PeakKB,
		Stdout:         stdout.buf.String(),
		Stderr:         stderr.buf.String(),
		Response:       json.RawMessage("null"),
	}
	if err != nil {
		sum.Error = err.Error()
		return sum, err
	}
	if r, rerr := readResponse(resp); rerr != nil {
		sum.ResponseError = rerr.Error()
	} else {
		sum.Response = r
	}
	sum.Success = res.Verdict == sandlock.VerdictOK && sum.ResponseError == ""
	return sum, nil
}

func usage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), "usage: go-grader [flags] -- COMMAND [ARGS...]\n"+
		"Runs COMMAND ARGS... REQUEST RESPONSE under sandlock; see the package doc.\n")
	fs.PrintDefaults()
}

// realMain is main without os.Exit.
func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("go-grader", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c Config
	reqPath := fs.String("request", "-", "request file (- for stdin)")
	fs.StringVar(&c.Binary, "sandlock", "", "sandlock binary (default $SANDLOCK, then PATH)")
	fs.IntVar(&c.CPU, "cpu", 5, "CPU seconds")
	fs.IntVar(&c.MemMB, "mem", 256, "memory limit, MB")
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Second, "wall-clock limit")
	fs.Int64Var(&c.MaxOutput, "max-output", 1<<20, "stdout+stderr cap, bytes")
	fs.StringVar(&c.User, "user", "", "UID[:GID] of the sandbox when run as root (default 65534:65534)")
	fs.BoolVar(&c.Landlock, "landlock", false,
		"restrict the filesystem with Landlock: system paths, the submission's files and the request read-only, only out/ writable")
	fs.Usage = func() { usage(fs) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	c.Argv = fs.Args()
	if len(c.Argv) == 0 {
		usage(fs)
		return 2
	}
	var err error
	if *reqPath == "-" {
		c.Request, err = io.ReadAll(io.LimitReader(stdin, maxResponse+1))
	} else {
		c.Request, err = os.ReadFile(*reqPath)
	}
	if err != nil {
		fmt.Fprintln(stderr, "go-grader: request:", err)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := Grade(ctx, c)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if eerr := enc.Encode(sum); eerr != nil {
		fmt.Fprintln(stderr, "go-grader:", eerr)
		return 2
	}
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "go-grader:", err)
		return 2
	case sum.Success:
		return 0
	default:
		return 1
	}
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
