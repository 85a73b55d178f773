package table_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// entry is a minimal valid manifest entry for data file name.
func entry(kind manifest.FileKind, name string) manifest.ManifestEntry {
	return manifest.ManifestEntry{Kind: kind, Partition: manifest.EmptyRow, TotalBuckets: 1, File: manifest.DataFileMeta{
		FileName: name, MinKey: manifest.EmptyRow, MaxKey: manifest.EmptyRow, KeyStats: manifest.EmptyStats,
		ValueStats: manifest.EmptyStats, ExtraFiles: []string{},
	}}
}

// putManifest writes manifest name of tbl holding entries.
func putManifest(t *testing.T, tbl *table.Table, name string, entries ...manifest.ManifestEntry) {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, entries); err != nil {
		t.Fatal(err)
	}
	putFile(t, tbl.FS, tbl.Path+"/manifest/"+name, buf.String())
}

// putList writes manifest list name of tbl naming manifests.
func putList(t *testing.T, tbl *table.Table, name string, manifests ...string) {
	t.Helper()
	metas := make([]manifest.ManifestFileMeta, len(manifests))
	for i, m := range manifests {
		metas[i] = manifest.ManifestFileMeta{FileName: m, PartitionStats: manifest.EmptyStats}
	}
	var buf bytes.Buffer
	if err := manifest.WriteManifestList(&buf, metas); err != nil {
		t.Fatal(err)
	}
	putFile(t, tbl.FS, tbl.Path+"/manifest/"+name, buf.String())
}

// deltaEntries drains DeltaEntries of s: the file names with their kind ("+a", "-b"), then the
// errors yielded, and stops after stop names (0: never).
func deltaEntries(tbl *table.Table, s *spec.Snapshot, stop int) (names []string, errs []error) {
	for e, err := range tbl.DeltaEntries(context.Background(), s) {
		if err != nil {
			errs = append(errs, err)
			continue // the sequence must end by itself after an error
		}
		sign := "+"
		if e.Kind == manifest.Delete {
			sign = "-"
		}
		names = append(names, sign+e.File.FileName)
		if len(names) == stop {
			break
		}
	}
	return names, errs
}

