package metrics

import (
	"sync"
	"time"
)

// Recovery action label values of lakeload_recovery_actions_total.
const (
	ActionPublish   = "publish"
	ActionCommit    = "commit"
	ActionRecompute = "recompute"
	ActionVoid      = "void"
)

// Load is the set of metrics of one `lakeload load` job, all labelled job=<name>. Every method is
// safe on a nil *Load (metrics off) and for concurrent use.
type Load struct {
	reg                                                                 *Registry
	job                                                                 string
	rowsRead, rowsWritten, rowsRejected, windowsCommitted, bytesWritten *Counter
	commitSeconds                                                       *Histogram
	window, rowsPerSecond                                               *Gauge
	mu                                                                  sync.Mutex
	recovery                                                            map[string]*Counter
}

// NewLoad registers the load metrics of job in reg.
func NewLoad(reg *Registry, job string) *Load {
	l := Labels{"job": job}
	m := &Load{reg: reg, job: job, recovery: map[string]*Counter{},
		rowsRead:         reg.Counter("lakeload_rows_read_total", "Input rows read from the source (re-reads of recomputed windows included).", l),
		rowsWritten:      reg.Counter("lakeload_rows_written_total", "Rows written to data files by write tasks (recomputed attempts included).", l),
		rowsRejected:     reg.Counter("lakeload_rows_rejected_total", "Input rows rejected as bad and not written.", l),
		windowsCommitted: reg.Counter("lakeload_windows_committed_total", "Windows committed and published by this process (empty and recovered windows included).", l),
		commitSeconds:    reg.Histogram("lakeload_commit_seconds", "Duration of a window's table commit (manifests and snapshot) in seconds.", l, DefaultSecondsBuckets),
		bytesWritten:     reg.Counter("lakeload_bytes_written_total", "Bytes of data files in the windows this process committed.", l),
		window:           reg.Gauge("lakeload_window", "The window being loaded (0 before the first).", l),
		rowsPerSecond:    reg.Gauge("lakeload_rows_per_second", "Rows written per second since the process started.", l),
	}
	for _, a := range []string{ActionPublish, ActionCommit, ActionRecompute} {
		m.recoveryCounter(a) // present at 0 from the start, so rate() works
	}
	return m
}

func (m *Load) recoveryCounter(action string) *Counter {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.recovery[action]
	if c == nil {
		c = m.reg.Counter("lakeload_recovery_actions_total", "Recovery actions run when a job resumed, by action.", Labels{"job": m.job, "action": action})
		m.recovery[action] = c
	}
	return c
}

// AddRowsRead counts n input rows read.
func (m *Load) AddRowsRead(n int64) {
	if m != nil {
		m.rowsRead.Add(n)
	}
}

// AddRowsWritten counts n rows written to data files.
func (m *Load) AddRowsWritten(n int64) {
	if m != nil {
		m.rowsWritten.Add(n)
	}
}

// AddRowsRejected counts n bad input rows that were not written (quarantine).
func (m *Load) AddRowsRejected(n int64) {
	if m != nil {
		m.rowsRejected.Add(n)
	}
}

// WindowCommitted counts one window committed and published.
func (m *Load) WindowCommitted() {
	if m != nil {
		m.windowsCommitted.Add(1)
	}
}

// ObserveCommit records the duration of one table commit.
func (m *Load) ObserveCommit(d time.Duration) {
	if m != nil {
		m.commitSeconds.ObserveDuration(d)
	}
}

// AddBytesWritten counts n bytes of committed data files.
func (m *Load) AddBytesWritten(n int64) {
	if m != nil {
		m.bytesWritten.Add(n)
	}
}

// RecoveryAction counts one recovery action (ActionPublish, ActionCommit, ActionRecompute, ActionVoid).
func (m *Load) RecoveryAction(action string) {
	if m != nil {
		m.recoveryCounter(action).Add(1)
	}
}

// SetWindow sets the window being loaded.
func (m *Load) SetWindow(w int64) {
	if m != nil {
		m.window.Set(float64(w))
	}
}

// SetRowsPerSecond sets the throughput gauge.
func (m *Load) SetRowsPerSecond(v float64) {
	if m != nil {
		m.rowsPerSecond.Set(v)
	}
}

// LoadValues are the current values of a Load's metrics.
type LoadValues struct {
	RowsRead, RowsWritten, RowsRejected, WindowsCommitted, BytesWritten int64
	Recovery                                                            map[string]int64
	Commits                                                             HistogramSnapshot
	Window, RowsPerSecond                                               float64
}

// Values returns the current values (zero for a nil Load).
func (m *Load) Values() LoadValues {
	if m == nil {
		return LoadValues{}
	}
	v := LoadValues{RowsRead: m.rowsRead.Value(), RowsWritten: m.rowsWritten.Value(), RowsRejected: m.rowsRejected.Value(),
		WindowsCommitted: m.windowsCommitted.Value(), BytesWritten: m.bytesWritten.Value(), Recovery: map[string]int64{},
		Commits: m.commitSeconds.Snapshot(), Window: m.window.Value(), RowsPerSecond: m.rowsPerSecond.Value()}
	m.mu.Lock()
	for a, c := range m.recovery {
		v.Recovery[a] = c.Value()
	}
	m.mu.Unlock()
	return v
}
