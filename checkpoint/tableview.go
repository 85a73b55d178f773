package checkpoint

import (
	"context"
	"fmt"
	"strconv"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

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
// decision is a pure function of (State, TableView).
type TableView struct {
	// Markers holds, per window, every APPEND snapshot of the job's commit user with identifier w
	// among the snapshots newer than the window's Assigned.SnapshotSeen (lower when the table was
	// rolled back below it: SnapshotLookup.FloorSince).
	Markers map[int64][]Marker
	// EarliestSnapshot is the table's earliest snapshot id read after the lookups (0: no snapshot).
	// A window whose SnapshotSeen+1 is below it was looked up over an incomplete (expired) range.
	EarliestSnapshot int64
	// MissingFiles holds, for each attempt whose data files were checked, the files its commit
	// messages name that do not exist (empty: all present). An attempt absent here was not checked
	// and is never committed.
	MissingFiles map[AttemptKey][]string
}

// SnapshotLookup is the part of the table Gather reads; *table.Snapshots implements it.
type SnapshotLookup interface {
	FloorSince(ctx context.Context, seen int64, seenList string) (int64, error)
	FindCommits(ctx context.Context, q table.CommitQuery, afterID int64) ([]*spec.Snapshot, error)
	EarliestID(ctx context.Context) (int64, bool, error)
}

// FileChecker returns the data files named by msgs that do not exist. The job implements it with
// the table's path factory.
type FileChecker func(ctx context.Context, msgs []table.CommitMessage) (missing []string, err error)

// Gather builds the TableView of st: for every live window, the (user, w, APPEND) snapshots newer
// than the id seen at its assignment, or than the rollback below it (bounded by id, never by time); then the earliest snapshot id;
// then a file check of every attempt that could be committed (exact cover, window not committed).
func Gather(ctx context.Context, st State, snaps SnapshotLookup, files FileChecker) (TableView, error) {
	tv := TableView{Markers: map[int64][]Marker{}, MissingFiles: map[AttemptKey][]string{}}
	job, ok := st.Job()
	if !ok {
		return tv, nil
	}
	for _, ws := range st.windows {
		if ws.Voided != nil {
			continue
		}
		q := table.CommitQuery{User: job.CommitUser, Identifier: ws.Window, Kind: spec.CommitKindAppend}
		floor, err := snaps.FloorSince(ctx, ws.Assigned.SnapshotSeen, ws.Assigned.SeenList)
		if err != nil {
			return tv, fmt.Errorf("checkpoint: look up window %d in the table: %w", ws.Window, err)
		}
		found, err := snaps.FindCommits(ctx, q, floor)
		if err != nil {
			return tv, fmt.Errorf("checkpoint: look up window %d in the table: %w", ws.Window, err)
		}
		for _, s := range found {
			tv.Markers[ws.Window] = append(tv.Markers[ws.Window], Marker{SnapshotID: s.ID, Properties: s.Properties})
		}
	}
	earliest, ok, err := snaps.EarliestID(ctx)
	if err != nil {
		return tv, fmt.Errorf("checkpoint: earliest snapshot: %w", err)
	}
	if ok {
		tv.EarliestSnapshot = earliest
	}
	for _, ws := range st.windows {
		if ws.Voided != nil || ws.Committed != nil || len(tv.Markers[ws.Window]) > 0 {
			continue
		}
		for _, at := range ws.Attempts {
			if CheckCover(ws.Assigned.Splits, at.Results).Status != CoverExact {
				continue
			}
			var msgs []table.CommitMessage
			for _, r := range at.Results {
				msgs = append(msgs, r.Messages...)
			}
			missing, err := files(ctx, msgs)
			if err != nil {
				return tv, fmt.Errorf("checkpoint: check data files of window %d attempt %d: %w", ws.Window, at.Attempt, err)
			}
			tv.MissingFiles[AttemptKey{ws.Window, at.Attempt}] = missing
		}
	}
	return tv, nil
}
