package main

import (
	"strings"
	"testing"

	"github.com/lakeload/lakeload/job"
)

func TestProgressLine(t *testing.T) {
	line := progressLine(job.Progress{RowsPublished: 500_000, RowsEstimated: 2_000_000, RowsPerSecond: 100_000, WindowsDone: 3})
	for _, want := range []string{"[######..................]", " 25%", "500k/2.0M rows", "100k rows/s", "3 windows committed", "ETA 15s"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	if l := progressLine(job.Progress{}); !strings.Contains(l, "ETA -") || !strings.Contains(l, "  0%") {
		t.Errorf("empty progress line %q", l)
	}
}
