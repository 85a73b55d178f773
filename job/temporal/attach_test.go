package temporal

import (
	"slices"
	"testing"
	"time"
)

func TestOptionDiff(t *testing.T) {
	base := JobInput{Ref: JobRef{Job: "j", Warehouse: "s3://b/wh", Table: "db.t", From: "s3://b/in/*.csv", Parallelism: 4,
		CommitRows: 1000}, Timing: Timing{TaskTimeout: time.Hour}}
	same := base
	same.Done = JobProgress{Segments: 7, Runs: 2} // counters are not options
	if d := OptionDiff(base, same); len(d) != 0 {
		t.Fatalf("equal options differ in %v", d)
	}
	other := base
	other.Ref.Parallelism, other.Ref.Compaction, other.Timing.TaskTimeout = 8, "off", time.Minute
	other.Ref.RecomputeWindows = []int64{3}
	want := []string{"ref.compaction", "ref.parallelism", "ref.recomputeWindows", "timing.TaskTimeout"}
	if d := OptionDiff(base, other); !slices.Equal(d, want) {
		t.Fatalf("OptionDiff = %v, want %v", d, want)
	}
}
