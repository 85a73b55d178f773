package job

import (
	"context"
	"fmt"
	"slices"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// verifyMarker checks that marker snapshot id of window ws holds exactly the files of attempt a
// (the attempt its properties name) and carries that attempt's coverage digest; otherwise
// publishing a's coverage would mark rows done that the snapshot does not hold (scenario 6).
func (d *driver) verifyMarker(ctx context.Context, ws checkpoint.WindowState, id int64, a int) error {
	stop := func(format string, args ...any) error {
		return fmt.Errorf("%w: window %d: snapshot %d: %s (%w)", checkpoint.ErrStop, ws.Window, id, fmt.Sprintf(format, args...), checkpoint.ErrCorrupt)
	}
	at, ok := ws.Attempt(a)
	if !ok {
		// Another runner may have begun and committed that attempt after ws was read.
		st, err := d.store.Load(ctx)
		if err != nil {
			return err
		}
		if fresh, found := st.Window(ws.Window); found {
			at, ok = fresh.Attempt(a)
		}
		if !ok {
			return stop("names attempt %d, which the store does not have", a)
		}
	}
	s, err := d.t.Snapshots().Get(ctx, id)
	if err != nil {
		return err
	}
	if cov, want := s.Properties[checkpoint.PropCoverage], checkpoint.CoverageDigest(at.Results); cov != want {
		return stop("carries coverage digest %q, attempt %d's stored results have %q", cov, a, want)
	}
	var added []string
	for e, err := range d.t.DeltaEntries(ctx, s) {
		if err != nil {
			return err
		}
		if e.Kind != manifest.Add {
			return stop("deletes file %s, which a load window never does", e.File.FileName)
		}
		added = append(added, e.File.FileName)
	}
	msgs, err := task.Messages(at.Results...)
	if err != nil {
		return err
	}
	var want []string
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			want = append(want, f.FileName)
		}
	}
	slices.Sort(added)
	slices.Sort(want)
	if !slices.Equal(added, want) {
		return stop("adds %d data files, attempt %d stored %d others: only part of the attempt (or other files) was committed; "+
			"inspect the table by hand", len(added), a, len(want))
	}
	return nil
}

// verifyPublish verifies the marker of a Publish recovery action (an empty window has none).
func (d *driver) verifyPublish(ctx context.Context, ws checkpoint.WindowState, a checkpoint.Action) error {
	if a.SnapshotID == 0 {
		return nil
	}
	return d.verifyMarker(ctx, ws, a.SnapshotID, a.Attempt)
}

// checkFilesBeforeCommit refuses to commit attempt a of window w when one of its data files is
// gone (orphan-file cleanup with a short age limit, scenario 24): the commit would leave a
// dangling manifest entry. Nothing is committed; the rerun's recovery finds the file missing and
// recomputes the window.
func (d *driver) checkFilesBeforeCommit(ctx context.Context, w int64, a int, msgs []table.CommitMessage) error {
	missing, err := d.missingFiles(ctx, msgs)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return fmt.Errorf("job: window %d attempt %d: %d of its data files are gone before the commit (first %s; removed by "+
			"orphan-file cleanup?): nothing was committed; run again to recompute the window", w, a, len(missing), missing[0])
	}
	return nil
}
