package job_test

// Paused runners: a runner frozen (GC stall, VM freeze, SIGSTOP) while another runner takes the job
// over and finishes it, other writers commit and snapshot expiry removes the job's markers. When the
// frozen runner wakes it must not commit, publish or pin anything (docs/protocol.md, "Paused runners
// and expiry"). The expected table comes from internal/loadtest's model of the input, and the
// snapshot files are read directly, never through the code under test alone.

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/maintain"
)

// pausedExpiry expires every snapshot Paimon's rules allow (keep 1, no age bound), honouring consumers.
var pausedExpiry = maintain.ExpireOptions{RetainMin: 1, RetainMax: 1 << 30, MaxDeletes: 1 << 20,
	Now: func() time.Time { return time.Now().Add(time.Hour) }}

// freezer pauses the run that hits (point, window) until resume is called, as SIGSTOP would.
type freezer struct {
	point  string
	window int64
	once   sync.Once
	frozen chan struct{}
	thaw   chan struct{}
}

func newFreezer(point string, w int64) *freezer {
	return &freezer{point: point, window: w, frozen: make(chan struct{}), thaw: make(chan struct{})}
}

func (f *freezer) hook(p string, w int64) error {
	if p == f.point && w == f.window {
		hit := false
		f.once.Do(func() { hit = true })
		if hit {
			close(f.frozen)
			<-f.thaw
		}
	}
	return nil
}

// TestPausedRunnerAfterTakeoverAndExpiry: runner A freezes in window 3 at each point of the commit
// path; B takes the job over (--takeover) and finishes it; two other writers commit; expiry removes
// every snapshot it may (B dropped the job's pin). A wakes. It must stop without committing window
// 3 again (a duplicate), without re-adding files B committed for it (an unreadable table), without
// reusing a snapshot id (a rollback of the table) and without re-creating the job's pin below the
// earliest snapshot (expiry held back for ever).
func TestPausedRunnerAfterTakeoverAndExpiry(t *testing.T) {
	for _, point := range []string{job.PointAssigned, job.PointTaskWritten, job.PointResultStored, job.PointBeforeCommit, job.PointInsideCommit} {
		t.Run(point, func(t *testing.T) {
			fx := parquetFiles(loadtest.Append(13, 6, 40))
			e := newScEnv(t, fx)
			fz := newFreezer(point, 3)
			a := e.cfg(40, 1, fz.hook)
			errA := make(chan error, 1)
			go func() { _, err := job.Run(context.Background(), a); errA <- err }()
			select {
			case <-fz.frozen:
			case err := <-errA:
				t.Fatalf("runner A ended before it reached %s of window 3: %v", point, err)
			}

			b := e.cfg(40, 1, nil)
			b.Takeover = true
			e.mustRun(b)
			foreign := [][][]any{appendRows(10_000, 5), appendRows(20_000, 5)}
			for i, rows := range foreign {
				e.foreignCommit("other-writer", int64(i+1), rows)
			}
			if _, err := maintain.Expire(context.Background(), e.table(), pausedExpiry); err != nil {
				t.Fatal(err)
			}
			before := e.snapshotIDs()

			close(fz.thaw)
			err := <-errA
			if err == nil {
				t.Fatal("runner A woke after the job was taken over and finished, and reported success")
			}
			t.Logf("runner A: %v", err)

			extra := append(asFile(foreign[0]), asFile(foreign[1])...)
			e.checkFinished(extra)
			if got := e.snapshotIDs(); !slices.Equal(got, before) {
				t.Fatalf("runner A changed the table's snapshots after waking: %v, before %v", got, before)
			}
			if n := e.consumerNext(); n != 0 {
				t.Fatalf("runner A re-created the finished job's pin (nextSnapshot %d, earliest %d)", n, before[0])
			}
			// The next writer builds on the true latest snapshot: nothing of the table vanishes.
			later := appendRows(30_000, 3)
			e.foreignCommit("other-writer", 3, later)
			e.checkConsistent(append(extra, asFile(later)...))
			if _, done := e.state().Done(); !done {
				t.Fatal("job not done")
			}
		})
	}
}
