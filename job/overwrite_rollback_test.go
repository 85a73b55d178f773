package job

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestOverwriteRollbackBelowSeenThenCrashAfterCommit: another writer commits while the overwrite's
// windows are assigned, so the last window sees its snapshot; the table is then rolled back below it,
// the final OVERWRITE lands on the rollback target (reusing the removed id) and the runner dies
// before recording it. The rerun must find the final snapshot at the reused id, below the one seen,
// and must not replace the partitions a second time.
func TestOverwriteRollbackBelowSeenThenCrashAfterCommit(t *testing.T) {
	ctx := context.Background()
	e := newOwEnv(t, loadtest.AggSum(43, matrixFiles, matrixRows), checkpoint.OverwritePartitions)
	var once sync.Once
	foreignID := int64(0)
	cfg := e.owConfig()
	cfg.Hook = func(p string, w int64) error {
		switch p {
		case PointResultStored:
			once.Do(func() {
				foreignCommit(t, e.tbl, []any{int64(5000), int64(7), int32(1), "other"})
				foreignID, _, _ = e.tbl.Snapshots().LatestID(ctx)
			})
		case PointBeforeCommit:
			st, err := e.store.Load(ctx)
			if err != nil {
				return err
			}
			if w != checkpoint.OverwriteIdentifier(st) {
				return nil
			}
			if seen, _ := checkpoint.OverwriteFloor(st); seen != foreignID || seen <= e.oldSnap {
				t.Fatalf("the last window saw snapshot %d, want the other writer's %d", seen, foreignID)
			}
			for id := e.oldSnap + 1; id <= foreignID; id++ {
				if err := os.Remove(e.tbl.Snapshots().Path(id)); err != nil {
					return err
				}
			}
			return fileio.WriteFile(ctx, e.tbl.FS, fileio.Join(e.tbl.Path, "snapshot", "LATEST"), []byte(strconv.FormatInt(e.oldSnap, 10)))
		case PointAfterCommit:
			return errCrash
		}
		return nil
	}
	if _, err := Run(ctx, cfg); !errors.Is(err, errCrash) {
		t.Fatalf("want the crash after the final commit, got %v", err)
	}
	cfg.Hook = nil
	if _, err := Run(ctx, cfg); err != nil {
		t.Fatalf("resume: %v", err)
	}
	e.checkOverwriteFinished(t)
}
