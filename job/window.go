package job

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// runWindow runs attempt a of window w: its tasks write files and store their results, then the
// window is committed and published.
func (d *driver) runWindow(ctx context.Context, w checkpoint.Assigned, attempt int) error {
	d.cfg.Metrics.SetWindow(w.Window)
	if err := d.evolve(ctx, w); err != nil {
		return err
	}
	if err := d.checkSchema(ctx); err != nil {
		return err
	}
	tasks := d.tasks(w, attempt)
	if d.ids.col >= 0 {
		// Rows whose id an earlier window published are skipped (read-only while tasks run).
		d.ids.filter = task.NewIDFilter(d.ids.col, d.publishedIDs(w.Window))
	}
	rows, err := d.runTasks(ctx, tasks)
	if err != nil {
		return err
	}
	d.rows += rows
	d.res.RowsWritten += rows
	// Only window w changed since the state was loaded (by this driver): read it alone, checked.
	st, err := d.store.LoadWindow(ctx, d.st, w.Window)
	if err != nil {
		return err
	}
	d.st = st
	ws, _ := st.Window(w.Window)
	return d.mode.endWindow(ctx, ws, attempt)
}

// tasks cuts the window's splits into at most Parallelism contiguous groups of similar size and
// gives each split the first sequence number of its rows: base + the spans of the splits before it.
func (d *driver) tasks(w checkpoint.Assigned, attempt int) []task.Input {
	var total int64
	for _, i := range w.Splits {
		total += plan.EstimatedRows(d.plan[i])
	}
	tasks := d.cfg.Parallelism
	if !d.cfg.SplitTasks || dynamicBucket(d.t) {
		tasks = 1 // one task per window: its rows go to one writer per (partition, bucket); see dynamic_bucket.go
	}
	per := max(total/int64(tasks), 1)
	var out []task.Input
	cur := task.Input{Window: w.Window, Attempt: attempt}
	var curRows int64
	seq := w.SequenceBase
	for _, i := range d.st.InInputOrder(w.Splits) {
		s := d.plan[i]
		cur.Splits = append(cur.Splits, task.SplitInWindow{Index: i, Split: s, FirstSeq: seq})
		seq += plan.Span(s)
		curRows += plan.EstimatedRows(s)
		if curRows >= per && len(out) < tasks-1 {
			out = append(out, cur)
			cur = task.Input{Window: w.Window, Attempt: attempt, Task: len(out)}
			curRows = 0
		}
	}
	if len(cur.Splits) > 0 {
		out = append(out, cur)
	}
	return out
}

// runAndStore runs one task and stores its result; only a stored result counts.
func (d *driver) runAndStore(ctx context.Context, in task.Input) (int64, error) {
	out, err := task.Write(ctx, task.Writing{Source: d.cfg.Source, Table: d.t, Mapping: d.cfg.mapping, Transform: d.cfg.Transform,
		IDs: d.ids.filter, Metrics: d.cfg.Metrics, PerTask: d.cfg.Parallelism, SplitTasks: d.cfg.SplitTasks}, in)
	if err != nil {
		return 0, err
	}
	if err := d.cfg.hook(ctx, PointTaskWritten, in.Window); err != nil {
		return 0, err
	}
	taskID := task.ID(in.Task)
	if err := task.WriteQuarantine(ctx, d.store, in.Window, in.Attempt, taskID, out.Rejected); err != nil {
		return 0, err
	}
	r, err := task.StoredResult(in, taskID, out)
	if err == nil {
		_, err = d.store.WriteResult(ctx, r)
	}
	if err != nil {
		return 0, fmt.Errorf("store result of window %d task %d: %w", in.Window, in.Task, err)
	}
	return out.Rows, d.cfg.hook(ctx, PointResultStored, in.Window)
}

