package checkpoint

import "strconv"

// Snapshot property keys lakeload writes into the snapshot of each window (protocol step 4).
const (
	PropJob      = "lakeload.job"
	PropWindow   = "lakeload.window"
	PropAttempt  = "lakeload.attempt"
	PropCoverage = "lakeload.coverage-digest"
	PropInput    = "lakeload.input-fingerprint"
)

// CommitProperties returns the snapshot properties of window w committed from attempt a with
// coverage digest cov (CoverageDigest of the attempt's results).
func CommitProperties(job JobRecord, w int64, a int, cov string) map[string]string {
	return map[string]string{
		PropJob:      job.JobID,
		PropWindow:   strconv.FormatInt(w, 10),
		PropAttempt:  strconv.Itoa(a),
		PropCoverage: cov,
		PropInput:    job.InputFingerprint,
	}
}

// Marker is one snapshot of the table carrying (commit user, identifier = window, APPEND).
type Marker struct {
	SnapshotID int64
	Properties map[string]string
}

// AttemptKey names one attempt of one window.
type AttemptKey struct {
	Window  int64
	Attempt int
}

// TableView is what Decide needs to know about the table and the data files: plain data, so the
// decision is a pure function of (State, TableView). The job gathers it (job/recovery_gather.go):
// reading the table is I/O, and this package knows neither the table nor the files of its commit
// messages.
type TableView struct {
	// Markers holds, per window, every APPEND snapshot of the job's commit user with identifier w
	// among the snapshots newer than the window's Assigned.SnapshotSeen (lower when the table was
	// rolled back below it: the job's FloorSince).
	Markers map[int64][]Marker
	// EarliestSnapshot is the table's earliest snapshot id read after the lookups (0: no snapshot).
	// A window whose SnapshotSeen+1 is below it was looked up over an incomplete (expired) range.
	EarliestSnapshot int64
	// MissingFiles holds, for each attempt whose data files were checked, the files its commit
	// messages name that do not exist (empty: all present). An attempt absent here was not checked
	// and is never committed.
	MissingFiles map[AttemptKey][]string
}
