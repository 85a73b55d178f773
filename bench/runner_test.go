package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRunnerSmoke is the CI-sized run of cmd/benchrun: 100k rows, one round of pk (lakeload, the ceiling and the
// pypaimon peer when available), scan (the merge-on-read table of a windowed load) and scan-raw, through real child processes (build included: < 60 s on 2 cores). It checks that every tool wrote or
// read every row (the runner itself compares the peers' read-back counts) and that the results table holds the
// ratios; it asserts no timing.
func TestRunnerSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var peers []string
	if _, err := findPython(); err == nil {
		peers = []string{"pypaimon"}
	} else {
		t.Logf("pypaimon peer skipped: %v", err)
	}
	const rows = 100_000
	rep, err := Run(context.Background(), Config{Rows: rows, Rounds: 1, Scenarios: []string{"pk", "scan", "scan-raw"},
		Peers: peers, Work: t.TempDir(), Dir: ".", Log: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pk/lakeload", "pk/ceiling", "scan/lakeload", "scan-raw/lakeload"}
	if len(peers) > 0 {
		want = append(want, "pk/pypaimon", "scan/pypaimon", "scan-raw/pypaimon")
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
		if m.Tool != "ceiling" && (m.CPU <= 0 || m.MaxRSS <= 0) {
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
	for _, s := range []string{"## pk", "## scan\n", "## scan-raw", "| lakeload | 1 | 100000 |", "## Targets", "PK load ≥ 0.6 of the arrow-go ceiling"} {
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
	if x := tg["PK load ≥ 5× pypaimon batch write"]; !x.Known || x.Met || x.Measured != "3.00×" {
		t.Errorf("pypaimon target: %+v", x)
	}
	if x := tg["exactly-once load ≤ 5% slower than one-shot write"]; !x.Known || x.Met || x.Measured != "+10.0%" {
		t.Errorf("load target: %+v", x)
	}
	if x := tg["peak RSS 10M vs 50M rows ≤ 512 MiB, within 10%"]; !x.Known || !x.Met {
		t.Errorf("rss target: %+v", x)
	}
	if x := tg["scan ≥ 3× pypaimon (loaded PK table, merge-on-read)"]; x.Known {
		t.Errorf("scan target known without scan measures: %+v", x)
	}
}
