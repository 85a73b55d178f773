package main

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/lakeload/lakeload/source"
)

// writeLive is the live state of `lakeload write`: input files and rows written so far (counted
// per record batch), and the phase.
type writeLive struct {
	filesTotal int
	bytesTotal int64
	rowsTotal  int64 // rows of the inputs when every one knows its count (Parquet), else -1

	filesDone atomic.Int64
	bytesDone atomic.Int64 // sizes of the input files done
	rows      atomic.Int64
	phase     liveValue[string]
}

// Phases of a write.
const (
	writePhaseReading    = "writing"
	writePhaseFlushing   = "flushing buckets"
	writePhaseCommitting = "committing"
	writePhaseDone       = "committed"
)

func newWriteLive(splits []source.Split) *writeLive {
	w := &writeLive{filesTotal: len(splits)}
	for _, sp := range splits {
		w.bytesTotal += sp.Size
		if sp.RowCount < 0 || w.rowsTotal < 0 {
			w.rowsTotal = -1
		} else {
			w.rowsTotal += sp.RowCount
		}
	}
	w.phase.set(writePhaseReading)
	return w
}

// fileDone counts an input file written.
func (w *writeLive) fileDone(sp source.Split) {
	w.filesDone.Add(1)
	w.bytesDone.Add(sp.Size)
}

// fraction is the work done and its total in one unit: rows when the inputs' row counts are known,
// otherwise the bytes of the input files done.
func (w *writeLive) fraction() (done, total int64) {
	if w.rowsTotal >= 0 {
		return w.rows.Load(), w.rowsTotal
	}
	return w.bytesDone.Load(), w.bytesTotal
}

func (w *writeLive) line(elapsed time.Duration) string {
	rows := w.rows.Load()
	done, total := w.fraction()
	state := "ETA " + eta(done, total, rate(done, elapsed))
	if ph := w.phase.get(); ph != writePhaseReading {
		state = ph
	}
	return fmt.Sprintf("write %s %d/%d files  %s rows  %s rows/s  %s",
		bar(done, total), w.filesDone.Load(), w.filesTotal, human(rows), human(int64(rate(rows, elapsed))), state)
}

func (w *writeLive) attrs(elapsed time.Duration) []any {
	rows := w.rows.Load()
	done, total := w.fraction()
	return []any{"command", "write", "phase", w.phase.get(), "files_done", w.filesDone.Load(), "files_total", w.filesTotal,
		"bytes_done", w.bytesDone.Load(), "bytes_total", w.bytesTotal, "rows_written", rows, "rows_total", w.rowsTotal,
		"rows_per_s", int64(rate(rows, elapsed)), "eta_s", etaSeconds(done, total, rate(done, elapsed))}
}
