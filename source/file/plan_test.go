package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/source"
)

func TestPlan(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "b.jsonl", "{}\n")
	writeFile(t, dir, "a.csv", "x\n1\n")
	writeFile(t, dir, "c.txt", "x\n")
	if err := os.Mkdir(filepath.Join(dir, "d.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	pq := writeParquet(t, dir, "e.parquet", arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil), `[{"x":1},{"x":2}]`, 10)

	ss, err := Plan(ctx, osFS{}, filepath.Join(dir, "[abe]*"), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ss {
		got = append(got, fmt.Sprintf("%s:%s:%d", filepath.Base(s.Path), s.Format, s.RowCount))
		st, _ := os.Stat(s.Path)
		if !filepath.IsAbs(s.Path) || s.Size != st.Size() || s.ModTimeUnixNano != st.ModTime().UnixNano() || s.RowStart != 0 {
			t.Errorf("split %+v: bad fingerprint", s)
		}
	}
	if want := "a.csv:csv:-1 b.jsonl:jsonl:-1 e.parquet:parquet:2"; strings.Join(got, " ") != want {
		t.Errorf("plan = %s, want %s", strings.Join(got, " "), want)
	}
	// Directories are not inputs; an explicit format overrides the extension.
	ss, err = Plan(ctx, osFS{}, filepath.Join(dir, "*.csv"), "")
	if err != nil || len(ss) != 1 {
		t.Errorf("*.csv: %v %v", ss, err)
	}
	ss, err = Plan(ctx, osFS{}, filepath.Join(dir, "c.txt"), "csv")
	if err != nil || len(ss) != 1 || ss[0].Format != "csv" {
		t.Errorf("explicit format: %v %v", ss, err)
	}
	_, err = Plan(ctx, osFS{}, filepath.Join(dir, "*.txt"), "")
	wantErr(t, err, "c.txt", "cannot tell its format")
	_, err = Plan(ctx, osFS{}, filepath.Join(dir, "nothing-*.csv"), "")
	wantErr(t, err, "nothing-*.csv", "matches no files")
	_, err = Plan(ctx, osFS{}, filepath.Join(dir, "[a"), "")
	wantErr(t, err, "[a")
	_, err = Plan(ctx, osFS{}, pq, "avro")
	wantErr(t, err, `"avro"`, "use parquet, orc, csv or jsonl")
	_, err = Plan(ctx, osFS{}, pq, "orc")
	wantErr(t, err, "e.parquet", "not a readable ORC file")
	_, err = Plan(ctx, osFS{}, filepath.Join(dir, "a.csv"), "parquet")
	wantErr(t, err, "a.csv", "Parquet")
}

func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "f.csv", "x\n1\n")
	sp := split(t, p)
	writeFile(t, dir, "f.csv", "x\n1\n2\n")
	_, err := readAll(t, sp, table(t, "x INT"), source.MappingOptions{})
	wantErr(t, err, "f.csv", "changed since it was planned")
	// Same size, new mod time.
	sp = split(t, p)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, sp, table(t, "x INT"), source.MappingOptions{})
	wantErr(t, err, "changed since it was planned")
}

// TestRowRangesAndBatches reads row ranges of every format in small batches.
func TestRowRangesAndBatches(t *testing.T) {
	defer func(n int) { batchRows = n }(batchRows)
	batchRows = 4
	dir := t.TempDir()
	var csv, jsonl, js strings.Builder
	csv.WriteString("x\n")
	js.WriteString("[")
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&csv, "%d\n", i)
		fmt.Fprintf(&jsonl, "{\"x\":%d}\n", i)
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, `{"x":%d}`, i)
	}
	js.WriteString("]")
	paths := []string{
		writeFile(t, dir, "r.csv", csv.String()),
		writeFile(t, dir, "r.jsonl", jsonl.String()),
		writeParquet(t, dir, "r.parquet", arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), js.String(), 3),
	}
	tbl := table(t, "x BIGINT")
	for _, p := range paths {
		for _, rng := range [][2]int64{{0, -1}, {0, 10}, {3, 5}, {7, -1}, {9, 1}, {10, 0}} {
			sp := split(t, p)
			sp.RowStart, sp.RowCount = rng[0], rng[1]
			bs, err := readAll(t, sp, tbl, source.MappingOptions{})
			if err != nil {
				t.Fatalf("%s %v: %v", p, rng, err)
			}
			next := rng[0]
			for _, b := range bs {
				if b.FirstRow != next || b.Record.NumRows() > 4 || b.Split != sp {
					t.Errorf("%s %v: batch at %d (want %d) with %d rows", p, rng, b.FirstRow, next, b.Record.NumRows())
				}
				xs := b.Record.Column(0).(*array.Int64)
				for i := 0; i < xs.Len(); i++ {
					if xs.Value(i) != b.FirstRow+int64(i) {
						t.Errorf("%s %v: row %d holds %d", p, rng, b.FirstRow+int64(i), xs.Value(i))
					}
				}
				next += b.Record.NumRows()
			}
			end := rng[0] + rng[1]
			if rng[1] < 0 {
				end = 10
			}
			if next != end {
				t.Errorf("%s %v: read up to row %d, want %d", p, rng, next, end)
			}
		}
		// A range beyond the file is an error, not a short read.
		sp := split(t, p)
		sp.RowStart, sp.RowCount = 8, 5
		_, err := readAll(t, sp, tbl, source.MappingOptions{})
		wantErr(t, err, filepath.Base(p), "changed since planning")
	}
}

func TestReaderIsStickyAndCancellable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := writeFile(t, t.TempDir(), "s.csv", "x\n1\nbad\n2\n")
	r, err := Open(ctx, osFS{}, split(t, p), table(t, "x INT"), source.MappingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err1 := r.Next(ctx)
	_, err2 := r.Next(ctx)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("errors not sticky: %v / %v", err1, err2)
	}
	cancel()
	r2, err := Open(context.Background(), osFS{}, split(t, p), table(t, "x INT"), source.MappingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if _, err := r2.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Next = %v", err)
	}
	if _, err := r2.Next(context.Background()); errors.Is(err, io.EOF) || err == nil {
		t.Errorf("reader usable after cancellation: %v", err)
	}
}
