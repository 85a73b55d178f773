package main

import (
	"context"
	"errors"
	"os"
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
	if err := abortAfterSegment(ctx, store, time.Now().Add(hangGuard), abort); err != nil { // ends at the release
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
	// Ordering only, no speed: it gives up after the deadline (the test's -timeout guards a hang).
	deadline := time.Now().Add(500 * time.Millisecond)
	if err := abortAfterSegment(ctx, store, deadline, abort); !errors.Is(err, checkpoint.ErrLeaseHeld) || time.Now().Before(deadline) || calls < 1 {
		t.Fatalf("abort while a segment keeps the lease: %v after %d calls; want ErrLeaseHeld once the deadline passed", err, calls)
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

// fakeClock advances only when slept on; at each step it runs the test's hook first.
type fakeClock struct {
	now  time.Time
	step func(now time.Time)
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) Sleep(_ context.Context, d time.Duration) {
	c.now = c.now.Add(d)
	c.step(c.now)
}

// TestFollowerOutwaitsAbort: the `load --temporal` follower of a terminated workflow reports the
// abort (exit 7) whenever `job abort --temporal` may record it: its wait covers the abort's wait for
// the lease (abortWait with the default --wait, any heartbeat timeout) with a margin for job.Abort,
// and goes on past that while a `job abort` on this host holds the lease, however long it takes. It
// does not wait past its bound for a segment that keeps the lease (an operator's termination with
// the worker cut off: no abort can come). A fake clock: nothing depends on the machine's speed.
func TestFollowerOutwaitsAbort(t *testing.T) {
	ctx := context.Background()
	aborted := checkpoint.DoneRecord{JobID: "j", Aborted: true}
	newStore := func() *checkpoint.Store {
		s := checkpoint.NewStore(local.New(), t.TempDir())
		if err := s.WriteJob(ctx, checkpoint.JobRecord{JobID: "j", CommitUser: "lakeload-j", TablePath: "/wh/db.db/t", TableUUID: "u",
			InputFingerprint: "fp", LakeloadVersion: "0.1", Created: time.Unix(1e9, 0)}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, hb := range []time.Duration{2 * time.Second, 30 * time.Second, 70 * time.Second, 10 * time.Minute} {
		// The latest an abort records without holding the lease past its wait: just before the
		// end of its lease wait, counted from before the termination the follower saw.
		store := newStore()
		start := time.Unix(1e9, 0)
		late := start.Add(abortWait(defaultAbortWait, hb) + defaultAbortWait/2)
		written := false
		clk := &fakeClock{now: start, step: func(now time.Time) {
			if !now.Before(late) && !written {
				written = true
				if err := store.WriteDone(ctx, aborted); err != nil {
					t.Fatal(err)
				}
			}
		}}
		if !awaitAbortRecord(ctx, store, abortRecordWait(hb), clk) {
			t.Errorf("hb %s: the follower gave up %s after the termination; the abort recorded after %s", hb, clk.now.Sub(start), late.Sub(start))
		}
	}

	// An abort on this host holding the lease long past every bound is waited for.
	store := newStore()
	host, _ := os.Hostname()
	l, err := store.AcquireLease(ctx, checkpoint.LeaseOptions{Owner: checkpoint.LeaseOwner{Host: host, PID: os.Getpid(), Token: "job abort"}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(1e9, 0)
	late := start.Add(10 * abortRecordWait(time.Minute))
	clk := &fakeClock{now: start, step: func(now time.Time) {
		if !now.Before(late) && l != nil {
			if err := store.WriteDone(ctx, aborted); err != nil {
				t.Fatal(err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			l = nil
		}
	}}
	if !awaitAbortRecord(ctx, store, abortRecordWait(2*time.Second), clk) {
		t.Errorf("the follower gave up %s after the termination while a job abort on this host held the lease", clk.now.Sub(start))
	}

	// A segment keeping the lease (no abort at work): the follower stops at its bound.
	store = newStore()
	seg, err := store.AcquireLease(ctx, checkpoint.LeaseOptions{Owner: checkpoint.LeaseOwner{Host: host, PID: os.Getpid(),
		Token: temporal.SegmentLeaseToken("lakeload.job/db.t/j/0123456789ab", 3, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = seg.Release(ctx) }()
	start = time.Unix(1e9, 0)
	clk = &fakeClock{now: start, step: func(time.Time) {}}
	if awaitAbortRecord(ctx, store, abortRecordWait(2*time.Second), clk) {
		t.Fatal("no abort was recorded, yet the follower reports one")
	}
	if got, want := clk.now.Sub(start), abortRecordWait(2*time.Second); got < want || got > want+time.Second {
		t.Errorf("with a segment keeping the lease the follower waited %s (fake clock), want its bound %s", got, want)
	}
}
