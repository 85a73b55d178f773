package job

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// ErrAborted is returned (wrapped) by Run for a job ended with Abort.
var ErrAborted = errors.New("job aborted")

// Version is recorded in job.json.
var Version = "dev"

// Result summarises a run.
type Result struct {
	AlreadyDone      bool  // the job had finished before this run
	Recovered        int   // recovery actions run
	WindowsCommitted int64 // windows committed or published by this run (empty windows and recovered ones included)
	RowsWritten      int64 // input rows written by this run
	RowsQuarantined  int64 // input rows left out by this run (BadRowsQuarantine), in windows it published
	Windows          int64 // windows of the job in all
	LastSnapshotID   int64
	DryRun           *plan.DryRunReport // set by a dry run, which writes nothing
	// Incremental jobs: the job's current generation, the new files this run planned as generations,
	// and loaded files found changed or gone (reported, not reloaded).
	Generation int
	NewFiles   int
	Changed    []checkpoint.FileChange
	// OverwriteSnapshot is the OVERWRITE snapshot of an overwrite job (0: none, or nothing replaced).
	OverwriteSnapshot int64
	Compactions       int // COMPACT snapshots this run committed (Config.Compaction, compact.go)
	// Bounded: the run stopped at Config.Bound before the job was done; run again to continue.
	Bounded bool
}

// driver holds the state of one run.
type driver struct {
	cfg   Config
	mode  mode // what kind of job: append or overwrite (mode.go)
	t     *table.Table
	store *checkpoint.Store
	job   checkpoint.JobRecord
	plan  []source.Split
	// estimates are sampled row estimates of the plan's uncut text files, for progress (plan.Sample).
	estimates plan.Estimates
	st        checkpoint.State
	res       Result
	seq       sequences // the sequence numbers reserved and seen (sequences.go)
	ids       rowIDs    // row-id mode (rowid.go)
	started   time.Time
	rows      int64
	// indexRecomputes counts recomputes after a dynamic-bucket index conflict per window (dynamic_bucket.go).
	indexRecomputes map[int64]int
	// pinned: this run has set the job's consumer (at its first assignment or commit); until then a
	// window's lookups after its snapshotSeen are protected from expiry by the pin set at assignment.
	pinned bool
	comp   *compaction // compaction during the load (compact.go)
	// leaseToken is the token of the lease this run holds; fences check that the lease is still it.
	leaseToken string
	planned    []source.Split // the input planned before the lease of a job without a plan (planBeforeLease)
}

// Run runs (or resumes) the job described by cfg until every input split is published.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.defaults(); err != nil {
		return Result{}, err
	}
	d := &driver{cfg: cfg, t: cfg.Table, store: cfg.Store, started: cfg.Now(),
		seq: sequences{tableMax: -1, tableMaxAt: -1}, ids: rowIDs{col: -1}}
	d.mode = newMode(d)
	d.comp = newCompaction(&d.cfg, d.t, d.mode.commitsWindows(), &d.res.Compactions)
	if cfg.IDColumn != "" {
		var err error
		if d.ids.col, err = task.IDColumnIndex(cfg.Table.Schema, cfg.IDColumn); err != nil {
			return Result{}, err
		}
	}
	if cfg.DryRun {
		rep, err := d.dryRun(ctx)
		d.res.DryRun = rep
		return d.res, err
	}
	if err := d.planBeforeLease(ctx); err != nil {
		return Result{}, err
	}
	lease, err := d.acquireLease(ctx)
	if err != nil {
		return Result{}, err
	}
	d.leaseToken = lease.Record().Owner.Token
	// Every record this run writes is fenced by its lease: a runner that lost the lease while it was
	// stopped records nothing more, and the runner that took over decides from its own reading.
	d.store = d.store.Fenced(d.checkLease)
	parent := ctx
	ctx, lost := context.WithCancelCause(ctx)
	defer lost(nil)
	stopRenew := d.renewLease(ctx, lease, lost)
	var runErr error
	defer func() {
		stopRenew()
		msg := ""
		if runErr != nil {
			msg = runErr.Error()
		}
		_ = lease.ReleaseWithError(context.WithoutCancel(ctx), msg)
	}()
	runErr = d.comp.end(d.run(ctx))
	if cerr := parent.Err(); runErr != nil && cerr != nil && !errors.Is(runErr, cerr) {
		// A step cancelled mid-way may fail otherwise (a closed pipe, a half-read file): report the interruption.
		runErr = fmt.Errorf("%w (interrupted: %w)", runErr, cerr)
	} else if runErr != nil && parent.Err() == nil && !errors.Is(runErr, ErrOvertaken) && !errors.Is(runErr, ErrAborted) &&
		!errors.Is(runErr, checkpoint.ErrStoreGone) {
		// Whatever the step failed with (cancelled by a lost renewal, a write-once record another
		// runner wrote first, a marker that runner's pin let expire): a runner whose lease was taken
		// while it was stopped was overtaken, and the job is that runner's now (exit 6,
		// docs/protocol.md "Paused runners and expiry"); a runner whose store vanished says so (exit 7).
		if lerr := d.checkLease(context.WithoutCancel(ctx)); errors.Is(lerr, ErrOvertaken) || errors.Is(lerr, checkpoint.ErrStoreGone) {
			runErr = fmt.Errorf("%w (the step in progress failed: %w)", lerr, runErr)
		}
	}
	return d.res, runErr
}

