package bench

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var inputPaths []string // generated once per process by TestMain

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "lakeload-bench-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() != "" { // generate the input only when benchmarking
		in := filepath.Join(dir, "in")
		if err := os.Mkdir(in, 0o755); err != nil {
			panic(err)
		}
		if inputPaths, err = Generate(in, *benchRows); err != nil {
			panic(err)
		}
	}
	return m.Run()
}

// scenario is one measured way of writing the input; run returns the rows written.
type scenario struct {
	name string
	run  func(ctx context.Context, paths []string, dir string) (int64, error)
}

var scenarios = []scenario{
	{"ceiling", runCeiling},
	{"pk", func(ctx context.Context, p []string, d string) (int64, error) { return runLakeload(ctx, p, d, true) }},
	{"append", func(ctx context.Context, p []string, d string) (int64, error) { return runLakeload(ctx, p, d, false) }},
}

// BenchmarkCompare runs every scenario once per iteration, interleaved, and reports rows/s of each and
// lakeload's ratio to the ceiling (pk/ceiling, append/ceiling).
func BenchmarkCompare(b *testing.B) {
	ctx := context.Background()
	total := make([]time.Duration, len(scenarios))
	var rows int64
	for i := 0; i < b.N; i++ {
		for s, sc := range scenarios {
			d, n := runOnce(b, ctx, sc)
			total[s] += d
			rows = n
		}
	}
	rate := make([]float64, len(scenarios))
	for s, sc := range scenarios {
		rate[s] = float64(rows) * float64(b.N) / total[s].Seconds()
		b.ReportMetric(rate[s], sc.name+"-rows/s")
	}
	b.ReportMetric(rate[1]/rate[0], "pk/ceiling")
	b.ReportMetric(rate[2]/rate[0], "append/ceiling")
	b.ReportMetric(0, "ns/op") // the sum of three scenarios says nothing
}

// BenchmarkScenario runs each scenario alone (for -cpuprofile of one of them: -bench Scenario/pk).
func BenchmarkScenario(b *testing.B) {
	ctx := context.Background()
	for _, sc := range scenarios {
		b.Run(sc.name, func(b *testing.B) {
			var total time.Duration
			var rows int64
			for i := 0; i < b.N; i++ {
				d, n := runOnce(b, ctx, sc)
				total += d
				rows = n
			}
			b.ReportMetric(float64(rows)*float64(b.N)/total.Seconds(), "rows/s")
		})
	}
}

// runOnce runs sc into a fresh directory and times it; the directory is removed untimed.
func runOnce(b *testing.B, ctx context.Context, sc scenario) (time.Duration, int64) {
	b.StopTimer()
	dir, err := os.MkdirTemp("", "lakeload-bench-out-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	b.StartTimer()
	start := time.Now()
	n, err := sc.run(ctx, inputPaths, filepath.Join(dir, "t"))
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s: %v", sc.name, err)
	}
	if n != int64(*benchRows) {
		b.Fatalf("%s: wrote %d rows, want %d", sc.name, n, *benchRows)
	}
	return d, n
}
