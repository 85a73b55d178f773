package commit_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

var dynCols = [][2]string{{"p", "STRING"}, {"k", "BIGINT"}, {"v", "STRING"}}

func dynMemTable(t *testing.T, target string) *table.Table {
	t.Helper()
	return memTable(t, dynCols, []string{"p"}, []string{"p", "k"}, map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": target})
}

func liveIndex(t *testing.T, tbl *table.Table) []manifest.IndexManifestEntry {
	t.Helper()
	ctx := context.Background()
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	es, err := index.SnapshotEntries(ctx, tbl, latest)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestIndexManifestFullAndReused: a commit with index changes writes a new full index manifest in
// which the new HASH file of a bucket replaces the old one and other buckets' files stay; a commit
// without index changes (here: keys already indexed) reuses the previous index manifest by name.
func TestIndexManifestFullAndReused(t *testing.T) {
	ctx := context.Background()
	tbl := dynMemTable(t, "2")
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(1), "x"}, {"a", int64(2), "x"}, {"a", int64(3), "x"}, {"b", int64(1), "x"}}), "u")
	first := liveIndex(t, tbl)
	if len(first) != 3 { // a/0 (2 keys), a/1 (1 key), b/0
		t.Fatalf("index after commit 1: %+v", first)
	}
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(4), "y"}}), "u") // fills a/1
	second := liveIndex(t, tbl)
	if len(second) != 3 {
		t.Fatalf("index after commit 2: %+v", second)
	}
	for i := range second {
		changed := second[i].FileName != first[i].FileName
		if want := second[i].Bucket == 1 && string(second[i].Partition) == string(first[1].Partition); changed != want {
			t.Errorf("bucket %d file %s → %s (changed %v, want %v)", second[i].Bucket, first[i].FileName, second[i].FileName, changed, want)
		}
	}
	s2, _ := tbl.Snapshots().Latest(ctx)
	s3id := mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(1), "z"}, {"b", int64(1), "z"}}), "u")
	s3, _ := tbl.Snapshots().Get(ctx, s3id)
	if s3.IndexManifest == nil || *s3.IndexManifest != *s2.IndexManifest {
		t.Errorf("commit without index changes wrote index manifest %v, want the previous %v", s3.IndexManifest, *s2.IndexManifest)
	}
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil || len(rows) != 5 {
		t.Fatalf("read %d rows, %v", len(rows), err)
	}
}

// TestIndexConflicts: two writers restored from the same snapshot that both change the HASH index
// of one partition cannot both commit — the second fails with ErrConflict and nothing of it lands
// (Java would silently keep only the last file per bucket) — while writers of different partitions
// both commit. A crafted commit putting an indexed key's hash into another bucket is refused too.
func TestIndexConflicts(t *testing.T) {
	ctx := context.Background()
	tbl := dynMemTable(t, "2")
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"a", int64(1), "x"}, {"b", int64(1), "x"}}), "u")
	w1 := writeRows(t, tbl, [][]any{{"a", int64(2), "w1"}}) // replaces a/0
	w2 := writeRows(t, tbl, [][]any{{"a", int64(3), "w2"}}) // replaces a/0 as well
	w3 := writeRows(t, tbl, [][]any{{"b", int64(2), "w3"}}) // other partition
	mustCommit(t, tbl, w1, "w1")
	before, _ := tbl.Snapshots().Latest(ctx)
	_, err := commit.Commit(ctx, tbl, w2, commit.Options{User: "w2", Identifier: commit.BatchIdentifier, LookupAfter: -1})
	if !errors.Is(err, commit.ErrConflict) || !strings.Contains(err.Error(), "no longer live") {
		t.Fatalf("second writer of partition a: %v, want ErrConflict naming the replaced file", err)
	}
	if after, _ := tbl.Snapshots().Latest(ctx); after.ID != before.ID {
		t.Fatalf("the conflicting commit created snapshot %d", after.ID)
	}
	mustCommit(t, tbl, w3, "w3")

	// A bucket's first HASH file created by another writer since (ADD without DELETE).
	w4 := writeRows(t, tbl, [][]any{{"c", int64(1), "w4"}})
	mustCommit(t, tbl, writeRows(t, tbl, [][]any{{"c", int64(2), "w5"}}), "w5")
	if _, err := commit.Commit(ctx, tbl, w4, commit.Options{User: "w4", Identifier: commit.BatchIdentifier, LookupAfter: -1}); !errors.Is(err, commit.ErrConflict) {
		t.Fatalf("two first HASH files for one bucket: %v, want ErrConflict", err)
	}

	// A key hash of a full bucket 0 (2 keys) put into a HASH file for bucket 7 of the same partition is refused.
	var a0 manifest.IndexManifestEntry
	for _, e := range liveIndex(t, tbl) {
		if e.Bucket == 0 && e.RowCount == 2 && e.FileName != "" {
			a0 = e
		}
	}
	hs, err := index.ReadHashFile(ctx, tbl, a0)
	if err != nil {
		t.Fatal(err)
	}
	e, err := index.WriteHashFile(ctx, tbl, tbl.NewPaths(), a0.Partition, 7, hs[:1])
	if err != nil {
		t.Fatal(err)
	}
	msg := table.CommitMessage{Partition: a0.Partition, Bucket: 7, TotalBuckets: -1, NewIndexFiles: []manifest.IndexManifestEntry{e}}
	if _, err := commit.Commit(ctx, tbl, []table.CommitMessage{msg}, commit.Options{User: "x", Identifier: commit.BatchIdentifier, LookupAfter: -1}); !errors.Is(err, commit.ErrConflict) ||
		!strings.Contains(err.Error(), "key hash") {
		t.Fatalf("key hash in two buckets: %v, want ErrConflict", err)
	}
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil || len(rows) != 5 { // a1 a2 b1 b2 c2
		t.Fatalf("read %v, %v", rows, err)
	}
	for _, r := range rows {
		if r[2] == "w2" || r[2] == "w4" {
			t.Errorf("row of a refused commit visible: %v", r)
		}
	}
}