// run opens the job, recovers and loads the remaining input (the lease is held).
func (d *driver) run(ctx context.Context) error {
	if err := d.open(ctx); err != nil {
		return err
	}
	for worked := false; ; worked = true {
		d.res.Generation = d.st.Generation()
		if dr, done := d.st.Done(); done {
			if dr.Aborted {
				return fmt.Errorf("%w: job %s was aborted at %s; forget it ('lakeload job forget') to load the input anew",
					ErrAborted, d.cfg.Name, dr.Time.Format(time.RFC3339))
			}
			started := false
			if d.cfg.Incremental {
				var err error
				if started, err = d.startGeneration(ctx); err != nil {
					return err
				}
			}
			if !started {
				d.res.AlreadyDone = !worked
				d.res.Windows = int64(len(d.st.Windows()))
				return nil
			}
		}
		if err := d.mode.settle(ctx); err != nil || d.res.Bounded || !d.cfg.Incremental {
			return err // overwrite jobs are never incremental (checkModes)
		}
		var err error
		if d.st, err = d.store.Load(ctx); err != nil {
			return err
		}
	}
}

func (d *driver) acquireLease(ctx context.Context) (*checkpoint.Lease, error) {
	host, _ := os.Hostname()
	return d.store.AcquireLease(ctx, d.leaseOptions(host, uuid.NewString())) // lease_policy.go
}

func pid() int { return os.Getpid() }

// HolderAlive tells whether the holder of a job's lease is still running: known only for a holder
// on this host (its pid is probed); a holder on another host is unknown (known = false).
func HolderAlive(o checkpoint.LeaseOwner) (alive, known bool) {
	host, _ := os.Hostname()
	return processAlive(host)(o)
}

// processAlive tells whether a lease holder on this host is still running.
func processAlive(host string) func(checkpoint.LeaseOwner) (bool, bool) {
	return func(o checkpoint.LeaseOwner) (bool, bool) {
		if o.Host != host || o.PID <= 0 {
			return false, false
		}
		err := syscall.Kill(o.PID, 0)
		return err == nil || errors.Is(err, syscall.EPERM), true
	}
}

