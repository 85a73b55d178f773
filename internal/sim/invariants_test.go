package sim

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// checkInvariants checks docs/protocol.md's invariants on the world's store and table as they are
// now (after any run, crashed or not):
//   - the store loads (S2: no torn or impossible record);
//   - every snapshot is an APPEND by the job's commit user naming the job and its window (nothing
//     else writes this table), and each window has at most one (I2);
//   - markers appear in increasing window order, and a window is committed only after every earlier
//     window is committed (I2);
//   - a marker names an attempt whose stored results cover its window exactly (it was committed from
//     stored results only) and its coverage digest is that attempt's;
//   - `committed` matches the marker (snapshot id and attempt) or records an empty window (snapshot 0,
//     no marker, no files); `published` exists only with `committed` and names the same attempt
//     with that attempt's coverage (I1, I5).
func (w *world) checkInvariants(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("checking the store panicked: %v", r)
		}
	}()
	store := checkpoint.NewStore(w.fs, storePath)
	st, err := store.Load(ctx)
	if err != nil {
		return fmt.Errorf("store does not load: %w", err)
	}
	jobRec, hasJob := st.Job()
	snaps := table.NewSnapshots(w.fs, tablePath)
	ids, err := snaps.IDs(ctx)
	if err != nil {
		return err
	}
	if !hasJob {
		if len(ids) > 0 || len(st.Windows()) > 0 {
			return fmt.Errorf("table has %d snapshots / store %d windows but no job.json", len(ids), len(st.Windows()))
		}
		return nil
	}
	earliest := int64(0)
	if len(ids) > 0 {
		earliest = ids[0]
	}
	markers := map[int64]*spec.Snapshot{}
	lastWindow := int64(0)
	for _, id := range ids {
		s, err := snaps.Get(ctx, id)
		if err != nil {
			return err
		}
		if s.CommitUser == foreignUser {
			continue // the other writer of world events
		}
		if s.CommitUser != jobRec.CommitUser || s.CommitKind != spec.CommitKindAppend {
			return fmt.Errorf("snapshot %d: commit user %s kind %s, want the job's user %s and APPEND", id, s.CommitUser, s.CommitKind, jobRec.CommitUser)
		}
		w := s.CommitIdentifier
		if prev, dup := markers[w]; dup {
			return fmt.Errorf("I2 broken: window %d committed twice (snapshots %d and %d)", w, prev.ID, id)
		}
		if w <= lastWindow {
			return fmt.Errorf("I2 broken: snapshot %d commits window %d after window %d was committed", id, w, lastWindow)
		}
		if s.Properties[checkpoint.PropJob] != jobName || s.Properties[checkpoint.PropWindow] != strconv.FormatInt(w, 10) {
			return fmt.Errorf("snapshot %d of window %d has properties %v", id, w, s.Properties)
		}
		markers[w], lastWindow = s, w
	}
	windows := st.Windows()
	committedUpTo := true // every window before the current one is committed
	for _, ws := range windows {
		w := ws.Window
		m := markers[w]
		c, p := ws.Committed, ws.Published
		if ws.Voided != nil {
			return fmt.Errorf("window %d voided, though nothing was rolled back", w)
		}
		if m != nil || c != nil {
			if !committedUpTo {
				return fmt.Errorf("I2 broken: window %d is committed while an earlier window is not", w)
			}
		} else {
			committedUpTo = false
		}
		if p != nil && c == nil {
			return fmt.Errorf("I1 broken: window %d published without committed", w)
		}
		if m != nil {
			a, err := strconv.Atoi(m.Properties[checkpoint.PropAttempt])
			if err != nil {
				return fmt.Errorf("snapshot %d of window %d names no attempt: %v", m.ID, w, m.Properties)
			}
			at, ok := ws.Attempt(a)
			if !ok {
				return fmt.Errorf("snapshot %d commits window %d attempt %d, which the store never began", m.ID, w, a)
			}
			if cv := checkpoint.CheckCover(ws.Assigned.Splits, at.Results); cv.Status != checkpoint.CoverExact {
				return fmt.Errorf("snapshot %d commits window %d attempt %d, whose stored results are not an exact cover (%v)", m.ID, w, a, cv.Status)
			}
			if got, want := m.Properties[checkpoint.PropCoverage], checkpoint.CoverageDigest(at.Results); got != want {
				return fmt.Errorf("snapshot %d of window %d: coverage digest %s, attempt %d's is %s", m.ID, w, got, a, want)
			}
			if m.ID <= ws.Assigned.SnapshotSeen {
				return fmt.Errorf("snapshot %d of window %d is not after the snapshot seen at assignment (%d)", m.ID, w, ws.Assigned.SnapshotSeen)
			}
			if c != nil && (c.SnapshotID != m.ID || c.Attempt != a) {
				return fmt.Errorf("window %d: committed says snapshot %d attempt %d, the marker is snapshot %d attempt %d", w, c.SnapshotID, c.Attempt, m.ID, a)
			}
		} else if c != nil && (c.SnapshotID == 0 || c.SnapshotID >= earliest) { // else its marker expired (world events)
			if c.SnapshotID != 0 {
				return fmt.Errorf("window %d: committed names snapshot %d, which does not commit it", w, c.SnapshotID)
			}
			at, ok := ws.Attempt(c.Attempt)
			if !ok || checkpoint.CheckCover(ws.Assigned.Splits, at.Results).Status != checkpoint.CoverExact || attemptHasFiles(at) {
				return fmt.Errorf("window %d recorded as empty (snapshot 0) but attempt %d is not an exact cover without files", w, c.Attempt)
			}
		}
		if p != nil {
			if p.Attempt != c.Attempt {
				return fmt.Errorf("I5 broken: window %d published attempt %d, committed attempt %d", w, p.Attempt, c.Attempt)
			}
			at, _ := ws.Attempt(p.Attempt)
			if p.Digest != checkpoint.CoverageDigest(at.Results) || !slices.Equal(p.Splits, ws.Assigned.Splits) {
				return fmt.Errorf("I5 broken: window %d published coverage %v/%s, attempt %d covers %v/%s", w, p.Splits, p.Digest, p.Attempt, ws.Assigned.Splits, checkpoint.CoverageDigest(at.Results))
			}
		}
	}
	for win := range markers {
		if win < 1 || win > int64(len(windows)) {
			return fmt.Errorf("snapshot %d commits window %d, which the store never assigned", markers[win].ID, win)
		}
	}
	return nil
}

