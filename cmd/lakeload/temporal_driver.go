package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	sdktemporal "go.temporal.io/sdk/temporal"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/temporal"
	"github.com/lakeload/lakeload/metrics"
)

// runJobWorkflow submits (or attaches to) the job's workflow and follows it until it ends: progress
// and metrics come from the checkpoint store, polled every second; the result and error are the
// driver's, as job.Run gives them in process. Interrupting it stops following, not the job.
func (f *temporalFlags) runJobWorkflow(ctx context.Context, cfg job.Config, stderr io.Writer) (job.Result, error) {
	if err := f.checkTiming(); err != nil {
		return job.Result{}, err
	}
	spec, err := cfg.Spec.Absolute() // the workers' working directories are their own
	if err != nil {
		return job.Result{}, err
	}
	c, err := f.dial(ctx, cfg.Logger)
	if err != nil {
		return job.Result{}, err
	}
	defer c.Close()
	fol := follower{cfg: cfg, started: time.Now()}
	fol.baseline(ctx) // metrics and the rate count what is published from now on
	mine := temporal.JobInput{Spec: spec, Timing: f.timing, Segments: f.segments}
	run, err := temporal.StartJob(ctx, c, f.taskQueue, mine)
	if err != nil {
		return job.Result{}, err
	}
	id := temporal.JobWorkflowID(spec)
	running, err := temporal.StartedInput(ctx, c, id, run.GetRunID())
	if err != nil {
		cfg.Logger.Warn("cannot compare options with the job workflow's", "workflow", id, "err", err)
	} else if d := temporal.OptionDiff(running, mine); len(d) > 0 {
		fmt.Fprintf(stderr, "lakeload: warning: attached to the running job workflow %s, started with other options (%s); "+
			"its options apply, not this command's. To use these, end that workflow without ending the job "+
			"(temporal workflow terminate --workflow-id '%s') and run this command again: the new workflow resumes from the checkpoint store\n",
			id, strings.Join(d, ", "), id)
	}
	cfg.Logger.Info("following the job workflow", "workflow", id, "run", run.GetRunID(), "task_queue", f.taskQueue)
	p, err := temporal.WaitJob(ctx, run, time.Second, func() { fol.poll(ctx) })
	if ctx.Err() != nil {
		return p.Result, fmt.Errorf("stopped following; job %s goes on in workflow %s on the workers: run the same command to follow it again, "+
			"'lakeload job abort --temporal %s' to stop it: %w", cfg.Name, id, f.hostPort, ctx.Err())
	}
	fol.poll(ctx) // the final state: progress and metrics of every published window
	var term *sdktemporal.TerminatedError
	if errors.As(err, &term) {
		err = fmt.Errorf("the job's workflow %s was terminated (by 'lakeload job abort --temporal' or an operator): %w", id, err)
		// `job abort --temporal` terminates first, then records the abort once the segment let go of
		// the lease: wait as long as that abort may take (abortRecordWait), so the follower reports the
		// abort (exit 7) rather than a failure however slow the machine.
		hb := f.timing.HeartbeatTimeout
		if running.Timing.HeartbeatTimeout > 0 { // the running workflow's options apply
			hb = running.Timing.HeartbeatTimeout
		}
		if awaitAbortRecord(ctx, cfg.Store, abortRecordWait(hb), realClock{}) {
			err = fmt.Errorf("%w: %w", job.ErrAborted, err)
		}
	}
	return p.Result, err
}

// checkTiming validates the task timing flags.
func (f *temporalFlags) checkTiming() error {
	if f.timing.TaskTimeout <= 0 || f.timing.HeartbeatTimeout <= 0 || f.timing.MaxTries <= 0 {
		return usageError{fmt.Errorf("--task-timeout, --heartbeat-timeout and --task-tries must be positive (got %s, %s, %d)",
			f.timing.TaskTimeout, f.timing.HeartbeatTimeout, f.timing.MaxTries)}
	}
	if f.segments.MaxWindows < 0 || f.segments.MaxDuration < 0 || f.segments.PerRun < 0 {
		return usageError{fmt.Errorf("--segment-windows, --segment-duration and --segments-per-run must not be negative")}
	}
	return nil
}

// follower turns the checkpoint store's published records into the load's progress reports and
// metrics while the driver runs on a worker (the row counters of the tasks are counted there).
type follower struct {
	cfg     job.Config
	started time.Time
	last    job.StoredMetrics // what the store showed at the previous poll (the baseline at first)
	lastP   job.Progress
	base    int64 // rows published when following began (rate base)
}

// baseline records what is published before following begins (nothing for a new job).
func (f *follower) baseline(ctx context.Context) {
	if st, err := f.cfg.Store.Load(ctx); err == nil {
		f.last, f.base = job.MetricsFromStore(st), progressFromState(st).RowsPublished
	}
}

