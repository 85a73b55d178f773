package compat

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/roundtrip"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// change is one input row with its kind.
type change = roundtrip.Change

var ins, del = roundtrip.Ins, roundtrip.Del

// tableDef describes a table by column SQL types.
type tableDef struct {
	cols    [][2]string // name, SQL type
	pk      []string
	part    []string
	options map[string]string
}

func (d tableDef) schema(t *testing.T) *spec.TableSchema {
	t.Helper()
	fields := make([]spec.DataField, len(d.cols))
	for i, c := range d.cols {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatalf("type %q: %v", c[1], err)
		}
		fields[i] = spec.DataField{Name: c[0], Type: typ}
	}
	s, err := spec.NewSchema(fields, d.part, d.pk, d.options, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newTable creates db.name in a fresh warehouse and returns it.
func newTable(t *testing.T, wh, name string, d tableDef) *table.Table {
	t.Helper()
	return newTableOn(t, storage{fs: local.New(), wh: wh}, name, d)
}

// lakeloadCommit writes changes through lakeload's writer and commits them as one snapshot.
func lakeloadCommit(t *testing.T, tbl *table.Table, changes []change) int64 {
	t.Helper()
	return writeCommit(t, tbl, write.Options{}, changes)
}

// writeCommit writes changes through a lakeload writer of options o and commits them as one
// snapshot (a fresh commit user), whose id it returns.
func writeCommit(t *testing.T, tbl *table.Table, o write.Options, changes []change) int64 {
	t.Helper()
	return roundtrip.WriteCommit(t, tbl, o, uuid.NewString(), changes)
}

// lakeloadRows reads the table with lakeload as canonical lines.
func lakeloadRows(t *testing.T, tbl *table.Table, snapshot int64) []string {
	t.Helper()
	schema, rows, err := read.Rows(context.Background(), tbl, read.ScanOptions{SnapshotID: snapshot})
	if err != nil {
		t.Fatal(err)
	}
	lines, err := canon.Rows(schema.Fields, rows)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// liveIndex returns tbl's latest snapshot and the index files live in it.
func liveIndex(t *testing.T, tbl *table.Table) (*spec.Snapshot, []manifest.IndexManifestEntry) {
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
	return latest, es
}

// canonLines renders model rows as sorted canonical lines.
func canonLines(t *testing.T, fields []spec.DataField, rows [][]any) []string {
	t.Helper()
	return loadtest.CanonLines(t, fields, rows)
}

func tablePath(wh, name string) string { return filepath.Join(wh, "db.db", name) }
