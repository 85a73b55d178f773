package job

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestFirstWindowPinnedAtAssignment: another writer commits and snapshot expiry runs while the first
// window of a fresh job is being written, and the job crashes before its commit. Recovery must look
// the window up after the snapshot seen at assignment; without a pin set at assignment expiry would
// have removed the snapshots after it and the outcome would be unknowable. The resume must finish
// with the table equal to the model plus the other writer's rows.
func TestFirstWindowPinnedAtAssignment(t *testing.T) {
	fx := loadtest.AggSum(43, matrixFiles, matrixRows)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	e := newLoadEnv(t, fx, glob)
	ctx := context.Background()
	var foreign loadtest.File
	other := func(id int64) {
		row := []any{id, int64(7), int32(1), "other"}
		foreign.Rows = append(foreign.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: row})
		foreignCommit(t, e.tbl, row)
	}
	other(900) // snapshotSeen ≥ 1
	var mu sync.Mutex
	n := int64(0)
	churn := func(p string, w int64) error {
		mu.Lock()
		defer mu.Unlock()
		if w != 1 || (p != PointTaskWritten && p != PointResultStored && p != PointBeforeCommit) {
			return nil
		}
		for range 2 {
			n++
			other(1000 + n)
		}
		_, err := maintain.Expire(ctx, e.tbl, aggressiveExpiry)
		return err
	}
	cfg := e.config(matrixCommitRows)
	cfg.Hook = func(p string, w int64) error {
		if err := churn(p, w); err != nil {
			return err
		}
		if p == PointBeforeCommit && w == 1 {
			return errCrash
		}
		return nil
	}
	if _, err := e.run(ctx, cfg); !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the crash before window 1's commit", err)
	}
	cfg.Hook = nil
	if _, err := e.run(ctx, cfg); err != nil {
		t.Fatalf("resume after expiry passed window 1's snapshotSeen: %v", err)
	}
	want := fx.ExpectedOf(t, append(slices.Clone(fx.Files), foreign))
	if d := loadtest.Diff(want, loadtest.Lines(t, e.tbl)); d != "" {
		t.Fatalf("table differs from the model:%s", d)
	}
}
