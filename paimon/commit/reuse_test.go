package commit_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/table"
)

// TestPausedCommitNeverReusesAnExpiredSnapshotID: a writer plans snapshot N and is paused before it
// creates the file; other writers commit N, N+1 and N+2; expiry removes N and N+1. When the writer
// wakes, snapshot-N no longer exists, so creating it would succeed and roll the table back to N-1 plus
// this commit (the others' rows vanish for the next writer, LATEST moves back). The commit must
// instead land on top of the true latest snapshot, and LATEST must never point below it.
//
// The world moves on either before the create (the pause in BeforeSnapshot: the reuse is seen before
// any file is written) or inside it (WriteIfAbsent of the snapshot file stalls: the file is created
// at the reused id and must be undone).
func TestPausedCommitNeverReusesAnExpiredSnapshotID(t *testing.T) {
	for _, expiry := range []string{"maintain.Expire", "files-and-EARLIEST"} {
		for _, when := range []string{"before-create", "inside-create"} {
			t.Run(expiry+"/"+when, func(t *testing.T) {
				ctx := context.Background()
				dir := t.TempDir()
				createTable(t, dir, appendCols, nil, nil, nil)
				fs := &stallFS{FileIO: local.New()}
				tbl, err := table.Open(ctx, fs, dir, "db.t")
				if err != nil {
					t.Fatal(err)
				}
				base := appendRows(0, 3, "base")
				mustCommit(t, tbl, writeRows(t, tbl, base), "base")
				paused := appendRows(100, 4, "paused")
				msgs := writeRows(t, tbl, paused)

				var others [][]any
				var planned int64
				moveOn := func() { // while this writer is paused: three other commits, then expiry keeps only the last
					for i := range 3 {
						rows := appendRows(int64(1000*(i+1)), 2, "other")
						others = append(others, rows...)
						mustCommit(t, openTable(t, dir), writeRows(t, tbl, rows), "other-"+strconv.Itoa(i))
					}
					expire(t, openTable(t, dir), expiry, planned+2)
				}
				_, err = commit.Commit(ctx, tbl, msgs, commit.Options{User: "paused", Identifier: 7, LookupAfter: 0,
					BeforeSnapshot: func(id int64) error {
						if planned != 0 {
							return nil // the retry after waking
						}
						planned = id
						if when == "before-create" {
							moveOn()
						} else {
							fs.stall(tbl.Snapshots().Path(id), moveOn)
						}
						return nil
					}})
				if err != nil {
					t.Fatalf("commit after waking: %v", err)
				}
				if created := fs.created(tbl.Snapshots().Path(planned)); created != (when == "inside-create") {
					t.Fatalf("the paused writer created %s: %v (it must only when the id expired while the create ran)",
						tbl.Snapshots().Path(planned), created)
				}
				latest := openTable(t, dir)
				ids, err := latest.Snapshots().IDs(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if want := []int64{planned + 2, planned + 3}; !slices.Equal(ids, want) {
					t.Fatalf("snapshots after waking: %v, want %v (the paused commit on top of the others)", ids, want)
				}
				s, err := latest.Snapshots().Get(ctx, planned+3)
				if err != nil {
					t.Fatal(err)
				}
				if s.CommitUser != "paused" {
					t.Fatalf("snapshot %d is by %s, want the paused writer", s.ID, s.CommitUser)
				}
				hint, err := os.ReadFile(filepath.Join(latest.Path, "snapshot", "LATEST"))
				if err != nil {
					t.Fatal(err)
				}
				if h := strings.TrimSpace(string(hint)); h != strconv.FormatInt(planned+3, 10) {
					t.Fatalf("LATEST hint %s, want %d", h, planned+3)
				}
				checkRows(t, latest, 0, slices.Concat(base, others, paused))
				// The next writer builds on everything.
				next := appendRows(5000, 1, "next")
				mustCommit(t, latest, writeRows(t, latest, next), "next")
				checkRows(t, openTable(t, dir), 0, slices.Concat(base, others, paused, next))
			})
		}
	}
}

// TestLatestIgnoresAHintBelowEarliest: a stray snapshot file below the earliest (left by a writer
// that re-created an expired id) with a LATEST hint naming it must not move the table back.
func TestLatestIgnoresAHintBelowEarliest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := createTable(t, dir, appendCols, nil, nil, nil)
	for i := range 5 {
		mustCommit(t, tbl, writeRows(t, tbl, appendRows(int64(10*i), 1, "w")), "w")
	}
	expire(t, tbl, "files-and-EARLIEST", 4)
	stray, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-5"))
	if err != nil {
		t.Fatal(err)
	}
	stray = []byte(strings.Replace(string(stray), `"id" : 5`, `"id" : 2`, 1))
	if err := os.WriteFile(filepath.Join(dir, "snapshot", "snapshot-2"), stray, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshot", "LATEST"), []byte("2"), 0o644); err != nil {
		t.Fatal(err)
	}
	id, ok, err := openTable(t, dir).Snapshots().LatestID(ctx)
	if err != nil || !ok || id != 5 {
		t.Fatalf("LatestID = %d, %v, %v; want 5 (the hint 2 lies below EARLIEST 4)", id, ok, err)
	}
}

