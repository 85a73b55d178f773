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

// defaultAbortWait is the default of `job abort --wait`: how long `job abort --temporal` waits for
// the terminated workflow's driver segment to let go of the job's lease (abortWait makes it longer
// for a workflow with a long heartbeat timeout).
const defaultAbortWait = time.Minute

// abortRecordWait is how long a `load --temporal` follower whose job workflow (heartbeat timeout hb)
// was terminated waits for the abort record: as long as `job abort --temporal` with the default
// --wait may wait for the lease (abortWait), and defaultAbortWait more for job.Abort's own work. The
// follower's wait begins after the termination, the abort's before it, so the follower outwaits it.
func abortRecordWait(hb time.Duration) time.Duration {
	return abortWait(defaultAbortWait, hb) + defaultAbortWait
}

// clock is the time source of awaitAbortRecord (a fake one in tests).
type clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) Sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// awaitAbortRecord polls the store until it records the job aborted (true), for at least wait, and
// past it as long as a holder on this host that is not a driver segment — a `job abort` at work —
// holds the job's lease and still runs (it ends by recording the abort or failing: progress, not
// time, ends this wait). It returns false once neither holds, or when ctx ends.
func awaitAbortRecord(ctx context.Context, store *checkpoint.Store, wait time.Duration, clk clock) bool {
	deadline := clk.Now().Add(wait)
	for ctx.Err() == nil {
		if st, err := store.Load(ctx); err == nil {
			if dr, done := st.Done(); done && dr.Aborted {
				return true
			}
		}
		if !clk.Now().Before(deadline) && !abortAtWork(ctx, store) {
			// One last look: the abort may have recorded and let go since the load above.
			st, err := store.Load(ctx)
			dr, done := st.Done()
			return err == nil && done && dr.Aborted
		}
		clk.Sleep(ctx, 250*time.Millisecond)
	}
	return false
}

// abortAtWork reports whether the job's lease is held by a live process on this host that is not a
// driver segment (what `job abort` is while it records the abort).
func abortAtWork(ctx context.Context, store *checkpoint.Store) bool {
	l, ok, err := store.CurrentLease(ctx)
	if err != nil || !ok || l.Released || temporal.IsSegmentLease(l) {
		return false
	}
	alive, known := job.HolderAlive(l.Owner)
	return alive && known
}

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
