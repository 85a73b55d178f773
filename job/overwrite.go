package job

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Overwrite jobs (docs/protocol.md, "Overwrite jobs"). Windows are assigned, written and stored as in
// an append job but never committed on their own: a window whose attempt covers it exactly is
// "staged". After the last window one OVERWRITE snapshot — commit user = the job's, identifier = the
// number after the last window, properties naming every window's staged attempt — deletes the live
// files of the partitions the staged files touch (or of the whole table) and adds every staged file.
// Only then is each window recorded committed (that snapshot) and published. Readers therefore see
// the old data or the new, never a mix. Recovery (checkpoint.DecideOverwrite) publishes the final
// snapshot's attempts if it exists, else re-stages windows whose files went missing and commits.
// Dynamic-bucket tables: windows continue the HASH index staged before them, and the final commit
// replaces the index of the replaced partitions (overwrite_dynamic.go).

// overwriteMode is the mode of an overwrite job (Config.Overwrite).
type overwriteMode struct {
	*driver
	// staged is the attempt per window that the recovery plan stages; windows of a dynamic-bucket
	// table recomputed under it continue those attempts' HASH files (overwrite_dynamic.go).
	staged map[int64]int
}

func (d *overwriteMode) settle(ctx context.Context) error { return d.runOverwrite(ctx) }

func (d *overwriteMode) endWindow(_ context.Context, ws checkpoint.WindowState, a int) error {
	return d.stageWindow(ws, a) // overwrite jobs commit once, after the last window
}

func (d *overwriteMode) prepareTasks(tasks []task.Input) error { return d.attachOverwriteIndex(tasks) }

// commitsWindows is false: the windows share the final OVERWRITE snapshot.
func (*overwriteMode) commitsWindows() bool { return false }

// stageWindow ends a window of an overwrite job: its attempt's results are stored and cover it
// exactly; nothing is committed.
func (d *overwriteMode) stageWindow(ws checkpoint.WindowState, a int) error {
	at, ok := ws.Attempt(a)
	if !ok {
		return fmt.Errorf("job: window %d has no attempt %d", ws.Window, a)
	}
	if c := checkpoint.CheckCover(ws.Assigned.Splits, at.Results); c.Status != checkpoint.CoverExact {
		return fmt.Errorf("job: results of window %d attempt %d do not cover its splits exactly (%v)", ws.Window, a, c.Status)
	}
	var rows int64
	for _, r := range at.Results {
		rows += r.Rows
	}
	d.cfg.Logger.Info("window staged", "window", ws.Window, "attempt", a, "rows", rows)
	d.report(ws.Window)
	return nil
}