// commitWindow commits attempt a of window ws (unless its marker is found), verifies that exactly one
// marker exists, records it, and publishes the coverage of the attempt named in the marker.
// knownLast is the newest attempt of the window when this runner decided to commit it (fence).
func (d *driver) commitWindow(ctx context.Context, ws checkpoint.WindowState, a, knownLast int) error {
	w := ws.Window
	at, ok := ws.Attempt(a)
	if !ok {
		return fmt.Errorf("job: window %d has no attempt %d", w, a)
	}
	if c := checkpoint.CheckCover(ws.Assigned.Splits, at.Results); c.Status != checkpoint.CoverExact {
		return fmt.Errorf("job: results of window %d attempt %d do not cover its splits exactly (%v)", w, a, c.Status)
	}
	msgs, err := task.Messages(at.Results...)
	if err != nil {
		return err
	}
	if err := d.cfg.hook(ctx, PointBeforeCommit, w); err != nil {
		return err
	}
	if err := d.checkSchema(ctx); err != nil {
		return err
	}
	if err := d.checkResultSchemas(w, at.Results); err != nil {
		return err
	}
	// A runner paused before this point may find the job moved on: stop before anything is written.
	fc := fence{d: d, window: w, knownLast: knownLast}
	if err := fc.check(ctx); err != nil {
		return err
	}
	if !hasFiles(msgs) {
		// An empty window publishes without a snapshot.
		if err := d.store.WriteCommitted(ctx, checkpoint.Committed{Window: w, SnapshotID: 0, Attempt: a, Time: d.cfg.Now().UTC()}); err != nil {
			return raced(err, w, "committed")
		}
		return d.afterCommitted(ctx, w, a)
	}
	q := table.CommitQuery{User: d.job.CommitUser, Identifier: w, Kind: spec.CommitKindAppend}
	// Look the window up before pinning: a window already committed (by another runner while this
	// one was stopped) needs neither a pin nor a commit, and a pin written after that runner finished
	// the job and dropped its pin would hold back snapshot expiry for good.
	floor, commits, err := d.lookupWindow(ctx, w, ws.Assigned) // stops when the range after floor is incomplete
	if err != nil {
		return err
	}
	prior, err := d.windowMarkers(w, commits)
	if err != nil {
		return err
	}
	alreadyCommitted := len(prior) > 0
	if !alreadyCommitted {
		if err := d.checkFilesBeforeCommit(ctx, w, a, msgs); err != nil {
			return err
		}
		if err := d.pin(ctx, floor); err != nil {
			return err
		}
		props := checkpoint.CommitProperties(d.job, w, a, checkpoint.CoverageDigest(at.Results))
		var res commit.Result
		err := timedCommit(d.cfg.Metrics, func() (err error) {
			res, err = commit.Commit(ctx, d.t, msgs, commit.Options{
				User: d.job.CommitUser, Identifier: w, Kind: spec.CommitKindAppend, Properties: props,
				LookupAfter:    floor,
				BeforeSnapshot: func(int64) error { return d.beforeSnapshot(ctx, fc, floor) },
			})
			return err
		})
		if err != nil {
			if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
				// Interrupted (Ctrl-C): say so in a way callers can test, whatever the commit reported.
				return fmt.Errorf("commit window %d: %w (interrupted: %w)", w, err, cerr)
			}
			return d.recomputeAfterIndexConflict(ctx, ws, a, fmt.Errorf("commit window %d: %w", w, err))
		}
		alreadyCommitted = res.AlreadyCommitted
	}
	if err := d.cfg.hook(ctx, PointAfterCommit, w); err != nil {
		return err
	}
	// Verify: exactly one marker, and publish the attempt it names (it may be another attempt's, I5).
	found, err := d.t.Snapshots().FindCommits(ctx, q, floor)
	if err != nil {
		return err
	}
	if len(found) != 1 {
		return fmt.Errorf("job: window %d has %d snapshots with commit user %s after committing; expected exactly one — stop and inspect the table",
			w, len(found), d.job.CommitUser)
	}
	committedAttempt, err := strconv.Atoi(found[0].Properties[checkpoint.PropAttempt])
	if err != nil {
		return fmt.Errorf("job: snapshot %d of window %d does not name its attempt: %w", found[0].ID, w, err)
	}
	if committedAttempt != a {
		// Another runner committed the window (a stopped driver that resumed, or one this run took
		// over from): its attempt's results may have been stored after ws was loaded.
		st, err := d.store.Load(ctx)
		if err != nil {
			return err
		}
		d.st = st
		ws, _ = st.Window(w)
	}
	if err := d.verifyMarker(ctx, ws, found[0].ID, committedAttempt); err != nil {
		return err
	}
	if err := d.store.WriteCommitted(ctx, checkpoint.Committed{Window: w, SnapshotID: found[0].ID, Attempt: committedAttempt, Time: d.cfg.Now().UTC()}); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return fmt.Errorf("window %d was recorded as committed by another runner of job %s (only one runner may run a job): %w", w, d.cfg.Name, err)
		}
		return err
	}
	d.res.LastSnapshotID = found[0].ID
	if !alreadyCommitted && committedAttempt == a {
		d.cfg.Metrics.AddBytesWritten(fileBytes(msgs))
	}
	d.cfg.Logger.Info("window committed", "window", w, "attempt", committedAttempt, "snapshot", found[0].ID,
		"files", countFiles(msgs), "already_committed", alreadyCommitted)
	return d.afterCommitted(ctx, w, committedAttempt)
}

