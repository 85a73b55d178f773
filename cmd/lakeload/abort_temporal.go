package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/temporal"
)

// abortTemporalJob is `job abort --temporal`: it terminates the job's workflow, waits for its driver
// segment to release the job's lease, then calls abort (job.Abort), all within wait (longer for a workflow with a long heartbeat timeout). A segment of the
// terminated workflow may take the lease just after the wait saw it free (the segment was starting
// when the workflow was terminated; it learns of the termination at its next heartbeat and lets go):
// abort then fails with checkpoint.ErrLeaseHeld and is retried until wait has passed.
func (f *temporalFlags) abortTemporalJob(ctx context.Context, spec job.Spec, store *checkpoint.Store, wait time.Duration,
	logger *slog.Logger, abort func() error) error {
	start := time.Now()
	wait, err := f.abortJobWorkflow(ctx, spec, store, wait, logger)
	if err != nil {
		return err
	}
	return abortAfterSegment(ctx, store, start.Add(wait), abort)
}

// abortAfterSegment calls abort until it succeeds, fails for another reason than a held lease, the
// lease is held by something other than a driver segment, or deadline has passed.
func abortAfterSegment(ctx context.Context, store *checkpoint.Store, deadline time.Time, abort func() error) error {
	for {
		err := abort()
		if err == nil || !errors.Is(err, checkpoint.ErrLeaseHeld) || !time.Now().Before(deadline) {
			return err
		}
		if l, ok, lerr := store.CurrentLease(ctx); lerr == nil && ok && !l.Released && !temporal.IsSegmentLease(l) {
			return err // an in-process run or another abort: job.Abort's message names it
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}
