package index_test

import (
	"testing"

	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

func ent(kind manifest.FileKind, p string, b int32, typ, name string) manifest.IndexManifestEntry {
	return manifest.IndexManifestEntry{Kind: kind, Partition: []byte(p), Bucket: b, IndexType: typ, FileName: name}
}

func names(es []manifest.IndexManifestEntry) []string {
	var out []string
	for _, e := range es {
		if e.Kind != manifest.Add {
			out = append(out, "!"+e.FileName)
		}
		out = append(out, e.FileName)
	}
	return out
}

// TestCombine: Java's IndexManifestFileHandler semantics — HASH and bucketed DV files replace their
// (partition, bucket, type) slot (DELETE first, then ADD); DV files of bucket-unaware tables and
// other types are keyed by file name; untouched entries are kept.
func TestCombine(t *testing.T) {
	const H, DV = manifest.IndexTypeHash, manifest.IndexTypeDeletionVectors
	prev := []manifest.IndexManifestEntry{
		ent(manifest.Add, "a", 0, H, "h-a0"), ent(manifest.Add, "a", 1, H, "h-a1"), ent(manifest.Add, "b", 0, H, "h-b0"),
		ent(manifest.Add, "a", 0, DV, "dv-a0"),
	}
	got, err := index.Combine(prev, []manifest.IndexManifestEntry{
		ent(manifest.Delete, "a", 1, H, "h-a1"), ent(manifest.Add, "a", 1, H, "h-a1-v2"), // replace with DELETE
		ent(manifest.Add, "b", 0, H, "h-b0-v2"), // replace by slot alone (Java sends ADD only)
		ent(manifest.Add, "a", 2, H, "h-a2"),    // new bucket
		ent(manifest.Add, "a", 0, DV, "dv-a0-v2"),
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"dv-a0-v2", "h-a0", "h-a1-v2", "h-a2", "h-b0-v2"}
	if g := names(got); len(g) != len(want) {
		t.Fatalf("got %v, want %v", g, want)
	} else {
		seen := map[string]bool{}
		for _, n := range g {
			seen[n] = true
		}
		for _, n := range want {
			if !seen[n] {
				t.Errorf("got %v, want %v", g, want)
			}
		}
	}
	// Bucket-unaware DV: by file name; two files per bucket are fine, deleting a missing one is not.
	unaware := []manifest.IndexManifestEntry{ent(manifest.Add, "", 0, DV, "dv1")}
	got, err = index.Combine(unaware, []manifest.IndexManifestEntry{ent(manifest.Add, "", 0, DV, "dv2")}, true)
	if err != nil || len(got) != 2 {
		t.Fatalf("unaware add: %v %v", names(got), err)
	}
	if _, err := index.Combine(unaware, []manifest.IndexManifestEntry{ent(manifest.Delete, "", 0, DV, "dv9")}, true); err == nil {
		t.Error("deleting a missing unaware DV file succeeded")
	}
	if _, err := index.Combine(unaware, []manifest.IndexManifestEntry{ent(manifest.Add, "", 0, DV, "dv1")}, true); err == nil {
		t.Error("adding a live unaware DV file twice succeeded")
	}
	got, err = index.Combine(unaware, []manifest.IndexManifestEntry{ent(manifest.Delete, "", 0, DV, "dv1")}, true)
	if err != nil || len(got) != 0 {
		t.Errorf("unaware delete: %v %v", names(got), err)
	}
}