// attemptHasFiles reports whether a stored message of at is not empty (one that does not decode counts).
func attemptHasFiles(at checkpoint.AttemptState) bool {
	msgs, err := task.Messages(at.Results...)
	if err != nil {
		return true
	}
	for _, m := range msgs {
		if !m.IsEmpty() {
			return true
		}
	}
	return false
}

// checkFinal checks the end state of a finished job: the store says done, every window is
// committed and published, every split of the plan is published exactly once with all its rows,
// each non-empty window is exactly one snapshot, and the table holds the expected rows.
func (w *world) checkFinal(ctx context.Context) error {
	if err := w.checkInvariants(ctx); err != nil {
		return err
	}
	st, err := checkpoint.NewStore(w.fs, storePath).Load(ctx)
	if err != nil {
		return err
	}
	if _, done := st.Done(); !done {
		return fmt.Errorf("store does not say done")
	}
	published := map[int]int64{}
	var rows int64
	for _, ws := range st.Windows() {
		if ws.Committed == nil || ws.Published == nil {
			return fmt.Errorf("job done but window %d committed=%v published=%v", ws.Window, ws.Committed != nil, ws.Published != nil)
		}
		for _, s := range ws.Published.Splits {
			if prev, dup := published[s]; dup {
				return fmt.Errorf("split %d published by windows %d and %d", s, prev, ws.Window)
			}
			published[s] = ws.Window
		}
		rows += ws.Published.Rows
	}
	if len(published) != len(w.sc.splits) {
		return fmt.Errorf("%d of %d splits published", len(published), len(w.sc.splits))
	}
	if rows != int64(len(w.sc.rows)) {
		return fmt.Errorf("published %d rows, the input has %d", rows, len(w.sc.rows))
	}
	got, err := w.tableRows(ctx)
	if err != nil {
		return fmt.Errorf("read table: %w", err)
	}
	if want := w.expected(nil); !slices.Equal(got, want) {
		return fmt.Errorf("table rows\n    %v\nwant\n    %v", got, want)
	}
	return nil
}
