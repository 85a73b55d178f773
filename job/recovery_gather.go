package job

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Recovery reads the table once and decides on plain data: gatherTableView is the I/O half (the
// snapshots and data files of the table), checkpoint.Decide the pure half. The reading lives here,
// with the table, so that checkpoint knows neither the table nor commit messages (docs/design.md).

// snapshotLookup is the part of the table gatherTableView reads; *table.Snapshots implements it.
type snapshotLookup interface {
	FloorSince(ctx context.Context, seen int64, seenList string) (int64, error)
	FindCommits(ctx context.Context, q table.CommitQuery, afterID int64) ([]*spec.Snapshot, error)
	EarliestID(ctx context.Context) (int64, bool, error)
}

var _ snapshotLookup = (*table.Snapshots)(nil)

// fileChecker returns the data files named by msgs that do not exist (driver.missingFiles).
type fileChecker func(ctx context.Context, msgs []table.CommitMessage) (missing []string, err error)

// gatherTableView builds the TableView of st: for every live window, the (user, w, APPEND) snapshots
// newer than the id seen at its assignment, or than the rollback below it (bounded by id, never by
// time); then the earliest snapshot id; then a file check of every attempt that could be committed
// (exact cover, window not committed).
func gatherTableView(ctx context.Context, st checkpoint.State, snaps snapshotLookup, files fileChecker) (checkpoint.TableView, error) {
	tv := checkpoint.TableView{Markers: map[int64][]checkpoint.Marker{}, MissingFiles: map[checkpoint.AttemptKey][]string{}}
	job, ok := st.Job()
	if !ok {
		return tv, nil
	}
	windows := st.Windows()
	for _, ws := range windows {
		if ws.Voided != nil {
			continue
		}
		q := table.CommitQuery{User: job.CommitUser, Identifier: ws.Window, Kind: spec.CommitKindAppend}
		floor, err := snaps.FloorSince(ctx, ws.Assigned.SnapshotSeen, ws.Assigned.SeenList)
		if err != nil {
			return tv, fmt.Errorf("job: look up window %d in the table: %w", ws.Window, err)
		}
		found, err := snaps.FindCommits(ctx, q, floor)
		if err != nil {
			return tv, fmt.Errorf("job: look up window %d in the table: %w", ws.Window, err)
		}
		for _, s := range found {
			tv.Markers[ws.Window] = append(tv.Markers[ws.Window], checkpoint.Marker{SnapshotID: s.ID, Properties: s.Properties})
		}
	}
	earliest, ok, err := snaps.EarliestID(ctx)
	if err != nil {
		return tv, fmt.Errorf("job: earliest snapshot: %w", err)
	}
	if ok {
		tv.EarliestSnapshot = earliest
	}
	for _, ws := range windows {
		if ws.Voided != nil || ws.Committed != nil || len(tv.Markers[ws.Window]) > 0 {
			continue
		}
		for _, at := range ws.Attempts {
			if checkpoint.CheckCover(ws.Assigned.Splits, at.Results).Status != checkpoint.CoverExact {
				continue
			}
			msgs, err := task.Messages(at.Results...)
			if err != nil {
				return tv, err
			}
			missing, err := files(ctx, msgs)
			if err != nil {
				return tv, fmt.Errorf("job: check data files of window %d attempt %d: %w", ws.Window, at.Attempt, err)
			}
			tv.MissingFiles[checkpoint.AttemptKey{Window: ws.Window, Attempt: at.Attempt}] = missing
		}
	}
	return tv, nil
}
