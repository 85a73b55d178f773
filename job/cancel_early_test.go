package job

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestCancelEarlySweep cancels the context at moments swept over the first 2 ms of Run (lease,
// store open, planning, source open, sequence reservation, first window): whatever step is
// interrupted, the error wraps context.Canceled — a cancellation is never reported as another
// failure — and running again finishes the job exactly.
func TestCancelEarlySweep(t *testing.T) {
	fx := loadtest.Dedup(9, 3, 40)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for d := time.Duration(0); d <= 2*time.Millisecond; d += 250 * time.Microsecond {
		t.Run(fmt.Sprintf("after-%v", d), func(t *testing.T) {
			t.Parallel()
			e := newLoadEnv(t, fx, glob)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := e.config(matrixCommitRows)
			if d == 0 {
				cancel()
			} else {
				time.AfterFunc(d, cancel)
			}
			_, err := e.run(ctx, cfg)
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("run cancelled after %v: %v; want an error wrapping context.Canceled", d, err)
			}
			if l, ok, lerr := e.store.CurrentLease(context.Background()); lerr != nil || (ok && !l.Released) {
				t.Fatalf("lease after the run cancelled after %v (error %v): %+v, %v; want released", d, err, l, lerr)
			}
			if p := e.checkPublishedCommitted(t); p != "" {
				t.Fatal(p)
			}
			if _, err := e.run(context.Background(), cfg); err != nil {
				t.Fatalf("rerun: %v", err)
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
		})
	}
}
