package job

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/spec"
)

// overheadFixture is a primary-key table with 8 partitions × 8 buckets and one small CSV input file
// per window (rows rows each, spread over every partition).
func overheadFixture(windows, rows int) loadtest.Fixture {
	f := loadtest.Fixture{Name: "overhead",
		Columns:   [][2]string{{"p", "INT NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"v", "STRING"}},
		PK:        []string{"p", "id"},
		Partition: []string{"p"},
		Options:   map[string]string{"bucket": "8"}}
	id := int64(0)
	for w := range windows {
		fl := loadtest.File{Name: fmt.Sprintf("in-%05d.csv", w)}
		for range rows {
			fl.Rows = append(fl.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: []any{int32(id % 8), id, fmt.Sprintf("v%d", id)}})
			id++
		}
		f.Files = append(f.Files, fl)
	}
	return f
}

// BenchmarkWindowOverhead loads N windows of a few rows each into a fresh local table (compaction
// off, one CSV file per window) and reports the wall time per window. The fixed cost of a window
// must not grow with the number of windows (snapshots) already loaded: compare N=10 with N=100.
// The table and store are on real disk (fsyncs count) unless LAKELOAD_BENCH_DIR names another place.
//
//	go test ./job -run '^$' -bench WindowOverhead -benchtime 1x
func BenchmarkWindowOverhead(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var total, first, last time.Duration
			for i := 0; i < b.N; i++ {
				el, times := loadWindows(b, n)
				total += el
				first += times[10] - times[0]
				last += times[n] - times[n-10]
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N*n), "ms/window")
			// The first and the last ten windows of the run: growth with the table's size shows here.
			b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N*10), "ms/window-first10")
			b.ReportMetric(float64(last.Microseconds())/1000/float64(b.N*10), "ms/window-last10")
		})
	}
}

// loadWindows sets up a fresh table with n one-file windows and returns the time job.Run took and
// the time since its start at the end of windows 0 (the first assignment) to n.
func loadWindows(b *testing.B, n int) (time.Duration, []time.Duration) {
	b.StopTimer()
	defer b.StartTimer()
	dir := b.TempDir()
	if d := os.Getenv("LAKELOAD_BENCH_DIR"); d != "" {
		var err error
		if dir, err = os.MkdirTemp(d, "overhead-"); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = os.RemoveAll(dir) })
	}
	fx := overheadFixture(n, 16)
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		b.Fatal(err)
	}
	glob := fx.WriteInputs(b, in)
	fx.Create(b, filepath.Join(dir, "wh"))
	tbl := fx.Open(b, filepath.Join(dir, "wh"), local.New())
	cfg := Config{
		Spec:    Spec{Name: "overhead", Input: Input{From: []string{glob}}, CommitRows: 1, Parallelism: 2, Compaction: CompactionOff},
		Table:   tbl,
		InputFS: local.New(),
		Store:   checkpoint.NewStore(local.New(), filepath.Join(dir, "store")),
	}
	var start time.Time
	times := []time.Duration{0}
	cfg.Progress = func(p Progress) {
		if p.Window > 0 {
			times = append(times, time.Since(start))
		}
	}
	cfg.Hook = func(point string, w int64) error {
		if point == PointAssigned && w == 1 {
			times[0] = time.Since(start)
		}
		return nil
	}
	b.StartTimer()
	start = time.Now()
	res, err := Run(context.Background(), cfg)
	el := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatalf("load %d windows: %v", n, err)
	}
	if res.WindowsCommitted != int64(n) || len(times) != n+1 {
		b.Fatalf("load committed %d windows (%d reported), want %d", res.WindowsCommitted, len(times)-1, n)
	}
	return el, times
}
