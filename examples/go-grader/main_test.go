package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary act as the grader itself, so the end-to-end
// test runs it as a separate process exactly as a user would.
func TestMain(m *testing.M) {
	if os.Getenv("GO_GRADER_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// sandlockBinary: $SANDLOCK (must exist when set), else sandlock on PATH,
// else ../../build/sandlock; skip only when SANDLOCK is unset and none found.
func sandlockBinary(t *testing.T) string {
	t.Helper()
	if env := os.Getenv("SANDLOCK"); env != "" {
		abs, err := filepath.Abs(env)
		if err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(abs); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			t.Fatalf("SANDLOCK=%q is set but is not an executable file (%v)", env, err)
		}
		return abs
	}
	if p, err := exec.LookPath("sandlock"); err == nil {
		return p
	}
	if abs, err := filepath.Abs(filepath.Join("..", "..", "build", "sandlock")); err == nil {
		if fi, err := os.Stat(abs); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return abs
		}
	}
	t.Skip("sandlock binary not found")
	return ""
}

// The "submission": reads the request named by its next-to-last argument,
// checks it matches EVAL_REQUEST, writes the response named by its last
// argument (and EVAL_RESPONSE).
const submission = `import json, os, sys
req_path, resp_path = sys.argv[-2], sys.argv[-1]
assert req_path == os.environ["EVAL_REQUEST"], "EVAL_REQUEST"
assert resp_path == os.environ["EVAL_RESPONSE"], "EVAL_RESPONSE"
with open(req_path) as f:
    req = json.load(f)
if req.get("mode") == "fail":
    sys.exit(3)
if req.get("mode") == "escape":
    try:
        open(req["target"], "w")
        escaped = True
    except OSError:
        escaped = False
    with open(resp_path, "w") as f:
        json.dump({"escaped": escaped}, f)
    sys.exit(0)
if req.get("mode") == "symlink":
    os.symlink("/etc/passwd", resp_path)
    sys.exit(0)
resp = {
    "sum": req["a"] + req["b"],
    "secret": os.environ.get("GRADER_SECRET"),
    "leak": os.environ.get("EVAL_LEAK"),
    "eval_vars": sorted(k for k in os.environ if k.startswith("EVAL_")),
}
print("hello from the submission")
with open(resp_path, "w") as f:
    json.dump(resp, f)
`

type grader struct {
	t    *testing.T
	bin  string
	code string
}

func newGrader(t *testing.T, bin string) *grader {
	d, err := os.MkdirTemp("", "go-grader-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	// Readable by the sandbox user (the sandbox drops privileges as root).
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	code := filepath.Join(d, "student.py")
	if err := os.WriteFile(code, []byte(submission), 0o644); err != nil {
		t.Fatal(err)
	}
	return &grader{t: t, bin: bin, code: code}
}

// run executes the grader as a separate process, the request on stdin.
func (g *grader) run(request string, extra ...string) (int, Summary, string) {
	g.t.Helper()
	args := append([]string{"-sandlock", g.bin, "-timeout", "20s"}, extra...)
	args = append(args, "--", "/usr/bin/python3", g.code)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GO_GRADER_RUN_MAIN=1", "GRADER_SECRET=hunter2", "EVAL_LEAK=leaked")
	cmd.Stdin = strings.NewReader(request)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		g.t.Fatal(err)
	}
	var s Summary
	if jerr := json.Unmarshal(out.Bytes(), &s); jerr != nil {
		g.t.Fatalf("summary %q: %v (stderr %q)", out.String(), jerr, errb.String())
	}
	g.t.Logf("exit %d, summary %s, stderr %q", code, out.String(), errb.String())
	return code, s, errb.String()
}

func TestGraderEndToEnd(t *testing.T) {
	g := newGrader(t, sandlockBinary(t))
	code, s, _ := g.run(`{"a": 2, "b": 3}`)
	if code != 0 || !s.Success || s.Verdict != "ok" {
		t.Fatalf("exit %d, %+v", code, s)
	}
	var resp struct {
		Sum      int      `json:"sum"`
		Secret   *string  `json:"secret"`
		Leak     *string  `json:"leak"`
		EvalVars []string `json:"eval_vars"`
	}
	if err := json.Unmarshal(s.Response, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Sum != 5 {
		t.Errorf("sum %d", resp.Sum)
	}
	if resp.Secret != nil || resp.Leak != nil {
		t.Errorf("environment leaked into the sandbox: %+v", resp)
	}
	if strings.Join(resp.EvalVars, ",") != "EVAL_REQUEST,EVAL_RESPONSE" {
		t.Errorf("EVAL_* variables: %v", resp.EvalVars)
	}
	if s.Stdout != "hello from the submission\n" {
		t.Errorf("stdout %q", s.Stdout)
	}
}

func compact(m json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, m) != nil {
		return string(m)
	}
	return b.String()
}

