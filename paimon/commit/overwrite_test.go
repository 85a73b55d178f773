package commit_test

import (
	"context"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestOverwritePartitions replaces one partition of a primary-key table: the partition shows only the
// new rows (old keys missing from the new data are gone, same keys take the new values, nothing is
// merged with the old files), the other partition keeps its rows, and the snapshot is an OVERWRITE
// whose delta deletes exactly the old partition's files. Record counts chain across snapshots.
func TestOverwritePartitions(t *testing.T) {
	cols := [][2]string{{"dt", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"who", "STRING"}}
	tbl := memTable(t, cols, []string{"dt"}, []string{"dt", "id"}, map[string]string{"bucket": "2"})
	old := [][]any{{"a", int64(1), "old"}, {"a", int64(2), "old"}, {"a", int64(3), "old"}, {"b", int64(1), "old"}}
	mustCommit(t, tbl, writeRows(t, tbl, old), "first")
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(4), "old2"}}), "second")
	fresh := [][]any{{"a", int64(2), "new"}, {"a", int64(9), "new"}}
	msgs := writeRows(t, tbl, fresh)
	res, err := commit.Commit(context.Background(), tbl, msgs, commit.Options{User: "ow", Identifier: 7, LookupAfter: -1,
		Overwrite: &commit.Overwrite{Partitions: commit.PartitionsOf(msgs)}})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, tbl, res.SnapshotID, [][]any{{"a", int64(2), "new"}, {"a", int64(9), "new"}, {"b", int64(1), "old"}})
	snaps := snapshotsOf(t, tbl)
	last := snaps[len(snaps)-1]
	if last.CommitKind != spec.CommitKindOverwrite || last.CommitIdentifier != 7 {
		t.Fatalf("snapshot %d: kind %s identifier %d, want OVERWRITE 7", last.ID, last.CommitKind, last.CommitIdentifier)
	}
	checkCounts(t, tbl, snaps)
	// The commit is found again by its (user, identifier, OVERWRITE) and not repeated.
	again, err := commit.Commit(context.Background(), tbl, msgs, commit.Options{User: "ow", Identifier: 7, LookupAfter: 0,
		Overwrite: &commit.Overwrite{Partitions: commit.PartitionsOf(msgs)}})
	if err != nil || !again.AlreadyCommitted || again.SnapshotID != res.SnapshotID {
		t.Fatalf("rerun of the overwrite: %+v, %v; want the snapshot %d found", again, err, res.SnapshotID)
	}
}

// TestOverwriteTable replaces every partition, including ones the new data does not touch, and an
// overwrite of the whole table with no new files empties it.
func TestOverwriteTable(t *testing.T) {
	cols := [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}}
	tbl := memTable(t, cols, []string{"dt"}, nil, nil)
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(1)}, {"b", int64(2)}, {nil, int64(3)}}), "first")
	msgs := writeRows(t, tbl, [][]any{{"c", int64(4)}})
	res, err := commit.Commit(context.Background(), tbl, msgs, commit.Options{User: "ow", Identifier: 1, LookupAfter: -1,
		Overwrite: &commit.Overwrite{Table: true}})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, tbl, res.SnapshotID, [][]any{{"c", int64(4)}})
	res, err = commit.Commit(context.Background(), tbl, nil, commit.Options{User: "ow", Identifier: 2, LookupAfter: -1,
		Overwrite: &commit.Overwrite{Table: true}})
	if err != nil || res.SnapshotID == 0 {
		t.Fatalf("truncate: %+v, %v", res, err)
	}
	checkRows(t, tbl, res.SnapshotID, nil)
	checkCounts(t, tbl, snapshotsOf(t, tbl))
	// Nothing to delete and nothing to add: no snapshot.
	if res, err := commit.Commit(context.Background(), tbl, nil, commit.Options{User: "ow", Identifier: 3, LookupAfter: -1,
		Overwrite: &commit.Overwrite{Table: true}}); err != nil || res.SnapshotID != 0 {
		t.Fatalf("empty overwrite of an empty table: %+v, %v (want no snapshot)", res, err)
	}
}

// TestOverwriteAfterLosingRace: a foreign append to the replaced partition lands after the overwrite
// read the table (simulated in BeforeSnapshot); the overwrite re-plans on the new latest snapshot and
// replaces the foreign file too.
func TestOverwriteAfterLosingRace(t *testing.T) {
	tbl := memTable(t, [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}}, []string{"dt"}, nil, nil)
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(1)}}), "first")
	msgs := writeRows(t, tbl, [][]any{{"a", int64(10)}})
	foreign := writeRows(t, tbl, [][]any{{"a", int64(2)}, {"b", int64(3)}})
	raced := false
	res, err := commit.Commit(context.Background(), tbl, msgs, commit.Options{User: "ow", Identifier: 1, LookupAfter: -1,
		Overwrite: &commit.Overwrite{Partitions: commit.PartitionsOf(msgs)},
		BeforeSnapshot: func(int64) error {
			if !raced {
				raced = true
				mustCommit(t, tbl, foreign, "foreign")
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Retries != 1 {
		t.Fatalf("retries %d, want 1", res.Retries)
	}
	checkRows(t, tbl, res.SnapshotID, [][]any{{"a", int64(10)}, {"b", int64(3)}})
}
