package job

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// planOf returns the store's plan as splits (PlanSplits), failing t on an error.
func planOf(t testing.TB, st checkpoint.State) []source.Split {
	t.Helper()
	plan, err := PlanSplits(st)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// storedSplits decodes stored splits, failing t on an error.
func storedSplits(t testing.TB, os []checkpoint.Opaque) []source.Split {
	t.Helper()
	s, err := decodeSplits(os)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// msgsOf returns the stored commit messages of results (Messages), failing t on an error.
func msgsOf(t testing.TB, results ...checkpoint.TaskResult) []table.CommitMessage {
	t.Helper()
	m, err := Messages(results...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStoredSplitsAreChecked: a byte-range split read from a plan whose header claims record format
// version 1 is refused as corrupt, naming the plan (a version-1 reader could not have read it), and
// so is a split with a field source.Split does not have (a newer layout must bump the version).
func TestStoredSplitsAreChecked(t *testing.T) {
	whole := source.Split{Path: "/in/a.csv", Format: source.FormatCSV, Size: 100, ModTimeUnixNano: 1, RowCount: -1}
	cut := source.Split{Path: "/in/a.csv", Format: source.FormatCSV, Size: 100, ModTimeUnixNano: 1, RowStart: 3, RowCount: 4,
		ByteStart: 40, ByteEnd: 80, FirstLine: 5}
	load := func(t *testing.T, plan []checkpoint.Opaque, header func([]byte) []byte) (checkpoint.State, string) {
		fs := mem.New()
		s := checkpoint.NewStore(fs, "/ckpt/j")
		must(t, s.WriteJob(bg, checkpoint.JobRecord{JobID: "j", CommitUser: "u"}))
		must(t, s.WritePlan(bg, checkpoint.PlanRecord{Splits: plan}))
		p := "/ckpt/j/plan.json"
		b := mustGet(fs.ReadFile(bg, p))
		must(t, fs.Delete(bg, p))
		must(t, fs.WriteIfAbsent(bg, p, header(b)))
		return mustGet(s.Load(bg)), p
	}
	same := func(b []byte) []byte { return b }
	st, _ := load(t, mustGet(encodeSplits([]source.Split{whole, cut})), same)
	if got := planOf(t, st); len(got) != 2 || got[1] != cut {
		t.Fatalf("plan read back as %+v", got)
	}
	st, p := load(t, mustGet(encodeSplits([]source.Split{whole, cut})), func(b []byte) []byte {
		return bytes.Replace(b, []byte("LLCKPT 2"), []byte("LLCKPT 1"), 1)
	})
	if _, err := PlanSplits(st); !errors.Is(err, checkpoint.ErrCorrupt) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("a byte range under a version 1 header: %v", err)
	}
	extra := mustGet(checkpoint.NewOpaque(map[string]any{"path": "/in/a.csv", "format": "csv", "rowCount": -1, "extra": true}, 1))
	st, p = load(t, []checkpoint.Opaque{extra}, same)
	if _, err := PlanSplits(st); !errors.Is(err, checkpoint.ErrCorrupt) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("a split with an unknown field: %v", err)
	}
}