// renewLease renews l every leaseRenewEvery until stop is called. When another runner took the lease
// (ErrLeaseLost) it cancels the run through lost with an ErrOvertaken cause, and when the store
// vanished (checkpoint.ErrStoreGone) with that, so the run stops at its next step; the fences before every commit (fence.go) do not depend on this timing. Other renewal
// failures (an unreachable store) are logged and retried.
func (d *driver) renewLease(ctx context.Context, l *checkpoint.Lease, lost context.CancelCauseFunc) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(d.leaseRenewEvery())
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				err := l.Renew(ctx)
				if errors.Is(err, checkpoint.ErrLeaseLost) {
					d.cfg.Logger.Error("lease lost to another runner: stopping", "err", err)
					lost(fmt.Errorf("%w: %w; this runner stops without committing (nothing is lost)", ErrOvertaken, err))
					return
				}
				if errors.Is(err, checkpoint.ErrStoreGone) { // the run stops at its next step, Run reports why
					d.cfg.Logger.Error("checkpoint store vanished: stopping", "err", err)
					lost(err)
					return
				}
				if err != nil && ctx.Err() == nil {
					d.cfg.Logger.Warn("lease renewal failed; trying again", "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// planBeforeLease plans the input of a job that has no plan yet, before the lease is taken: taking
// the lease creates the store, so a run whose input cannot be planned (a glob matching nothing, a
// Parquet footer that cannot be read) fails before it and leaves no store that would list as a job
// for ever. open uses the splits; nothing is written here. Like Run, it reports a cancellation as such.
func (d *driver) planBeforeLease(ctx context.Context) error {
	st, err := d.store.Load(ctx)
	if err == nil {
		if _, hasPlan := st.Plan(); !hasPlan {
			d.planned, err = d.planSplits(ctx)
		}
	}
	if cerr := ctx.Err(); err != nil && cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (interrupted: %w)", err, cerr)
	}
	return err
}

// open loads the store, creating the job and its plan on the first run, and checks the table's
// identity (a table dropped and created again refuses every run, finished or not) and the input.
func (d *driver) open(ctx context.Context) error {
	st, err := d.store.Load(ctx)
	if err != nil {
		return err
	}
	tableID, err := d.t.Identity(ctx)
	if err != nil {
		return err
	}
	job, hasJob := st.Job()
	run := checkpoint.JobRecord{JobID: d.cfg.Name, TablePath: d.t.Path, TableUUID: tableID, Options: d.resultOptions(),
		LakeloadVersion: Version, Created: d.cfg.Now().UTC()}
	if hasJob {
		// The plan is fixed when the job is created; its files are checked one by one below.
		run.InputFingerprint = job.InputFingerprint
		if _, ok := job.Options["time-zone"]; !ok && run.Options["time-zone"] == time.UTC.String() {
			delete(run.Options, "time-zone") // a library job created without a zone (nil read as UTC)
		}
		if err := job.Compatible(run); err != nil {
			return err
		}
	}
	pr, hasPlan := st.Plan()
	if !hasPlan {
		splits := d.planned // planBeforeLease
		if splits == nil {
			if splits, err = d.planSplits(ctx); err != nil {
				return err
			}
		}
		if !hasJob {
			run.CommitUser = "lakeload-" + uuid.NewString()
			run.InputFingerprint = plan.Fingerprint(splits)
			if err := d.store.WriteJob(ctx, run); err != nil {
				if errors.Is(err, fileio.ErrExist) {
					return fmt.Errorf("another runner created this job at the same time (%w); run again to resume", err)
				}
				return err
			}
			job = run
		}
		stored, err := plan.EncodeSplits(splits)
		if err != nil {
			return err
		}
		if err := d.store.WritePlan(ctx, checkpoint.PlanRecord{Splits: stored}); err != nil && !errors.Is(err, fileio.ErrExist) {
			return err
		}
		if st, err = d.store.Load(ctx); err != nil {
			return err
		}
		pr, _ = st.Plan()
		if err := d.cfg.hook(ctx, PointPlanned, 0); err != nil {
			return err
		}
	}
	if d.plan, err = plan.DecodeSplits(pr.Splits); err != nil {
		return err
	}
	d.estimates = plan.Sample(ctx, d.cfg.InputFS, d.plan)
	d.job, d.st = job, st
	if err := d.completeGeneration(ctx); err != nil {
		return err
	}
	// Every split assigned to a live window must still be the file it was (its rows may be committed).
	// Incremental jobs skip published windows: their files are done, and a change is only reported.
	skipPublished := d.cfg.Incremental || d.st.Generation() > 1
	var assigned []int
	for _, ws := range d.st.Windows() {
		if ws.Voided == nil && (ws.Published == nil || !skipPublished) {
			assigned = append(assigned, ws.Assigned.Splits...)
		}
	}
	return plan.CheckFingerprints(ctx, d.cfg.InputFS, d.plan, assigned)
}

// resultOptions are the options that change what a job writes; a resumed run must use the same.
func (d *driver) resultOptions() map[string]string {
	m := d.cfg.mapping
	o := map[string]string{"format": d.cfg.Format, "op-column": m.OpColumn,
		"ignore-extra-columns": strconv.FormatBool(m.IgnoreExtra), "from": d.cfg.fromOption()}
	if d.cfg.IDColumn != "" {
		o["id-column"] = d.cfg.IDColumn // absent when off, so jobs created before row-id mode still resume
	}
	if d.cfg.Overwrite != "" {
		o["overwrite"] = d.cfg.Overwrite // absent when off, like id-column
	}
	if m.TimeZone != nil {
		o["time-zone"] = m.TimeZone.String()
	}
	if d.cfg.BadRows == BadRowsQuarantine {
		o["bad-rows"] = d.cfg.BadRows // absent when failing, so older jobs still resume
	}
	for k, v := range csvOptions(m.CSV) {
		o[k] = v
	}
	return o
}

// recover runs the recovery plan and returns the splits left to assign and the next window number.
func (d *driver) recover(ctx context.Context) ([]int, int64, error) {
	tv, err := gatherTableView(ctx, d.st, d.t.Snapshots(), d.missingFiles)
	if err != nil {
		return nil, 0, err
	}
	plan, err := checkpoint.DecideWith(d.st, tv, checkpoint.DecideOptions{RecomputeWindows: d.cfg.RecomputeWindows})
	if err != nil {
		return nil, 0, err
	}
	if err := plan.Stopped(); err != nil {
		return nil, 0, err
	}
	for _, ws := range d.st.Windows() {
		d.reserve(ws.Assigned)
	}
	voided := false
	for _, a := range plan.Actions {
		if err := d.cfg.hook(ctx, PointRecoveryAction, a.Window); err != nil {
			return nil, 0, err
		}
		if err := d.checkLease(ctx); err != nil { // decided before a stop, maybe: not ours to act on any more
			return nil, 0, err
		}
		d.cfg.Logger.Info("recovery", "action", a.String(), "reason", a.Reason)
		ws, _ := d.st.Window(a.Window)
		switch a.Kind {
		case checkpoint.Publish:
			if err = d.verifyPublish(ctx, ws, a); err == nil {
				err = d.afterCommitted(ctx, a.Window, a.Attempt) // publish, with the publish hooks
			}
		case checkpoint.WriteCommittedThenPublish:
			if err = d.verifyMarker(ctx, ws, a.SnapshotID, a.Attempt); err != nil {
				break
			}
			if err = raced(d.store.WriteCommitted(ctx, checkpoint.Committed{Window: a.Window, SnapshotID: a.SnapshotID, Attempt: a.Attempt, Time: d.cfg.Now().UTC()}), a.Window, "committed"); err == nil {
				err = d.afterCommitted(ctx, a.Window, a.Attempt)
			}
		case checkpoint.Commit:
			err = d.commitWindow(ctx, ws, a.Attempt, ws.LastAttempt())
		case checkpoint.Recompute:
			if err = d.store.WriteAttemptStart(ctx, checkpoint.AttemptStart{Window: a.Window, Attempt: a.Attempt, Reason: a.Reason, Created: d.cfg.Now().UTC()}); err == nil {
				err = d.runWindow(ctx, ws.Assigned, a.Attempt)
			}
		case checkpoint.Void:
			err = d.store.WriteVoided(ctx, checkpoint.Voided{Window: a.Window, Reason: a.Reason, Created: d.cfg.Now().UTC()})
			voided = true
		default:
			err = fmt.Errorf("job: unexpected recovery action %s", a)
		}
		if err != nil {
			return nil, 0, err
		}
		d.res.Recovered++
		d.cfg.Metrics.RecoveryAction(recoveryLabel(a.Kind))
	}
	if voided {
		// plan.Remaining was computed before the voids ran: reload, so the splits of the voided
		// windows are loaded again as new windows instead of being dropped.
		if d.st, err = d.store.Load(ctx); err != nil {
			return nil, 0, err
		}
		return d.st.Remaining(), plan.NextWindow, nil
	}
	return plan.Remaining, plan.NextWindow, nil
}

// missingFiles is gatherTableView's fileChecker, with the table's path factory.
func (d *driver) missingFiles(ctx context.Context, msgs []table.CommitMessage) ([]string, error) {
	paths := d.t.NewPaths()
	var missing []string
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			p, err := paths.DataFile(m.Partition, m.Bucket, f.FileName, f.ExternalPath)
			if err != nil {
				return nil, err
			}
			ok, err := fileio.Exists(ctx, d.t.FS, p)
			if err != nil {
				return nil, err
			}
			if !ok {
				missing = append(missing, p)
			}
		}
		for _, f := range m.NewIndexFiles { // HASH / deletion-vector files the commit would reference
			p, err := index.FilePath(d.t, f)
			if err != nil {
				return nil, err
			}
			ok, err := fileio.Exists(ctx, d.t.FS, p)
			if err != nil {
				return nil, err
			}
			if !ok {
				missing = append(missing, p)
			}
		}
	}
	return missing, nil
}

