package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// dynFixture is the partitioned deduplicate fixture (upserts, -U/+U, deletes over 40 keys per
// partition) as a dynamic-bucket table with 8 keys per bucket, so every partition spreads over
// several buckets that fill up across windows.
func dynFixture() loadtest.Fixture {
	fx := loadtest.Dedup(7, matrixFiles, matrixRows)
	fx.Name = "current_dyn"
	fx.Options = maps.Clone(fx.Options)
	fx.Options["bucket"] = "-1"
	fx.Options["dynamic-bucket.target-row-num"] = "8"
	return fx
}

// TestDynamicBucketCrashPoints crashes a load into a dynamic-bucket table at every point of the
// middle window, with SplitTasks on (which must still run one task per window), resumes, and
// requires the exact expected table, one snapshot per window and a HASH index with every key in
// one bucket.
func TestDynamicBucketCrashPoints(t *testing.T) {
	fx := dynFixture()
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	windows := referenceWindows(t, fx, glob)
	points := []string{PointAssigned, PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit, pointLatest,
		PointAfterCommit, PointBeforePublish, PointAfterPublish, PointRecoveryAction}
	w := (windows + 1) / 2
	for _, p := range points {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			e := newLoadEnv(t, fx, glob)
			crashes := []crashAt{{p, w}}
			if p == PointRecoveryAction {
				crashes = []crashAt{{PointBeforeCommit, w}, {p, w}}
			}
			cfg := e.config(matrixCommitRows)
			cfg.SplitTasks = true
			e.crashThenResume(t, cfg, crashes, make([]bool, len(crashes)))
			for _, ws := range e.state(t).Windows() {
				for _, at := range ws.Attempts {
					if len(at.Results) > 1 {
						t.Errorf("window %d attempt %d has %d task results; a dynamic-bucket table runs one task per window", ws.Window, at.Attempt, len(at.Results))
					}
				}
			}
			checkHashIndexUnique(t, e.tbl, 3)
		})
	}
}

// TestDynamicBucketIndexConflictRecomputes: another writer commits to the table between a window's
// write and its commit (once in the running job, once while the job is down with the window's
// results stored). Its HASH files conflict with the window's, so the commit must not land as is:
// the window is recomputed as attempt 2 against the new index, and the table holds the other
// writer's row plus exactly the job's rows, every key in one bucket.
func TestDynamicBucketIndexConflictRecomputes(t *testing.T) {
	fx := dynFixture()
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprintf("crash=%v", crash), func(t *testing.T) {
			e := newLoadEnv(t, fx, glob)
			foreign := []any{"2024-01-01", int64(1000), "foreign", int64(1)}
			line, err := canon.Row(e.tbl.Schema.Fields, foreign)
			if err != nil {
				t.Fatal(err)
			}
			e.want = append(fx.Expected(t), string(line))
			slices.Sort(e.want)
			ctx := context.Background()
			cfg := e.config(matrixCommitRows)
			log := &actionLog{}
			cfg.Logger = slog.New(log)
			var done atomic.Bool
			foreignCommit := func() error {
				w, err := write.New(ctx, e.tbl, write.Options{})
				if err != nil {
					return err
				}
				if err := w.WriteRow(ctx, foreign, spec.RowKindInsert); err != nil {
					return err
				}
				msgs, err := w.Prepare(ctx)
				if err != nil {
					return err
				}
				_, err = commit.Commit(ctx, e.tbl, msgs, commit.Options{User: "other-writer", Identifier: commit.BatchIdentifier, LookupAfter: -1})
				return err
			}
			cfg.Hook = func(p string, w int64) error {
				if p != PointBeforeCommit || w != 1 || !done.CompareAndSwap(false, true) {
					return nil
				}
				if crash {
					return errCrash
				}
				return foreignCommit()
			}
			_, err = e.run(ctx, cfg)
			if crash {
				if !errors.Is(err, errCrash) {
					t.Fatalf("first run: %v, want the crash", err)
				}
				if err := foreignCommit(); err != nil {
					t.Fatal(err)
				}
				cfg.Hook = nil
				_, err = e.run(ctx, cfg)
				if got := log.kinds(); !slices.Contains(got, "commit") {
					t.Errorf("resume ran recovery actions %v, want a commit of the stored result", got)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
			ws, _ := e.state(t).Window(1)
			if ws.Published == nil || ws.Published.Attempt != 2 {
				t.Fatalf("window 1 published %+v, want attempt 2 (recomputed after the index conflict)", ws.Published)
			}
			checkHashIndexUnique(t, e.tbl, 3)
		})
	}
}

// checkHashIndexUnique checks the latest snapshot's HASH index: parts partitions indexed, one file
// per (partition, bucket), no key hash in two buckets of a partition, and every live data file in
// an indexed bucket.
func checkHashIndexUnique(t *testing.T, tbl *table.Table, parts int) {
	t.Helper()
	ctx := context.Background()
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	es, err := index.SnapshotEntries(ctx, tbl, latest)
	if err != nil {
		t.Fatal(err)
	}
	type pb struct {
		part   string
		bucket int32
	}
	files := map[pb]bool{}
	owner := map[string]map[int32]int32{}
	for _, e := range es {
		if e.IndexType != manifest.IndexTypeHash {
			continue
		}
		k := pb{string(e.Partition), e.Bucket}
		if files[k] {
			t.Fatalf("two HASH files for partition %x bucket %d", e.Partition, e.Bucket)
		}
		files[k] = true
		hs, err := index.ReadHashFile(ctx, tbl, e)
		if err != nil {
			t.Fatal(err)
		}
		if owner[k.part] == nil {
			owner[k.part] = map[int32]int32{}
		}
		for _, h := range hs {
			if b, dup := owner[k.part][h]; dup {
				t.Fatalf("key hash %d in buckets %d and %d of partition %x", h, b, e.Bucket, e.Partition)
			}
			owner[k.part][h] = e.Bucket
		}
	}
	if len(owner) != parts {
		t.Errorf("HASH index covers %d partitions, want %d", len(owner), parts)
	}
	live, err := tbl.LiveFiles(ctx, latest)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range live {
		if !files[pb{string(e.Partition), e.Bucket}] {
			t.Errorf("data file %s is in bucket %d, which has no HASH index file", e.File.FileName, e.Bucket)
		}
	}
}
