package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRunnerSmoke is the CI-sized run of cmd/benchrun: 100k rows, one round of pk (lakeload, also at
// GOMAXPROCS=1, the arrow-go ceiling, and when available the pyarrow ceiling and the pypaimon peer — the oracle
// venv, which CI installs — and the parquet-rs ceiling and the pypaimon-rust peer — the bench venv, which CI
// does not install: skipped then, with the reason logged; `make bench` requires them), scan (the merge-on-read
// table of a windowed load) and scan-raw, through real child processes (build included: < 60 s on 2 cores). It
// checks that every tool wrote or read every row (the runner itself compares the peers' read-back counts and the
// Rust peer's created_by) and that the results table holds the ratios; it asserts no timing.
func TestRunnerSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var peers []string
	ceilings := []string{"arrow-go"}
	if _, err := findPython(); err == nil {
		peers, ceilings = append(peers, "pypaimon"), append(ceilings, "pyarrow")
	} else {
		t.Logf("pypaimon peer and pyarrow ceiling skipped: %v", err)
	}
	if _, err := rustVersion(context.Background(), DefaultBenchPython()); err == nil {
		peers, ceilings = append(peers, "pypaimon-rust"), append(ceilings, "parquet-rs")
	} else {
		t.Logf("pypaimon-rust peer and parquet-rs ceiling skipped (not installed here; make bench requires them): %v", err)
	}
	const rows = 100_000
	rep, err := Run(context.Background(), Config{Rows: rows, Rounds: 1, Scenarios: []string{"pk", "scan", "scan-raw"},
		Peers: peers, Ceilings: ceilings, Work: t.TempDir(), Dir: ".", Log: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pk/lakeload", "pk/lakeload-gomaxprocs1", "pk/ceiling-arrow-go", "scan/lakeload", "scan-raw/lakeload"}
	if has(peers, "pypaimon") {
		want = append(want, "pk/pypaimon", "scan/pypaimon", "scan-raw/pypaimon", "pk/ceiling-pyarrow", "pk/ceiling-pyarrow-dict")
	}
	if has(peers, "pypaimon-rust") {
		want = append(want, "pk/pypaimon-rust", "pk/ceiling-parquet-rs", "pk/ceiling-parquet-rs-dict")
		if v := rep.Versions["pypaimon-rust data files"]; !strings.HasPrefix(v, "parquet-rs") {
			t.Errorf("pypaimon-rust's data files were written by %q, want parquet-rs", v)
		}
	}
	got := map[string]Measure{}
	for _, m := range rep.Measures {
		got[m.Scenario+"/"+m.Tool] = m
	}
	for _, k := range want {
		m, ok := got[k]
		if !ok {
			t.Errorf("no measure %s", k)
			continue
		}
		if m.Elapsed <= 0 || (!strings.HasPrefix(m.Scenario, "scan") && m.Rows != rows) {
			t.Errorf("%s: %d rows in %v", k, m.Rows, m.Elapsed)
		}
		if m.Tool != "ceiling-arrow-go" && (m.CPU <= 0 || m.MaxRSS <= 0) {
			t.Errorf("%s: no rusage of the child (cpu %v, rss %d)", k, m.CPU, m.MaxRSS)
		}
	}
	for _, k := range []string{"scan/lakeload", "scan-raw/lakeload"} {
		if s := got[k]; s.Rows <= 0 || s.Rows >= rows {
			t.Errorf("%s read %d rows of a PK table over %d input rows with updates", k, s.Rows, rows)
		}
	}
	if a, b := got["scan/lakeload"], got["scan-raw/lakeload"]; a.Rows != b.Rows {
		t.Errorf("the loaded table holds %d rows, the written one %d", a.Rows, b.Rows)
	}
	if l := got["scan/lakeload"].Extra; l["max-runs-per-bucket"] < 2 || l["files-per-bucket"] < 2 {
		t.Errorf("the merge-on-read scan table is not merge-heavy: %v", l)
	}
	md := rep.Markdown("test")
	for _, s := range []string{"## pk", "## scan\n", "## scan-raw", "| lakeload | 1 | 100000 |", "## Targets", "pk: ≥ 0.9 of the best ceiling per CPU s", "## Every round"} {
		if !strings.Contains(md, s) {
			t.Errorf("results table lacks %q:\n%s", s, md)
		}
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestSummariesAndTargets checks the results arithmetic on fixed measures: medians, ratios, the RSS and load
// targets.
func TestSummariesAndTargets(t *testing.T) {
	s := time.Second
	m := func(scn, tool string, el time.Duration, rss int64) Measure {
		return Measure{Scenario: scn, Tool: tool, Rows: 1000, InBytes: 1e6, Elapsed: el, Usage: Usage{CPU: el, MaxRSS: rss}}
	}
	rep := &Report{Measures: []Measure{
		m("pk", "lakeload", 1*s, 100<<20), m("pk", "pypaimon", 6*s, 1), m("pk", "lakeload", 3*s, 120<<20),
		m("pk", "pypaimon", 4*s, 1), m("pk", "lakeload", 2*s, 110<<20), m("pk", "pypaimon", 100*s, 1),
		m("load", "lakeload-write", 10*s, 1), m("load", "lakeload-load", 11*s, 1),
		m("append", "lakeload", 2*s, 1), m("append", "lakeload-gomaxprocs1", 3*s, 1),
		{Scenario: "pk", Tool: "ceiling-arrow-go", Rows: 1000, Elapsed: s, SpanCPU: 3 * s},
		{Scenario: "pk", Tool: "ceiling-pyarrow", Rows: 1000, Elapsed: 2 * s, SpanCPU: 1800 * time.Millisecond},
		{Scenario: "rss", Tool: "a", Rows: 10e6, Elapsed: s, Usage: Usage{MaxRSS: 400 << 20}},
		{Scenario: "rss", Tool: "b", Rows: 50e6, Elapsed: s, Usage: Usage{MaxRSS: 420 << 20}},
	}}
	ss := rep.Summaries()
	lk, _ := find(ss, "pk", "lakeload")
	py, _ := find(ss, "pk", "pypaimon")
	if lk.Elapsed != 2*s || py.Elapsed != 6*s || lk.MaxRSS != 120<<20 || lk.Rounds != 3 {
		t.Fatalf("summaries: lakeload %+v, pypaimon %+v", lk, py)
	}
	if lk.RowsPerSec != 500 || lk.MBPerSec != 0.5 {
		t.Errorf("lakeload rows/s %v MB/s %v, want 500 and 0.5", lk.RowsPerSec, lk.MBPerSec)
	}
	tg := map[string]Target{}
	for _, x := range rep.Targets() {
		tg[x.Goal] = x
	}
	if x := tg["PK: keep ≥ 10× pypaimon (issue 18)"]; !x.Known || x.Met || x.Measured != "3.00×" || x.CPUMet != 0 {
		t.Errorf("pypaimon target: %+v", x)
	}
	// lakeload's span CPU is unknown in these measures but 2 s for the ceiling comparison below.
	if x := tg["pk: ≥ 0.9 of the best ceiling per CPU s (issue 18)"]; x.Known {
		t.Errorf("ceiling target known without lakeload's span CPU: %+v", x)
	}
	if x := tg["append: GOMAXPROCS=2 ≥ 1.8× GOMAXPROCS=1 (issue 18, report)"]; !x.Known || x.Met || !strings.HasPrefix(x.Measured, "1.50×") {
		t.Errorf("GOMAXPROCS target: %+v", x)
	}
	if x := tg["exactly-once load ≤ 5% slower than one-shot write (issues 5, 18)"]; !x.Known || x.Met || x.Measured != "+10.0%" {
		t.Errorf("load target: %+v", x)
	}
	if x := tg["peak RSS 10M vs 50M rows ≤ 512 MiB, within 10%"]; !x.Known || !x.Met {
		t.Errorf("rss target: %+v", x)
	}
	if x := tg["scan (merge-on-read): stays ≥ 10× pypaimon (issue 18)"]; x.Known {
		t.Errorf("scan target known without scan measures: %+v", x)
	}
	// The best ceiling is the one of least CPU (pyarrow's 1.8 s, not arrow-go's 3 s); lakeload used 2 s: 0.90×.
	rep.Measures[0].SpanCPU, rep.Measures[2].SpanCPU, rep.Measures[4].SpanCPU = 2*s, 2*s, 2*s
	rep.Measures[1].SpanCPU, rep.Measures[3].SpanCPU, rep.Measures[5].SpanCPU = 6*s, 6*s, 6*s
	tg = map[string]Target{}
	for _, x := range rep.Targets() {
		tg[x.Goal] = x
	}
	if x := tg["pk: ≥ 0.9 of the best ceiling per CPU s (issue 18)"]; !x.Known || !x.Met || x.CPUMet != 1 ||
		!strings.HasPrefix(x.Measured, "0.90× of ceiling-pyarrow per CPU s") {
		t.Errorf("ceiling target: %+v", x)
	}
	if x := tg["PK: keep ≥ 10× pypaimon (issue 18)"]; x.CPUMet != -1 {
		t.Errorf("pypaimon target per CPU s: %+v", x)
	}
}

// TestRunnerUnawareAndTextSmoke is the CI-sized run of the append-unaware, text-csv and text-jsonl
// scenarios (5,000 rows, one round): every tool wrote or parsed every row, and the targets name them. It
// asserts no timing.
func TestRunnerUnawareAndTextSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var peers []string
	if _, err := findPython(); err == nil {
		peers = append(peers, "pypaimon")
	} else {
		t.Logf("pypaimon peer and pyarrow readers skipped: %v", err)
	}
	const rows = 5000
	rep, err := Run(context.Background(), Config{Rows: rows, Rounds: 1, Scenarios: []string{"append-unaware", "text-csv", "text-jsonl"},
		Peers: peers, Work: t.TempDir(), Dir: ".", Log: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"append-unaware/lakeload", "append-unaware/lakeload-gomaxprocs1", "text-csv/lakeload", "text-csv/lakeload-parse",
		"text-jsonl/lakeload", "text-jsonl/lakeload-parse"}
	if has(peers, "pypaimon") {
		want = append(want, "append-unaware/pypaimon", "text-csv/pyarrow-parse", "text-csv/pypaimon", "text-jsonl/pyarrow-parse", "text-jsonl/pypaimon")
	}
	got := map[string]Measure{}
	for _, m := range rep.Measures {
		got[m.Scenario+"/"+m.Tool] = m
	}
	for _, k := range want {
		if m, ok := got[k]; !ok || m.Rows != rows || m.Elapsed <= 0 {
			t.Errorf("measure %s: %+v (present %v), want %d rows", k, m, ok, rows)
		}
	}
	md := rep.Markdown("test")
	for _, s := range []string{"## append-unaware", "## text-csv", "## text-jsonl", "text-csv: lakeload's parse ≥ 1× pyarrow's CSV reader", "append bucket=-1: ≥ 1.5× pypaimon"} {
		if !strings.Contains(md, s) {
			t.Errorf("results table lacks %q", s)
		}
	}
}
