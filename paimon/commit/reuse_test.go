package commit_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/table"
)

// TestPausedCommitNeverReusesAnExpiredSnapshotID: a writer plans snapshot N and is paused before it
// creates the file; other writers commit N, N+1 and N+2; expiry removes N and N+1. When the writer
// wakes, snapshot-N no longer exists, so creating it would succeed and roll the table back to N-1 plus
// this commit (the others' rows vanish for the next writer, LATEST moves back). The commit must
// instead land on top of the true latest snapshot, and LATEST must never point below it.
func TestPausedCommitNeverReusesAnExpiredSnapshotID(t *testing.T) {
	for _, expiry := range []string{"maintain.Expire", "files-and-EARLIEST"} {
		t.Run(expiry, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			tbl := createTable(t, dir, appendCols, nil, nil, nil)
			base := appendRows(0, 3, "base")
			mustCommit(t, tbl, writeRows(t, tbl, base), "base")
			paused := appendRows(100, 4, "paused")
			msgs := writeRows(t, tbl, paused)

			var others [][]any
			planned := int64(0)
			_, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "paused", Identifier: 7, LookupAfter: 0,
				BeforeSnapshot: func(id int64) error {
					if planned != 0 {
						return nil // the retry after waking
					}
					planned = id
					// While this writer is paused: three other commits, then expiry keeps only the last.
					for i := range 3 {
						rows := appendRows(int64(1000*(i+1)), 2, "other")
						others = append(others, rows...)
						mustCommit(t, openTable(t, dir), writeRows(t, tbl, rows), "other-"+strconv.Itoa(i))
					}
					expire(t, openTable(t, dir), expiry, planned+2)
					return nil
				}})
			if err != nil {
				t.Fatalf("commit after waking: %v", err)
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
