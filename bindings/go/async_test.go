package sandlock

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

const treeScript = `sleep 100 & echo $! > "$1.tmp"; echo $$ >> "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 100`

func waitPids(t *testing.T, pidfile string) []int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if pids := readPids(pidfile); len(pids) >= 2 {
			return pids
		}
	}
	t.Fatal("the sandboxed tree never started")
	return nil
}

func assertGone(t *testing.T, pids []int, what string) {
	t.Helper()
	for _, pid := range pids {
		gone := false
		for i := 0; i < 150 && !gone; i++ {
			if gone = !alive(pid); !gone {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if !gone {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("pid %d survived %s", pid, what)
		}
	}
}

// Eight runs at once from one goroutine: Done is closed only at the end,
// and they overlap (one after another they would take 2.4 s).
func TestStartMany(t *testing.T) {
	bin := sandlockBinary(t)
	t0 := time.Now()
	var hs []*Handle
	for i := 0; i < 8; i++ {
		h, err := Start(context.Background(), Policy{Binary: bin, NoFork: true}, []string{"/bin/sleep", "0.3"})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	select {
	case <-hs[0].Done():
		t.Fatal("Done closed before the run was over")
	case <-time.After(100 * time.Millisecond):
	}
	for _, h := range hs {
		res, err := h.Wait()
		if err != nil || res.Verdict != VerdictOK || res.Wall < 280*time.Millisecond {
			t.Fatalf("%v %s", err, show(*res))
		}
		again, _ := h.Wait()
		if again.Verdict != res.Verdict || again.Status != res.Status {
			t.Errorf("a second Wait differs: %s", show(*again))
		}
	}
	if el := time.Since(t0); el >= 1600*time.Millisecond {
		t.Errorf("8 concurrent runs of sleep 0.3 took %v", el)
	}
}

func TestStartSameAsRun(t *testing.T) {
	bin := sandlockBinary(t)
	for _, c := range []struct {
		p    Policy
		argv []string
	}{
		{Policy{}, []string{"/bin/true"}},
		{Policy{}, []string{"/bin/sh", "-c", "exit 3"}},
		{Policy{}, []string{"/bin/sh", "-c", "kill -SEGV $$"}},
		{Policy{NoFork: true}, []string{"/bin/sh", "-c", "/bin/true; echo"}},
		{Policy{}, []string{"/nonexistent/prog"}},
		{Policy{Require: []string{"no_such_layer"}}, []string{"/bin/true"}},
	} {
		c.p.Binary = bin
		h, err := Start(context.Background(), c.p, c.argv)
		if err != nil {
			t.Fatal(err)
		}
		a, aerr := h.Wait()
		b, berr := Run(context.Background(), c.p, c.argv)
		if a.Verdict != b.Verdict || a.Status != b.Status || a.ExitCode != b.ExitCode ||
			a.Signal != b.Signal || a.BlockedSyscall != b.BlockedSyscall || (aerr == nil) != (berr == nil) {
			t.Errorf("%v: Start %s (%v), Run %s (%v)", c.argv, show(*a), aerr, show(b), berr)
		}
	}
}

// Kill stops a long run: an ErrCancelled error, the sandbox's own status
// 143 with a report, the whole tree gone.
func TestStartKillKillsTree(t *testing.T) {
	bin := sandlockBinary(t)
	pidfile := filepath.Join(sharedDir(t), "pids")
	h, err := Start(context.Background(), Policy{Binary: bin, CPU: 200, Unshare: "off"},
		[]string{"/bin/sh", "-c", treeScript, "sh", pidfile})
	if err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, pidfile)
	t0 := time.Now()
	h.Kill()
	h.Kill() // twice is once
	select {
	case <-h.Done():
	case <-time.After(DefaultCancelGrace + 3*time.Second):
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Fatal("the run did not end on Kill")
	}
	res, err := h.Wait()
	if el := time.Since(t0); el > 3*time.Second {
		t.Errorf("kill took %v", el)
	}
	if !errors.Is(err, ErrCancelled) || !res.Cancelled {
		t.Errorf("err %v, %s", err, show(*res))
	}
	if res.Verdict != VerdictSignaled || res.Status != 128+int(syscall.SIGTERM) || res.Report == nil {
		t.Errorf("not stopped by the sandbox: %s", show(*res))
	}
	assertGone(t, pids, "Kill")

	// a run that is over keeps its own result
	h, err = Start(context.Background(), Policy{Binary: bin}, []string{"/bin/true"})
	if err != nil {
		t.Fatal(err)
	}
	<-h.Done()
	h.Kill()
	if res, err := h.Wait(); err != nil || res.Verdict != VerdictOK {
		t.Errorf("kill after the end: %v %s", err, show(*res))
	}
}

func TestStartContextCancel(t *testing.T) {
	bin := sandlockBinary(t)
	pidfile := filepath.Join(sharedDir(t), "pids")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := Start(ctx, Policy{Binary: bin, CPU: 200, Unshare: "off"},
		[]string{"/bin/sh", "-c", treeScript, "sh", pidfile})
	if err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, pidfile)
	cancel()
	select {
	case <-h.Done():
	case <-time.After(DefaultCancelGrace + 3*time.Second):
		t.Fatal("the run did not end on cancellation")
	}
	res, err := h.Wait()
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) || res.Status != 143 {
		t.Errorf("err %v, %s", err, show(*res))
	}
	assertGone(t, pids, "cancellation")
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(context.Background(), Policy{Binary: "/bin/true"}, nil); !errors.Is(err, ErrInvalidPolicy) {
		t.Errorf("empty command: %v", err)
	}
	if _, err := Start(context.Background(), Policy{Binary: "/bin/true", CPU: -5}, []string{"x"}); !errors.Is(err, ErrInvalidPolicy) {
		t.Errorf("bad policy: %v", err)
	}
	t.Setenv("SANDLOCK", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := Start(context.Background(), Policy{}, []string{"/bin/true"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("no binary: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, Policy{Binary: "/bin/true"}, []string{"/bin/true"}); !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before start: %v", err)
	}
	// a binary that cannot run: from Wait, never an unsandboxed run
	marker := filepath.Join(t.TempDir(), "ran")
	h, err := Start(context.Background(), Policy{Binary: "/nonexistent/sandlock"}, []string{"/bin/touch", marker})
	if err == nil {
		if _, err = h.Wait(); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing binary: %v", err)
		}
	} else if !errors.Is(err, ErrNotFound) {
		t.Errorf("missing binary: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the program ran unsandboxed")
	}
}

// The grader process dies (SIGKILL) with a started run: the run dies too.
func TestStartDiesWithGrader(t *testing.T) {
	bin := sandlockBinary(t)
	pidfile := filepath.Join(sharedDir(t), "pids")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStartGrader$")
	cmd.Env = append(os.Environ(), "SANDLOCK_HELPER_START_GRADER="+pidfile, "SANDLOCK="+bin)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, pidfile)
	cmd.Process.Kill()
	cmd.Wait()
	assertGone(t, pids, "the grader")
}

// TestHelperStartGrader is the grader of TestStartDiesWithGrader (a no-op
// otherwise).
func TestHelperStartGrader(t *testing.T) {
	pidfile := os.Getenv("SANDLOCK_HELPER_START_GRADER")
	if pidfile == "" {
		return
	}
	h, err := Start(context.Background(), Policy{Binary: os.Getenv("SANDLOCK"), CPU: 200, Unshare: "off"},
		[]string{"/bin/sh", "-c", treeScript, "sh", pidfile})
	if err == nil {
		h.Wait()
	}
}
