package job

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/compact"
)

// TestResumeAfterInterleavedCompaction: a load crashes at each commit-side point of window 2; a
// compaction (its own commit user, COMPACT kind) then rewrites every file of the table, including
// those the crashed window may have committed; the resume must find its markers (user, window,
// APPEND), neither recommit nor lose a window, and finish with the expected table. A final
// compaction leaves the table unchanged.
func TestResumeAfterInterleavedCompaction(t *testing.T) {
	fx := loadtest.Dedup(5, matrixFiles, matrixRows)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for _, p := range []string{PointBeforeCommit, PointAfterCommit, PointBeforePublish, PointAfterPublish} {
		t.Run(p, func(t *testing.T) {
			e := newLoadEnv(t, fx, glob)
			ctx := context.Background()
			cfg := e.config(matrixCommitRows)
			var hit atomic.Bool
			cfg.Hook = e.crashHook(crashAt{p, 2}, &hit)
			if _, err := e.run(ctx, cfg); !hit.Load() || !errors.Is(err, errCrash) {
				t.Fatalf("crash at %s: hit %v err %v", p, hit.Load(), err)
			}
			r, err := compact.Run(ctx, e.tbl, compact.Options{Full: true})
			if err != nil || r.SnapshotID == 0 {
				t.Fatalf("compaction between crash and resume: %+v %v", r, err)
			}
			cfg.Hook = nil
			if _, err := e.run(ctx, cfg); err != nil {
				t.Fatalf("resume after compaction: %v", err)
			}
			if msg := e.checkFinished(t); msg != "" {
				t.Fatal(msg)
			}
			if _, err := compact.Run(ctx, e.tbl, compact.Options{Full: true}); err != nil {
				t.Fatal(err)
			}
			if msg := e.checkFinished(t); msg != "" {
				t.Fatalf("after a final compaction: %s", msg)
			}
		})
	}
}
