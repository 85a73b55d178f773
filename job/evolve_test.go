package job

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// evolveEnv is a primary-key table (id BIGINT, name STRING), bucket 2, and a directory of JSONL input.
type evolveEnv struct {
	wh, in string
	tbl    *table.Table
	store  *checkpoint.Store
}

func newEvolveEnv(t *testing.T) *evolveEnv {
	t.Helper()
	wh := loadtest.TempDir(t)
	tbl := newEvoTable(t, wh, map[string]string{"bucket": "2", "file.format": "parquet"})
	in := loadtest.TempDir(t)
	return &evolveEnv{wh: wh, in: in, tbl: tbl, store: checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/store")}
}

// newEvoTable creates the primary-key table db.evo (id BIGINT, name STRING) with options opts in
// the warehouse wh.
func newEvoTable(t *testing.T, wh string, opts map[string]string) *table.Table {
	t.Helper()
	ctx := context.Background()
	cat := catalog.New(local.New(), wh)
	s, err := spec.NewSchema([]spec.DataField{
		{Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "name", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}},
	}, nil, []string{"id"}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := catalog.Identifier{Database: "db", Table: "evo"}
	if err := cat.CreateTable(ctx, id, s, false); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func (e *evolveEnv) write(t *testing.T, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.in, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *evolveEnv) config(glob string) Config {
	return Config{
		Spec:    Spec{Name: "evo", Input: Input{From: []string{filepath.Join(e.in, glob)}}, CommitRows: 1, Parallelism: 2, EvolveSchema: EvolveAddColumns},
		Table:   e.tbl,
		InputFS: local.New(),
		Store:   e.store,
	}
}

func (e *evolveEnv) schemaIDs(t *testing.T) []int64 {
	t.Helper()
	ids, err := e.tbl.Schemas().IDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// evolveInputs: window 1 has the table's columns only; window 2 brings "score" (numbers with a
// fraction → DOUBLE) and "tag" (strings → STRING); window 3 lacks "tag" (null).
func (e *evolveEnv) evolveInputs(t *testing.T) {
	e.write(t, "a1.jsonl", `{"id": 1, "name": "one"}`+"\n"+`{"id": 2, "name": "two"}`+"\n")
	e.write(t, "a2.jsonl", `{"id": 3, "name": "three", "score": 1.5, "tag": "x"}`+"\n"+`{"id": 4, "name": "four", "score": 2, "tag": null}`+"\n")
	e.write(t, "a3.jsonl", `{"id": 5, "score": 7.25}`+"\n"+`{"id": 1, "name": "uno", "score": 0.5}`+"\n")
}

func expectedLines(t *testing.T, fields []spec.DataField, rows [][]any) []string {
	t.Helper()
	return loadtest.CanonLines(t, fields, rows)
}

// TestEvolveAddColumnsReadByJavaAndPypaimon: columns first seen in window 2 are added as nullable
// columns (schema 1, ids 2 and 3) before window 2 is written; Java and pypaimon read the final table
// with nulls for the old rows, and time travel to window 1's snapshot shows the old schema. The
// files of each window record the schema they were written with.
func TestEvolveAddColumnsReadByJavaAndPypaimon(t *testing.T) {
	e := newEvolveEnv(t)
	e.evolveInputs(t)
	res, err := Run(context.Background(), e.config("a*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Windows != 3 {
		t.Fatalf("windows %d, want 3", res.Windows)
	}
	if ids := e.schemaIDs(t); len(ids) != 2 {
		t.Fatalf("schemas %v, want [0 1]", ids)
	}
	s1, err := e.tbl.Schemas().Get(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(s1.Fields) != 4 || s1.Fields[2].Name != "score" || s1.Fields[2].ID != 2 || s1.Fields[2].Type.Root != spec.Double ||
		s1.Fields[3].Name != "tag" || s1.Fields[3].ID != 3 || s1.Fields[3].Type.Root != spec.VarChar || !s1.Fields[3].Type.Nullable || s1.HighestFieldID != 3 {
		t.Fatalf("schema 1: %+v", s1)
	}
	// The stored results record the schema each window's files were written with.
	st, _ := e.store.Load(context.Background())
	for _, ws := range st.Windows() {
		at, _ := ws.Attempt(ws.Committed.Attempt)
		want := int64(1)
		if ws.Window == 1 {
			want = 0
		}
		for _, r := range at.Results {
			for _, m := range msgsOf(t, r) {
				for _, f := range m.NewFiles {
					if f.SchemaID != want {
						t.Fatalf("window %d file %s has schema id %d, want %d", ws.Window, f.FileName, f.SchemaID, want)
					}
				}
			}
		}
	}
	want := expectedLines(t, s1.Fields, [][]any{
		{int64(1), "uno", 0.5, nil}, {int64(2), "two", nil, nil}, {int64(3), "three", 1.5, "x"},
		{int64(4), "four", 2.0, nil}, {int64(5), nil, 7.25, nil}})
	old := expectedLines(t, e.tbl.Schema.Fields, [][]any{{int64(1), "one"}, {int64(2), "two"}})
	for name, c := range map[string]*oracle.Client{"java": oracle.Java(t), "pypaimon": oracle.Py(t)} {
		if d := loadtest.Diff(want, c.Read(e.tbl.Path, oracle.ReadOpts{})); d != "" {
			t.Errorf("%s reads the evolved table differently:%s", name, d)
		}
		if d := loadtest.Diff(old, c.Read(e.tbl.Path, oracle.ReadOpts{Snapshot: 1})); d != "" {
			t.Errorf("%s time travel to snapshot 1 (schema 0):%s", name, d)
		}
	}
	// A second run finds the job done and the columns there: no new schema.
	if res, err := Run(context.Background(), e.config("a*.jsonl")); err != nil || !res.AlreadyDone {
		t.Fatalf("rerun: %+v %v", res, err)
	}
	if ids := e.schemaIDs(t); len(ids) != 2 {
		t.Fatalf("schemas after rerun %v", ids)
	}
}

// TestEvolveCrashAfterSchemaCommit: a crash between the schema commit and the window's commit (at
// schema-evolved, and inside the window's commit) is resumed by a rerun that finds the columns in
// place, adds no schema, and ends with the same table as an uninterrupted run.
func TestEvolveCrashAfterSchemaCommit(t *testing.T) {
	for _, point := range []string{PointSchemaEvolved, PointInsideCommit, PointAfterCommit} {
		t.Run(point, func(t *testing.T) {
			e := newEvolveEnv(t)
			e.evolveInputs(t)
			cfg := e.config("a*.jsonl")
			cfg.Hook = func(p string, w int64) error {
				if p == point && w == 2 {
					return errCrash
				}
				return nil
			}
			if _, err := Run(context.Background(), cfg); !errors.Is(err, errCrash) {
				t.Fatalf("crash run: %v", err)
			}
			if ids := e.schemaIDs(t); len(ids) != 2 {
				t.Fatalf("schemas after the crash %v, want [0 1]", ids)
			}
			// Resume the way the CLI does: the table is opened again, at its latest schema.
			tbl, err := table.Open(context.Background(), local.New(), e.tbl.Path, e.tbl.Name)
			if err != nil {
				t.Fatal(err)
			}
			cfg = e.config("a*.jsonl")
			cfg.Table = tbl
			if _, err := Run(context.Background(), cfg); err != nil {
				t.Fatalf("resume: %v", err)
			}
			if ids := e.schemaIDs(t); len(ids) != 2 {
				t.Fatalf("schemas after resume %v, want [0 1]", ids)
			}
			want := expectedLines(t, tbl.Schema.Fields, [][]any{
				{int64(1), "uno", 0.5, nil}, {int64(2), "two", nil, nil}, {int64(3), "three", 1.5, "x"},
				{int64(4), "four", 2.0, nil}, {int64(5), nil, 7.25, nil}})
			if d := loadtest.Diff(want, loadtest.Lines(t, tbl)); d != "" {
				t.Fatalf("table after resume:%s", d)
			}
			jr, _ := e.state(t).Job()
			if n := len(loadtest.SnapshotsOf(t, tbl, jr.CommitUser)); n != 3 {
				t.Fatalf("%d snapshots of the job, want 3", n)
			}
		})
	}
}

func (e *evolveEnv) state(t *testing.T) checkpoint.State {
	t.Helper()
	st, err := e.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// writeParquet writes one Parquet file with columns id BIGINT NOT NULL, name STRING and extra of
// the given Arrow type holding vals.
func writeParquet(t *testing.T, path string, extra string, typ arrow.DataType, vals func(array.Builder)) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: extra, Type: typ, Nullable: true}}, nil)
	writeRecord(t, path, schema, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int64Builder).Append(10)
		b.Field(1).(*array.StringBuilder).Append("ten")
		vals(b.Field(2))
	})
}

