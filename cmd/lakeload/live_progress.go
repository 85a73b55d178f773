package main

import (
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/metrics"
)

// liveProgress shows a load's progress while it runs, not only when a window is published: the
// rows read since the last published window (the live counter of metrics.Load) are added to the
// published rows, and the rate is this run's rows read per second, so the bar, the rate and the ETA
// move between commits. On a terminal the bar is redrawn every second; otherwise every published
// window logs a line as before, and a line with the live counts is logged every interval between
// (both through the liveDisplay every command uses).
type liveProgress struct {
	w       io.Writer
	logger  *slog.Logger
	m       *metrics.Load
	display *liveDisplay

	mu         sync.Mutex
	last       job.Progress
	readAtLast int64 // rows read when last was reported
}

// newLiveProgress returns the progress display of a load writing to w (stderr), with the live
// counters of m. interval is the log interval when w is not a terminal.
func newLiveProgress(w io.Writer, logger *slog.Logger, m *metrics.Load, interval time.Duration) *liveProgress {
	l := &liveProgress{w: w, logger: logger, m: m}
	l.display = newLiveDisplay(w, isTerminal(w), logger, interval,
		func(time.Duration) string { p, _ := l.now(); return progressLine(p) },
		func(time.Duration) []any {
			p, published := l.now()
			return []any{"rows_read_since_last_window", p.RowsPublished - published,
				"rows_done_estimated", p.RowsPublished, "rows_estimated", p.RowsEstimated, "rows_per_s", int64(p.RowsPerSecond),
				"windows_done", p.WindowsDone}
		})
	return l
}

// report is the job's Progress callback (after each published window and at the end).
func (l *liveProgress) report(p job.Progress) {
	l.mu.Lock()
	l.last, l.readAtLast = p, l.m.Values().RowsRead
	l.mu.Unlock()
	if l.display.tty {
		l.display.draw()
		return
	}
	progressReporter(l.w, l.logger)(p)
}

// now is the progress at this moment: the last report plus the rows read since (published: the
// rows the last report counted).
func (l *liveProgress) now() (p job.Progress, published int64) {
	l.mu.Lock()
	p, at := l.last, l.readAtLast
	l.mu.Unlock()
	published = p.RowsPublished
	v := l.m.Values()
	p.RowsPublished = max(p.RowsPublished+v.RowsRead-at, p.RowsPublished)
	if p.RowsEstimated > 0 {
		p.RowsPublished = min(p.RowsPublished, p.RowsEstimated)
	}
	p.RowsPerSecond = rate(v.RowsRead, time.Since(l.display.started))
	return p, published
}

// start redraws (terminal) or logs (otherwise) the live progress until stop is called (once or more).
func (l *liveProgress) start() (stop func()) { return l.display.start() }
