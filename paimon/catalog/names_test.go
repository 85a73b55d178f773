package catalog

import (
	"context"
	"errors"
	"testing"

	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestNameRules: database, table and column names that could leave the warehouse, hide a directory or
// carry control characters are refused with ErrBadName naming the name; ordinary names pass.
func TestNameRules(t *testing.T) {
	for _, n := range []string{"", ".hidden", "..", "a/b", `a\b`, " pad", "tab\there", "nl\nx", "del\x7f", "bad\xffutf8"} {
		if err := checkName("table", n); !errors.Is(err, ErrBadName) {
			t.Errorf("table name %q accepted: %v", n, err)
		}
		if err := CheckColumnNames([]spec.DataField{{Name: n}}); !errors.Is(err, ErrBadName) {
			t.Errorf("column name %q accepted: %v", n, err)
		}
	}
	if err := CheckColumnNames([]spec.DataField{{Name: "a..b"}}); !errors.Is(err, ErrBadName) {
		t.Errorf("column name a..b accepted: %v", err)
	}
	for _, n := range []string{"orders", "Ünïcode_1", "a-b", "with space", "a.b"} {
		if err := CheckColumnNames([]spec.DataField{{Name: n}}); err != nil {
			t.Errorf("column name %q refused: %v", n, err)
		}
	}
	c := New(mem.New(), "/wh")
	s, err := spec.NewSchema([]spec.DataField{{Name: "ok", Type: spec.DataType{Root: spec.Int, Nullable: true}},
		{ID: 1, Name: "x/y", Type: spec.DataType{Root: spec.Int, Nullable: true}}}, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(context.Background(), Identifier{"db", "t"}, s, false); !errors.Is(err, ErrBadName) {
		t.Errorf("CreateTable with column x/y: %v", err)
	}
	if ok, _ := c.TableExists(context.Background(), Identifier{"db", "t"}); ok {
		t.Error("a table with a bad column name was created")
	}
}
