package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

// compactionWindows is the number of windows of the windowed loads.
const compactionWindows = 100

// BenchmarkCompactionScan loads the same rows (-rows, cut into 100 Parquet files) into the bench's
// primary-key table (8 partitions × 8 buckets) three ways with the `lakeload load` binary — one
// window; 100 windows with --compaction auto (the default); 100 windows with --compaction off — and
// reports for each table the median time of a full scan (read.Scan + ReadSplit of every row, 3
// runs), files per bucket and sorted runs per bucket, plus the scan-time ratios to the one-window
// table (target for auto: ≤ 2). Reported, not asserted:
//
//	go test -run '^$' -bench CompactionScan -benchtime 1x ./bench -rows 200000
func BenchmarkCompactionScan(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	bin := filepath.Join(dir, "lakeload")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/lakeload")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/lakeload: %v: %s", err, out)
	}
	rows := *benchRows
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	per := (rows + compactionWindows - 1) / compactionWindows
	for f, start := 0, 0; start < rows; f, start = f+1, start+per {
		if err := writeInput(filepath.Join(in, fmt.Sprintf("in-%03d.parquet", f)), rng, start, min(start+per, rows)); err != nil {
			b.Fatal(err)
		}
	}
	type variant struct {
		name       string
		commitRows int
		compaction string
	}
	variants := []variant{
		{"single-window", rows + 1, "auto"},
		{"100-windows-auto", per, "auto"},
		{"100-windows-off", per, "off"},
	}
	scans := map[string]time.Duration{}
	for _, v := range variants {
		wh := filepath.Join(dir, "wh-"+v.name)
		tdir := filepath.Join(wh, "db.db", "t")
		if _, err := newTable(ctx, tdir, true); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		load := exec.CommandContext(ctx, bin, "load", "--warehouse", wh, "--table", "db.t", "--job", "j",
			"--from", filepath.Join(in, "*.parquet"), "--commit-rows", strconv.Itoa(v.commitRows), "--compaction", v.compaction)
		if out, err := load.CombinedOutput(); err != nil {
			b.Fatalf("%s: lakeload load: %v: %s", v.name, err, out)
		}
		loadTime := time.Since(start)
		t, err := table.Open(ctx, local.New(), tdir, "db.t")
		if err != nil {
			b.Fatal(err)
		}
		st, err := bucketShape(ctx, t)
		if err != nil {
			b.Fatal(err)
		}
		var times []time.Duration
		var read int64
		for range 3 {
			start := time.Now()
			if read, err = scanAll(ctx, t); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
		scans[v.name] = median(times)
		b.Logf("%-17s load %7.2fs  scan %8.1fms  rows %d  snapshots %d  files/bucket max %d mean %.1f  sorted runs/bucket max %d mean %.1f",
			v.name, loadTime.Seconds(), ms(scans[v.name]), read, st.snapshots, st.maxFiles, st.meanFiles, st.maxRuns, st.meanRuns)
		b.ReportMetric(ms(scans[v.name]), v.name+"-scan-ms")
		b.ReportMetric(float64(st.maxRuns), v.name+"-max-runs")
	}
	auto := float64(scans["100-windows-auto"]) / float64(scans["single-window"])
	off := float64(scans["100-windows-off"]) / float64(scans["single-window"])
	b.Logf("scan-time ratio to the one-window table: auto %.2f× (target ≤ 2×), off %.2f×", auto, off)
	b.ReportMetric(auto, "auto/single")
	b.ReportMetric(off, "off/single")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// shape describes the buckets of a table's latest snapshot.
type shape struct {
	snapshots           int64
	maxFiles, maxRuns   int
	meanFiles, meanRuns float64
}

// bucketShape counts per bucket the live data files and the sorted runs (each level-0 file, plus
// each non-empty higher level).
func bucketShape(ctx context.Context, t *table.Table) (shape, error) {
	plan, err := read.Scan(ctx, t, read.ScanOptions{AllLevels: true})
	if err != nil || len(plan.Splits) == 0 {
		return shape{}, fmt.Errorf("scan %s: %d splits, %v", t.Path, len(plan.Splits), err)
	}
	s := shape{snapshots: plan.Snapshot.ID}
	var files, runs []int
	for _, sp := range plan.Splits {
		levels := map[int32]bool{}
		n := 0
		for _, f := range sp.Files {
			if f.Level == 0 || !levels[f.Level] {
				n++
			}
			levels[f.Level] = true
		}
		files, runs = append(files, len(sp.Files)), append(runs, n)
	}
	sum := func(xs []int) (t int) {
		for _, x := range xs {
			t += x
		}
		return t
	}
	s.maxFiles, s.maxRuns = slices.Max(files), slices.Max(runs)
	s.meanFiles, s.meanRuns = float64(sum(files))/float64(len(files)), float64(sum(runs))/float64(len(runs))
	return s, nil
}

// scanAll reads every row of t's latest snapshot as `lakeload scan` does (without formatting).
func scanAll(ctx context.Context, t *table.Table) (int64, error) {
	plan, err := read.Scan(ctx, t, read.ScanOptions{})
	if err != nil {
		return 0, err
	}
	r, err := read.NewReader(t, plan.Schema)
	if err != nil {
		return 0, err
	}
	var rows int64
	for _, s := range plan.Splits {
		if err := r.ReadSplit(ctx, s, func([]any) error { rows++; return nil }); err != nil {
			return rows, err
		}
	}
	return rows, nil
}
