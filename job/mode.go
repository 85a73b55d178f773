package job

import (
	"context"
	"errors"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
)

// mode is what kind of job a run drives: how its windows end and how the job settles. The driver's
// loop — open, Decide, assign, tasks, find-or-commit, verify, publish — is the same for every
// mode; a mode only says where it differs. Config.Overwrite picks overwriteMode (overwrite.go),
// else appendMode.
type mode interface {
	// settle recovers, loads the remaining input and settles the job (open has run; the lease is held).
	settle(ctx context.Context) error
	// endWindow ends window ws once the tasks of its attempt a have stored their results.
	endWindow(ctx context.Context, ws checkpoint.WindowState, a int) error
	// prepareTasks gives a window's tasks what their writers continue from, before they run.
	prepareTasks(tasks []task.Input) error
	// commitsWindows reports whether every window is committed as a snapshot of its own: publishing
	// it then advances the job's pin to it (pin.go), and compaction during the load follows it
	// (compact.go).
	commitsWindows() bool
}

// newMode returns the mode of d's job.
func newMode(d *driver) mode {
	if d.cfg.Overwrite != "" {
		return &overwriteMode{driver: d}
	}
	return appendMode{d}
}

// appendMode is the mode of an append job (docs/protocol.md): every window is committed on its
// own, as soon as its tasks are done, then published.
type appendMode struct{ *driver }

func (d appendMode) settle(ctx context.Context) error {
	remaining, next, err := d.recover(ctx)
	if err != nil {
		return err
	}
	if err := d.load(ctx, remaining, next); errors.Is(err, errBounded) {
		d.res.Bounded, d.res.Windows = true, int64(len(d.st.Windows())) // segment.go
		return nil
	} else if err != nil {
		return err
	}
	return d.finish(ctx)
}

func (d appendMode) endWindow(ctx context.Context, ws checkpoint.WindowState, a int) error {
	return d.commitWindow(ctx, ws, a, a)
}

func (appendMode) prepareTasks([]task.Input) error { return nil }

func (appendMode) commitsWindows() bool { return true }
