package job

import (
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// planOf returns the store's plan as splits (plan.Stored), failing t on an error.
func planOf(t testing.TB, st checkpoint.State) []source.Split {
	t.Helper()
	splits, err := plan.Stored(st)
	if err != nil {
		t.Fatal(err)
	}
	return splits
}

// storedSplits decodes stored splits, failing t on an error.
func storedSplits(t testing.TB, os []checkpoint.Opaque) []source.Split {
	t.Helper()
	s, err := plan.DecodeSplits(os)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// msgsOf returns the stored commit messages of results (task.Messages), failing t on an error.
func msgsOf(t testing.TB, results ...checkpoint.TaskResult) []table.CommitMessage {
	t.Helper()
	m, err := task.Messages(results...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