// runOverwrite loads the remaining input as staged windows, then settles the job: publish the final
// snapshot if it exists, else re-stage what is missing and commit it.
func (d *overwriteMode) runOverwrite(ctx context.Context) error {
	for _, ws := range d.st.Windows() {
		d.reserve(ws.Assigned)
	}
	if rem := d.st.Remaining(); len(rem) > 0 {
		// No final commit can exist while splits are unassigned: it is made after the last window.
		if err := d.restageUnfinished(ctx); err != nil {
			return err
		}
		if err := d.load(ctx, rem, d.st.NextWindow()); err != nil {
			return err
		}
	}
	fresh := false // this run made the final commit just now
	for {
		st, err := d.store.Load(ctx)
		if err != nil {
			return err
		}
		d.st = st
		tv, err := gatherTableView(ctx, st, d.t.Snapshots(), d.missingFiles)
		if err != nil {
			return err
		}
		final, err := d.finalMarkers(ctx, st)
		if err != nil {
			return err
		}
		plan := checkpoint.DecideOverwrite(st, tv, final)
		if err := plan.Stopped(); err != nil {
			return err
		}
		if plan.Final > 0 || plan.Settled {
			if err := d.publishFinal(ctx, plan, fresh); err != nil {
				return err
			}
			return d.finish(ctx)
		}
		recomputed := false
		d.staged = plan.Staged
		for _, a := range plan.Actions {
			if err := d.cfg.hook(ctx, PointRecoveryAction, a.Window); err != nil {
				return err
			}
			d.cfg.Logger.Info("recovery", "action", a.String(), "reason", a.Reason)
			switch a.Kind {
			case checkpoint.Recompute:
				ws, _ := st.Window(a.Window)
				if err := d.store.WriteAttemptStart(ctx, checkpoint.AttemptStart{Window: a.Window, Attempt: a.Attempt, Reason: a.Reason, Created: d.cfg.Now().UTC()}); err != nil {
					return raced(err, a.Window, "attempt "+fmt.Sprint(a.Attempt))
				}
				if err := d.runWindow(ctx, ws.Assigned, a.Attempt); err != nil {
					return err
				}
				recomputed = true
			default:
				return fmt.Errorf("job: unexpected overwrite recovery action %s", a)
			}
			d.res.Recovered++
		}
		if recomputed {
			continue // decide again: the new attempts' files are checked before the commit
		}
		if again, err := d.restageInconsistent(ctx, st, plan.Staged); err != nil {
			return err
		} else if again {
			continue
		}
		if err := d.commitFinal(ctx, st, plan.Staged); err != nil {
			return err
		}
		fresh = true
	}
}

// finalQuery is the lookup key of the final OVERWRITE snapshot.
func (d *overwriteMode) finalQuery(st checkpoint.State) table.CommitQuery {
	return table.CommitQuery{User: d.job.CommitUser, Identifier: checkpoint.OverwriteIdentifier(st), Kind: spec.CommitKindOverwrite}
}

// overwriteFloor is the snapshot id after which the final snapshot is looked up: the one seen when
// the last window was assigned, or lower when the table was rolled back below it since.
func (d *overwriteMode) overwriteFloor(ctx context.Context, st checkpoint.State) (int64, error) {
	seen, seenList := checkpoint.OverwriteFloor(st)
	return d.t.Snapshots().FloorSince(ctx, seen, seenList)
}

// finalMarkers returns the job's OVERWRITE snapshots after the floor (checkpoint.OverwriteFloor).
func (d *overwriteMode) finalMarkers(ctx context.Context, st checkpoint.State) ([]checkpoint.Marker, error) {
	floor, err := d.overwriteFloor(ctx, st)
	if err != nil {
		return nil, err
	}
	found, err := d.t.Snapshots().FindCommits(ctx, d.finalQuery(st), floor)
	if err != nil {
		return nil, err
	}
	out := make([]checkpoint.Marker, len(found))
	for i, s := range found {
		out[i] = checkpoint.Marker{SnapshotID: s.ID, Properties: s.Properties}
	}
	return out, nil
}

