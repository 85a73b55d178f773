package job

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// upperColumn returns a Transform that upper-cases string column col of every batch.
func upperColumn(col int, calls *atomic.Int64) Transform {
	return func(_ context.Context, rec arrow.RecordBatch, kinds []spec.RowKind) (arrow.RecordBatch, []spec.RowKind, error) {
		calls.Add(1)
		in := rec.Column(col).(*array.String)
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		for i := range in.Len() {
			if in.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(strings.ToUpper(in.Value(i)))
			}
		}
		up := b.NewArray()
		defer up.Release()
		cols := slices.Clone(rec.Columns())
		cols[col] = up
		return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), kinds, nil
	}
}

// TestLibraryRunWithSplitsAndTransform: job.Run over a caller-made split list (a subset of the
// files, in reverse order — no glob) with a Transform that upper-cases a column keeps the same
// guarantees: crashes in window 2 (after some results, then inside the commit) and resumes, and
// the table equals the model of exactly those files, in the caller's order, transformed.
func TestLibraryRunWithSplitsAndTransform(t *testing.T) {
	fx := loadtest.Dedup(9, matrixFiles, matrixRows)
	dir := loadtest.TempDir(t)
	fx.WriteInputs(t, dir)
	ctx := context.Background()
	var splits []source.Split
	var files []loadtest.File
	for i := len(fx.Files) - 1; i >= 1; i-- { // file 0 is left out
		s, err := file.Plan(ctx, local.New(), filepath.Join(dir, fx.Files[i].Name), "")
		if err != nil {
			t.Fatal(err)
		}
		splits = append(splits, s...)
		f := loadtest.File{Name: fx.Files[i].Name}
		for _, r := range fx.Files[i].Rows {
			v := slices.Clone(r.Values)
			if s, ok := v[2].(string); ok {
				v[2] = strings.ToUpper(s)
			}
			f.Rows = append(f.Rows, loadtest.Row{Kind: r.Kind, Values: v})
		}
		files = append(files, f)
	}
	e := newLoadEnv(t, fx, "")
	e.want = fx.ExpectedOf(t, files)
	cfg := e.config(matrixCommitRows)
	cfg.Splits = splits
	var calls atomic.Int64
	cfg.Transform = upperColumn(2, &calls)
	e.crashThenResume(t, cfg, []crashAt{{PointResultStored, 2}, {PointInsideCommit, 2}}, []bool{false, true})
	if calls.Load() == 0 {
		t.Fatal("the transform was never called")
	}
	if plan := planOf(t, e.state(t)); !slices.Equal(plan, splits) {
		t.Fatalf("stored plan %v, want the caller's splits %v", plan, splits)
	}
}

// TestTransformErrorStopsTheRun: a failing transform stops the run with its error before any commit.
func TestTransformErrorStopsTheRun(t *testing.T) {
	fx := loadtest.Append(10, 4, 30)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	cfg := e.config(50)
	boom := errors.New("transform refuses")
	cfg.Transform = func(context.Context, arrow.RecordBatch, []spec.RowKind) (arrow.RecordBatch, []spec.RowKind, error) {
		return nil, nil, boom
	}
	cfg.Logger = slog.New(slog.DiscardHandler)
	if _, err := Run(context.Background(), cfg); !errors.Is(err, boom) || !strings.Contains(err.Error(), "transform of "+filepath.Dir(e.glob)) {
		t.Fatalf("run: %v; want the transform's error naming the split", err)
	}
	if ids, _ := e.tbl.Snapshots().IDs(context.Background()); len(ids) != 0 {
		t.Fatalf("snapshots %v after a failing transform", ids)
	}
}
