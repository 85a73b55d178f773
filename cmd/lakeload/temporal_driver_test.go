package main

import (
	"context"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/metrics"
)

// TestFollowerMatchesInProcess: what `load --temporal` derives from the checkpoint store while the
// driver runs on a worker — the progress report and the metrics — equals what the in-process driver
// reported and counted for the same job (published windows only: nothing was recomputed here).
func TestFollowerMatchesInProcess(t *testing.T) {
	fx := loadtest.Dedup(91, 4, 40)
	wh := loadtest.TempDir(t)
	fx.Create(t, wh)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	store := checkpoint.NewStore(local.New(), loadtest.TempDir(t))
	reg := metrics.NewRegistry()
	inProc := metrics.NewLoad(reg, "j")
	var last job.Progress
	var reports int
	cfg := job.Config{
		Spec:     job.Spec{Name: "j", Input: job.Input{From: []string{glob}, OpColumn: fx.OpColumn}, CommitRows: 20, Parallelism: 2},
		Table:    fx.Open(t, wh, local.New()),
		InputFS:  local.New(),
		Store:    store,
		Metrics:  inProc,
		Progress: func(p job.Progress) { last, reports = p, reports+1 },
	}
	ctx := context.Background()
	if _, err := job.Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	st, err := store.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Windows()) < 3 {
		t.Fatalf("%d windows: the test needs several", len(st.Windows()))
	}
	got := progressFromState(st)
	last.RowsPerSecond, last.Window = 0, got.Window // the rate is the follower's own; the final in-process report has window 0
	if got != last {
		t.Fatalf("progress from the store %+v, in process %+v", got, last)
	}

	// A follower that began before the job (an empty store) and polled at its end.
	followed := metrics.NewLoad(metrics.NewRegistry(), "j")
	cfg.Metrics = followed
	cfg.Progress = func(p job.Progress) { last, reports = p, reports+1 }
	f := follower{cfg: cfg, started: time.Now().Add(-time.Second)}
	reports = 0
	f.poll(ctx)
	f.poll(ctx) // nothing new: no second report, no counter added twice
	want, have := inProc.Values(), followed.Values()
	if reports != 1 || have.RowsWritten != want.RowsWritten || have.WindowsCommitted != want.WindowsCommitted ||
		have.BytesWritten != want.BytesWritten || have.Window != want.Window {
		t.Fatalf("%d reports; follower metrics %+v, in process %+v", reports, have, want)
	}
	if have.RowsPerSecond <= 0 {
		t.Fatal("the follower reports no rate")
	}

	// A follower attaching to a finished job counts nothing it did not see published.
	late := metrics.NewLoad(metrics.NewRegistry(), "j")
	cfg.Metrics = late
	f = follower{cfg: cfg, started: time.Now()}
	f.baseline(ctx)
	f.poll(ctx)
	if v := late.Values(); v.RowsWritten != 0 || v.WindowsCommitted != 0 {
		t.Fatalf("a late follower counted %+v", v)
	}
}