func (d *driver) reserve(a checkpoint.Assigned) {
	var n int64
	for _, i := range a.Splits {
		n += plan.Span(d.plan[i])
	}
	d.seq.last = max(d.seq.last, a.SequenceBase+n-1)
}

// load assigns the remaining splits to windows in input order and runs each window to publication.
// Before a window is assigned, the files of its splits are checked; replaced files not yet assigned
// are re-planned (replan) and the window is picked again.
func (d *driver) load(ctx context.Context, remaining []int, next int64) error {
	rowsPerWindow := d.cfg.CommitRows
	for len(remaining) > 0 {
		if d.boundReached() {
			return errBounded
		}
		var take []int
		var rows int64
		rest := remaining
		for len(rest) > 0 && (len(take) == 0 || rows < rowsPerWindow) {
			take = append(take, rest[0])
			rows += plan.EstimatedRows(d.plan[rest[0]])
			rest = rest[1:]
		}
		revised, err := d.replan(ctx, take)
		if err != nil {
			return err
		}
		if revised {
			remaining = d.st.Remaining()
			continue
		}
		remaining = rest
		// A window boundary: a store deleted under the run stops it here, before it assigns more.
		if err := d.store.CheckPresent(ctx); err != nil {
			return err
		}
		slices.Sort(take) // assigned records name splits ascending; tasks follow the input order
		a, err := d.assign(ctx, next, take)
		if err != nil {
			return err
		}
		start := d.cfg.Now()
		if err := d.runWindow(ctx, a, a.Attempt); err != nil {
			return d.voidAfterInputError(ctx, a, err)
		}
		if d.cfg.CommitEvery > 0 {
			if el := d.cfg.Now().Sub(start); el > 0 {
				rowsPerWindow = max(int64(float64(rows)*float64(d.cfg.CommitEvery)/float64(el)), 1)
			}
		}
		next++
	}
	return nil
}

