package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
)

func schema(t *testing.T) *spec.TableSchema {
	t.Helper()
	typ, err := spec.ParseType("INT")
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.NewSchema([]spec.DataField{{Name: "a", Type: typ}}, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseIdentifier(t *testing.T) {
	cases := []struct {
		in      string
		want    catalog.Identifier
		errPart string // "" = valid
	}{
		{"sales.orders", catalog.Identifier{Database: "sales", Table: "orders"}, ""},
		{"db.t-1", catalog.Identifier{Database: "db", Table: "t-1"}, ""},
		{"db.Ünïcode tbl", catalog.Identifier{Database: "db", Table: "Ünïcode tbl"}, ""},
		{"orders", catalog.Identifier{}, "<database>.<table>"},
		{"a.b.c", catalog.Identifier{}, "<database>.<table>"},
		{".orders", catalog.Identifier{}, "database name"},
		{"sales.", catalog.Identifier{}, "table name"},
		{"sa/les.orders", catalog.Identifier{}, "'/'"},
		{"sales.or\\ders", catalog.Identifier{}, "table name"},
		{" sales.orders", catalog.Identifier{}, "surrounding spaces"},
		{"sales.orders ", catalog.Identifier{}, "surrounding spaces"},
		{"", catalog.Identifier{}, "<database>.<table>"},
	}
	for _, c := range cases {
		got, err := catalog.ParseIdentifier(c.in)
		if c.errPart == "" {
			if err != nil || got != c.want {
				t.Errorf("ParseIdentifier(%q) = %v, %v; want %v", c.in, got, err, c.want)
			}
			if err == nil && got.String() != c.in {
				t.Errorf("String() = %q, want %q", got.String(), c.in)
			}
			continue
		}
		if !errors.Is(err, catalog.ErrBadName) || !strings.Contains(err.Error(), c.errPart) {
			t.Errorf("ParseIdentifier(%q): %v, want ErrBadName mentioning %q", c.in, err, c.errPart)
		}
	}
}

func TestDatabasesAndTables(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	c := catalog.New(local.New(), wh+"/")
	if dbs, err := c.ListDatabases(ctx); err != nil || len(dbs) != 0 {
		t.Fatalf("fresh warehouse: %v, %v", dbs, err)
	}
	for _, db := range []string{"b", "a"} {
		if err := c.CreateDatabase(ctx, db, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.CreateDatabase(ctx, "a", false); !errors.Is(err, catalog.ErrDatabaseExist) {
		t.Errorf("create twice: %v, want ErrDatabaseExist", err)
	}
	if err := c.CreateDatabase(ctx, "a", true); err != nil {
		t.Errorf("create twice with ignoreIfExists: %v", err)
	}
	if err := c.CreateDatabase(ctx, "../x", false); !errors.Is(err, catalog.ErrBadName) {
		t.Errorf("bad database name: %v", err)
	}
	// Foreign entries in the warehouse are not databases.
	if err := os.MkdirAll(filepath.Join(wh, "notadb"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wh, "file.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if dbs, err := c.ListDatabases(ctx); err != nil || !slices.Equal(dbs, []string{"a", "b"}) {
		t.Errorf("ListDatabases = %v, %v; want [a b]", dbs, err)
	}
	if got := c.DatabasePath("a"); got != filepath.Join(wh, "a.db") {
		t.Errorf("DatabasePath = %s", got)
	}

	t1 := catalog.Identifier{Database: "a", Table: "t1"}
	t2 := catalog.Identifier{Database: "a", Table: "t2"}
	inNewDB := catalog.Identifier{Database: "c", Table: "t"}
	for _, id := range []catalog.Identifier{t2, t1, inNewDB} {
		if err := c.CreateTable(ctx, id, schema(t), false); err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
	}
	if _, err := os.Stat(filepath.Join(wh, "a.db", "t1", "schema", "schema-0")); err != nil {
		t.Errorf("schema-0 not at the Java location: %v", err)
	}
	err := c.CreateTable(ctx, t1, schema(t), false)
	if !errors.Is(err, catalog.ErrTableExist) || !strings.Contains(err.Error(), "a.t1") {
		t.Errorf("create table twice: %v, want ErrTableExist naming a.t1", err)
	}
	if err := c.CreateTable(ctx, t1, schema(t), true); err != nil {
		t.Errorf("create table twice with ignoreIfExists: %v", err)
	}
	s1 := schema(t)
	s1.ID = 1
	if err := c.CreateTable(ctx, catalog.Identifier{Database: "a", Table: "t3"}, s1, false); err == nil || !strings.Contains(err.Error(), "schema id must be 0") {
		t.Errorf("schema id 1: %v", err)
	}
	if err := c.CreateTable(ctx, catalog.Identifier{Database: "a", Table: ".hidden"}, schema(t), false); !errors.Is(err, catalog.ErrBadName) {
		t.Errorf("bad table name: %v", err)
	}
	// A directory without schema file is not a table.
	if err := os.MkdirAll(filepath.Join(wh, "a.db", "junk", "snapshot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if tables, err := c.ListTables(ctx, "a"); err != nil || !slices.Equal(tables, []string{"t1", "t2"}) {
		t.Errorf("ListTables = %v, %v; want [t1 t2]", tables, err)
	}
	tbl, err := c.LoadTable(ctx, t1)
	if err != nil || tbl.Name != "a.t1" || tbl.Path != filepath.Join(wh, "a.db", "t1") || tbl.Schema.ID != 0 {
		t.Fatalf("LoadTable = %+v, %v", tbl, err)
	}
	missing := catalog.Identifier{Database: "a", Table: "nope"}
	_, err = c.LoadTable(ctx, missing)
	if !errors.Is(err, catalog.ErrTableNotExist) || !strings.Contains(err.Error(), "a.nope") || !strings.Contains(err.Error(), "create it") {
		t.Errorf("LoadTable of a missing table: %v, want ErrTableNotExist saying how to create it", err)
	}
	if ok, err := c.TableExists(ctx, missing); ok || err != nil {
		t.Errorf("TableExists(missing) = %v, %v", ok, err)
	}

	// Drops.
	if err := c.DropDatabase(ctx, "a", false); !errors.Is(err, catalog.ErrDatabaseNotEmpty) || !strings.Contains(err.Error(), "t1") {
		t.Errorf("drop non-empty database: %v, want ErrDatabaseNotEmpty listing its tables", err)
	}
	if err := c.DropTable(ctx, t2, false); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.TableExists(ctx, t2); ok {
		t.Error("t2 still exists after DropTable")
	}
	if err := c.DropTable(ctx, t2, false); !errors.Is(err, catalog.ErrTableNotExist) {
		t.Errorf("drop missing table: %v, want ErrTableNotExist", err)
	}
	if err := c.DropTable(ctx, t2, true); err != nil {
		t.Errorf("drop missing table with ignoreIfNotExists: %v", err)
	}
	if err := c.DropDatabase(ctx, "a", true); err != nil {
		t.Fatal(err)
	}
	if err := c.DropDatabase(ctx, "a", true); !errors.Is(err, catalog.ErrDatabaseNotExist) {
		t.Errorf("drop missing database: %v, want ErrDatabaseNotExist", err)
	}
	if err := c.DropDatabase(ctx, "b", false); err != nil {
		t.Errorf("drop empty database: %v", err)
	}
	if dbs, err := c.ListDatabases(ctx); err != nil || !slices.Equal(dbs, []string{"c"}) {
		t.Errorf("ListDatabases after drops = %v, %v; want [c]", dbs, err)
	}
}

// TestCreateTableRace: concurrent creators of one table: exactly one succeeds.
func TestCreateTableRace(t *testing.T) {
	ctx := context.Background()
	c := catalog.New(local.New(), t.TempDir())
	id := catalog.Identifier{Database: "db", Table: "t"}
	const n = 6
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = c.CreateTable(ctx, id, schema(t), false) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, catalog.ErrTableExist):
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d creators succeeded, want 1", ok)
	}
}

// TestObjectStoreStyle: on a file system without directories (in-memory here, used like an object
// store) a database appears once it holds a table.
func TestObjectStoreStyle(t *testing.T) {
	ctx := context.Background()
	c := catalog.New(mem.New(), "/wh")
	id := catalog.Identifier{Database: "db", Table: "t"}
	if err := c.CreateTable(ctx, id, schema(t), false); err != nil {
		t.Fatal(err)
	}
	if dbs, err := c.ListDatabases(ctx); err != nil || !slices.Equal(dbs, []string{"db"}) {
		t.Errorf("ListDatabases = %v, %v", dbs, err)
	}
	if _, err := c.LoadTable(ctx, id); err != nil {
		t.Error(err)
	}
	if err := c.DropDatabase(ctx, "nope", false); !errors.Is(err, catalog.ErrDatabaseNotExist) {
		t.Errorf("drop missing database: %v", err)
	}
}

// TestDropRefusesCraftedNames: drops validate names, so a crafted identifier cannot delete a table
// directory outside its database (or the warehouse).
func TestDropRefusesCraftedNames(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	c := catalog.New(local.New(), filepath.Join(wh, "warehouse"))
	victim := catalog.Identifier{Database: "other", Table: "t"}
	if err := c.CreateTable(ctx, victim, schema(t), false); err != nil {
		t.Fatal(err)
	}
	for _, id := range []catalog.Identifier{
		{Database: "db", Table: "../other.db/t"},
		{Database: "../warehouse/other", Table: "t"},
	} {
		if err := c.DropTable(ctx, id, false); !errors.Is(err, catalog.ErrBadName) {
			t.Errorf("DropTable(%q): %v, want ErrBadName", id, err)
		}
	}
	for _, db := range []string{"..", "../warehouse/other", ""} {
		if err := c.DropDatabase(ctx, db, true); !errors.Is(err, catalog.ErrBadName) {
			t.Errorf("DropDatabase(%q): %v, want ErrBadName", db, err)
		}
	}
	if ok, err := c.TableExists(ctx, victim); !ok || err != nil {
		t.Errorf("victim table gone: %v, %v", ok, err)
	}
}
