package task

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestParallelRunsAllAndBoundsConcurrency: every function runs once, never more than n at a time,
// and more than one at a time: until two run at once, each waits for another to start (however the
// machine schedules them; a Parallel that ran one at a time would hang until the guard fails it).
func TestParallelRunsAllAndBoundsConcurrency(t *testing.T) {
	var ran, running, peak atomic.Int32
	two := make(chan struct{}) // closed once two functions run at once
	var twoOnce sync.Once
	fns := make([]func() error, 20)
	for i := range fns {
		fns[i] = func() error {
			c := running.Add(1)
			for {
				p := peak.Load()
				if c <= p || peak.CompareAndSwap(p, c) {
					break
				}
			}
			if c >= 2 {
				twoOnce.Do(func() { close(two) })
			}
			select {
			case <-two:
			case <-time.After(5 * time.Minute): // a hang guard only
				return errors.New("no second function ran while this one waited")
			}
			time.Sleep(time.Millisecond)
			running.Add(-1)
			ran.Add(1)
			return nil
		}
	}
	if err := Parallel(context.Background(), 3)(fns); err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 20 || peak.Load() > 3 || peak.Load() < 2 {
		t.Errorf("ran %d of 20, peak concurrency %d (want 2..3)", ran.Load(), peak.Load())
	}
}

// TestParallelReturnsFirstErrorAndStops: a failure is returned and functions not yet started are skipped.
func TestParallelReturnsFirstErrorAndStops(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int32
	fns := make([]func() error, 50)
	for i := range fns {
		fns[i] = func() error {
			ran.Add(1)
			if i == 0 {
				return boom
			}
			time.Sleep(time.Millisecond)
			return nil
		}
	}
	if err := Parallel(context.Background(), 2)(fns); !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if ran.Load() >= 50 {
		t.Errorf("all %d functions ran after the first failed", ran.Load())
	}
}

// TestRunAllCancelsTheOthers: the context a function receives ends when another fails (a function
// that waits on it returns), and the first error is returned.
func TestRunAllCancelsTheOthers(t *testing.T) {
	boom := errors.New("boom")
	var cancelled atomic.Int32
	started := make(chan struct{})
	fns := []func(context.Context) error{
		func(ctx context.Context) error { close(started); <-ctx.Done(); cancelled.Add(1); return ctx.Err() }, // returns only once cancelled
		func(context.Context) error { <-started; return boom },                                               // fails once the other runs
	}
	if err := RunAll(context.Background(), 2, fns); !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if cancelled.Load() != 1 {
		t.Errorf("the waiting function saw %d cancellations, want 1", cancelled.Load())
	}
}

// TestRunAllEndedContext: with its context ended before it starts, RunAll runs nothing and
// returns the context's error (the driver's task loop returned nil here, and the window's commit
// step failed later on the missing results).
func TestRunAllEndedContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Int32
	fns := make([]func(context.Context) error, 5)
	for i := range fns {
		fns[i] = func(context.Context) error { ran.Add(1); return nil }
	}
	if err := RunAll(ctx, 2, fns); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if ran.Load() != 0 {
		t.Errorf("%d functions ran after the context ended", ran.Load())
	}
}
