package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTableCreateDescribeDrop: create writes schema-0 with the given columns, keys, options and comment;
// describe shows them (json and text); create of an existing table fails with exit 4 unless
// --if-not-exists; drop deletes the directory; drop/describe of a missing table exit 4 unless --if-exists.
func TestTableCreateDescribeDrop(t *testing.T) {
	wh := t.TempDir()
	create := cmdArgs([]string{"table", "create"}, tbl(wh, "shop.orders",
		"--column", "id BIGINT", "--column", "customer STRING", "--column", "amount DECIMAL(12, 2)",
		"--column", "tags ARRAY<STRING>", "--column", "dt STRING",
		"--primary-key", "dt,id", "--partition-key", "dt", "--option", "bucket=4", "--option", " file.format = parquet ",
		"--comment", "orders table"))
	out := ok(t, create...)
	dir := filepath.Join(wh, "shop.db", "orders")
	if want := "created table shop.orders at " + dir + "\n"; out != want {
		t.Errorf("create printed %q, want %q", out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "schema", "schema-0")); err != nil {
		t.Fatalf("schema-0 not written: %v", err)
	}

	var doc struct {
		Table          string
		Path           string
		LatestSnapshot *int64
		Schema         struct {
			Fields []struct {
				ID   int
				Name string
				Type any
			}
			PrimaryKeys   []string
			PartitionKeys []string
			Options       map[string]string
			Comment       string
		}
	}
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"table", "describe"}, tbl(wh, "shop.orders", "--output", "json"))...)), &doc); err != nil {
		t.Fatal(err)
	}
	var names, types []string
	for i, f := range doc.Schema.Fields {
		if f.ID != i {
			t.Errorf("field %s has id %d, want %d", f.Name, f.ID, i)
		}
		names = append(names, f.Name)
		b, _ := json.Marshal(f.Type)
		types = append(types, string(b))
	}
	wantTypes := []string{`"BIGINT NOT NULL"`, `"STRING"`, `"DECIMAL(12, 2)"`, `{"element":"STRING","type":"ARRAY"}`, `"STRING NOT NULL"`}
	if doc.Table != "shop.orders" || doc.Path != dir || doc.LatestSnapshot != nil ||
		!reflect.DeepEqual(names, []string{"id", "customer", "amount", "tags", "dt"}) || !reflect.DeepEqual(types, wantTypes) ||
		!reflect.DeepEqual(doc.Schema.PrimaryKeys, []string{"dt", "id"}) || !reflect.DeepEqual(doc.Schema.PartitionKeys, []string{"dt"}) ||
		!reflect.DeepEqual(doc.Schema.Options, map[string]string{"bucket": "4", "file.format": "parquet"}) || doc.Schema.Comment != "orders table" {
		t.Errorf("describe --output json: %+v (types %v)", doc, types)
	}

	text := ok(t, cmdArgs([]string{"table", "describe"}, tbl(wh, "shop.orders"))...)
	for _, w := range []string{"Table:      shop.orders", "Primary key: dt, id", "Partitioned by: dt", "Latest snapshot: none",
		"amount    DECIMAL(12, 2)", "bucket = 4"} {
		if !strings.Contains(text, w) {
			t.Errorf("describe output lacks %q:\n%s", w, text)
		}
	}

	fails(t, exitTable, []string{"table already exists: shop.orders"}, create...)
	if out := ok(t, append(create, "--if-not-exists")...); out != "table shop.orders already exists; nothing created\n" {
		t.Errorf("create --if-not-exists printed %q", out)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "schema", "*")); len(m) != 1 {
		t.Errorf("schema files after repeated create: %v", m)
	}

	drop := cmdArgs([]string{"table", "drop"}, tbl(wh, "shop.orders"))
	if out := ok(t, drop...); out != "dropped table shop.orders\n" {
		t.Errorf("drop printed %q", out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("table directory still there after drop: %v", err)
	}
	fails(t, exitTable, []string{"table does not exist: shop.orders"}, drop...)
	fails(t, exitTable, []string{"table does not exist: shop.orders"}, cmdArgs([]string{"table", "describe"}, tbl(wh, "shop.orders"))...)
	if out := ok(t, append(drop, "--if-exists")...); out != "table shop.orders does not exist; nothing dropped\n" {
		t.Errorf("drop --if-exists printed %q", out)
	}
}
