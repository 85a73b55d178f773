package temporal

import (
	"slices"
	"testing"
	"time"

	"github.com/lakeload/lakeload/job"
)

func TestOptionDiff(t *testing.T) {
	base := JobInput{Spec: job.Spec{Name: "j", Warehouse: "s3://b/wh", TableName: "db.t", Input: job.Input{From: []string{"s3://b/in/*.csv"}}, Parallelism: 4,
		CommitRows: 1000}, Timing: Timing{TaskTimeout: time.Hour}}
	same := base
	same.Done = JobProgress{Segments: 7, Runs: 2} // counters are not options
	if d := OptionDiff(base, same); len(d) != 0 {
		t.Fatalf("equal options differ in %v", d)
	}
	other := base
	other.Spec.Parallelism, other.Spec.Compaction, other.Timing.TaskTimeout = 8, "off", time.Minute
	other.Spec.RecomputeWindows = []int64{3}
	want := []string{"spec.compaction", "spec.parallelism", "spec.recomputeWindows", "timing.TaskTimeout"}
	if d := OptionDiff(base, other); !slices.Equal(d, want) {
		t.Fatalf("OptionDiff = %v, want %v", d, want)
	}
}
