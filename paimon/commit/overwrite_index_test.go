package commit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// writeOverwriteRows writes rows as the replacement of their partitions: a dynamic-bucket writer
// that starts every partition empty.
func writeOverwriteRows(t *testing.T, tbl *table.Table, rows [][]any) []table.CommitMessage {
	t.Helper()
	return writeRowsWith(t, tbl, write.Options{Overwrite: true}, rows)
}

// TestOverwriteReplacesIndex: an OVERWRITE of one partition of a dynamic-bucket table deletes every
// live index file of that partition and adds the new ones; the other partition keeps its file. Key 3
// moves from bucket 1 (old index) to bucket 0: the old file is deleted by the same commit, so the
// key-in-two-buckets check must not fire. Overwriting the whole table with nothing empties the index.
func TestOverwriteReplacesIndex(t *testing.T) {
	ctx := context.Background()
	tbl := dynMemTable(t, "2")
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(1), "old"}, {"a", int64(2), "old"}, {"a", int64(3), "old"}, {"b", int64(1), "old"}}), "u")
	before := liveIndex(t, tbl)
	if len(before) != 3 {
		t.Fatalf("index before: %+v", before)
	}
	msgs := writeOverwriteRows(t, tbl, [][]any{{"a", int64(3), "new"}, {"a", int64(9), "new"}})
	for _, m := range msgs {
		if len(m.DeletedIndexFiles) > 0 {
			t.Fatalf("an overwrite writer replaced index file %s of the table", m.DeletedIndexFiles[0].FileName)
		}
	}
	aPart := msgs[0].Partition
	res, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "ow", Identifier: 1, LookupAfter: -1, Overwrite: &commit.Overwrite{Partitions: commit.PartitionsOf(msgs)}})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, tbl, res.SnapshotID, [][]any{{"a", int64(3), "new"}, {"a", int64(9), "new"}, {"b", int64(1), "old"}})
	after := liveIndex(t, tbl)
	live := map[string]bool{}
	for _, e := range after {
		live[e.FileName] = true
	}
	for _, e := range before {
		if keep := string(e.Partition) != string(aPart); live[e.FileName] != keep {
			t.Errorf("old index file %s (partition %x bucket %d): live %v, want %v", e.FileName, e.Partition, e.Bucket, live[e.FileName], keep)
		}
	}
	var inA int
	for _, e := range after {
		if string(e.Partition) == string(aPart) {
			inA++
			if e.Bucket != 0 || e.RowCount != 2 {
				t.Errorf("partition a: index file of bucket %d with %d hashes, want bucket 0 with 2", e.Bucket, e.RowCount)
			}
		}
	}
	if inA != 1 || len(after) != 2 {
		t.Fatalf("index after the overwrite: %+v", after)
	}

	// Messages of an overwrite may not delete index files themselves.
	bad := writeRows(t, tbl, [][]any{{"b", int64(2), "x"}}) // fills b/0: replaces its HASH file
	if _, err := commit.Commit(ctx, tbl, bad, commit.Options{User: "ow", Identifier: 2, LookupAfter: -1, Overwrite: &commit.Overwrite{Table: true}}); err == nil ||
		!strings.Contains(err.Error(), "must not delete") {
		t.Fatalf("overwrite with messages deleting index files: %v", err)
	}

	if _, err := commit.Commit(ctx, tbl, nil, commit.Options{User: "ow", Identifier: 3, LookupAfter: -1, Overwrite: &commit.Overwrite{Table: true}}); err != nil {
		t.Fatal(err)
	}
	if es := liveIndex(t, tbl); len(es) != 0 {
		t.Fatalf("index after truncating the table: %+v", es)
	}
	checkRows(t, tbl, 0, nil)
}
