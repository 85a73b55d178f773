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
// window logs a line as before, and a line with the live counts is logged every interval between.
type liveProgress struct {
	w        io.Writer
	tty      bool
	logger   *slog.Logger
	m        *metrics.Load
	interval time.Duration
	started  time.Time

	mu         sync.Mutex
	last       job.Progress
	readAtLast int64 // rows read when last was reported
}

// newLiveProgress returns the progress display of a load writing to w (stderr), with the live
// counters of m. interval is the log interval when w is not a terminal.
func newLiveProgress(w io.Writer, logger *slog.Logger, m *metrics.Load, interval time.Duration) *liveProgress {
	return &liveProgress{w: w, tty: isTerminal(w), logger: logger, m: m, interval: interval, started: time.Now()}
}

// report is the job's Progress callback (after each published window and at the end).
func (l *liveProgress) report(p job.Progress) {
	l.mu.Lock()
	l.last, l.readAtLast = p, l.m.Values().RowsRead
	l.mu.Unlock()
	if l.tty {
		l.draw()
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
	if el := time.Since(l.started).Seconds(); el > 0 {
		p.RowsPerSecond = float64(v.RowsRead) / el
	}
	return p, published
}

func (l *liveProgress) draw() {
	p, _ := l.now()
	_, _ = io.WriteString(l.w, "\r"+progressLine(p)+"\x1b[K")
}

// start redraws (terminal) or logs (otherwise) the live progress until stop is called (once or more).
func (l *liveProgress) start() (stop func()) {
	every := l.interval
	if l.tty {
		every = time.Second
	}
	if every <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if l.tty {
					l.draw()
					continue
				}
				p, published := l.now()
				l.logger.Info("progress", "rows_read_since_last_window", p.RowsPublished-published,
					"rows_done_estimated", p.RowsPublished, "rows_estimated", p.RowsEstimated, "rows_per_s", int64(p.RowsPerSecond),
					"windows_done", p.WindowsDone)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}
