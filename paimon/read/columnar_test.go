package read

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// recordsScan is the scan recordsVia plans (tests of compaction views set AllLevels).
var recordsScan ScanOptions

// recordsVia reads tbl's latest snapshot with Records (columnar path unless rowPath), returning the
// batches concatenated into one per column and how many files took the columnar path.
func recordsVia(t *testing.T, tbl *table.Table, rowPath bool, batchSize int) ([]arrow.Array, *arrow.Schema, int) {
	t.Helper()
	ctx := context.Background()
	plan, err := Scan(ctx, tbl, recordsScan)
	if err != nil {
		t.Fatal(err)
	}
	forceRowPath = rowPath
	fast := 0
	onColumnarFile = func(manifest.DataFileMeta) { fast++ }
	defer func() { forceRowPath, onColumnarFile = false, nil }()
	var parts [][]arrow.Array
	var sc *arrow.Schema
	err = Records(ctx, tbl, plan, batchSize, func(rec arrow.RecordBatch) error {
		if rec.NumRows() > int64(batchSize) || rec.NumRows() == 0 {
			t.Errorf("batch of %d rows, want 1..%d", rec.NumRows(), batchSize)
		}
		sc = rec.Schema()
		for i, c := range rec.Columns() {
			if i >= len(parts) {
				parts = append(parts, nil)
			}
			c.Retain()
			parts[i] = append(parts[i], c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]arrow.Array, len(parts))
	for i, p := range parts {
		c, err := array.Concatenate(p, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range p {
			a.Release()
		}
		out[i] = c
	}
	return out, sc, fast
}

// requireSamePaths checks that Records gives the same schema, column types (nested field names
// included) and values through the columnar path as through the row path; it returns how many
// files the columnar path read.
func requireSamePaths(t *testing.T, tbl *table.Table) int {
	t.Helper()
	rows, rowSchema, rowFast := recordsVia(t, tbl, true, 5)
	cols, colSchema, fast := recordsVia(t, tbl, false, 5)
	if rowFast != 0 {
		t.Fatalf("forced row path still read %d files columnar", rowFast)
	}
	if len(rows) != len(cols) {
		t.Fatalf("row path gave %d columns, columnar %d", len(rows), len(cols))
	}
	if rowSchema != nil && colSchema != nil && !rowSchema.Equal(colSchema) {
		t.Fatalf("schemas differ:\n row %v\n col %v", rowSchema, colSchema)
	}
	for i := range rows {
		if a, b := rows[i].DataType().String(), cols[i].DataType().String(); a != b {
			t.Errorf("column %d type: row path %s, columnar %s", i, a, b)
		}
		if !array.ApproxEqual(rows[i], cols[i], array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("column %d differs:\n row %v\n col %v", i, rows[i], cols[i])
		}
	}
	return fast
}

// TestColumnarMatchesRowPathJavaFixtures: every Java-written fixture (append, PK merge-on-read,
// deletion vectors, first-row, partial-update) reads the same through both paths.
func TestColumnarMatchesRowPathJavaFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/java-written/*.db/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	total := 0
	for _, dir := range dirs {
		if st, err := os.Stat(filepath.Join(dir, "schema")); err != nil || !st.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			abs, _ := filepath.Abs(dir)
			tbl, err := table.Open(context.Background(), local.New(), abs, "db.t")
			if err != nil {
				t.Fatal(err)
			}
			total += requireSamePaths(t, tbl)
		})
	}
	if total == 0 {
		t.Error("no fixture file took the columnar path")
	}
}

// TestColumnarMatchesRowPathLakeloadTables: lakeload-written tables of every type, with merges
// (updates and deletes across commits), appends and a schema change (old files fall back).
func TestColumnarMatchesRowPathLakeloadTables(t *testing.T) {
	cols := [][2]string{
		{"id", "INT NOT NULL"}, {"bo", "BOOLEAN"}, {"ti", "TINYINT"}, {"si", "SMALLINT"}, {"bi", "BIGINT"},
		{"f", "FLOAT"}, {"d", "DOUBLE"}, {"de", "DECIMAL(10, 3)"}, {"s", "STRING"}, {"c", "CHAR(3)"},
		{"by", "BYTES"}, {"dt", "DATE"}, {"tm", "TIME"}, {"ts3", "TIMESTAMP(3)"}, {"ts6", "TIMESTAMP(6)"},
		{"ts9", "TIMESTAMP(9)"}, {"ltz", "TIMESTAMP_LTZ(6)"}, {"arr", "ARRAY<INT>"}, {"m", "MAP<STRING, INT>"},
		{"r", "ROW<x INT, y STRING>"}, {"p", "STRING NOT NULL"},
	}
	row := func(id int32, s string) []any {
		return []any{id, id%2 == 0, int8(id), int16(-id), int64(id) << 33, float32(id) / 3, math.NaN(), dec(int64(id) * 1001),
			s, "abc", []byte{byte(id), 0}, id * 100, id * 1000, spec.TimestampValue{Millis: int64(id) * 1e6},
			spec.TimestampValue{Millis: -int64(id), NanoOfMilli: 5000}, spec.TimestampValue{Millis: 7, NanoOfMilli: id},
			spec.TimestampValue{Millis: 1}, []any{id, nil}, []spec.MapEntry{{Key: "k", Value: id}}, []any{id, nil},
			[]string{"a", "b"}[id%2]}
	}
	nulls := func(id int32) []any {
		r := make([]any, len(cols))
		r[0], r[len(r)-1] = id, "a"
		return r
	}
	t.Run("pk", func(t *testing.T) {
		tbl := rtTable(t, cols, []string{"p"}, []string{"p", "id"}, map[string]string{"bucket": "2"})
		var first []rtChange
		for i := int32(0); i < 40; i++ {
			first = append(first, rtIns(row(i, "v1")...))
		}
		first = append(first, rtIns(nulls(100)...))
		rtCommit(t, tbl, first...)
		if fast := requireSamePaths(t, tbl); fast == 0 {
			t.Error("single-commit PK table read no file columnar")
		}
		rtCommit(t, tbl, rtIns(row(3, "v2")...), rtDel(row(4, "")...), rtIns(row(50, "new")...))
		requireSamePaths(t, tbl)
	})
	t.Run("append", func(t *testing.T) {
		tbl := rtTable(t, cols, []string{"p"}, nil, nil)
		for c := 0; c < 2; c++ {
			var ch []rtChange
			for i := int32(0); i < 13; i++ {
				ch = append(ch, rtIns(row(i, "x")...))
			}
			ch = append(ch, rtIns(nulls(99)...))
			rtCommit(t, tbl, ch...)
		}
		if fast := requireSamePaths(t, tbl); fast != 4 {
			t.Errorf("append table: %d files columnar, want all 4", fast)
		}
	})
	t.Run("schema-change", func(t *testing.T) {
		tbl := rtTable(t, [][2]string{{"id", "INT NOT NULL"}, {"a", "INT"}}, nil, []string{"id"}, nil)
		rtCommit(t, tbl, rtIns(int32(1), int32(10)), rtIns(int32(2), int32(20)))
		s1 := *tbl.Schema
		s1.ID = 1
		s1.Fields = []spec.DataField{tbl.Schema.Fields[0], {ID: 1, Name: "a", Type: mustType(t, "BIGINT")}}
		s1.HighestFieldID++
		s1.Fields = append(s1.Fields, spec.DataField{ID: s1.HighestFieldID, Name: "b", Type: mustType(t, "STRING")})
		if err := tbl.Schemas().Create(context.Background(), &s1); err != nil {
			t.Fatal(err)
		}
		tbl1 := rtOpen(t, tbl.FS, tbl.Path)
		rtCommit(t, tbl1, rtIns(int32(7), int64(70), "new"))
		if fast := requireSamePaths(t, tbl1); fast != 1 {
			t.Errorf("schema change: %d files columnar, want only the one written with schema 1", fast)
		}
	})
}
