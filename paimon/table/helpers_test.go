package table_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// newSnapshotDir returns a snapshot manager over a fresh table directory.
func newSnapshotDir(t *testing.T) (*table.Snapshots, fileio.FileIO, string) {
	t.Helper()
	dir := t.TempDir()
	fs := local.New()
	return table.NewSnapshots(fs, dir), fs, filepath.Join(dir, "snapshot")
}

// snap builds a minimal valid snapshot.
func snap(id int64, user string, ident int64, kind spec.CommitKind) *spec.Snapshot {
	total := id
	return &spec.Snapshot{
		Version: 3, ID: id, SchemaID: 0,
		BaseManifestList: "manifest-list-b-" + strconv.FormatInt(id, 10), DeltaManifestList: "manifest-list-d-" + strconv.FormatInt(id, 10),
		CommitUser: user, CommitIdentifier: ident, CommitKind: kind, TimeMillis: 1700000000000 + id,
		TotalRecordCount: &total, DeltaRecordCount: new(int64),
	}
}

// putSnapshot writes snapshot-id directly (no hint update), as a foreign writer would.
func putSnapshot(t *testing.T, fs fileio.FileIO, dir string, s *spec.Snapshot) {
	t.Helper()
	b, err := s.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := fileio.WriteFile(context.Background(), fs, filepath.Join(dir, "snapshot-"+strconv.FormatInt(s.ID, 10)), b); err != nil {
		t.Fatal(err)
	}
}

func putFile(t *testing.T, fs fileio.FileIO, path, content string) {
	t.Helper()
	if err := fileio.WriteFile(context.Background(), fs, path, []byte(content)); err != nil {
		t.Fatal(err)
	}
}

// newTable writes schema-0 of a table built from (name, SQL type) columns and opens it.
func newTable(t *testing.T, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	fields := make([]spec.DataField, len(cols))
	for i, c := range cols {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		fields[i] = spec.DataField{Name: c[0], Type: typ}
	}
	s, err := spec.NewSchema(fields, part, pk, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	if err := table.NewSchemas(local.New(), dir).Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	tbl, err := table.Open(ctx, local.New(), dir, "db.t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

type manifestFile = manifest.DataFileMeta
