package sandlock

import (
	"context"
	"sync"
)

// Handle is a run started by Start: the sandbox goes on while the caller
// does other things (starts more runs, selects on Done).
//
// Its Result is what Run would have returned for the same policy and
// command: Wait gives it, as often as asked. Kill stops the run as a
// cancelled context does (SIGTERM to sandlock, which kills the program's
// whole process tree and reports status 143; SIGKILL after
// Policy.CancelGrace). When the grader process dies, its runs die with it
// (the sandbox watches its report pipe).
//
// (The C library's sandlock_spawn has the same shape; this binding runs
// the sandlock binary, one process per run, as Run does.)
type Handle struct {
	stop context.CancelFunc
	done chan struct{}
	res  Result
	err  error
	once sync.Once
}

// Start starts argv under the sandbox with policy p and returns at once.
// An invalid policy or command, a sandlock binary that cannot be found, or
// a context that is already done is an error here (and no run is made);
// everything else, failures to start the binary included, comes from Wait.
// Cancelling ctx stops the run, as Kill does; Wait's error then also
// matches ctx.Err().
func Start(ctx context.Context, p Policy, argv []string) (*Handle, error) {
	if _, err := p.Args(argv); err != nil {
		return nil, err
	}
	if _, err := FindBinary(p); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, newErr(ErrCancelled, err, "before start")
	}
	rctx, stop := context.WithCancel(ctx)
	h := &Handle{stop: stop, done: make(chan struct{})}
	go func() {
		h.res, h.err = Run(rctx, p, argv)
		stop() // release the context's resources
		close(h.done)
	}()
	return h, nil
}

// Done is closed once the run is over and its Result known: for graders
// that select on many runs.
func (h *Handle) Done() <-chan struct{} { return h.done }

// Wait blocks until the run is over and returns its Result and error, as
// Run does: nil exactly when a valid report came for a run that was not
// stopped and whose verdict is not setup_failed. After Kill the error
// matches ErrCancelled (and context.Canceled).
func (h *Handle) Wait() (*Result, error) {
	<-h.done
	res := h.res
	return &res, h.err
}

// Kill stops the run and returns at once (Wait gives the outcome). A run
// that is already over keeps its own Result.
func (h *Handle) Kill() error {
	h.once.Do(h.stop)
	return nil
}
