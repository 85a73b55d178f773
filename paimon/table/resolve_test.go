package table_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

func str(s string) *string { return &s }

// TestResolveMetadataNames: every path named by metadata is one file name in the table directory of
// its kind, or an external path below a data-file.external-paths root ending in that name; anything
// else is a *table.PathError wrapping spec.ErrCorrupt that names the metadata, and no path.
func TestResolveMetadataNames(t *testing.T) {
	tbl := newTable(t, [][2]string{{"id", "BIGINT"}}, nil, nil,
		map[string]string{table.OptDataFileExternalPaths: "s3://bucket/ext/, /mnt/ext2"})
	if got := tbl.ExternalRoots(); len(got) != 2 || got[0] != "s3://bucket/ext" || got[1] != "/mnt/ext2" {
		t.Fatalf("external roots %q", got)
	}
	paths := tbl.NewPaths()
	bucket := tbl.Path + "/bucket-0/"
	cases := []struct {
		name string
		ext  *string
		want string // "" = refused
	}{
		{"data-1.parquet", nil, bucket + "data-1.parquet"},
		{"data-1.parquet", str(""), bucket + "data-1.parquet"},
		{"data-1.parquet", str("s3://bucket/ext/bucket-0/data-1.parquet"), "s3://bucket/ext/bucket-0/data-1.parquet"},
		{"data-1.parquet", str("/mnt/ext2/data-1.parquet"), "/mnt/ext2/data-1.parquet"},
		{"..data-1..parquet", nil, bucket + "..data-1..parquet"},
		{"", nil, ""},
		{".", nil, ""},
		{"..", nil, ""},
		{"../data-1.parquet", nil, ""},
		{"a/b", nil, ""},
		{"/etc/passwd", nil, ""},
		{`..\x`, nil, ""},
		{"x\x00", nil, ""},
		{"data-1.parquet", str("/etc/data-1.parquet"), ""},
		{"data-1.parquet", str("s3://bucket/ext/../data-1.parquet"), ""},
		{"data-1.parquet", str("s3://bucket/ext//data-1.parquet"), ""},
		{"data-1.parquet", str("s3://bucket/ext/./data-1.parquet"), ""},
		{"data-1.parquet", str("s3://bucket/extra/data-1.parquet"), ""},
		{"data-1.parquet", str("s3://bucket/ext"), ""},
		{"data-1.parquet", str("s3://bucket/ext/bucket-0/data-2.parquet"), ""},
		{"data-1.parquet", str("s3://bucket/ext/bucket-0/xdata-1.parquet"), ""},
		{"../x", str("s3://bucket/ext/../x"), ""},
	}
	for _, c := range cases {
		got, err := paths.DataFile(nil, 0, c.name, c.ext)
		if c.want != "" {
			if err != nil || got != c.want {
				t.Errorf("DataFile(%q, %v) = %q, %v; want %q", c.name, deref(c.ext), got, err, c.want)
			}
			if err := tbl.CheckEntry(manifest.ManifestEntry{File: manifest.DataFileMeta{FileName: c.name, ExternalPath: c.ext}}, "manifest m"); err != nil {
				t.Errorf("CheckEntry(%q, %v): %v", c.name, deref(c.ext), err)
			}
			continue
		}
		var pe *table.PathError
		if !errors.As(err, &pe) || !errors.Is(err, spec.ErrCorrupt) || got != "" {
			t.Errorf("DataFile(%q, %v) = %q, %v; want a PathError", c.name, deref(c.ext), got, err)
		}
		err = tbl.CheckEntry(manifest.ManifestEntry{File: manifest.DataFileMeta{FileName: c.name, ExternalPath: c.ext}}, "manifest m-1")
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "manifest m-1") {
			t.Errorf("CheckEntry(%q, %v): %v, want a PathError naming the manifest", c.name, deref(c.ext), err)
		}
		if err := tbl.CheckIndexEntry(manifest.IndexManifestEntry{FileName: c.name, ExternalPath: c.ext}, "index manifest i-1"); !errors.As(err, &pe) {
			t.Errorf("CheckIndexEntry(%q, %v): %v, want a PathError", c.name, deref(c.ext), err)
		}
		if c.ext == nil {
			for _, dir := range []string{table.DirManifest, table.DirStatistics} {
				if p, err := tbl.MetaFile(dir, c.name, "snapshot 3"); !errors.As(err, &pe) || p != "" || !strings.Contains(err.Error(), "snapshot 3") {
					t.Errorf("MetaFile(%s, %q) = %q, %v; want a PathError naming snapshot 3", dir, c.name, p, err)
				}
			}
			e := manifest.ManifestEntry{File: manifest.DataFileMeta{FileName: "data-1.parquet", ExtraFiles: []string{c.name}}}
			if err := tbl.CheckEntry(e, "manifest m-2"); !errors.As(err, &pe) {
				t.Errorf("CheckEntry with extra file %q: %v, want a PathError", c.name, err)
			}
			if _, err := tbl.ExtraFile(bucket+"data-1.parquet", c.name, "manifest m-2"); !errors.As(err, &pe) {
				t.Errorf("ExtraFile(%q): %v, want a PathError", c.name, err)
			}
			s := snap(3, "u", 3, spec.CommitKindAppend)
			s.Statistics = str(c.name)
			if c.name != "" { // an empty optional name names nothing
				if err := table.CheckSnapshotNames(s, "snapshot 3"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "statistics") {
					t.Errorf("CheckSnapshotNames with statistics %q: %v", c.name, err)
				}
			}
		}
	}
	if p, err := tbl.MetaFile(table.DirManifest, "manifest-list-1", "snapshot 3"); err != nil || p != tbl.Path+"/manifest/manifest-list-1" {
		t.Errorf("MetaFile = %q, %v", p, err)
	}
	if p, err := tbl.IndexFile("index-1", nil, "index manifest i"); err != nil || p != tbl.Path+"/index/index-1" {
		t.Errorf("IndexFile = %q, %v", p, err)
	}
	if p, err := tbl.ExtraFile(bucket+"data-1.parquet", "data-1.parquet.index", "m"); err != nil || p != bucket+"data-1.parquet.index" {
		t.Errorf("ExtraFile = %q, %v", p, err)
	}
	if err := table.CheckSnapshotNames(snap(3, "u", 3, spec.CommitKindAppend), "snapshot 3"); err != nil {
		t.Errorf("CheckSnapshotNames of a valid snapshot: %v", err)
	}
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestSnapshotGetRefusesNamesOutsideTable: a snapshot file naming a manifest list with "../" is
// reported as corrupt by Get, naming the snapshot and the field.
func TestSnapshotGetRefusesNamesOutsideTable(t *testing.T) {
	m, fs, dir := newSnapshotDir(t)
	s := snap(1, "u", 1, spec.CommitKindAppend)
	s.DeltaManifestList = "../../victim"
	putSnapshot(t, fs, dir, s)
	_, err := m.Get(context.Background(), 1)
	var pe *table.PathError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "snapshot 1 (deltaManifestList)") {
		t.Fatalf("Get: %v, want a PathError naming snapshot 1's deltaManifestList", err)
	}
}