// poll reports progress when a window was published since the last poll and adds the newly
// published windows to the metrics.
func (f *follower) poll(ctx context.Context) {
	st, err := f.cfg.Store.Load(ctx)
	if err != nil {
		return // the next poll tries again; the job does not depend on it
	}
	p := progressFromState(st)
	if el := time.Since(f.started).Seconds(); el > 0 {
		p.RowsPerSecond = float64(max(p.RowsPublished-f.base, 0)) / el
	}
	if p.WindowsDone != f.lastP.WindowsDone || p.RowsPublished != f.lastP.RowsPublished || p.SplitsTotal != f.lastP.SplitsTotal {
		if f.cfg.Progress != nil {
			f.cfg.Progress(p)
		}
		f.lastP = p
	}
	if f.cfg.Metrics != nil {
		followMetrics(f.cfg.Metrics, f.last, job.MetricsFromStore(st), p.RowsPerSecond)
	}
	f.last = job.MetricsFromStore(st)
}

// followMetrics adds to m what the store shows was published since prev.
func followMetrics(m *metrics.Load, prev, cur job.StoredMetrics, rate float64) {
	if d := cur.RowsWritten - prev.RowsWritten; d > 0 {
		m.AddRowsWritten(d)
	}
	if d := cur.BytesWritten - prev.BytesWritten; d > 0 {
		m.AddBytesWritten(d)
	}
	for range max(cur.WindowsCommitted-prev.WindowsCommitted, 0) {
		m.WindowCommitted()
	}
	m.SetWindow(cur.Window)
	m.SetRowsPerSecond(rate)
}

// progressFromState computes the progress report of a job from its checkpoint store, as the
// in-process driver reports it after each window (rates are the caller's).
func progressFromState(st checkpoint.State) job.Progress {
	var p job.Progress
	for _, ws := range st.Windows() {
		if ws.Published != nil && ws.Voided == nil {
			p.RowsPublished += ws.Published.Rows
			p.SplitsDone += len(ws.Published.Splits)
			p.WindowsDone++
			p.Window = max(p.Window, ws.Window)
		}
		if ws.Committed != nil {
			p.LastSnapshotID = max(p.LastSnapshotID, ws.Committed.SnapshotID)
		}
	}
	splits, _ := plan.Stored(st) // a store that does not decode shows no estimate here; the job refuses it
	dropped := st.Dropped()
	for i, sp := range splits {
		if _, gone := slices.BinarySearch(dropped, i); !gone {
			p.RowsEstimated += job.EstimatedRows(sp)
		}
	}
	p.SplitsTotal = len(splits) - len(dropped)
	if p.SplitsDone == p.SplitsTotal {
		p.RowsEstimated = p.RowsPublished
	}
	p.RowsEstimated = max(p.RowsEstimated, p.RowsPublished)
	return p
}

// abortJobWorkflow terminates the job's workflow (if one runs) before `job abort` takes the lease,
// then waits up to wait for the driver segment to notice and release the lease.
// The wait grows to cover the workflow's heartbeat period (a segment learns of the termination at its
// next heartbeat, sent every 0.8 × the heartbeat timeout, at most a minute apart); it returns the wait used.
func (f *temporalFlags) abortJobWorkflow(ctx context.Context, spec job.Spec, store *checkpoint.Store, wait time.Duration, logger *slog.Logger) (time.Duration, error) {
	c, err := f.dial(ctx, logger)
	if err != nil {
		return wait, err
	}
	defer c.Close()
	id := temporal.JobWorkflowID(spec)
	if in, err := temporal.StartedInput(ctx, c, id, ""); err == nil && in.Timing.HeartbeatTimeout > 0 {
		wait = abortWait(wait, in.Timing.HeartbeatTimeout)
	}
	if err := c.TerminateWorkflow(ctx, id, "", "lakeload job abort"); err != nil && !isNotFound(err) {
		return wait, fmt.Errorf("terminate job workflow %s on %s: %w", id, f.hostPort, err)
	}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		l, ok, err := store.CurrentLease(ctx)
		if err != nil || !ok || l.Released || !temporal.IsSegmentLease(l) {
			return wait, nil
		}
		select {
		case <-ctx.Done():
			return wait, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return wait, nil // job.Abort reports the holder if it still holds the lease
}

// abortWait is how long abort waits for a segment of a workflow with heartbeat timeout hb to let go
// of the lease: at least wait, and the SDK's heartbeat period (0.8 × hb, at most a minute) + 15 s.
func abortWait(wait, hb time.Duration) time.Duration {
	return max(wait, min(hb*4/5, time.Minute)+15*time.Second)
}

func isNotFound(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf)
}
