package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

// BenchmarkScan writes the input into a PK table once (untimed) and reads it back per iteration, in one
// process and interleaved: "rows" the row path (read.Scan, then ReadSplit row by row, as `lakeload scan
// --output jsonl|csv|table` does, without output formatting; the old read.Records did this plus rebuilding
// Arrow batches, so it is a lower bound of the old Records' cost) and "arrow" read.Records (the columnar
// fast path that `lakeload scan --output arrow|parquet` uses). For profiles:
// go test -run '^$' -bench Scan/arrow -benchtime 3x -cpuprofile scan.cpu ./bench -rows 1000000
func BenchmarkScan(b *testing.B) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lakeload-bench-scan-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if _, err := runLakeload(ctx, inputPaths, filepath.Join(dir, "t"), true); err != nil {
		b.Fatal(err)
	}
	open := func(b *testing.B) (*table.Table, *read.Plan) {
		t, err := table.Open(ctx, local.New(), filepath.Join(dir, "t"), "db.t")
		if err != nil {
			b.Fatal(err)
		}
		plan, err := read.Scan(ctx, t, read.ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return t, plan
	}
	check := func(b *testing.B, rows int64) {
		if rows == 0 || rows > int64(*benchRows) {
			b.Fatalf("scan read %d rows of %d input rows", rows, *benchRows)
		}
		b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	}
	b.Run("rows", func(b *testing.B) {
		var rows int64
		for i := 0; i < b.N; i++ {
			t, plan := open(b)
			r, err := read.NewReader(t, plan.Schema)
			if err != nil {
				b.Fatal(err)
			}
			rows = 0
			for _, s := range plan.Splits {
				if err := r.ReadSplit(ctx, s, func(row []any) error { rows++; return nil }); err != nil {
					b.Fatal(err)
				}
			}
		}
		check(b, rows)
	})
	b.Run("arrow", func(b *testing.B) {
		var rows int64
		for i := 0; i < b.N; i++ {
			t, plan := open(b)
			rows = 0
			if err := read.Records(ctx, t, plan, 65536, func(rec arrow.RecordBatch) error { rows += rec.NumRows(); return nil }); err != nil {
				b.Fatal(err)
			}
		}
		check(b, rows)
	})
}
