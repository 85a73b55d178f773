package table_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// TestIdentity: a table's identity comes from its earliest schema file, so it survives new schemas
// and reopening, and changes when the table is dropped and created again — with a later creation
// time, or at the same millisecond with another schema. A directory without a schema has none
// (fileio.ErrNotExist).
func TestIdentity(t *testing.T) {
	ctx := context.Background()
	fs, dir := local.New(), t.TempDir()
	create := func(id, timeMillis int64, col string) {
		t.Helper()
		s, err := spec.NewSchema([]spec.DataField{{Name: col, Type: spec.DataType{Root: spec.BigInt, Nullable: true}}}, nil, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.ID, s.TimeMillis = id, timeMillis
		if err := table.NewSchemas(fs, dir).Create(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	identity := func() string {
		t.Helper()
		tb, err := table.Open(ctx, fs, dir, "db.t")
		if err != nil {
			t.Fatal(err)
		}
		id, err := tb.Identity(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if _, err := (&table.Table{FS: fs, Path: dir}).Identity(ctx); !errors.Is(err, fileio.ErrNotExist) {
		t.Fatalf("identity of a directory without a schema: %v", err)
	}
	create(0, 1700000000000, "a")
	first := identity()
	if again := identity(); again != first {
		t.Fatalf("identity changed on reopening: %s, then %s", first, again)
	}
	create(1, 1700000000999, "b") // a later schema (an added column) is the same table
	if id := identity(); id != first {
		t.Errorf("a new schema changed the identity: %s → %s", first, id)
	}

	seen := map[string]string{first: "first table"}
	for _, tc := range []struct {
		what       string
		timeMillis int64
		col        string
	}{
		{"recreated later", 1700000005000, "a"},
		{"recreated in the same millisecond with another schema", 1700000005000, "c"},
	} {
		if err := os.RemoveAll(filepath.Join(dir, "schema")); err != nil {
			t.Fatal(err)
		}
		create(0, tc.timeMillis, tc.col)
		id := identity()
		if prev, dup := seen[id]; dup {
			t.Errorf("%s: identity %s is that of the %s", tc.what, id, prev)
		}
		seen[id] = tc.what
	}
}