// commitFinal commits every window's staged attempt as one OVERWRITE snapshot (or, when the staged
// attempts hold no files — or files merged into no rows (overwrite_compact.go) — and nothing is to
// be replaced, records the windows with snapshot 0). The
// caller loops back to DecideOverwrite, which then finds the snapshot and publishes it.
func (d *overwriteMode) commitFinal(ctx context.Context, st checkpoint.State, staged map[int64]int) error {
	id := checkpoint.OverwriteIdentifier(st)
	var msgs []table.CommitMessage
	for _, ws := range st.Windows() {
		if ws.Voided != nil {
			continue
		}
		at, _ := ws.Attempt(staged[ws.Window])
		m, err := task.Messages(at.Results...)
		if err != nil {
			return err
		}
		msgs = append(msgs, m...)
	}
	if dynamicBucket(d.t) {
		var err error
		if msgs, err = finalIndexMessages(st, staged, msgs); err != nil {
			return err
		}
	}
	if err := d.cfg.hook(ctx, PointBeforeCommit, id); err != nil {
		return err
	}
	if err := d.checkSchema(ctx); err != nil {
		return err
	}
	if missing, err := d.missingFiles(ctx, msgs); err != nil {
		return err
	} else if len(missing) > 0 {
		return fmt.Errorf("job %s: %d staged data files are gone before the overwrite commit (first %s; removed by orphan-file "+
			"cleanup?): nothing was committed; run again to recompute the windows that lost files", d.cfg.Name, len(missing), missing[0])
	}
	ow := &commit.Overwrite{Table: d.cfg.Overwrite == checkpoint.OverwriteTable}
	if !ow.Table {
		ow.Partitions = commit.PartitionsOf(msgs)
	}
	// A runner paused before this point may find the job moved on (fence.go): stop before the pin,
	// the merge and the commit. The lookup of recovery saw every snapshot after the floor, or stop.
	if err := d.checkFinal(ctx, st, id); err != nil {
		return err
	}
	floor, err := d.overwriteFloor(ctx, st)
	if err != nil {
		return err
	}
	if err := d.lookupComplete(ctx, id, floor); err != nil {
		return err
	}
	if err := d.pin(ctx, floor); err != nil {
		return err
	}
	abort := func(context.Context) error { return nil }
	// merged: the staged files were merged; their windows' records say so when nothing is committed.
	merged := false
	if hiddenLevel0(d.t) != "" && hasFiles(msgs) { // overwrite_compact.go: commit one highest-level run per bucket
		if msgs, abort, err = d.mergeStaged(ctx, id, msgs); err != nil {
			return err
		}
		merged = true
	}
	res, err := commit.Commit(ctx, d.t, msgs, commit.Options{
		User: d.job.CommitUser, Identifier: id, Properties: checkpoint.OverwriteProperties(d.job, d.cfg.Overwrite, st, staged),
		LookupAfter: floor, Overwrite: ow,
		BeforeSnapshot: func(int64) error {
			if err := d.cfg.hook(ctx, PointInsideCommit, id); err != nil {
				return err
			}
			if err := d.checkFinal(ctx, st, id); err != nil {
				return err
			}
			return d.lookupComplete(ctx, id, floor) // Commit looked the final snapshot up just before
		},
	})
	if err != nil {
		if errors.Is(err, commit.ErrConflict) {
			err = errors.Join(err, abort(ctx)) // the commit certainly did not land
		}
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			return fmt.Errorf("overwrite commit of job %s: %w (interrupted: %w)", d.cfg.Name, err, cerr)
		}
		return fmt.Errorf("overwrite commit of job %s: %w", d.cfg.Name, err)
	}
	if res.AlreadyCommitted {
		if err := abort(ctx); err != nil { // the snapshot found references an earlier merge's outputs
			return err
		}
	}
	if res.SnapshotID == 0 {
		// Nothing to add and nothing to delete: record every window without a snapshot (staged files
		// merged into no rows are marked, DecideOverwrite accepts files only so).
		for _, ws := range st.Windows() {
			if ws.Voided != nil || ws.Committed != nil {
				continue
			}
			c := checkpoint.Committed{Window: ws.Window, SnapshotID: 0, Attempt: staged[ws.Window], MergedAway: merged, Time: d.cfg.Now().UTC()}
			if err := d.store.WriteCommitted(ctx, c); err != nil {
				return raced(err, ws.Window, "committed")
			}
		}
		return nil
	}
	d.cfg.Logger.Info("overwrite committed", "job", d.cfg.Name, "snapshot", res.SnapshotID, "mode", d.cfg.Overwrite,
		"windows", len(staged), "files", countFiles(msgs), "already_committed", res.AlreadyCommitted)
	return d.cfg.hook(ctx, PointAfterCommit, id)
}

