package job

import (
	"encoding/json"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/metrics"
	"github.com/lakeload/lakeload/paimon/table"
)

// recoveryLabel is the action label of a recovery action kind.
func recoveryLabel(k checkpoint.ActionKind) string {
	switch k {
	case checkpoint.Publish, checkpoint.WriteCommittedThenPublish:
		return metrics.ActionPublish
	case checkpoint.Commit:
		return metrics.ActionCommit
	case checkpoint.Recompute:
		return metrics.ActionRecompute
	case checkpoint.Void:
		return metrics.ActionVoid
	}
	return k.String()
}

// timedCommit runs commit and records its duration.
func timedCommit(m *metrics.Load, commit func() error) error {
	start := time.Now()
	err := commit()
	if err == nil {
		m.ObserveCommit(time.Since(start))
	}
	return err
}

// fileBytes is the size of the data files in msgs.
func fileBytes(msgs []table.CommitMessage) int64 {
	var n int64
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			n += f.FileSize
		}
	}
	return n
}

// storedFileBytes is fileBytes of the results' stored messages. It reads the file sizes only (the
// report is derived again on every poll of a followed job); a message whose sizes do not decode
// counts nothing here — the job refuses such a store when it runs (task.Messages).
func storedFileBytes(results []checkpoint.TaskResult) int64 {
	var n int64
	for _, r := range results {
		for _, o := range r.Messages {
			var sizes struct {
				NewFiles []struct {
					FileSize int64 `json:"FileSize"`
				} `json:"newFiles"`
			}
			if json.Unmarshal(o.Bytes(), &sizes) == nil {
				for _, f := range sizes.NewFiles {
					n += f.FileSize
				}
			}
		}
	}
	return n
}

// StoredMetrics are the load metrics a checkpoint store can tell about a finished or interrupted job.
// Rows read, rows rejected, commit durations and the rows-per-second rate are not stored; recovery
// actions are not stored either, but every attempt after the first of a window is a recompute.
type StoredMetrics struct {
	RowsWritten      int64 `json:"rowsWritten"`      // rows of the published windows (committed attempts)
	WindowsCommitted int64 `json:"windowsCommitted"` // windows recorded as committed (empty ones included)
	BytesWritten     int64 `json:"bytesWritten"`     // data file bytes of the committed attempts
	Recomputes       int64 `json:"recomputes"`       // attempts begun after the first, over all windows
	Window           int64 `json:"window"`           // highest window assigned
	// NotStored names the metrics of `lakeload load --metrics-addr` this report cannot give.
	NotStored []string `json:"notStored"`
}

// MetricsFromStore derives StoredMetrics from a loaded checkpoint store.
func MetricsFromStore(st checkpoint.State) StoredMetrics {
	m := StoredMetrics{NotStored: []string{"lakeload_rows_read_total", "lakeload_rows_rejected_total", "lakeload_commit_seconds",
		"lakeload_rows_per_second", `lakeload_recovery_actions_total{action="publish|commit"}`}}
	for _, ws := range st.Windows() {
		m.Window = max(m.Window, ws.Window)
		if ws.Voided != nil {
			continue
		}
		if n := int64(len(ws.Attempts)); n > 1 {
			m.Recomputes += n - 1
		}
		if ws.Committed != nil {
			m.WindowsCommitted++
			if at, ok := ws.Attempt(ws.Committed.Attempt); ok {
				m.BytesWritten += storedFileBytes(at.Results)
			}
		}
		if ws.Published != nil {
			m.RowsWritten += ws.Published.Rows
		}
	}
	return m
}