// beforeSnapshot runs after a commit attempt's manifests are written, immediately before its snapshot
// is created: the inside-commit hook (where a test pauses or kills the runner), then the fence and
// the lookup range again, since this runner may have been stopped here while the job moved on.
func (d *driver) beforeSnapshot(ctx context.Context, fc fence, floor int64) error {
	if err := d.cfg.hook(ctx, PointInsideCommit, fc.window); err != nil {
		return err
	}
	if err := fc.check(ctx); err != nil {
		return err
	}
	return d.lookupComplete(ctx, fc.window, floor) // Commit looked the window up just before
}

func (d *driver) afterCommitted(ctx context.Context, w int64, a int) error {
	if d.comp.on() { // compact.go; deletion-vector/first-row tables: before publishing
		msgs, err := d.windowMessages(ctx, w, a)
		if err != nil {
			return err
		}
		if err := d.comp.window(ctx, w, msgs); err != nil {
			return err
		}
	}
	if err := d.cfg.hook(ctx, PointBeforePublish, w); err != nil {
		return err
	}
	st, err := d.store.LoadWindow(ctx, d.st, w)
	if err != nil {
		return err
	}
	d.st = st
	ws, _ := st.Window(w)
	if err := d.publish(ctx, ws, a); err != nil {
		return err
	}
	if at, ok := ws.Attempt(a); ok {
		for _, r := range at.Results {
			d.res.RowsQuarantined += r.Quarantined
		}
	}
	if d.st, err = d.store.LoadWindow(ctx, d.st, w); err != nil {
		return err
	}
	d.res.WindowsCommitted++
	d.cfg.Metrics.WindowCommitted()
	d.report(w)
	return d.cfg.hook(ctx, PointAfterPublish, w)
}

// publish records the coverage of attempt a of window ws as done (I5: a is the committed attempt).
func (d *driver) publish(ctx context.Context, ws checkpoint.WindowState, a int) error {
	at, ok := ws.Attempt(a)
	if !ok {
		return fmt.Errorf("job: window %d has no attempt %d to publish", ws.Window, a)
	}
	var rows, quarantined int64
	for _, r := range at.Results {
		rows += r.Rows
		quarantined += r.Quarantined
	}
	// The ids published are those of attempt a only, the attempt the table's marker names (I5).
	err := d.store.WritePublished(ctx, checkpoint.Published{Window: ws.Window, Attempt: a, Splits: sortedUnion(at.Results),
		IDs: publishedOf(at.Results), Rows: rows, Quarantined: quarantined, Digest: checkpoint.CoverageDigest(at.Results), Time: d.cfg.Now().UTC()})
	if err != nil {
		return raced(err, ws.Window, "published")
	}
	if c := ws.Committed; c != nil && c.SnapshotID > 0 && d.mode.commitsWindows() {
		// Advance the pin to this window's marker: expiry may now remove what is older (the marker
		// stays: the next window's commit may build on it). Not in an overwrite job: its
		// windows share the final snapshot, which recovery needs until every window is published and
		// the job is done (finish drops the pin).
		if err := d.pin(ctx, c.SnapshotID); errors.Is(err, ErrOvertaken) {
			return err
		} else if err != nil && !errors.Is(err, context.Canceled) {
			d.cfg.Logger.Warn("advance consumer pin", "err", err)
		}
	}
	return nil
}

