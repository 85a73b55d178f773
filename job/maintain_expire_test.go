package job

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// aggressiveExpiry expires every snapshot that Paimon's rules allow: keep 1, no time bound, no limit.
var aggressiveExpiry = maintain.ExpireOptions{RetainMin: 1, RetainMax: 1 << 30, TimeRetained: 0, MaxDeletes: 1 << 20,
	Now: func() time.Time { return time.Now().Add(time.Hour) }}

// TestExpireDuringJobThenCrashResume runs another writer's commit followed by snapshot expiry (keep
// only the latest snapshot) at every named point of every window while a load runs, crashes the job at
// one point of the middle window, and resumes it, still committing and expiring at every point. The
// other writer's snapshots push the job's markers out of the "latest" position, so only the job's
// consumer pin keeps what recovery must look up. The job's consumer pin must keep every snapshot the
// job still has to look up: the resume finishes, the sums of the aggregation table (which a double
// commit would change) and the rows equal the model, no window has two markers, and every window whose
// marker is gone was published before it expired.
func TestExpireDuringJobThenCrashResume(t *testing.T) {
	fx := loadtest.AggSum(41, matrixFiles, matrixRows)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	points := []string{PointAssigned, PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit,
		PointAfterCommit, PointBeforePublish, PointAfterPublish}
	for _, crash := range append(points, PointRecoveryAction) {
		t.Run(crash, func(t *testing.T) {
			t.Parallel()
			e := newLoadEnv(t, fx, glob)
			ctx := context.Background()
			var expired atomic.Int64
			var mu sync.Mutex // tasks call the hook concurrently
			var foreign loadtest.File
			expire := func(p string, w int64) error {
				mu.Lock()
				defer mu.Unlock()
				if p != PointInsideCommit { // a commit there would take the job's snapshot id on every retry
					row := []any{int64(1000 + len(foreign.Rows)), int64(7), int32(1), "other"}
					foreign.Rows = append(foreign.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: row})
					foreignCommit(t, e.tbl, row)
				}
				res, err := maintain.Expire(ctx, e.tbl, aggressiveExpiry)
				if err != nil {
					return fmt.Errorf("expire at %s of window %d: %w", p, w, err)
				}
				expired.Add(int64(len(res.Expired)))
				return nil
			}
			cfg := e.config(matrixCommitRows)
			var crashed atomic.Bool
			cfg.Hook = func(p string, w int64) error {
				if err := expire(p, w); err != nil {
					return err
				}
				if p == crash && (w == 2 || p == PointRecoveryAction) && crashed.CompareAndSwap(false, true) {
					return errCrash
				}
				return nil
			}
			first := PointBeforeCommit // a recovery action exists only after a crash: crash there first
			if crash == PointRecoveryAction {
				cfg.Hook = func(p string, w int64) error {
					if err := expire(p, w); err != nil {
						return err
					}
					if p == first && w == 2 {
						return errCrash
					}
					return nil
				}
				if _, err := e.run(ctx, cfg); !errors.Is(err, errCrash) {
					t.Fatalf("first run: %v, want the crash at %s", err, first)
				}
				cfg.Hook = func(p string, w int64) error {
					if err := expire(p, w); err != nil {
						return err
					}
					if p == PointRecoveryAction && crashed.CompareAndSwap(false, true) {
						return errCrash
					}
					return nil
				}
			}
			if _, err := e.run(ctx, cfg); !errors.Is(err, errCrash) || !crashed.Load() {
				t.Fatalf("run: %v, want the crash at %s", err, crash)
			}
			cfg.Hook = expire
			if _, err := e.run(ctx, cfg); err != nil {
				t.Fatalf("resume after a crash at %s with expiry at every point: %v", crash, err)
			}
			if err := expire("end", 0); err != nil {
				t.Fatal(err)
			}
			if expired.Load() == 0 {
				t.Fatal("expiry never expired a snapshot: the test proves nothing")
			}
			e.want = fx.ExpectedOf(t, append(slices.Clone(fx.Files), foreign))
			checkExpiredJob(t, e)
		})
	}
}

// checkExpiredJob checks a finished job whose old markers may have expired: every window published
// and committed, at most one marker per window, a missing marker only below the earliest snapshot, the
// table equal to the model, and the job's consumer pin released.
func checkExpiredJob(t *testing.T, e *loadEnv) {
	t.Helper()
	st := e.state(t)
	if _, done := st.Done(); !done {
		t.Fatal("job not done")
	}
	jr, _ := st.Job()
	earliest, _, err := e.tbl.Snapshots().EarliestID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	gone := 0
	for _, ws := range st.Windows() {
		if ws.Published == nil || ws.Committed == nil {
			t.Fatalf("window %d not published", ws.Window)
		}
		markers := loadtest.WindowCommits(t, e.tbl, jr.CommitUser, ws.Window)
		switch {
		case len(markers) > 1:
			t.Fatalf("window %d committed %d times", ws.Window, len(markers))
		case len(markers) == 1 && markers[0].ID != ws.Committed.SnapshotID:
			t.Fatalf("window %d: marker %d, committed record %d", ws.Window, markers[0].ID, ws.Committed.SnapshotID)
		case len(markers) == 0 && ws.Committed.SnapshotID >= earliest:
			t.Fatalf("window %d: marker %d missing although it is not below the earliest snapshot %d", ws.Window, ws.Committed.SnapshotID, earliest)
		case len(markers) == 0:
			gone++
		}
	}
	if gone == 0 {
		t.Error("no window marker expired: expiry did not run past the job's windows")
	}
	if d := loadtest.Diff(e.want, loadtest.Lines(t, e.tbl)); d != "" {
		t.Fatalf("table differs from the model:%s", d)
	}
	cs, err := maintain.Consumers(context.Background(), e.tbl)
	if err != nil || slices.ContainsFunc(cs, func(c maintain.Consumer) bool { return c.ID == "lakeload-"+e.cfgName() }) {
		t.Fatalf("consumers after the job: %v, %v", cs, err)
	}
}

func (e *loadEnv) cfgName() string { return e.config(0).Name }

// foreignCommit commits row as another writer would (its own commit user, batch identifier).
func foreignCommit(t *testing.T, tbl *table.Table, row []any) {
	ctx := context.Background()
	w, err := write.New(ctx, tbl, write.Options{})
	if err != nil {
		t.Error(err)
		return
	}
	if err := w.WriteRow(ctx, row, spec.RowKindInsert); err != nil {
		t.Error(err)
		return
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Error(err)
		return
	}
	if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "other-writer", Identifier: commit.BatchIdentifier, LookupAfter: -1}); err != nil {
		t.Error(err)
	}
}

// TestExpireIgnoringThePinIsDetected is the negative control of TestExpireDuringJobThenCrashResume:
// with expiry that ignores consumers (consumer.changelog-only), the same schedule expires a window's
// marker before the job recorded it, and the job stops instead of finishing.
func TestExpireIgnoringThePinIsDetected(t *testing.T) {
	fx := loadtest.AggSum(41, matrixFiles, matrixRows)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	ctx := context.Background()
	o := aggressiveExpiry
	o.IgnoreConsumers = true
	n := int64(0)
	cfg := e.config(matrixCommitRows)
	cfg.Hook = func(p string, w int64) error {
		if p == PointAfterCommit {
			n++
			foreignCommit(t, e.tbl, []any{1000 + n, int64(7), int32(1), "other"})
			if _, err := maintain.Expire(ctx, e.tbl, o); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := e.run(ctx, cfg)
	if err == nil {
		t.Fatal("the job finished although expiry removed its marker before verification: the pin is not what protects it")
	}
}
