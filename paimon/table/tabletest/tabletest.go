// Package tabletest creates Paimon tables for tests of the table layer (write, read, commit,
// compact, index), as net/http/httptest serves net/http's tests. It has no state; every table is
// created fresh, and a failure stops the calling test.
package tabletest

import (
	"context"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Dir is where NewMem creates its table (database db, table t).
const Dir = "/wh/db.db/t"

// New creates table db.t at dir on fs from (name, SQL type) columns, partition keys, primary keys
// and options, and opens it.
func New(t testing.TB, fs fileio.FileIO, dir string, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	fields := make([]spec.DataField, len(cols))
	for i, c := range cols {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatalf("column %s: %v", c[0], err)
		}
		fields[i] = spec.DataField{Name: c[0], Type: typ}
	}
	s, err := spec.NewSchema(fields, part, pk, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := table.NewSchemas(fs, dir).Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return Open(t, fs, dir)
}

// NewMem is New on a fresh in-memory file system at Dir.
func NewMem(t testing.TB, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	return New(t, mem.New(), Dir, cols, part, pk, opts)
}

// Open opens table db.t at dir on fs.
func Open(t testing.TB, fs fileio.FileIO, dir string) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), fs, dir, "db.t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
