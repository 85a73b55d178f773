package index_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/table/tabletest"
)

// dynTable creates a dynamic-bucket table (p STRING, k INT, v STRING), PK (p, k), partitioned by p.
func dynTable(t *testing.T, opts map[string]string) *table.Table {
	t.Helper()
	o := map[string]string{"bucket": "-1"}
	maps.Copy(o, opts)
	return tabletest.NewMem(t, [][2]string{{"p", "STRING"}, {"k", "INT NOT NULL"}, {"v", "STRING"}}, []string{"p"}, []string{"p", "k"}, o)
}

func part(t *testing.T, p string) []byte {
	t.Helper()
	str, _ := spec.ParseType("STRING")
	b, err := binrow.Serialize([]spec.DataType{str}, []any{p})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newAssigner(t *testing.T, tbl *table.Table, live []manifest.ManifestEntry) *index.Assigner {
	t.Helper()
	ctx := context.Background()
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, err := index.NewAssigner(ctx, tbl, latest, live)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func assignAll(t *testing.T, a *index.Assigner, p []byte, hs ...int32) []int32 {
	t.Helper()
	var out []int32
	for _, h := range hs {
		b, err := a.Assign(context.Background(), p, h)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// commitChanges commits the assigner's index changes alone (no data files) as one snapshot.
func commitChanges(t *testing.T, tbl *table.Table, a *index.Assigner) []index.Change {
	t.Helper()
	ctx := context.Background()
	cs, err := a.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []table.CommitMessage
	for _, c := range cs {
		m := table.CommitMessage{Partition: c.Partition, Bucket: c.Bucket, TotalBuckets: -1, NewIndexFiles: []manifest.IndexManifestEntry{c.New}}
		if c.Old != nil {
			m.DeletedIndexFiles = []manifest.IndexManifestEntry{*c.Old}
		}
		msgs = append(msgs, m)
	}
	if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "u", Identifier: commit.BatchIdentifier, LookupAfter: -1}); err != nil {
		t.Fatal(err)
	}
	return cs
}

func hashesOf(t *testing.T, tbl *table.Table, e manifest.IndexManifestEntry) []int32 {
	t.Helper()
	hs, err := index.ReadHashFile(context.Background(), tbl, e)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(hs)
	return hs
}

// TestAssignerFillsBucketsAndRestores: new hashes fill bucket 0 up to target-row-num, then bucket 1,
// …; a known hash keeps its bucket, within a writer and after a restore from the committed index;
// partitions are independent; Prepare replaces each changed bucket's file (Old = the file it replaces).
func TestAssignerFillsBucketsAndRestores(t *testing.T) {
	ctx := context.Background()
	tbl := dynTable(t, map[string]string{"dynamic-bucket.target-row-num": "3"})
	a, b := part(t, "a"), part(t, "b")
	as := newAssigner(t, tbl, nil)
	if got := assignAll(t, as, a, 10, 11, 12, 13, 11, 14, 15, 16); !slices.Equal(got, []int32{0, 0, 0, 1, 0, 1, 1, 2}) {
		t.Fatalf("partition a buckets %v", got)
	}
	if got := assignAll(t, as, b, 10, 0, -5); !slices.Equal(got, []int32{0, 0, 0}) {
		t.Fatalf("partition b buckets %v", got)
	}
	cs := commitChanges(t, tbl, as)
	if len(cs) != 4 {
		t.Fatalf("%d changes, want 4 (a/0, a/1, a/2, b/0)", len(cs))
	}
	for _, c := range cs {
		if c.Old != nil {
			t.Errorf("first write replaces %s", c.Old.FileName)
		}
	}
	if got := hashesOf(t, tbl, cs[0].New); !slices.Equal(got, []int32{10, 11, 12}) {
		t.Errorf("a/0 holds %v", got)
	}
	// Restored: known hashes keep their buckets; bucket 2 (one key) fills up, then bucket 3 opens.
	as2 := newAssigner(t, tbl, nil)
	if got := assignAll(t, as2, a, 16, 12, 20, 21, 22, 13); !slices.Equal(got, []int32{2, 0, 2, 2, 3, 1}) {
		t.Fatalf("restored partition a buckets %v", got)
	}
	cs2, err := as2.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs2) != 2 || cs2[0].Bucket != 2 || cs2[0].Old == nil || cs2[0].Old.FileName != cs[2].New.FileName || cs2[1].Bucket != 3 || cs2[1].Old != nil {
		t.Fatalf("changes after restore: %+v", cs2)
	}
	if got := hashesOf(t, tbl, cs2[0].New); !slices.Equal(got, []int32{16, 20, 21}) {
		t.Errorf("a/2 holds %v", got)
	}
	// Nothing new: no change.
	assignAll(t, as2, a, 10, 22)
	if cs3, err := as2.Prepare(ctx); err != nil || len(cs3) != 0 {
		t.Errorf("unchanged index prepared %v, %v", cs3, err)
	}
}

// TestAssignerMaxBuckets: with dynamic-bucket.max-buckets reached, new keys go to existing buckets
// (deterministically by hash) and known keys keep theirs.
func TestAssignerMaxBuckets(t *testing.T) {
	tbl := dynTable(t, map[string]string{"dynamic-bucket.target-row-num": "1", "dynamic-bucket.max-buckets": "2"})
	as := newAssigner(t, tbl, nil)
	got := assignAll(t, as, part(t, "a"), 5, 6, 7, 8, 9, 5, 6)
	if !slices.Equal(got[:2], []int32{0, 1}) || !slices.Equal(got[5:], []int32{0, 1}) {
		t.Fatalf("buckets %v", got)
	}
	for _, b := range got[2:5] {
		if b != 0 && b != 1 {
			t.Fatalf("bucket %d beyond max-buckets 2: %v", b, got)
		}
	}
	again := assignAll(t, newAssigner(t, tbl, nil), part(t, "a"), 5, 6, 7, 8, 9)
	if !slices.Equal(again, got[:5]) {
		t.Errorf("not deterministic: %v then %v", got[:5], again)
	}
}

// TestAssignerRefusesUnindexedBucket: a bucket with data files but no HASH file (a writer that did
// not maintain the index) cannot be assigned to; the error names the partition, bucket and remedy.
func TestAssignerRefusesUnindexedBucket(t *testing.T) {
	tbl := dynTable(t, nil)
	live := []manifest.ManifestEntry{{Kind: manifest.Add, Partition: part(t, "a"), Bucket: 3, TotalBuckets: -1, File: manifest.DataFileMeta{FileName: "data-x.parquet"}}}
	as := newAssigner(t, tbl, live)
	_, err := as.Assign(context.Background(), part(t, "a"), 1)
	if err == nil || !strings.Contains(err.Error(), "p=a") || !strings.Contains(err.Error(), "bucket 3") || !strings.Contains(err.Error(), "no HASH index") {
		t.Fatalf("got %v", err)
	}
	if _, err := as.Assign(context.Background(), part(t, "b"), 1); err != nil {
		t.Errorf("other partition: %v", err)
	}
}

// TestAssignerCorruptIndex: a HASH file shorter than its entry says, or one hash in two buckets,
// is reported as corrupt when the partition is loaded.
func TestAssignerCorruptIndex(t *testing.T) {
	ctx := context.Background()
	tbl := dynTable(t, map[string]string{"dynamic-bucket.target-row-num": "2"})
	as := newAssigner(t, tbl, nil)
	assignAll(t, as, part(t, "a"), 1, 2, 3)
	cs := commitChanges(t, tbl, as)
	hashFile, err := index.FilePath(tbl, cs[1].New)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.FS.Delete(ctx, hashFile); err != nil {
		t.Fatal(err)
	}
	if _, err := newAssigner(t, tbl, nil).Assign(ctx, part(t, "a"), 9); err == nil || !strings.Contains(err.Error(), cs[1].New.FileName) {
		t.Errorf("missing file: %v", err)
	}
	w, _ := tbl.FS.Create(ctx, hashFile)
	w.Write(index.EncodeHashes([]int32{1})) // hash 1 is bucket 0's too
	w.Close()
	if _, err := newAssigner(t, tbl, nil).Assign(ctx, part(t, "a"), 9); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("hash in two buckets: %v, want ErrCorrupt", err)
	}
	w, _ = tbl.FS.Create(ctx, hashFile)
	w.Write(index.EncodeHashes([]int32{3, 4})) // entry says 1 hash
	w.Close()
	if _, err := newAssigner(t, tbl, nil).Assign(ctx, part(t, "a"), 9); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("row count mismatch: %v, want ErrCorrupt", err)
	}
}

func TestOptionsOf(t *testing.T) {
	for _, c := range []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"dynamic-bucket.target-row-num": "0"}, "dynamic-bucket.target-row-num"},
		{map[string]string{"dynamic-bucket.target-row-num": "x"}, "dynamic-bucket.target-row-num"},
		{map[string]string{"dynamic-bucket.max-buckets": "0"}, "dynamic-bucket.max-buckets"},
		{map[string]string{"dynamic-bucket.max-buckets": "40000"}, "dynamic-bucket.max-buckets"},
	} {
		if _, err := index.OptionsOf(spec.NewCoreOptions(c.opts)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v", c.opts, err)
		}
	}
	o, err := index.OptionsOf(spec.NewCoreOptions(nil))
	if err != nil || o.TargetRows != 2_000_000 || o.MaxBuckets != -1 {
		t.Errorf("defaults %+v %v", o, err)
	}
}