// assign persists window w (its splits, sequence base and the snapshot seen) before any task runs.
func (d *driver) assign(ctx context.Context, w int64, splits []int) (checkpoint.Assigned, error) {
	latest, err := d.latestPinned(ctx)
	if err != nil {
		return checkpoint.Assigned{}, err
	}
	var seen int64
	var seenList string
	if latest != nil {
		seen, seenList = latest.ID, latest.DeltaManifestList
		if err := d.refreshTableMax(ctx, latest); err != nil {
			return checkpoint.Assigned{}, err
		}
	}
	if d.ids.col >= 0 {
		// One extra read of the id column per window: duplicates are found before anything is written.
		if err := d.checkWindowIDs(ctx, w, splits); err != nil {
			return checkpoint.Assigned{}, err
		}
	}
	base, err := d.sequenceBase(ctx, w, splits) // reserves the window's range when shared (sequences.go, job/seqreserve)
	if err != nil {
		return checkpoint.Assigned{}, err
	}
	a := checkpoint.Assigned{Window: w, Splits: splits, SequenceBase: base,
		SnapshotSeen: seen, SeenList: seenList, Attempt: 1, Created: d.cfg.Now().UTC()}
	if err := d.store.WriteAssigned(ctx, a); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return a, fmt.Errorf("window %d was assigned by another runner of job %s: only one runner may run a job: %w", w, d.cfg.Name, err)
		}
		return a, err
	}
	d.reserve(a)
	d.cfg.Metrics.SetWindow(w)
	return a, d.cfg.hook(ctx, PointAssigned, w)
}

