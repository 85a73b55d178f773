package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTemporalCostSmoke runs the Temporal cost measurement at 2k rows, 2 windows, one round on a real dev server
// (skipped without the Temporal CLI unless LAKELOAD_REQUIRE_TEMPORAL=1). It asserts what the measurement relies
// on, never a timing: every variant ran once, loaded every row in the intended windows and tasks, the workers'
// CPU was seen only for Temporal runs, and the report names every variant.
func TestTemporalCostSmoke(t *testing.T) {
	cli, err := TemporalCLI()
	if err != nil {
		if os.Getenv(EnvRequireTemporal) == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const rows, windows = 2000, 2
	rep, err := MeasureTemporalCost(ctx, TemporalCostConfig{Rows: rows, Files: 8, Windows: windows, Runs: 1,
		Temporal: cli, Root: root, Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != len(rep.Variants) || len(rep.Variants) != 7 {
		t.Fatalf("%d runs of %d variants, want 7 of 7", len(rep.Runs), len(rep.Variants))
	}
	for i, r := range rep.Runs {
		v := rep.Variants[i]
		if r.Variant != v.Name || r.Rows != rows || r.Windows != v.Windows || r.Tasks != min(v.Parallelism, 8/windows) || r.Wall <= 0 {
			t.Errorf("run %d (%s): rows %d, windows %d, tasks %d, wall %v; want %s with %d rows, %d windows, %d tasks",
				i, r.Variant, r.Rows, r.Windows, r.Tasks, r.Wall, v.Name, rows, v.Windows, min(v.Parallelism, 8/windows))
		}
	}
	md := rep.Markdown("go test")
	for _, want := range []string{VarInProcess1, VarTemporal1, VarInProcessW, VarTemporalW, VarTemporalWSeg1,
		VarInProcessWP4, VarTemporalWP4, "engine cost per window", "driver cost per window", "engine cost per driver segment"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestGenerateCSVLineSize checks the 64-byte lines the window sizing relies on.
func TestGenerateCSVLineSize(t *testing.T) {
	dir := t.TempDir()
	n, err := GenerateCSV(dir, 1000, 4)
	if err != nil {
		t.Fatal(err)
	}
	header := int64(len("id,name,city,v,ts,dt\n"))
	if n != 4*header+1000*64 {
		t.Fatalf("CSV size %d, want %d (64-byte lines)", n, 4*header+1000*64)
	}
	b, err := os.ReadFile(filepath.Join(dir, "in-003.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 251 || !strings.HasPrefix(lines[1], "750,name-750x") || len(strings.Split(lines[250], ",")) != 6 {
		t.Fatalf("in-003.csv: %d lines, first row %q, last row %q", len(lines), lines[1], lines[250])
	}
}
