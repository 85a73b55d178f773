package job

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// TestPausedOverwriteRunnerAfterTakeoverAndExpiry: runner A of an overwrite job freezes just before
// (and inside) its final OVERWRITE commit; B takes the job over (--takeover) and finishes it; other
// writers then add rows to a replaced partition and expiry removes every snapshot it may. When A
// wakes it must not run the final OVERWRITE again: that would delete the other writers' rows (and,
// for tables hiding level 0, commit newly named merge outputs).
func TestPausedOverwriteRunnerAfterTakeoverAndExpiry(t *testing.T) {
	fixtures := []loadtest.Fixture{loadtest.AggSum(41, matrixFiles, matrixRows), firstRowPartitioned(42, matrixFiles, 100)}
	for _, fx := range fixtures {
		for _, point := range []string{PointBeforeCommit, PointInsideCommit} {
			t.Run(fx.Name+"/"+point, func(t *testing.T) {
				ctx := context.Background()
				e := newHiddenOwEnv(t, fx, checkpoint.OverwritePartitions)
				frozen, thaw := make(chan struct{}), make(chan struct{})
				var once sync.Once
				a := e.owConfig()
				a.Hook = func(p string, _ int64) error {
					if p == point {
						once.Do(func() { close(frozen); <-thaw })
					}
					return nil
				}
				errA := make(chan error, 1)
				go func() { _, err := Run(ctx, a); errA <- err }()
				select {
				case <-frozen:
				case err := <-errA:
					t.Fatalf("runner A ended before %s: %v", point, err)
				}
				b := e.owConfig()
				b.Takeover = true
				if _, err := Run(ctx, b); err != nil {
					t.Fatalf("runner B (takeover): %v", err)
				}
				var foreign [][]any
				for n := range 2 {
					row := []any{int64(5000 + n), int64(7), int32(1), "other"}
					if fx.Partition != nil {
						row = []any{touchedPartition(e), int64(900 + n), "other", int64(1)}
					}
					foreign = append(foreign, row)
					foreignWrite(t, e.tbl, row)
				}
				if _, err := maintain.Expire(ctx, e.tbl, aggressiveExpiry); err != nil {
					t.Fatal(err)
				}
				close(thaw)
				if err := <-errA; !errors.Is(err, ErrOvertaken) {
					t.Fatalf("runner A after waking: %v, want it to stop as overtaken", err)
				}
				want := slices.Sorted(slices.Values(append(slices.Clone(e.newLines), fx.Canon(t, foreign)...)))
				if d := loadtest.Diff(want, loadtest.Lines(t, e.tbl)); d != "" {
					t.Fatalf("table after runner A woke (want the new input and the other writers' rows):%s", d)
				}
			})
		}
	}
}

// foreignWrite commits row as another writer; into a table hiding level 0 it compacts afterwards, as
// such a writer must for its rows to be visible.
func foreignWrite(t *testing.T, tbl *table.Table, row []any) {
	t.Helper()
	if hiddenLevel0(tbl) == "" {
		foreignCommit(t, tbl, row)
		return
	}
	ctx := context.Background()
	w, err := write.New(ctx, tbl, write.Options{CompactsBeforePublish: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow(ctx, row, spec.RowKindInsert); err != nil {
		t.Fatal(err)
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "other-writer", Identifier: commit.BatchIdentifier, LookupAfter: -1}); err != nil {
		t.Fatal(err)
	}
	if _, err := compact.Table(ctx, tbl, compact.Options{}); err != nil {
		t.Fatal(err)
	}
}

// touchedPartition returns a partition the overwrite input replaces.
func touchedPartition(e *owEnv) string {
	for p := range e.touchedOf {
		return p
	}
	return ""
}