// TestDeltaEntries: DeltaEntries yields the entries of the snapshot's delta manifests alone, in
// list order; a manifest is read only when the entries before it are used up; a read error is
// yielded once and ends the sequence; names outside the table are refused as ReadManifestList and
// ReadManifest refuse them.
func TestDeltaEntries(t *testing.T) {
	tbl := newTable(t, [][2]string{{"id", "BIGINT"}}, nil, nil, nil)
	putManifest(t, tbl, "manifest-base", entry(manifest.Add, "data-base.parquet"))
	putManifest(t, tbl, "manifest-d1", entry(manifest.Add, "data-a.parquet"), entry(manifest.Delete, "data-base.parquet"))
	putManifest(t, tbl, "manifest-d2", entry(manifest.Add, "data-c.parquet"))
	putList(t, tbl, "manifest-list-base", "manifest-base")
	putList(t, tbl, "manifest-list-delta", "manifest-d1", "manifest-d2")
	s := snap(2, "u", 2, spec.CommitKindAppend)
	s.BaseManifestList, s.DeltaManifestList = "manifest-list-base", "manifest-list-delta"

	names, errs := deltaEntries(tbl, s, 0)
	if want := "+data-a.parquet -data-base.parquet +data-c.parquet"; strings.Join(names, " ") != want || len(errs) != 0 {
		t.Fatalf("delta entries %q, errors %v; want %q", names, errs, want)
	}
	live, err := tbl.LiveFiles(context.Background(), s)
	if err != nil || len(live) != 2 || live[0].File.FileName != "data-a.parquet" || live[1].File.FileName != "data-c.parquet" {
		t.Fatalf("live files %v, %v; want data-a, data-c", live, err)
	}

	// A consumer that stops within the first manifest does not need the second.
	if err := tbl.FS.Delete(context.Background(), tbl.Path+"/manifest/manifest-d2"); err != nil {
		t.Fatal(err)
	}
	if names, errs := deltaEntries(tbl, s, 2); len(names) != 2 || len(errs) != 0 {
		t.Errorf("stopping after 2 entries: %q, errors %v; want 2 entries and no error", names, errs)
	}
	names, errs = deltaEntries(tbl, s, 0)
	if len(names) != 2 || len(errs) != 1 || !errors.Is(errs[0], fileio.ErrNotExist) || !strings.Contains(errs[0].Error(), "manifest-d2") {
		t.Errorf("second manifest missing: %q, errors %v; want the first manifest's 2 entries, then one error naming manifest-d2", names, errs)
	}
	if err := tbl.FS.Delete(context.Background(), tbl.Path+"/manifest/manifest-d1"); err != nil {
		t.Fatal(err)
	}
	if names, errs := deltaEntries(tbl, s, 0); len(names) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "manifest-d1") {
		t.Errorf("both manifests missing: %q, errors %v; want one error, naming manifest-d1, and nothing after it", names, errs)
	}
	putManifest(t, tbl, "manifest-d1", entry(manifest.Add, "data-a.parquet"), entry(manifest.Delete, "data-base.parquet"))

	var pe *table.PathError
	putManifest(t, tbl, "manifest-d2", entry(manifest.Add, "../../outside.parquet"))
	if _, errs := deltaEntries(tbl, s, 0); len(errs) != 1 || !errors.As(errs[0], &pe) || !strings.Contains(errs[0].Error(), "manifest manifest-d2") {
		t.Errorf("entry outside the table: errors %v; want one PathError naming manifest manifest-d2", errs)
	}
	putList(t, tbl, "manifest-list-delta", "manifest-d1", "../manifest-d2")
	if names, errs := deltaEntries(tbl, s, 0); len(names) != 0 || len(errs) != 1 || !errors.As(errs[0], &pe) {
		t.Errorf("list naming a manifest outside: %q, errors %v; want no entry and one PathError", names, errs)
	}
	// The list itself is refused, not only the read of the manifest it names (expire deletes by list).
	if metas, err := tbl.ReadManifestList(context.Background(), "manifest-list-delta"); !errors.As(err, &pe) ||
		!strings.Contains(err.Error(), "manifest list manifest-list-delta") || metas != nil {
		t.Errorf("ReadManifestList of a list naming a manifest outside: %v, %v; want a PathError naming the list", metas, err)
	}
	s.DeltaManifestList = "manifest-list-gone"
	if names, errs := deltaEntries(tbl, s, 0); len(names) != 0 || len(errs) != 1 || !errors.Is(errs[0], fileio.ErrNotExist) {
		t.Errorf("delta list missing: %q, errors %v; want one ErrNotExist", names, errs)
	}
}

// TestLiveFilesCacheSeesChangedManifest: LiveFiles serves decoded manifests from a cache, yet a
// manifest rewritten in place is decoded again when its size or its modification time differs.
func TestLiveFilesCacheSeesChangedManifest(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, [][2]string{{"id", "BIGINT"}}, nil, nil, nil)
	putList(t, tbl, "manifest-list-base", "manifest-1")
	putList(t, tbl, "manifest-list-delta")
	s := snap(1, "u", 1, spec.CommitKindAppend)
	s.BaseManifestList, s.DeltaManifestList = "manifest-list-base", "manifest-list-delta"
	old := time.Now().Add(-time.Hour).Truncate(time.Second) // an old file is cached (manifest_cache.go, racyAge)
	age := func(at time.Time) {
		t.Helper()
		if err := os.Chtimes(tbl.Path+"/manifest/manifest-1", at, at); err != nil {
			t.Fatal(err)
		}
	}
	names := func() string {
		t.Helper()
		live, err := tbl.LiveFiles(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range live {
			out = append(out, e.File.FileName)
		}
		return strings.Join(out, " ")
	}
	putManifest(t, tbl, "manifest-1", entry(manifest.Add, "data-a.parquet"))
	age(old)
	if got := names(); got != "data-a.parquet" {
		t.Fatalf("live files %q", got)
	}
	putManifest(t, tbl, "manifest-1", entry(manifest.Add, "data-a.parquet"), entry(manifest.Add, "data-b.parquet"))
	age(old) // same modification time, another size
	if got := names(); got != "data-a.parquet data-b.parquet" {
		t.Errorf("after a rewrite with another size: live files %q, want data-a.parquet data-b.parquet", got)
	}
	putManifest(t, tbl, "manifest-1", entry(manifest.Add, "data-a.parquet"), entry(manifest.Add, "data-c.parquet"))
	age(old.Add(-time.Hour)) // same size, another modification time
	if got := names(); got != "data-a.parquet data-c.parquet" {
		t.Errorf("after a rewrite of the same size: live files %q, want data-a.parquet data-c.parquet", got)
	}
}
