package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// genSource is a library user's own Source: split "gen:K" yields 100 rows (id = (37K + i) mod 150,
// v = "sK-i"), so later splits update ids of earlier ones.
type genSource struct{}

func (genSource) Open(_ context.Context, s source.Split, t *spec.TableSchema, _ source.MappingOptions) (source.Reader, error) {
	k, err := strconv.Atoi(strings.TrimPrefix(s.Path, "gen:"))
	if err != nil {
		return nil, err
	}
	return &genReader{k: k, split: s, fields: t.Fields}, nil
}

type genReader struct {
	k      int
	split  source.Split
	fields []spec.DataField
	done   bool
}

func (r *genReader) Next(context.Context) (*source.Batch, error) {
	if r.done {
		return nil, io.EOF
	}
	r.done = true
	schema, err := arrowconv.ArrowSchema(r.fields)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := 0; i < 100; i++ {
		id, v := genRow(r.k, i)
		b.Field(0).(*array.Int64Builder).Append(id)
		b.Field(1).(*array.StringBuilder).Append(v)
	}
	return &source.Batch{Record: b.NewRecordBatch(), Split: r.split}, nil
}

func (r *genReader) Close() error { return nil }

func genRow(k, i int) (int64, string) { return int64((37*k + i) % 150), fmt.Sprintf("s%d-%d", k, i) }

// TestRunWithCustomSource: job.Run reads a library user's Source (no files), crashes before the
// commit of window 2, resumes, and the table equals applying the generated rows in order.
func TestRunWithCustomSource(t *testing.T) {
	ctx := context.Background()
	wh := loadtest.TempDir(t)
	cat := catalog.New(local.New(), wh)
	id := catalog.Identifier{Database: "db", Table: "gen"}
	s, err := spec.NewSchema([]spec.DataField{{Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "v", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}}},
		nil, []string{"id"}, map[string]string{"bucket": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateTable(ctx, id, s, false); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var splits []source.Split
	for k := 0; k < 6; k++ {
		splits = append(splits, source.Split{Path: "gen:" + strconv.Itoa(k), Format: "gen", RowCount: 100})
	}
	cfg := Config{
		Spec:   Spec{Name: "gen", CommitRows: 200, Parallelism: 2},
		Table:  tbl,
		Source: genSource{},
		Splits: splits,
		Store:  checkpoint.NewStore(local.New(), loadtest.TempDir(t)),
	}
	crash := cfg
	crash.Hook = func(p string, w int64) error {
		if p == PointBeforeCommit && w == 2 {
			return errCrash
		}
		return nil
	}
	if _, err := Run(ctx, crash); !errors.Is(err, errCrash) {
		t.Fatalf("crashing run: %v", err)
	}
	if _, err := Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{}
	for k := 0; k < 6; k++ {
		for i := 0; i < 100; i++ {
			id, v := genRow(k, i)
			want[id] = v
		}
	}
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(int64) < rows[j][0].(int64) })
	for _, r := range rows {
		if want[r[0].(int64)] != r[1].(string) {
			t.Errorf("id %d: %q, want %q", r[0], r[1], want[r[0].(int64)])
		}
	}
	if ids, err := tbl.Snapshots().IDs(ctx); err != nil || len(ids) != 3 {
		t.Errorf("snapshots %v (%v), want one per window (3)", ids, err)
	}
}

// TestDryRunReportsThePlan: a dry run lists every input file with its splits and rows and the number
// of windows CommitRows gives, and writes nothing to the store.
func TestDryRunReportsThePlan(t *testing.T) {
	fx := loadtest.Append(41, 5, 40)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	e := newLoadEnv(t, fx, glob)
	cfg := e.config(100)
	cfg.DryRun = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.DryRun
	if rep == nil || rep.Files != 5 || len(rep.Inputs) != 5 || rep.Windows < 2 || rep.SampledRows != 200 {
		t.Fatalf("dry run report %+v", rep)
	}
	var rows int64
	for _, in := range rep.Inputs {
		rows += in.EstimatedRows
		if in.Splits != 1 || in.Path == "" || in.Format == "" {
			t.Errorf("input %+v", in)
		}
	}
	if rows != rep.EstimatedRows {
		t.Errorf("inputs add up to %d rows, report says %d", rows, rep.EstimatedRows)
	}
	if _, ok := e.state(t).Job(); ok {
		t.Error("the dry run wrote a job record")
	}
}
