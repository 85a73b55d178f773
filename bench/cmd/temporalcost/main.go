// Command temporalcost measures the Temporal engine's overhead against the in-process executor: a local
// `temporal server start-dev`, one `lakeload worker --concurrency 1`, CSV input loaded in process and with
// `--temporal` (1 window, W windows, W driver segments, 4 tasks per window), interleaved rounds, medians and
// the cost model's per-window, per-segment and per-task terms in a Markdown file (bench/README.md,
// docs/scale-out.md "Cost model"). Run it from the repository root:
//
//	go run ./bench/cmd/temporalcost -rows 200000 -files 20 -windows 10 -runs 3
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/lakeload/lakeload/bench"
)

func main() {
	cfg := bench.TemporalCostConfig{Log: os.Stderr, Root: "."}
	flag.IntVar(&cfg.Rows, "rows", 200_000, "generated CSV rows (a multiple of -windows)")
	flag.IntVar(&cfg.Files, "files", 40, "CSV input files, a multiple of -windows (a file is one split: 4 tasks per window need 4 files per window)")
	flag.IntVar(&cfg.Windows, "windows", 10, "windows W of the many-window runs (--commit-rows rows/W), at least 2")
	flag.IntVar(&cfg.Runs, "runs", 3, "interleaved rounds of every run")
	flag.StringVar(&cfg.Compaction, "compaction", "off", "every load's --compaction (off: measure the engine and the driver, not background compaction)")
	flag.BoolVar(&cfg.Warmup, "warmup", true, "one unmeasured in-process and temporal load first")
	flag.StringVar(&cfg.Lakeload, "lakeload", "", "lakeload binary to measure (default: go build ./cmd/lakeload into the scratch directory)")
	flag.StringVar(&cfg.Temporal, "temporal", "", "Temporal CLI (default: $LAKELOAD_TEMPORAL, else ~/.cache/lakeload/bin/temporal; `make temporal`)")
	out := flag.String("out", filepath.Join("bench", "results", time.Now().Format("2006-01-02")+"-temporal-cost.md"), "results file (Markdown)")
	work := flag.String("work", "", "scratch directory (default: a new temporary directory, removed at the end)")
	flag.Parse()
	if err := run(cfg, *out, *work); err != nil {
		fmt.Fprintln(os.Stderr, "temporalcost:", err)
		os.Exit(1)
	}
}

func run(cfg bench.TemporalCostConfig, out, work string) error {
	if _, err := os.Stat(filepath.Join("cmd", "lakeload")); err != nil && cfg.Lakeload == "" {
		return fmt.Errorf("run temporalcost from the repository root, or give -lakeload (cmd/lakeload not found): %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	work, cleanup, err := bench.ScratchDir(work, "lakeload-temporalcost-")
	if err != nil {
		return err
	}
	defer cleanup()
	cfg.Work = work
	rep, err := bench.MeasureTemporalCost(ctx, cfg)
	if err != nil {
		return err
	}
	md := rep.Markdown("go run ./bench/cmd/temporalcost " + strings.Join(os.Args[1:], " "))
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return fmt.Errorf("write -out %s: %w", out, err)
	}
	fmt.Print(md)
	fmt.Fprintln(os.Stderr, "wrote", out)
	return nil
}
