package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

// BenchmarkScan writes the input into a PK table once (untimed) and reads it back per iteration the way
// `lakeload scan` does (read.Scan, then ReadSplit row by row; no output formatting). For profiles:
// go test -run '^$' -bench Scan -benchtime 3x -cpuprofile scan.cpu ./bench -rows 1000000
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
	b.ResetTimer()
	var rows int64
	for i := 0; i < b.N; i++ {
		t, err := table.Open(ctx, local.New(), filepath.Join(dir, "t"), "db.t")
		if err != nil {
			b.Fatal(err)
		}
		plan, err := read.Scan(ctx, t, read.ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
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
	if rows == 0 || rows > int64(*benchRows) {
		b.Fatalf("scan read %d rows of %d input rows", rows, *benchRows)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
