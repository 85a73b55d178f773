package temporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
)

// DriverOpener builds a job's Config on a worker from its Spec (OpenDriver: job.Open and the
// worker's log and hooks). DriveSegment sets Executor, SplitTasks, Bound, Lease and Takeover itself.
type DriverOpener func(ctx context.Context, spec job.Spec) (job.Config, error)

// DriveSegment is the driver-segment activity: one job.Run (the same driver as in process) bounded
// by in.Segments, with the window tasks run as WindowWorkflow activities on any worker. It
// heartbeats while it runs; a worker that dies is replaced after the heartbeat timeout and the next
// try resumes through job.Run's recovery. The lease rule of SegmentLeasePolicy lets that try take
// over from the silent one; a try finding the lease held by an earlier try of its own workflow
// re-reads it every renewal period (heartbeating) until it is released or has stayed unchanged for
// the silence the rule asks for, and a lease held outside the workflow fails the job (lakeload.LeaseHeld).
// Before each acquisition a try asks Temporal whether it is still the current try (givenUp) and
// stands down if not.
func (a *Activities) DriveSegment(ctx context.Context, in SegmentInput) (job.Result, error) {
	if a.OpenDriver == nil {
		return job.Result{}, errors.New("this worker cannot drive jobs (no DriverOpener)")
	}
	info := activity.GetInfo(ctx)
	t, so := in.Timing.withDefaults(), in.Segments.withDefaults()
	hb := info.HeartbeatTimeout
	if hb <= 0 {
		hb = t.HeartbeatTimeout
	}
	every := a.HeartbeatEvery
	if every <= 0 {
		every = hb / 3
	}
	stop := heartbeat(ctx, every, in.Segment)
	defer stop()
	cfg, err := a.OpenDriver(ctx, in.Spec)
	if err != nil {
		return job.Result{}, toWire(fmt.Errorf("job %s segment %d: open its table, checkpoint store and input on this worker: %w", in.Spec.Name, in.Segment, err))
	}
	wfID := info.WorkflowExecution.ID
	cfg.Bound = job.Bound{MaxWindows: so.MaxWindows, MaxDuration: so.MaxDuration}
	cfg.Lease = SegmentLeasePolicy(wfID, in.Segment, info.Attempt, hb)
	if a.leasePolicy != nil {
		a.leasePolicy(cfg.Lease)
	}
	cfg.Takeover = in.Spec.Takeover && in.Segment == 1 && info.Attempt == 1
	cfg.SplitTasks = true // Parallelism tasks per window, each an activity
	if a.NewExecutor != nil {
		cfg.Executor = a.NewExecutor(in, in.TaskQueue)
	} else {
		cfg.Executor = &Executor{Client: a.Client, TaskQueue: in.TaskQueue, Spec: in.Spec, Timing: in.Timing, Logger: cfg.Logger}
	}
	for {
		if gone, why := a.givenUp(ctx, info); gone {
			return job.Result{}, fmt.Errorf("job %s segment %d attempt %d: Temporal has given up on this try (%s); it does not take the lease",
				in.Spec.Name, in.Segment, info.Attempt, why)
		}
		res, err := job.Run(ctx, cfg)
		if err == nil {
			return res, nil
		}
		if errors.Is(err, checkpoint.ErrLeaseHeld) && ctx.Err() == nil {
			rec, ok, lerr := cfg.Store.CurrentLease(ctx)
			if lerr == nil && ok && heldBySameWorkflow(rec, wfID) {
				// An earlier try of this workflow holds the lease and has not been silent long enough
				// (the policy's Watch counts across these runs): wait for it to end or fall silent.
				if a.leaseWait != nil {
					a.leaseWait(rec)
				}
				if cfg.Logger != nil {
					cfg.Logger.Info("an earlier try of this job's driver holds the lease; waiting", "holder", rec.Owner.Token,
						"version", rec.Version)
				}
				select {
				case <-ctx.Done():
					return job.Result{}, ctx.Err()
				case <-time.After(cfg.Lease.Renew):
				}
				continue
			}
		}
		return res, toWire(err) // the message as in process: the submitter prints it under the job's name
	}
}

// heartbeat records details as the activity's heartbeat every period until stop is called.
func heartbeat(ctx context.Context, every time.Duration, details any) (stop func()) {
	if every <= 0 {
		every = time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx, details)
			}
		}
	}()
	return func() { cancel(); <-stopped }
}
