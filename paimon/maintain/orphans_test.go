package maintain

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// junk writes files that no snapshot references and returns their relative paths.
func junk(t *testing.T, f *fixture, rel ...string) []string {
	for _, r := range rel {
		if err := fileio.WriteFile(context.Background(), f.fs, tablePath+"/"+r, []byte("junk-"+r)); err != nil {
			t.Fatal(err)
		}
	}
	return rel
}

func rels(ds []Deleted) []string {
	var out []string
	for _, d := range ds {
		out = append(out, strings.TrimPrefix(d.Path, tablePath+"/"))
	}
	return out
}

func TestCleanOrphansDeletesOnlyUnreferencedFiles(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	history(t, f)
	if err := fileio.WriteFile(ctx, f.fs, tablePath+"/consumer/consumer-x", []byte(`{"nextSnapshot":1}`)); err != nil {
		t.Fatal(err)
	}
	orphans := junk(t, f,
		"manifest/manifest-0000-orphan-0", "manifest/manifest-list-0000-orphan-1", "index/index-0000-orphan-2",
		"statistics/stat-0000-orphan-3", "p=a/bucket-0/data-orphan-4.parquet", "p=b/bucket-0/data-orphan-5.parquet",
		"snapshot/.snapshot-7.0000.tmp", "changelog/.changelog-7.0000.tmp")
	junk(t, f, "p=a/bucket-0/data-inflight.parquet", "p=a/bucket-0/data-inflight.parquet.index", // a load's stored result
		"README", "other/file", "p=a/notabucket/x") // outside the directories Paimon owns
	protected := map[string]bool{"data-inflight.parquet": true, "data-inflight.parquet.index": true}
	before := files(t, f.fs)
	slices.Sort(orphans)

	dry, err := CleanOrphans(ctx, f.tbl, time.Now().Add(time.Minute), true, protected)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files(t, f.fs), before) {
		t.Fatal("dry run deleted files")
	}
	res, err := CleanOrphans(ctx, f.tbl, time.Now().Add(time.Minute), false, protected)
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(res.Files); !slices.Equal(got, orphans) || !slices.Equal(rels(dry.Files), got) {
		t.Fatalf("deleted %v (dry run %v), want %v", got, rels(dry.Files), orphans)
	}
	var size int64
	for _, o := range orphans {
		size += int64(len("junk-" + o))
	}
	if res.Bytes != size {
		t.Fatalf("bytes %d, want %d", res.Bytes, size)
	}
	for _, p := range before {
		if !slices.Contains(orphans, p) && !slices.Contains(files(t, f.fs), p) {
			t.Errorf("%s deleted but it is not an orphan", p)
		}
	}
	f.checkSnapshots(t, f.tbl, 1, 6) // every snapshot still reads completely
}

func TestCleanOrphansKeepsYoungFiles(t *testing.T) {
	f := newFixture(t, nil)
	history(t, f)
	junk(t, f, "manifest/manifest-young", "p=a/bucket-0/data-young.parquet")
	res, err := CleanOrphans(context.Background(), f.tbl, time.Now().Add(-time.Hour), false, nil)
	if err != nil || len(res.Files) != 0 {
		t.Fatalf("%+v, %v: files younger than the bound must stay", res, err)
	}
}

// TestCleanOrphansStopsOnUnreadableMetadata: a manifest of a live snapshot is missing; guessing
// would make every data file it lists an orphan, so nothing is deleted.
func TestCleanOrphansStopsOnUnreadableMetadata(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	history(t, f)
	orphans := junk(t, f, "p=a/bucket-0/data-orphan.parquet")
	s := getSnapshot(t, f.tbl, 6)
	if err := f.fs.Delete(ctx, tablePath+"/manifest/"+s.DeltaManifestList); err != nil {
		t.Fatal(err)
	}
	before := files(t, f.fs)
	_, err := CleanOrphans(ctx, f.tbl, time.Now().Add(time.Minute), false, nil)
	if err == nil || !strings.Contains(err.Error(), "snapshot 6") || !strings.Contains(err.Error(), s.DeltaManifestList) {
		t.Fatalf("err %v, want one naming snapshot 6 and its missing list", err)
	}
	if !slices.Equal(files(t, f.fs), before) || !slices.Contains(before, orphans[0]) {
		t.Fatal("files were deleted although the table's metadata could not be read")
	}
}
