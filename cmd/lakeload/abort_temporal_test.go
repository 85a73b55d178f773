package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/job/temporal"
)

// TestAbortAfterSegmentWaitsForLateSegment: a driver segment of the terminated workflow that takes
// the lease after `job abort --temporal` saw it free makes the abort wait and retry until the
// segment lets go; a holder that is not a segment fails the abort at once; so does a spent deadline.
func TestAbortAfterSegmentWaitsForLateSegment(t *testing.T) {
	ctx := context.Background()
	store := checkpoint.NewStore(local.New(), t.TempDir())
	hold := func(token string) *checkpoint.Lease {
		l, err := store.AcquireLease(ctx, checkpoint.LeaseOptions{Owner: checkpoint.LeaseOwner{Host: "h", PID: 1, Token: token}})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	calls := 0
	abort := func() error { // what job.Abort does with the lease
		calls++
		l, err := store.AcquireLease(ctx, checkpoint.LeaseOptions{Owner: checkpoint.LeaseOwner{Host: "h", PID: 2, Token: "abort"}})
		if err != nil {
			return err
		}
		return l.Release(ctx)
	}

	seg := hold(temporal.SegmentLeaseToken("lakeload.job/db.t/j/0123456789ab", 3, 1))
	released := time.Now().Add(300 * time.Millisecond)
	go func() { time.Sleep(time.Until(released)); _ = seg.Release(ctx) }()
	if err := abortAfterSegment(ctx, store, time.Now().Add(10*time.Second), abort); err != nil {
		t.Fatalf("abort after a late segment: %v", err)
	}
	if calls < 2 || time.Now().Before(released) {
		t.Fatalf("abort succeeded after %d calls, before the segment released the lease", calls)
	}

	calls = 0
	run := hold("an in-process load")
	if err := abortAfterSegment(ctx, store, time.Now().Add(10*time.Second), abort); !errors.Is(err, checkpoint.ErrLeaseHeld) || calls != 1 {
		t.Fatalf("abort while an in-process run holds the lease: %v after %d calls; want ErrLeaseHeld at once", err, calls)
	}
	if err := run.Release(ctx); err != nil {
		t.Fatal(err)
	}

	calls = 0
	seg = hold(temporal.SegmentLeaseToken("lakeload.job/db.t/j/0123456789ab", 4, 1))
	defer func() { _ = seg.Release(ctx) }()
	start := time.Now()
	if err := abortAfterSegment(ctx, store, start.Add(500*time.Millisecond), abort); !errors.Is(err, checkpoint.ErrLeaseHeld) ||
		time.Since(start) > 5*time.Second || calls < 2 {
		t.Fatalf("abort while a segment keeps the lease: %v after %d calls in %s; want ErrLeaseHeld once the deadline passed", err, calls, time.Since(start))
	}
}

func TestAbortWaitCoversHeartbeatPeriod(t *testing.T) {
	for _, c := range []struct{ hb, want time.Duration }{
		{2 * time.Second, time.Minute},       // the default minute covers short heartbeats
		{30 * time.Second, time.Minute},      // 24 s + 15 s
		{2 * time.Minute, 75 * time.Second},  // 96 s capped at the SDK's minute, + 15 s
		{70 * time.Second, 71 * time.Second}, // 56 s + 15 s
	} {
		if got := abortWait(time.Minute, c.hb); got != c.want {
			t.Errorf("abortWait(1m, %s) = %s, want %s", c.hb, got, c.want)
		}
	}
}
