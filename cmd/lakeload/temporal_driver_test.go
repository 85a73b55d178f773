package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/metrics"
	"github.com/lakeload/lakeload/source"
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
	cfg := job.Config{Name: "j", Table: fx.Open(t, wh, local.New()), InputFS: local.New(), From: glob, Store: store,
		Mapping: source.MappingOptions{OpColumn: fx.OpColumn}, CommitRows: 20, Parallelism: 2, Metrics: inProc,
		Progress: func(p job.Progress) { last, reports = p, reports+1 }}
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

// TestJobRefCarriesDriverOptions: every option of the load command that job.Config takes reaches the
// worker that drives the job, and the worker's Config built from it has them back.
func TestJobRefCarriesDriverOptions(t *testing.T) {
	wh := t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.t", "--column", "id BIGINT NOT NULL", "--column", "v STRING",
		"--primary-key", "id", "--option", "bucket=2"))...)
	jf := jobFlags{tableFlags: tableFlags{warehouse: wh, table: "db.t"}, name: "j"}
	in := inputFlags{from: wh + "/*.csv", format: "csv", opColumn: "op", timeZone: "Europe/Paris",
		limits: source.Limits{MaxJSONDepth: 9, MaxRecordBytes: 1234, AllowNonRegular: true}}
	cfg := job.Config{IDColumn: "id", BadRows: job.BadRowsQuarantine, Format: "csv", CommitRows: 7, CommitEvery: time.Minute, Parallelism: 3,
		Compaction: job.CompactionOff, Overwrite: "", Incremental: true, EvolveSchema: job.EvolveAddColumns, RecomputeWindows: []int64{4}, Takeover: true}
	ref, err := fullJobRef(&jf, &in, cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := driverOpener(newLogger(io.Discard, "text"))(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "j" || got.IDColumn != "id" || got.BadRows != job.BadRowsQuarantine || got.Format != "csv" || got.CommitRows != 7 ||
		got.CommitEvery != time.Minute || got.Parallelism != 3 || got.Compaction != job.CompactionOff || !got.Incremental ||
		got.EvolveSchema != job.EvolveAddColumns || len(got.RecomputeWindows) != 1 || got.RecomputeWindows[0] != 4 ||
		got.Mapping.OpColumn != "op" || got.Mapping.TimeZone.String() != "Europe/Paris" || got.From != in.from || got.SeqReservations == "" {
		t.Fatalf("worker config %+v from ref %+v", got, ref)
	}
	if !ref.Takeover {
		t.Fatal("--takeover did not reach the job reference")
	}
	if l := got.Mapping.Limits; l.MaxJSONDepth != 9 || l.MaxRecordBytes != 1234 || !l.AllowNonRegular {
		t.Fatalf("input limits %+v did not reach the worker's config (%+v)", in.limits, l)
	}
}
