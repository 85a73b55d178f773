package job

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestCancelStopsCleanly: cancelling the context (Ctrl-C) at any step of window 2 — or at a timed
// moment — stops the run with an error wrapping context.Canceled, releases the lease, keeps
// published ⊆ committed, and running again finishes the job exactly.
func TestCancelStopsCleanly(t *testing.T) {
	fx := loadtest.Dedup(8, matrixFiles, matrixRows)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	type stop struct {
		point string        // cancel when the run reaches point in window 2
		after time.Duration // or after this long
	}
	var stops []stop
	for _, p := range []string{PointAssigned, PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit,
		PointAfterCommit, PointBeforePublish, PointAfterPublish} {
		stops = append(stops, stop{point: p})
	}
	for _, d := range []time.Duration{time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond} {
		stops = append(stops, stop{after: d})
	}
	for _, s := range stops {
		name := s.point
		if name == "" {
			name = fmt.Sprintf("after-%v", s.after)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newLoadEnv(t, fx, glob)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := e.config(matrixCommitRows)
			if s.point != "" {
				cfg.Hook = func(p string, w int64) error {
					if p == s.point && w == 2 {
						cancel()
					}
					return nil
				}
			} else {
				time.AfterFunc(s.after, cancel)
			}
			_, err := e.run(ctx, cfg)
			switch {
			case err == nil && s.point == "":
				t.Logf("the job finished before the cancel at %v", s.after)
			case !errors.Is(err, context.Canceled):
				t.Fatalf("cancelled run: %v; want an error wrapping context.Canceled", err)
			}
			if p := e.checkPublishedCommitted(t); p != "" {
				t.Fatal(p)
			}
			if l, ok, err := e.store.CurrentLease(context.Background()); err != nil || (ok && !l.Released) {
				t.Fatalf("lease after the cancelled run: %+v, %v; want released", l, err)
			}
			cfg.Hook = nil
			if _, err := e.run(context.Background(), cfg); err != nil {
				t.Fatalf("rerun: %v", err)
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
		})
	}
}