// publishFinal verifies the final snapshot and records it for every window: committed, then published.
// fresh: this run made the commit just now (the records are then not recovery actions).
func (d *overwriteMode) publishFinal(ctx context.Context, plan checkpoint.OverwritePlan, fresh bool) error {
	if plan.Final > 0 {
		if err := d.verifyFinal(ctx, plan.Final); err != nil {
			return err
		}
	}
	for _, a := range plan.Actions {
		if !fresh {
			if err := d.cfg.hook(ctx, PointRecoveryAction, a.Window); err != nil {
				return err
			}
			d.cfg.Logger.Info("recovery", "action", a.String(), "reason", a.Reason)
			d.res.Recovered++
		}
		if a.Kind == checkpoint.WriteCommittedThenPublish {
			if err := d.store.WriteCommitted(ctx, checkpoint.Committed{Window: a.Window, SnapshotID: a.SnapshotID, Attempt: a.Attempt, Time: d.cfg.Now().UTC()}); err != nil {
				return raced(err, a.Window, "committed")
			}
		}
		if err := d.afterCommitted(ctx, a.Window, a.Attempt); err != nil {
			return err
		}
	}
	d.res.LastSnapshotID, d.res.OverwriteSnapshot = plan.Final, plan.Final
	return nil
}

// verifyFinal checks that final snapshot id holds exactly what its properties name: the digest of the
// named attempts, ADD entries equal to their files, DELETE entries only in replaced partitions.
func (d *overwriteMode) verifyFinal(ctx context.Context, id int64) error {
	stop := func(format string, args ...any) error {
		return fmt.Errorf("%w: overwrite job %s: snapshot %d: %s (%w)", checkpoint.ErrStop, d.cfg.Name, id, fmt.Sprintf(format, args...), checkpoint.ErrCorrupt)
	}
	s, err := d.t.Snapshots().Get(ctx, id)
	if err != nil {
		return err
	}
	attempts, err := checkpoint.ParseWindows(s.Properties[checkpoint.PropWindows])
	if err != nil {
		return stop("%v", err)
	}
	if cov, want := s.Properties[checkpoint.PropCoverage], checkpoint.OverwriteDigest(d.st, attempts); cov != want {
		return stop("carries coverage digest %q, the staged attempts it names have %q", cov, want)
	}
	if mode := s.Properties[checkpoint.PropOverwrite]; mode != d.cfg.Overwrite {
		return stop("names overwrite mode %q, the job has %q", mode, d.cfg.Overwrite)
	}
	var want []string
	parts := map[string]bool{}
	staged := map[bucketID][]manifest.DataFileMeta{}
	for w, a := range attempts {
		ws, _ := d.st.Window(w)
		at, _ := ws.Attempt(a)
		msgs, err := task.Messages(at.Results...)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			for _, f := range m.NewFiles {
				want = append(want, f.FileName)
				parts[string(m.Partition)] = true
				k := bucketID{string(m.Partition), m.Bucket}
				staged[k] = append(staged[k], f)
			}
		}
	}
	var added []string
	var addedEntries []manifest.ManifestEntry
	for e, err := range d.t.DeltaEntries(ctx, s) {
		if err != nil {
			return err
		}
		switch {
		case e.Kind == manifest.Add:
			added = append(added, e.File.FileName)
			addedEntries = append(addedEntries, e)
		case d.cfg.Overwrite == checkpoint.OverwritePartitions && !parts[string(e.Partition)]:
			return stop("deletes file %s of a partition the job's files do not touch", e.File.FileName)
		}
	}
	slices.Sort(added)
	slices.Sort(want)
	if hiddenLevel0(d.t) != "" { // overwrite_compact.go: the staged files were merged before the commit
		if err := d.verifyMergedAdds(addedEntries, staged); err != nil {
			return stop("%v: inspect the table by hand", err)
		}
	} else if !slices.Equal(added, want) {
		return stop("adds %d data files, the staged attempts hold %d others: inspect the table by hand", len(added), len(want))
	}
	if err := d.verifyFinalIndex(ctx, s, attempts); err != nil {
		return stop("%v: inspect the table by hand", err)
	}
	return nil
}
