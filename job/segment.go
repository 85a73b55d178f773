package job

import (
	"errors"
	"time"
)

// Bound makes a run a segment of a job: Run stops cleanly between windows once MaxWindows windows
// were committed or published by this run, or MaxDuration has passed since it started, and returns
// Result.Bounded (the job is not done; run again to continue). A window in progress is always
// finished first, so a bound never leaves work that recovery must redo, and a run stops only after it
// committed or published at least one window, so every bounded run makes progress. Overwrite jobs
// ignore the bound (their final snapshot replaces data only after the last window). The zero Bound
// runs to the end.
type Bound struct {
	MaxWindows  int64
	MaxDuration time.Duration
}

// errBounded stops the load loop at a segment bound; Run turns it into Result.Bounded.
var errBounded = errors.New("job: segment bound reached")

// set reports whether b bounds the run at all.
func (b Bound) set() bool { return b.MaxWindows > 0 || b.MaxDuration > 0 }

// boundReached reports whether the run should stop before assigning another window.
func (d *driver) boundReached() bool {
	b := d.cfg.Bound
	if !b.set() {
		return false
	}
	if b.MaxWindows > 0 && d.res.WindowsCommitted >= b.MaxWindows {
		return true
	}
	// The duration bound counts only after a window: every segment makes progress, however slow its start.
	return b.MaxDuration > 0 && d.res.WindowsCommitted > 0 && d.cfg.Now().Sub(d.started) >= b.MaxDuration
}
