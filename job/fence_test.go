package job

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/write"
)

// TestFenceLayers checks each fence of a window commit on its own (fence.go): while the runner is
// at before-commit (the lookup fence) or inside-commit (the fence before the snapshot) of window 2,
// the world changes in exactly one way another runner could have changed it — the lease, one record
// of the window, the done record, a later window's marker (seen by the lookup), or expiry of the
// lookup range — and the
// runner must stop without committing window 2. Every other fence sees nothing, so a fence that is
// dropped or loosened fails its case (make mutate).
func TestFenceLayers(t *testing.T) {
	type change func(t *testing.T, e *loadEnv, user string)
	now := time.Now().UTC()
	cases := []struct {
		name   string
		change change
		want   error
		lookup bool // only the lookup fence (before-commit) checks this
	}{
		{"lease taken", func(t *testing.T, e *loadEnv, _ string) {
			if _, err := e.store.AcquireLease(context.Background(), checkpoint.LeaseOptions{Owner: checkpoint.LeaseOwner{Host: "other", PID: 1, Token: "other"},
				Takeover: true}); err != nil {
				t.Fatal(err)
			}
		}, ErrOvertaken, false},
		{"lease released", func(t *testing.T, e *loadEnv, _ string) {
			cur, _, err := e.store.CurrentLease(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			l, err := e.store.AcquireLease(context.Background(), checkpoint.LeaseOptions{Owner: cur.Owner})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Release(context.Background()); err != nil {
				t.Fatal(err)
			}
		}, ErrOvertaken, false},
		{"committed by another runner", func(t *testing.T, e *loadEnv, _ string) {
			mustWrite(t, e.store.WriteCommitted(context.Background(), checkpoint.Committed{Window: 2, SnapshotID: 0, Attempt: 1, Time: now}))
		}, ErrOvertaken, false},
		{"attempt begun by another runner", func(t *testing.T, e *loadEnv, _ string) {
			mustWrite(t, e.store.WriteAttemptStart(context.Background(), checkpoint.AttemptStart{Window: 2, Attempt: 2, Reason: "other", Created: now}))
		}, ErrOvertaken, false},
		{"voided by another runner", func(t *testing.T, e *loadEnv, _ string) {
			mustWrite(t, e.store.WriteVoided(context.Background(), checkpoint.Voided{Window: 2, Reason: "other", Created: now}))
		}, ErrOvertaken, false},
		{"job done", func(t *testing.T, e *loadEnv, _ string) {
			mustWrite(t, e.store.WriteDone(context.Background(), checkpoint.DoneRecord{JobID: "load-" + e.fx.Name, Windows: 2, Time: now, Aborted: true}))
		}, ErrOvertaken, false},
		{"later window committed", func(t *testing.T, e *loadEnv, user string) {
			commitAs(t, e, user, 5, 900)
		}, ErrOvertaken, true},
		{"lookup range expired (earliest = seen + 2)", func(t *testing.T, e *loadEnv, _ string) {
			// Window 2 was assigned having seen snapshot 1 (window 1). Two foreign commits (2, 3), then
			// expiry that ignores the job's pin keeps only 3: snapshot 2 — where window 2's marker would
			// be — is gone.
			commitAs(t, e, "other-writer", commit.BatchIdentifier, 900)
			commitAs(t, e, "other-writer", commit.BatchIdentifier, 901)
			if _, err := maintain.Expire(context.Background(), e.tbl, maintain.ExpireOptions{RetainMin: 1, RetainMax: 1 << 30, MaxDeletes: 1 << 20,
				IgnoreConsumers: true, Now: func() time.Time { return time.Now().Add(time.Hour) }}); err != nil {
				t.Fatal(err)
			}
		}, checkpoint.ErrStop, false},
	}
	for _, point := range []string{PointBeforeCommit, PointInsideCommit} {
		for _, c := range cases {
			if c.lookup && point != PointBeforeCommit {
				continue
			}
			t.Run(point+"/"+c.name, func(t *testing.T) {
				fx := parquetOf(loadtest.Append(7, 3, 20))
				e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
				cfg := e.config(20)
				cfg.Parallelism = 1
				hit := false
				cfg.Hook = func(p string, w int64) error {
					if p == point && w == 2 && !hit {
						hit = true
						j, _ := e.state(t).Job()
						c.change(t, e, j.CommitUser)
					}
					return nil
				}
				_, err := Run(context.Background(), cfg)
				if !hit {
					t.Fatal("the hook never reached window 2")
				}
				if !errors.Is(err, c.want) {
					t.Fatalf("run: %v, want %v", err, c.want)
				}
				st := e.state(t)
				j, _ := st.Job()
				if ms := loadtest.WindowCommits(t, e.tbl, j.CommitUser, 2); len(ms) != 0 {
					t.Fatalf("window 2 was committed as snapshot %d after the change", ms[0].ID)
				}
			})
		}
	}
}

// TestPinNeverBelowEarliest: a pin below the earliest snapshot protects nothing and would hold
// expiry at that id for good; pin moves it up to the earliest.
func TestPinNeverBelowEarliest(t *testing.T) {
	fx := parquetOf(loadtest.Append(7, 1, 5))
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	for i := range 3 {
		commitAs(t, e, "w", commit.BatchIdentifier, int64(900+i))
	}
	if _, err := maintain.Expire(context.Background(), e.tbl, maintain.ExpireOptions{RetainMin: 1, RetainMax: 1 << 30, MaxDeletes: 1 << 20,
		Now: func() time.Time { return time.Now().Add(time.Hour) }}); err != nil {
		t.Fatal(err)
	}
	if err := pin(context.Background(), e.tbl, "j", 1); err != nil {
		t.Fatal(err)
	}
	b, err := local.New().ReadFile(context.Background(), e.tbl.Path+"/consumer/consumer-lakeload-j")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"nextSnapshot":3}` {
		t.Fatalf("consumer file %s, want nextSnapshot 3 (the earliest)", got)
	}
}

// parquetOf names fx's input files .parquet, so each file is one split of exact row count.
func parquetOf(fx loadtest.Fixture) loadtest.Fixture {
	for i := range fx.Files {
		fx.Files[i].Name = fmt.Sprintf("in-%02d.parquet", i)
	}
	return fx
}

// commitAs commits one row of the Append fixture's shape (id) as user with identifier ident.
func commitAs(t *testing.T, e *loadEnv, user string, ident int64, id int64) {
	t.Helper()
	ctx := context.Background()
	w, err := write.New(ctx, e.tbl, write.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow(ctx, []any{id, "x", int64(1)}, spec.RowKindInsert); err != nil {
		t.Fatal(err)
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := commit.Commit(ctx, e.tbl, msgs, commit.Options{User: user, Identifier: ident, LookupAfter: -1}); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestOvertakenRunnerRecordsNothing: the lease is taken while the runner is stopped after window 2's
// snapshot (after-commit) or before its publish; the runner must write neither `committed` nor
// `published` when it wakes (every record of a run is fenced by its lease: checkpoint.Store.Fenced),
// so the runner that took over decides the window from its own reading.
func TestOvertakenRunnerRecordsNothing(t *testing.T) {
	for _, point := range []string{PointAfterCommit, PointBeforePublish} {
		t.Run(point, func(t *testing.T) {
			fx := parquetOf(loadtest.Append(7, 3, 20))
			e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
			cfg := e.config(20)
			cfg.Parallelism = 1
			var before checkpoint.WindowState
			cfg.Hook = func(p string, w int64) error {
				if p == point && w == 2 && before.Window == 0 {
					before, _ = e.state(t).Window(2)
					if _, err := e.store.AcquireLease(context.Background(), checkpoint.LeaseOptions{
						Owner: checkpoint.LeaseOwner{Host: "other", PID: 1, Token: "other"}, Takeover: true}); err != nil {
						t.Fatal(err)
					}
				}
				return nil
			}
			if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrOvertaken) {
				t.Fatalf("run: %v, want overtaken", err)
			}
			after, _ := e.state(t).Window(2)
			if (after.Committed != nil) != (before.Committed != nil) || after.Published != nil {
				t.Fatalf("window 2 after waking: committed %v (before %v), published %v: an overtaken runner wrote a record",
					after.Committed != nil, before.Committed != nil, after.Published != nil)
			}
		})
	}
}