// TestTableDeleteGuard: Table.Delete deletes below the table and its external roots only, and not
// through a symbolic link below them.
func TestTableDeleteGuard(t *testing.T) {
	ext := filepath.ToSlash(t.TempDir())
	tbl := newTable(t, [][2]string{{"id", "BIGINT"}}, nil, nil, map[string]string{table.OptDataFileExternalPaths: ext})
	ctx := context.Background()
	outside := filepath.Join(filepath.Dir(tbl.Path), "victim")
	for _, p := range []string{tbl.Path + "/bucket-0/a", ext + "/bucket-0/b", outside, filepath.Join(ext, "target", "c")} {
		putFile(t, tbl.FS, p, "x")
	}
	if err := os.Symlink(filepath.Join(ext, "target"), filepath.Join(tbl.Path, "bucket-1")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tbl.Path + "/bucket-0/../../victim", outside, tbl.Path, tbl.Path + "/", tbl.Path + "/bucket-1/c", ext + "/../victim"} {
		if err := tbl.Delete(ctx, p); !errors.Is(err, fileio.ErrOutside) {
			t.Errorf("Delete(%s): %v, want ErrOutside", p, err)
		}
	}
	for _, p := range []string{outside, filepath.Join(ext, "target", "c")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s deleted by a refused Delete: %v", p, err)
		}
	}
	for _, p := range []string{tbl.Path + "/bucket-0/a", ext + "/bucket-0/b", tbl.Path + "/bucket-1", tbl.Path + "/bucket-9/missing"} {
		if err := tbl.Delete(ctx, p); err != nil {
			t.Errorf("Delete(%s): %v", p, err)
		}
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after Delete: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(ext, "target", "c")); err != nil {
		t.Errorf("deleting the link bucket-1 deleted its target's file: %v", err)
	}
}