// latestPinned reads the latest snapshot, the next window's snapshotSeen S, and, for the first window
// of a run (and every window of an overwrite job), pins the job's consumer at S before the window is
// recorded: the window's marker (and an overwrite's final snapshot) is looked up after S and its
// commit builds on S or later, so expiry must not pass S (pin.go). Later windows of a run are covered
// by the pin each publish moves to its own marker (≤ the next window's S). Pinned only after the
// assigned record, a runner stopped in between (a GC stall) found S+1 expired by the time it woke,
// and the job stopped for good with "cannot be verified" (TestFirstWindowPinnedBeforeItIsAssigned).
// When expiry passed S before the pin was written (the pin is clamped to the earliest snapshot), the
// latest is read again.
func (d *driver) latestPinned(ctx context.Context) (*spec.Snapshot, error) {
	for {
		latest, err := d.t.Snapshots().Latest(ctx)
		if err != nil || (d.pinned && d.mode.commitsWindows()) {
			return latest, err
		}
		var seen int64
		if latest != nil {
			seen = latest.ID
		}
		if err := d.checkLease(ctx); err != nil { // a runner that was overtaken pins nothing
			return nil, err
		}
		if err := d.pin(ctx, seen); err != nil {
			return nil, err
		}
		earliest, ok, err := d.t.Snapshots().EarliestID(ctx)
		if err != nil {
			return nil, err
		}
		if !ok || earliest <= max(seen, 1) {
			d.pinned = true
			return latest, nil
		}
	}
}

// refreshTableMax brings tableMax up to snapshot latest: the first time from all live files, then
// from the delta manifests of the snapshots committed since (foreign writers included), so a long
// job does not reread the whole table for every window.
func (d *driver) refreshTableMax(ctx context.Context, latest *spec.Snapshot) error {
	if d.seq.tableMaxAt < 0 {
		live, err := d.t.LiveFiles(ctx, latest)
		if err != nil {
			return err
		}
		for _, e := range live {
			d.seq.tableMax = max(d.seq.tableMax, e.File.MaxSequenceNumber)
		}
		d.seq.tableMaxAt = latest.ID
		return nil
	}
	snaps := d.t.Snapshots()
	for id := d.seq.tableMaxAt + 1; id <= latest.ID; id++ {
		s, err := snaps.Get(ctx, id)
		if errors.Is(err, fileio.ErrNotExist) {
			d.seq.tableMaxAt = -1 // expired meanwhile: read the live files instead
			return d.refreshTableMax(ctx, latest)
		}
		if err != nil {
			return err
		}
		for e, err := range d.t.DeltaEntries(ctx, s) {
			if err != nil {
				return err
			}
			d.seq.tableMax = max(d.seq.tableMax, e.File.MaxSequenceNumber)
		}
	}
	d.seq.tableMaxAt = latest.ID
	return nil
}

// finish marks the job done and releases the table's consumer pin.
func (d *driver) finish(ctx context.Context) error {
	st, err := d.store.Load(ctx)
	if err != nil {
		return err
	}
	d.res.Windows = int64(len(st.Windows()))
	if err := d.store.WriteDone(ctx, checkpoint.DoneRecord{JobID: d.cfg.Name, Windows: d.res.Windows, Time: d.cfg.Now().UTC(),
		Generation: generationOf(st)}); err != nil && !errors.Is(err, fileio.ErrExist) {
		return err
	}
	d.report(0)
	return unpin(ctx, d.t, d.cfg.Name)
}

func sortedUnion(results []checkpoint.TaskResult) []int {
	var out []int
	for _, r := range results {
		out = append(out, r.Splits...)
	}
	slices.Sort(out)
	return out
}

// planSplits returns Config.Splits, or plans the input glob.
func (d *driver) planSplits(ctx context.Context) ([]source.Split, error) {
	if d.cfg.Splits != nil {
		return d.cfg.Splits, nil
	}
	splits, err := plan.Input(ctx, d.cfg.InputFS, d.cfg.From, d.cfg.Format, d.splitRows(), d.cfg.mapping)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, &InputError{Err: err}
	}
	return splits, nil
}

// splitRows is the row count a split aims at (Parquet and uncompressed text files).
func (d *driver) splitRows() int64 {
	return max(d.cfg.CommitRows/int64(max(2*d.cfg.Parallelism, 1)), 1024)
}

