package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/lakeload/lakeload/job"
)

// isTerminal reports whether w is a character device (an interactive terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressReporter returns the job's progress callback: a redrawn bar on a terminal, otherwise one
// structured log line per window.
func progressReporter(w io.Writer, logger *slog.Logger) func(job.Progress) {
	if !isTerminal(w) {
		return func(p job.Progress) {
			args := []any{"window", p.Window}
			if p.Window == 0 {
				args = []any{"final", true} // the report after the last window: no window is current
			}
			logger.Info("progress", append(args, "windows_done", p.WindowsDone, "rows_published", p.RowsPublished,
				"rows_estimated", p.RowsEstimated, "splits_done", p.SplitsDone, "splits_total", p.SplitsTotal,
				"rows_per_s", int64(p.RowsPerSecond), "snapshot", p.LastSnapshotID)...)
		}
	}
	return func(p job.Progress) { fmt.Fprint(w, "\r"+progressLine(p)+"\x1b[K") }
}

// progressLine renders one line: bar, rows, rate, windows and ETA.
func progressLine(p job.Progress) string {
	eta := eta(p.RowsPublished, p.RowsEstimated, p.RowsPerSecond)
	return fmt.Sprintf("%s %s/%s rows  %s rows/s  %s committed  ETA %s",
		bar(p.RowsPublished, p.RowsEstimated), human(p.RowsPublished), human(p.RowsEstimated),
		human(int64(p.RowsPerSecond)), count(p.WindowsDone, "window"), eta)
}

func human(n int64) string {
	switch {
	case n >= 1_000_000_000:
		return fmt.Sprintf("%.1fG", float64(n)/1e9)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