// TestEvolveRefusals: a type change of an existing column, an input lacking a NOT NULL (key)
// column, a new JSON key with mixed value types and a malformed CSV header stay errors naming the
// file and column (or line), and no schema is written; a Parquet column of a new typed column is
// added with its own type.
func TestEvolveRefusals(t *testing.T) {
	t.Run("type change", func(t *testing.T) {
		e := newEvolveEnv(t)
		// "name" as INT64 where the table has STRING; "new_col" alone would be fine.
		p := filepath.Join(e.in, "bad.parquet")
		schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "new_col", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
		writeRecord(t, p, schema, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int64Builder).Append(1)
			b.Field(1).(*array.Int64Builder).Append(2)
			b.Field(2).(*array.Int32Builder).Append(3)
		})
		_, err := Run(context.Background(), e.config("*.parquet"))
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), `"name"`) {
			t.Fatalf("type change: %v", err)
		}
		if ids := e.schemaIDs(t); len(ids) != 1 {
			t.Fatalf("a refused window wrote schemas %v", ids)
		}
	})
	t.Run("missing key column", func(t *testing.T) {
		e := newEvolveEnv(t)
		e.write(t, "k.csv", "name,extra\nx,y\n")
		_, err := Run(context.Background(), e.config("*.csv"))
		if err == nil || !strings.Contains(err.Error(), "k.csv") || !strings.Contains(err.Error(), `"id" is NOT NULL`) {
			t.Fatalf("missing key column: %v", err)
		}
		if ids := e.schemaIDs(t); len(ids) != 1 {
			t.Fatalf("schemas %v", ids)
		}
	})
	t.Run("mixed json", func(t *testing.T) {
		e := newEvolveEnv(t)
		e.write(t, "m.jsonl", `{"id": 1, "v": 1}`+"\n"+`{"id": 2, "v": "a"}`+"\n")
		_, err := Run(context.Background(), e.config("*.jsonl"))
		if err == nil || !strings.Contains(err.Error(), "m.jsonl") || !strings.Contains(err.Error(), `"v"`) || !strings.Contains(err.Error(), "different JSON types") {
			t.Fatalf("mixed json: %v", err)
		}
	})
	t.Run("malformed header", func(t *testing.T) {
		e := newEvolveEnv(t)
		e.write(t, "h.csv", "id,\"name\n1,x\n")
		_, err := Run(context.Background(), e.config("*.csv"))
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), filepath.Join(e.in, "h.csv")) || !strings.Contains(err.Error(), "line 1") ||
			!strings.Contains(err.Error(), "not closed") {
			t.Fatalf("malformed header: %v", err)
		}
		if ids := e.schemaIDs(t); len(ids) != 1 {
			t.Fatalf("schemas %v", ids)
		}
	})
	t.Run("off", func(t *testing.T) {
		e := newEvolveEnv(t)
		e.write(t, "o.jsonl", `{"id": 1, "v": 1}`+"\n")
		cfg := e.config("*.jsonl")
		cfg.EvolveSchema = ""
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), `"v"`) {
			t.Fatalf("without evolution a new column must fail: %v", err)
		}
		cfg.EvolveSchema = "everything"
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), `"everything" is not supported`) {
			t.Fatalf("unknown mode: %v", err)
		}
	})
	t.Run("typed parquet column", func(t *testing.T) {
		e := newEvolveEnv(t)
		writeParquet(t, filepath.Join(e.in, "ok.parquet"), "ts", &arrow.TimestampType{Unit: arrow.Microsecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(1_000_000)
		})
		if _, err := Run(context.Background(), e.config("*.parquet")); err != nil {
			t.Fatal(err)
		}
		s, err := e.tbl.Schemas().Latest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if f := s.Fields[2]; f.Name != "ts" || f.Type.Root != spec.Timestamp || f.Type.Precision != 6 || !f.Type.Nullable {
			t.Fatalf("added column %+v", f)
		}
	})
}

// TestEvolveForeignSchemaChangeStillStops: a schema change made by someone else while the job runs
// stops it as before (ErrSchemaChanged), with or without evolution.
func TestEvolveForeignSchemaChangeStillStops(t *testing.T) {
	e := newEvolveEnv(t)
	e.evolveInputs(t)
	cfg := e.config("a*.jsonl")
	cfg.Hook = func(p string, w int64) error {
		if p == PointAfterPublish && w == 1 {
			_, err := catalog.AddColumnsAt(context.Background(), local.New(), e.tbl.Path, e.tbl.Schema,
				[]catalog.NewColumn{{Name: "foreign", Type: spec.DataType{Root: spec.Int, Nullable: true}}})
			return err
		}
		return nil
	}
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrSchemaChanged) {
		t.Fatalf("foreign change: %v", err)
	}
}

func writeRecord(t *testing.T, path string, schema *arrow.Schema, fill func(*array.RecordBuilder)) {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	fill(b)
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