// Abort ends a job that will not be finished: it takes the lease (failing if a live runner holds it,
// unless takeover), releases the job's snapshot pin and records the job as aborted. Windows already
// committed stay in the table; a later Run of the job refuses to continue.
func Abort(ctx context.Context, t *table.Table, store *checkpoint.Store, name string, takeover bool) error {
	d := &driver{cfg: Config{Spec: Spec{Name: name, Takeover: takeover}, Table: t, Store: store}, t: t, store: store}
	d.mode = newMode(d)
	if err := CheckName(name); err != nil {
		return specError{fmt.Errorf("--job: %w", err)}
	}
	if t == nil || store == nil {
		return fmt.Errorf("job: table and checkpoint store are required")
	}
	d.cfg.fill()
	// Taking the lease creates the store: look for the job first, so aborting an unknown job creates nothing.
	if st, err := store.Load(ctx); err != nil {
		return err
	} else if _, ok := st.Job(); !ok {
		return checkpoint.NoJobError("no job %s in %s: check --job and --checkpoint ('lakeload jobs list' shows the table's jobs in the default location)", name, store.Root())
	}
	lease, err := d.acquireLease(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = lease.Release(context.WithoutCancel(ctx)) }()
	st, err := store.Load(ctx)
	if err != nil {
		return err
	}
	if _, ok := st.Job(); !ok { // forgotten meanwhile
		return checkpoint.NoJobError("no job %s in %s: check --job and --checkpoint ('lakeload jobs list' shows the table's jobs in the default location)", name, store.Root())
	}
	if dr, done := st.Done(); done {
		if dr.Aborted {
			return nil
		}
		return fmt.Errorf("job %s already finished; nothing to abort", name)
	}
	if err := unpin(ctx, t, name); err != nil {
		return err
	}
	return store.WriteDone(ctx, checkpoint.DoneRecord{JobID: name, Windows: int64(len(st.Windows())), Time: d.cfg.Now().UTC(), Aborted: true,
		Generation: generationOf(st)})
}

// Forget removes what lakeload keeps about a job: its snapshot pin (if t is not nil) and its checkpoint
// store. Committed windows stay in the table. It refuses while a live runner on this host (or any
// runner on another host) holds the job's lease, and it removes nothing unless the store is the job's
// own (checkpoint.Store.CheckRemovable: its job.json names job name of the table at tablePath); then
// it deletes only the files the store's layout names and the job's quarantine files
// (checkpoint.Store.Remove), reporting anything else it left.
func Forget(ctx context.Context, t *table.Table, tablePath string, store *checkpoint.Store, name string) (checkpoint.Removal, error) {
	if err := CheckIdle(ctx, store, name); err != nil {
		return checkpoint.Removal{}, err
	}
	if err := store.CheckRemovable(ctx, name, tablePath); err != nil {
		return checkpoint.Removal{}, err
	}
	if t != nil {
		if err := unpin(ctx, t, name); err != nil {
			return checkpoint.Removal{}, err
		}
	}
	return store.Remove(ctx, name, tablePath, checkpoint.Owned{task.QuarantineSubdir: task.IsQuarantineFile})
}

// CheckIdle returns an error naming the holder when a live runner on this host (or any runner on
// another host) holds the lease of job name; Forget refuses such a job.
func CheckIdle(ctx context.Context, store *checkpoint.Store, name string) error {
	if l, ok, err := store.CurrentLease(ctx); err == nil && ok && !l.Released {
		host, _ := os.Hostname()
		if alive, known := processAlive(host)(l.Owner); alive || !known {
			return fmt.Errorf("job %s is running (pid %d on %s): stop it first", name, l.Owner.PID, l.Owner.Host)
		}
	}
	return nil
}

// csvOptions are the result options of a CSV dialect: each part that differs from RFC 4180 with a
// header (absent otherwise, so jobs created before the dialect options still resume).
func csvOptions(d source.CSVDialect) map[string]string {
	o := map[string]string{}
	if d.Delim() != ',' {
		o["csv-delimiter"] = string(d.Delim())
	}
	if d.QuoteChar() != '"' {
		o["csv-quote"] = string(d.QuoteChar())
	}
	if d.NoHeader {
		o["csv-header"] = "false"
	}
	return o
}
