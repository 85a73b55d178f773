package index_test

import (
	"context"
	"testing"

	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// TestAssignerFromFiles: an assigner restored from explicit HASH files (an overwrite's staged index)
// routes their hashes to their buckets, fills their buckets up to the target, replaces the given
// file of a bucket it grows, ignores other index types, and starts other partitions empty even
// though the table (no snapshot here) might hold data.
func TestAssignerFromFiles(t *testing.T) {
	ctx := context.Background()
	tbl := dynTable(t, map[string]string{"dynamic-bucket.target-row-num": "3"})
	paths := tbl.NewPaths()
	pa, pb := part(t, "a"), part(t, "b")
	f0, err := index.WriteHashFile(ctx, tbl, paths, pa, 0, []int32{10, 11, 12})
	if err != nil {
		t.Fatal(err)
	}
	f1, err := index.WriteHashFile(ctx, tbl, paths, pa, 1, []int32{20})
	if err != nil {
		t.Fatal(err)
	}
	dv := manifest.IndexManifestEntry{Kind: manifest.Add, Partition: pa, Bucket: 2, IndexType: manifest.IndexTypeDeletionVectors, FileName: "dv-x"}
	a, err := index.NewAssignerFrom(tbl, []manifest.IndexManifestEntry{f0, f1, dv})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		part []byte
		h    int32
		want int32
	}{{pa, 11, 0}, {pa, 20, 1}, {pa, 30, 1}, {pa, 31, 1}, {pa, 32, 2}, {pb, 11, 0}, {pb, 40, 0}} {
		b, err := a.Assign(ctx, c.part, c.h)
		if err != nil {
			t.Fatal(err)
		}
		if b != c.want {
			t.Errorf("partition %x hash %d → bucket %d, want %d", c.part, c.h, b, c.want)
		}
	}
	changes, err := a.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var grew bool
	for _, c := range changes {
		if string(c.Partition) == string(pa) && c.Bucket == 0 {
			t.Errorf("bucket 0 of a gained no key but got a new HASH file")
		}
		if string(c.Partition) == string(pa) && c.Bucket == 1 {
			grew = true
			if c.Old == nil || c.Old.FileName != f1.FileName || c.New.RowCount != 3 {
				t.Errorf("bucket 1 of a: old %+v new %d hashes, want old %s and 3 hashes", c.Old, c.New.RowCount, f1.FileName)
			}
		}
		if string(c.Partition) == string(pb) && c.Old != nil {
			t.Errorf("partition b bucket %d replaces %s; it starts empty", c.Bucket, c.Old.FileName)
		}
	}
	if !grew || len(changes) != 3 {
		t.Fatalf("changes %+v: want a/1, a/2 and b/0", changes)
	}
}