// stallFS runs a function once when a chosen path is about to be created with WriteIfAbsent (a
// writer stalled inside the create), and records which paths it created.
type stallFS struct {
	fileio.FileIO
	mu      sync.Mutex
	path    string
	fn      func()
	written map[string]bool
}

func (f *stallFS) stall(path string, fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.path, f.fn = path, fn
}

func (f *stallFS) created(path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.written[path]
}

func (f *stallFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	f.mu.Lock()
	fn := f.fn
	if p == f.path {
		f.fn = nil
	} else {
		fn = nil
	}
	f.mu.Unlock()
	if fn != nil {
		fn()
	}
	err := f.FileIO.WriteIfAbsent(ctx, p, data)
	if err == nil {
		f.mu.Lock()
		if f.written == nil {
			f.written = map[string]bool{}
		}
		f.written[p] = true
		f.mu.Unlock()
	}
	return err
}

// expire removes every snapshot below keep: with lakeload's expiry (Java's algorithm: data and
// manifest files only the expired snapshots reference go too), or by deleting the snapshot files and
// moving the EARLIEST hint (what a foreign engine's expiry leaves behind).
func expire(t *testing.T, tbl *table.Table, how string, keep int64) {
	t.Helper()
	ctx := context.Background()
	if how == "maintain.Expire" {
		latest, _, err := tbl.Snapshots().LatestID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		o := maintain.ExpireOptions{RetainMin: int(latest - keep + 1), RetainMax: 1 << 30, MaxDeletes: 1 << 20,
			Now: func() time.Time { return time.Now().Add(time.Hour) }}
		if _, err := maintain.Expire(ctx, tbl, o); err != nil {
			t.Fatal(err)
		}
		return
	}
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if id < keep {
			if err := tbl.FS.Delete(ctx, tbl.Snapshots().Path(id)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(tbl.Path, "snapshot", "EARLIEST"), []byte(strconv.FormatInt(keep, 10)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPausedCommitAfterRollbackBuildsOnTheRollbackTarget: a writer plans snapshot 4 on 3 and is
// paused; the table is rolled back to snapshot 1 (2 and 3 deleted, LATEST = 1, EARLIEST unchanged,
// as a rollback leaves it). Creating snapshot-4 would resurrect the rolled-back content (its base
// manifests name files the rollback dropped). The commit must land as snapshot 2 on top of 1.
func TestPausedCommitAfterRollbackBuildsOnTheRollbackTarget(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := createTable(t, dir, appendCols, nil, nil, nil)
	first := appendRows(0, 2, "first")
	mustCommit(t, tbl, writeRows(t, tbl, first), "first")
	for i := range 2 {
		mustCommit(t, tbl, writeRows(t, tbl, appendRows(int64(100*(i+1)), 2, "rolled-back")), "rolled-back")
	}
	paused := appendRows(1000, 3, "paused")
	msgs := writeRows(t, tbl, paused)
	rolledBack := false
	res, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "paused", Identifier: 7, LookupAfter: 0,
		BeforeSnapshot: func(id int64) error {
			if rolledBack {
				return nil
			}
			rolledBack = true
			for _, id := range []int64{3, 2} {
				if err := tbl.FS.Delete(ctx, tbl.Snapshots().Path(id)); err != nil {
					t.Fatal(err)
				}
			}
			return os.WriteFile(filepath.Join(dir, "snapshot", "LATEST"), []byte("1"), 0o644)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.SnapshotID != 2 {
		t.Fatalf("committed as snapshot %d, want 2 (on top of the rollback target 1)", res.SnapshotID)
	}
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids, []int64{1, 2}) {
		t.Fatalf("snapshots %v, want [1 2]", ids)
	}
	checkRows(t, openTable(t, dir), 0, slices.Concat(first, paused))
}
