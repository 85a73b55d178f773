package plan

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/source"
)

// TestStoredSplitsAreChecked: a byte-range split read from a plan whose header claims record format
// version 1 is refused as corrupt, naming the plan (a version-1 reader could not have read it), and
// so is a split with a field source.Split does not have (a newer layout must bump the version).
func TestStoredSplitsAreChecked(t *testing.T) {
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	whole := source.Split{Path: "/in/a.csv", Format: source.FormatCSV, Size: 100, ModTimeUnixNano: 1, RowCount: -1}
	cut := source.Split{Path: "/in/a.csv", Format: source.FormatCSV, Size: 100, ModTimeUnixNano: 1, RowStart: 3, RowCount: 4,
		ByteStart: 40, ByteEnd: 80, FirstLine: 5}
	load := func(plan []checkpoint.Opaque, header func([]byte) []byte) (checkpoint.State, string) {
		t.Helper()
		fs := mem.New()
		s := checkpoint.NewStore(fs, "/ckpt/j")
		must(s.WriteJob(ctx, checkpoint.JobRecord{JobID: "j", CommitUser: "u"}))
		must(s.WritePlan(ctx, checkpoint.PlanRecord{Splits: plan}))
		p := "/ckpt/j/plan.json"
		b, err := fs.ReadFile(ctx, p)
		must(err)
		must(fs.Delete(ctx, p))
		must(fs.WriteIfAbsent(ctx, p, header(b)))
		st, err := s.Load(ctx)
		must(err)
		return st, p
	}
	encoded, err := EncodeSplits([]source.Split{whole, cut})
	must(err)
	same := func(b []byte) []byte { return b }
	st, _ := load(encoded, same)
	if got, err := Stored(st); err != nil || len(got) != 2 || got[1] != cut {
		t.Fatalf("plan read back as %+v, %v", got, err)
	}
	st, p := load(encoded, func(b []byte) []byte {
		return bytes.Replace(b, []byte("LLCKPT 2"), []byte("LLCKPT 1"), 1)
	})
	if _, err := Stored(st); !errors.Is(err, checkpoint.ErrCorrupt) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("a byte range under a version 1 header: %v", err)
	}
	extra, err := checkpoint.NewOpaque(map[string]any{"path": "/in/a.csv", "format": "csv", "rowCount": -1, "extra": true}, 1)
	must(err)
	st, p = load([]checkpoint.Opaque{extra}, same)
	if _, err := Stored(st); !errors.Is(err, checkpoint.ErrCorrupt) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("a split with an unknown field: %v", err)
	}
}
