package main

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// batchLines renders the rows of rec as scan's jsonl lines (canonical values, schema-ordered keys).
func batchLines(t *testing.T, rec arrow.RecordBatch, types []spec.DataType) []string {
	t.Helper()
	var out []string
	for r := 0; r < int(rec.NumRows()); r++ {
		var b bytes.Buffer
		b.WriteByte('{')
		for c, f := range rec.Schema().Fields() {
			if c > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(f.Name)
			b.Write(name)
			b.WriteByte(':')
			v, err := arrowconv.DatumAt(rec.Column(c), r, types[c])
			if err != nil {
				t.Fatalf("row %d column %s: %v", r, f.Name, err)
			}
			cv, err := canon.Value(types[c], v)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(cv)
		}
		b.WriteByte('}')
		out = append(out, b.String())
	}
	return out
}

// readIPC decodes an Arrow IPC stream into scan lines; it also returns the stream's schema.
func readIPC(t *testing.T, data string, types []spec.DataType) (*arrow.Schema, []string) {
	t.Helper()
	rd, err := ipc.NewReader(strings.NewReader(data))
	if err != nil {
		t.Fatalf("not an Arrow IPC stream: %v", err)
	}
	defer rd.Release()
	var out []string
	for rd.Next() {
		out = append(out, batchLines(t, rd.RecordBatch(), types)...)
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return rd.Schema(), out
}

// readParquetOut decodes scan's Parquet output into scan lines.
func readParquetOut(t *testing.T, data string, types []spec.DataType) []string {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader([]byte(data)))
	if err != nil {
		t.Fatalf("not a Parquet file: %v", err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var out []string
	for rr.Next() {
		out = append(out, batchLines(t, rr.RecordBatch(), types)...)
	}
	return out
}

// TestScanArrowAndParquetOutputs: `scan --output arrow` is an Arrow IPC stream and `--output
// parquet` a Parquet file, both with the table's columns, holding exactly the rows jsonl prints
// (merged PK snapshot, a single-file snapshot read column by column, and an append table);
// --limit caps their rows too.
func TestScanArrowAndParquetOutputs(t *testing.T) {
	wh := twoSnapshots(t)
	in := t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.a", "--column", "k INT", "--column", "s STRING", "--column", "d DOUBLE"))...)
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "s.a", "--from", writeFile(t, in, "a.jsonl",
		`{"k":7,"s":"x","d":2}`+"\n"+`{"k":8,"d":null}`+"\n"+`{"k":7,"s":"dup","d":-0.0}`+"\n")))...)
	types := []spec.DataType{{Root: spec.Int}, {Root: spec.VarChar, Length: 2147483647, Nullable: true}, {Root: spec.Double, Nullable: true}}
	sorted := func(l []string) []string { sort.Strings(l); return l }
	for _, c := range []struct{ table, snap string }{{"s.t", "1"}, {"s.t", ""}, {"s.a", ""}} {
		extra := []string{}
		if c.snap != "" {
			extra = append(extra, "--snapshot", c.snap)
		}
		scan := func(more ...string) string {
			return ok(t, cmdArgs([]string{"scan"}, tbl(wh, c.table, append(append([]string{}, extra...), more...)...))...)
		}
		want := sorted(lines(scan("--output", "jsonl")))
		if len(want) < 3 {
			t.Fatalf("%s@%q: jsonl printed %d rows", c.table, c.snap, len(want))
		}
		sc, got := readIPC(t, scan("--output", "arrow"), types)
		if names := []string{sc.Field(0).Name, sc.Field(1).Name, sc.Field(2).Name}; strings.Join(names, ",") != "k,s,d" || sc.NumFields() != 3 {
			t.Errorf("%s@%q: arrow schema %v, want k, s, d", c.table, c.snap, sc)
		}
		sameLines(t, c.table+" arrow@"+c.snap, want, sorted(got))
		sameLines(t, c.table+" parquet@"+c.snap, want, sorted(readParquetOut(t, scan("--output", "parquet"), types)))
		if _, got := readIPC(t, scan("--output", "arrow", "--limit", "2"), types); len(got) != 2 {
			t.Errorf("%s@%q: --output arrow --limit 2 gave %d rows", c.table, c.snap, len(got))
		}
	}
}