func hasFiles(msgs []table.CommitMessage) bool {
	for _, m := range msgs {
		if !m.IsEmpty() {
			return true
		}
	}
	return false
}

func countFiles(msgs []table.CommitMessage) int {
	n := 0
	for _, m := range msgs {
		n += len(m.NewFiles)
	}
	return n
}

// report logs progress and calls the Progress callback.
func (d *driver) report(w int64) {
	var published int64
	splitsDone := 0
	var windowsDone int64
	for _, ws := range d.st.Windows() {
		if ws.Published != nil {
			published += ws.Published.Rows
			splitsDone += len(ws.Published.Splits)
			windowsDone++
		}
	}
	el := d.cfg.Now().Sub(d.started).Seconds()
	var estimated int64
	dropped := d.st.Dropped() // re-planned splits that are never loaded
	for i, s := range d.plan {
		if _, gone := slices.BinarySearch(dropped, i); !gone {
			estimated += d.estimates.Rows(s)
		}
	}
	total := len(d.plan) - len(dropped)
	p := Progress{Window: w, WindowsDone: windowsDone, RowsPublished: published, SplitsDone: splitsDone,
		SplitsTotal: total, RowsEstimated: max(estimated, published), LastSnapshotID: d.res.LastSnapshotID}
	if w == 0 && splitsDone == total {
		p.RowsEstimated = published // the final report: every row is counted now
	}
	if el > 0 {
		p.RowsPerSecond = float64(d.rows) / el
		d.cfg.Metrics.SetRowsPerSecond(p.RowsPerSecond)
	}
	if d.cfg.Progress != nil {
		d.cfg.Progress(p)
	}
}

// ErrSchemaChanged is returned (wrapped) when the table's schema changes while a job runs.
var ErrSchemaChanged = errors.New("table schema changed during the job")

// checkSchema stops the job when the table got a new schema since the job opened it: files written
// for the old schema must not be committed under the new one.
func (d *driver) checkSchema(ctx context.Context) error {
	latest, err := d.t.Schemas().Latest(ctx)
	if err != nil {
		return err
	}
	if latest.ID != d.t.Schema.ID {
		return fmt.Errorf("%w: %s moved from schema %d to %d; check the change is compatible with the input, then run the load again to continue "+
			"under the new schema", ErrSchemaChanged, d.t.Path, d.t.Schema.ID, latest.ID)
	}
	return nil
}

// raced explains a write-once record that another runner wrote first: the job is safe, this runner
// stops and a rerun continues from what the other runner recorded.
func raced(err error, w int64, record string) error {
	if errors.Is(err, fileio.ErrExist) {
		return fmt.Errorf("window %d was recorded as %s by another runner of this job meanwhile; this runner stops, run the load again to continue: %w", w, record, err)
	}
	return err
}

// windowMessages returns the commit messages of attempt a of window w.
func (d *driver) windowMessages(ctx context.Context, w int64, a int) ([]table.CommitMessage, error) {
	ws, _ := d.st.Window(w)
	at, ok := ws.Attempt(a)
	if !ok {
		st, err := d.store.Load(ctx)
		if err != nil {
			return nil, err
		}
		d.st = st
		ws, _ = st.Window(w)
		if at, ok = ws.Attempt(a); !ok {
			return nil, fmt.Errorf("job: window %d has no attempt %d to compact", w, a)
		}
	}
	return task.Messages(at.Results...)
}
