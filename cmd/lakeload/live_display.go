package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// liveDisplay shows a running command's progress on stderr, the same way for every command: on a
// terminal one line, rendered by line, redrawn every second; otherwise a structured log line
// ("progress" with the attributes of attrs) every interval and, from finish, one at the end with
// final=true. line and attrs run on the display's goroutine while the command updates what they
// read, so they read only counters safe for concurrent use (liveValue, atomics).
type liveDisplay struct {
	w        io.Writer
	tty      bool
	logger   *slog.Logger
	interval time.Duration
	started  time.Time
	line     func(elapsed time.Duration) string
	attrs    func(elapsed time.Duration) []any

	mu       sync.Mutex // serialises drawing
	lastDraw time.Time
	stop     func()
	finished sync.Once
}

// newLiveDisplay returns a display writing to w; tty selects the redrawn line (see ttyDisplay).
func newLiveDisplay(w io.Writer, tty bool, logger *slog.Logger, interval time.Duration,
	line func(time.Duration) string, attrs func(time.Duration) []any) *liveDisplay {
	return &liveDisplay{w: w, tty: tty, logger: logger, interval: interval, started: time.Now(), line: line, attrs: attrs}
}

// draw redraws the terminal line.
func (d *liveDisplay) draw() {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, _ = io.WriteString(d.w, "\r"+d.line(time.Since(d.started))+"\x1b[K")
	d.lastDraw = time.Now()
}

// pokeEvery is the least time between two draws of poke.
const pokeEvery = 200 * time.Millisecond

// poke redraws the terminal line now, unless it was drawn less than pokeEvery ago: the command
// calls it when its counters move (e.g. after each bucket compacted), so that the line follows the
// work more closely than the once-a-second redraw.
func (d *liveDisplay) poke() {
	if !d.tty {
		return
	}
	d.mu.Lock()
	recent := time.Since(d.lastDraw) < pokeEvery
	d.mu.Unlock()
	if !recent {
		d.draw()
	}
}

// log logs one progress line.
func (d *liveDisplay) log(final bool) {
	args := d.attrs(time.Since(d.started))
	if final {
		args = append([]any{"final", true}, args...)
	}
	d.logger.Info("progress", args...)
}

// start redraws (terminal) or logs (otherwise) the progress until the returned stop is called (once
// or more). With interval 0 and no terminal it logs nothing between.
func (d *liveDisplay) start() (stop func()) {
	every := d.interval
	if d.tty {
		every = time.Second
	}
	if every <= 0 {
		d.stop = func() {}
		return d.stop
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
				if d.tty {
					d.draw()
				} else {
					d.log(false)
				}
			}
		}
	}()
	var once sync.Once
	d.stop = func() { once.Do(func() { close(done); wg.Wait() }) }
	return d.stop
}

// finish stops the display (the first call; later calls do nothing): on a terminal the line is drawn
// a last time and ended, so that what follows starts on a line of its own; otherwise, if the command
// succeeded, the final line is logged (a failed command's stderr is its one-line error).
func (d *liveDisplay) finish(succeeded bool) {
	d.finished.Do(func() {
		if d.stop != nil {
			d.stop()
		}
		switch {
		case d.tty:
			d.draw()
			_, _ = io.WriteString(d.w, "\n")
		case succeeded:
			d.log(true)
		}
	})
}

// liveValue is a value the command sets and the display reads.
type liveValue[T any] struct {
	mu sync.Mutex
	v  T
}

func (l *liveValue[T]) set(v T) {
	l.mu.Lock()
	l.v = v
	l.mu.Unlock()
}

func (l *liveValue[T]) get() T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v
}

// rate is done per second over elapsed (0 before any time passed).
func rate(done int64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(done) / elapsed.Seconds()
}

// eta renders the time left to reach total at perSecond, "-" when not known.
func eta(done, total int64, perSecond float64) string {
	if perSecond <= 0 || total <= done {
		return "-"
	}
	return (time.Duration(float64(total-done)/perSecond) * time.Second).Round(time.Second).String()
}

// etaSeconds is eta for logs: seconds left, -1 when not known.
func etaSeconds(done, total int64, perSecond float64) int64 {
	if perSecond <= 0 || total <= done {
		return -1
	}
	return int64(float64(total-done) / perSecond)
}

// bar renders done of total as "[####....]  40%" (an empty bar when total is 0).
func bar(done, total int64) string {
	frac := 0.0
	if total > 0 {
		frac = min(float64(done)/float64(total), 1)
	}
	const width = 24
	n := int(frac * width)
	return fmt.Sprintf("[%s%s] %3.0f%%", strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100)
}

// humanBytes renders a byte count: "512 B", "3.4 MiB".
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
