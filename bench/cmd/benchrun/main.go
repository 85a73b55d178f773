// Command benchrun runs lakeload's bench scenarios (append, append-unaware, pk, load, resume, scan, scan-raw, text-csv, text-jsonl, rss) for lakeload and its
// peers (pypaimon, pypaimon with its Rust writer, Ray Data + pypaimon, Java Paimon) and the Parquet ceilings
// (arrow-go, pyarrow, parquet-rs) interleaved over several rounds, and writes a Markdown
// table with ratios to bench/results/<date>.md (bench/README.md). Run it from the repository root:
//
//	go run ./bench/cmd/benchrun -rows 2000000 -rounds 3 -rss-rows 10000000,50000000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lakeload/lakeload/bench"
)

func main() {
	rows := flag.Int("rows", 2_000_000, "generated input rows of every scenario but rss")
	rounds := flag.Int("rounds", 3, "rounds of every scenario")
	scenarios := flag.String("scenarios", strings.Join(bench.AllScenarios, ","), "scenarios to run")
	peers := flag.String("peers", strings.Join(bench.AllPeers, ","), "peers to run ("+strings.Join(bench.AllPeers, ", ")+")")
	ceilings := flag.String("ceilings", strings.Join(bench.AllCeilings, ","), "ceiling encoders measured in append and pk ("+strings.Join(bench.AllCeilings, ", ")+")")
	rssRows := flag.String("rss-rows", "10000000", "input sizes of the rss scenario, comma-separated (e.g. 10000000,50000000)")
	commitRows := flag.Int("commit-rows", 1_000_000, "rows per window of `lakeload load` in the load scenario")
	out := flag.String("out", filepath.Join("bench", "results", time.Now().Format("2006-01-02")+".md"), "results file (Markdown)")
	lakeload := flag.String("lakeload", "", "lakeload binary to measure (default: go build ./cmd/lakeload into the scratch directory)")
	baseline := flag.String("baseline", "", "a second lakeload binary (before a change), measured as lakeload-before in append, pk and scan")
	work := flag.String("work", "", "scratch directory (default: a new temporary directory, removed at the end)")
	flag.Parse()

	if err := run(*rows, *rounds, *scenarios, *peers, *ceilings, *rssRows, *commitRows, *out, *work, *lakeload, *baseline); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

func run(rows, rounds int, scenarios, peers, ceilings, rssRows string, commitRows int, out, work, lakeload, baseline string) error {
	if _, err := os.Stat(filepath.Join("bench", "py")); err != nil {
		return fmt.Errorf("run benchrun from the repository root (bench/py not found): %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	work, cleanup, err := bench.ScratchDir(work, "lakeload-benchrun-")
	if err != nil {
		return err
	}
	defer cleanup()
	cfg := bench.Config{Rows: rows, Rounds: rounds, Scenarios: split(scenarios), Peers: split(peers), Ceilings: split(ceilings),
		CommitRows: commitRows, Work: work, Dir: "bench", Lakeload: lakeload, Baseline: baseline, Log: os.Stderr}
	for _, s := range split(rssRows) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return fmt.Errorf("-rss-rows: %q is not a positive row count", s)
		}
		cfg.RSSRows = append(cfg.RSSRows, n)
	}
	rep, runErr := bench.Run(ctx, cfg)
	if rep == nil {
		return runErr
	}
	if runErr != nil { // keep what was measured: the table says the run stopped early
		rep.Finished = time.Now()
		rep.Notes = append(rep.Notes, "**The run stopped early:** "+runErr.Error())
	}
	md := rep.Markdown("go run ./bench/cmd/benchrun " + strings.Join(os.Args[1:], " "))
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Print(md)
	fmt.Fprintln(os.Stderr, "benchrun: wrote", out)
	return runErr
}

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
