package job

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// tableFiles lists every file under the table directory with its size and modification time.
func (e *loadEnv) tableFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(e.tbl.Path, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			out = append(out, fmt.Sprintf("%s %d %s", p, fi.Size(), fi.ModTime()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDryRunWritesNothing: a dry run of a new job, and of a job interrupted in window 2, reports the
// plan and sampled rows and changes neither the store (lease included) nor the table; a dry run
// over a file with a column the table lacks fails with an input error naming the file.
func TestDryRunWritesNothing(t *testing.T) {
	fx := loadtest.Dedup(12, matrixFiles, matrixRows)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	ctx := context.Background()
	dry := e.config(matrixCommitRows)
	dry.DryRun = true

	check := func(when string) {
		t.Helper()
		storeBefore, tableBefore := e.allStoreFiles(t), e.tableFiles(t)
		res, err := Run(ctx, dry)
		if err != nil {
			t.Fatalf("dry run %s: %v", when, err)
		}
		r := res.DryRun
		if r == nil || r.Files != matrixFiles || r.Splits != matrixFiles || r.SampledRows != int64(fx.Rows()) || r.EstimatedRows <= 0 {
			t.Fatalf("dry run %s reported %+v; want %d files and splits, %d sampled rows (files are one batch each)", when, r, matrixFiles, fx.Rows())
		}
		if res.WindowsCommitted != 0 || res.RowsWritten != 0 {
			t.Fatalf("dry run %s: %+v", when, res)
		}
		if after := e.allStoreFiles(t); !slices.Equal(after, storeBefore) {
			t.Fatalf("dry run %s changed the store:\nbefore %v\nafter  %v", when, storeBefore, after)
		}
		if after := e.tableFiles(t); !slices.Equal(after, tableBefore) {
			t.Fatalf("dry run %s changed the table:\nbefore %v\nafter  %v", when, tableBefore, after)
		}
	}
	check("of a new job")
	if files := e.allStoreFiles(t); len(files) != 0 {
		t.Fatalf("store after a dry run of a new job: %v", files)
	}
	if _, err := e.run(ctx, withHook(e.config(matrixCommitRows), crashAt{PointBeforeCommit, 2})); !errors.Is(err, errCrash) {
		t.Fatalf("crash: %v", err)
	}
	check("of an interrupted job")
	if _, err := e.run(ctx, e.config(matrixCommitRows)); err != nil {
		t.Fatal(err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}

	// A mapping error is found by the dry run.
	bad := loadtest.TempDir(t)
	if err := os.WriteFile(filepath.Join(bad, "in-00.jsonl"), []byte(`{"op":"+I","dt":"d","id":1,"bogus":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e2 := newLoadEnv(t, fx, filepath.Join(bad, "in-*"))
	dry2 := e2.config(matrixCommitRows)
	dry2.DryRun = true
	_, err := Run(ctx, dry2)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "in-00.jsonl") || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("dry run over an extra column: %v; want an InputError naming the file and the column", err)
	}
	if files := e2.allStoreFiles(t); len(files) != 0 {
		t.Fatalf("failed dry run wrote %v", files)
	}
}

// allStoreFiles lists every file of the store, lease versions included.
func (e *loadEnv) allStoreFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(e.store.Root(), func(p string, fi os.FileInfo, err error) error {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withHook returns cfg crashing once at c.
func withHook(cfg Config, c crashAt) Config {
	var hit atomic.Bool
	cfg.Hook = func(p string, w int64) error {
		if p == c.point && w == c.window && hit.CompareAndSwap(false, true) {
			return errCrash
		}
		return nil
	}
	return cfg
}

// TestFingerprintErrors: after a crash in window 2, an input file already assigned to a window —
// published (window 1) or not (window 2) — that changed, lost only its modification time, or
// vanished makes the resume fail with an input error naming the file, before anything is written;
// restoring the file lets the job finish exactly.
func TestFingerprintErrors(t *testing.T) {
	fx := allParquet(loadtest.Append(13, 9, 50))
	cases := []struct {
		name   string
		file   int // window 1: files 0–2; window 2: files 3–5
		change func(t *testing.T, path string, orig []byte)
		want   string
	}{
		{"published file rewritten", 1, func(t *testing.T, p string, orig []byte) {
			writeBytes(t, p, append(slices.Clone(orig), 0))
		}, "changed since it was planned"},
		{"assigned file touched", 4, func(t *testing.T, p string, _ []byte) {
			if err := os.Chtimes(p, time.Now(), time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}, "changed since it was planned"},
		{"assigned file removed", 3, func(t *testing.T, p string, _ []byte) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}, "is gone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := loadtest.TempDir(t)
			e := newLoadEnv(t, fx, fx.WriteInputs(t, dir))
			ctx := context.Background()
			cfg := e.config(150)
			if _, err := e.run(ctx, withHook(cfg, crashAt{PointBeforeCommit, 2})); !errors.Is(err, errCrash) {
				t.Fatalf("crash: %v", err)
			}
			path := filepath.Join(dir, fx.Files[c.file].Name)
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			c.change(t, path, orig)
			before := e.allStoreFiles(t)
			_, err = e.run(ctx, cfg)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("resume: %v; want an InputError naming %s and saying %q", err, path, c.want)
			}
			if after := e.allStoreFiles(t); !slices.Equal(withoutLease(after), withoutLease(before)) {
				t.Fatalf("the refused resume wrote to the store: %v", after)
			}
			writeBytes(t, path, orig)
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if _, err := e.run(ctx, cfg); err != nil {
				t.Fatalf("resume with the file restored: %v", err)
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
		})
	}
}

func withoutLease(files []string) []string {
	return slices.DeleteFunc(slices.Clone(files), func(p string) bool { return strings.Contains(p, "/lease/") })
}

func writeBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEmptyWindowPublishesWithoutSnapshot: a window made only of empty inputs (a header-only CSV, a
// Parquet file without rows, an empty JSON Lines file) is committed as snapshot 0 and published
// without a snapshot, also when the job crashed before that window's commit.
func TestEmptyWindowPublishesWithoutSnapshot(t *testing.T) {
	full := loadtest.Append(14, 1, 40)
	fx := full
	fx.Files = []loadtest.File{{Name: "in-00.parquet", Rows: full.Files[0].Rows},
		{Name: "in-01.csv"}, {Name: "in-02.parquet"}, {Name: "in-03.jsonl"}}
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for _, crash := range []string{"", PointBeforeCommit, PointBeforePublish} {
		t.Run("crash="+crash, func(t *testing.T) {
			e := newLoadEnv(t, fx, glob)
			cfg := e.config(40)
			if crash != "" {
				if _, err := e.run(context.Background(), withHook(cfg, crashAt{crash, 2})); !errors.Is(err, errCrash) {
					t.Fatalf("crash at %s: %v", crash, err)
				}
			}
			if _, err := e.run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
			st := e.state(t)
			ws, ok := st.Window(2)
			if len(st.Windows()) != 2 || !ok || !slices.Equal(ws.Assigned.Splits, []int{1, 2, 3}) {
				t.Fatalf("windows %+v; want window 2 = the three empty files", st.Windows())
			}
			if ws.Committed.SnapshotID != 0 || ws.Published.Rows != 0 {
				t.Fatalf("empty window committed %+v published %+v; want snapshot 0, 0 rows", ws.Committed, ws.Published)
			}
			if ids, _ := e.tbl.Snapshots().IDs(context.Background()); len(ids) != 1 {
				t.Fatalf("snapshots %v; want only window 1's", ids)
			}
		})
	}
}

// TestCommitEverySizesWindows: with CommitEvery the next window's row target is the last window's
// rows scaled by CommitEvery / its duration (a fake clock makes window w take durations[w-1]).
func TestCommitEverySizesWindows(t *testing.T) {
	fx := allParquet(loadtest.Append(15, 12, 50))
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	durations := []time.Duration{5 * time.Second, 20 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second}
	cfg := e.config(100) // the first window: 2 files
	cfg.CommitEvery = 10 * time.Second
	cfg.Now = func() time.Time { return time.Unix(0, now.Load()).UTC() }
	cfg.Hook = func(p string, w int64) error {
		if p == PointBeforeCommit && int(w) <= len(durations) {
			now.Add(int64(durations[w-1]))
		}
		return nil
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	var sizes []int
	for _, ws := range e.state(t).Windows() {
		sizes = append(sizes, len(ws.Assigned.Splits))
	}
	// 100 rows in 5 s → 200 rows per 10 s; 200 rows in 20 s → 100; then 100 in 10 s → 100.
	if want := []int{2, 4, 2, 2, 2}; !slices.Equal(sizes, want) {
		t.Fatalf("files per window %v, want %v", sizes, want)
	}
}