func TestGraderRelativeSubmission(t *testing.T) {
	// the submission named relative to the grader's directory, as a user
	// types it: found, though the program runs in its own out/
	g := newGrader(t, sandlockBinary(t))
	cmd := exec.Command(os.Args[0], "-sandlock", g.bin, "-timeout", "20s", "--",
		"/usr/bin/python3", filepath.Base(g.code))
	cmd.Dir = filepath.Dir(g.code)
	cmd.Env = append(os.Environ(), "GO_GRADER_RUN_MAIN=1")
	cmd.Stdin = strings.NewReader(`{"a": 20, "b": 22}`)
	out, err := cmd.Output()
	var s Summary
	if jerr := json.Unmarshal(out, &s); err != nil || jerr != nil || !s.Success ||
		!strings.Contains(compact(s.Response), `"sum":42,`) {
		t.Fatalf("%v %v %s", err, jerr, out)
	}
}

func TestSampleSubmission(t *testing.T) {
	// the README's example: the sample submission shipped with the grader
	bin := sandlockBinary(t)
	cmd := exec.Command(os.Args[0], "-sandlock", bin, "-timeout", "20s", "--",
		"/usr/bin/python3", "submission.py")
	cmd.Env = append(os.Environ(), "GO_GRADER_RUN_MAIN=1")
	cmd.Stdin = strings.NewReader(`{"numbers": [1, 2, 3.5]}`)
	out, err := cmd.Output()
	var s Summary
	if jerr := json.Unmarshal(out, &s); err != nil || jerr != nil || !s.Success ||
		compact(s.Response) != `{"sum":6.5}` {
		t.Fatalf("%v %v %s", err, jerr, out)
	}
}

func TestGraderSubmissionFails(t *testing.T) {
	g := newGrader(t, sandlockBinary(t))
	code, s, _ := g.run(`{"mode": "fail"}`)
	if code != 1 || s.Success || s.Verdict != "runtime_error" || s.ExitCode != 3 {
		t.Fatalf("exit %d, %+v", code, s)
	}
	code, s, _ = g.run(`{"mode": "symlink"}`)
	if code != 1 || s.Success || s.ResponseError == "" || string(s.Response) != "null" {
		t.Fatalf("symlinked response accepted: exit %d, %+v", code, s)
	}
}

func TestGraderSandboxMissing(t *testing.T) {
	g := newGrader(t, "/nonexistent/sandlock")
	code, s, stderr := g.run(`{"a": 1, "b": 1}`)
	if code != 2 || s.Success || s.Verdict != "setup_failed" || !strings.Contains(stderr, "sandlock") {
		t.Fatalf("exit %d, %+v, %q", code, s, stderr)
	}
}

func landlockAvailable(t *testing.T, bin string) bool {
	out, err := exec.Command(bin, "--features").Output()
	if err != nil {
		t.Fatalf("%s --features: %v", bin, err)
	}
	return strings.Contains(string(out), "landlock: yes")
}

func TestGraderLandlock(t *testing.T) {
	bin := sandlockBinary(t)
	if !landlockAvailable(t, bin) {
		t.Skip("no Landlock on this kernel")
	}
	g := newGrader(t, bin)
	code, s, _ := g.run(`{"a": 20, "b": 22}`, "-landlock")
	var resp struct {
		Sum     int   `json:"sum"`
		Escaped *bool `json:"escaped"`
	}
	if err := json.Unmarshal(s.Response, &resp); code != 0 || !s.Success || err != nil || resp.Sum != 42 {
		t.Fatalf("exit %d, %+v, %v", code, s, err)
	}
	// A world-writable directory outside the run: writable without
	// Landlock, not with it.
	openDir, err := os.MkdirTemp("", "go-grader-open-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(openDir) })
	if err := os.Chmod(openDir, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, withLandlock := range []bool{false, true} {
		req, _ := json.Marshal(map[string]string{"mode": "escape",
			"target": filepath.Join(openDir, fmt.Sprint("planted-", withLandlock))})
		var extra []string
		if withLandlock {
			extra = []string{"-landlock"}
		}
		code, s, _ = g.run(string(req), extra...)
		resp.Escaped = nil
		if err := json.Unmarshal(s.Response, &resp); code != 0 || err != nil || resp.Escaped == nil {
			t.Fatalf("exit %d, %+v, %v", code, s, err)
		}
		if *resp.Escaped == withLandlock {
			t.Fatalf("landlock %v: escaped %v", withLandlock, *resp.Escaped)
		}
	}
}
