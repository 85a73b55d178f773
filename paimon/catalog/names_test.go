package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestNameRules: database, table and column names that could leave the warehouse, hide a directory or
// carry control or format characters (bidi overrides, zero-width and other invisible characters;
// issue 14 finding 8) are refused with ErrBadName naming the name; ordinary names of any script pass.
func TestNameRules(t *testing.T) {
	for _, n := range []string{"", ".hidden", "..", "a/b", `a\b`, " pad", "tab\there", "nl\nx", "del\x7f", "bad\xffutf8",
		"rtl\u202eexe.txt", "lri\u2066x", "zero\u200bwidth", "nb\u00a0sp", "line\u2028sep", "bom\ufeff", "priv\ue000"} {
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
	for _, n := range []string{"orders", "Ünïcode_1", "a-b", "with space", "a.b", "注文", "x'y\"z", "a+b=c"} {
		if err := CheckColumnNames([]spec.DataField{{Name: n}}); err != nil {
			t.Errorf("column name %q refused: %v", n, err)
		}
		if err := checkName("table", strings.ReplaceAll(n, ".", "_")); err != nil {
			t.Errorf("table name %q refused: %v", n, err)
		}
	}
	// The error quotes the name so that what is hidden shows, and says what is allowed.
	if err := checkName("table", "a\u202eb"); err == nil || !strings.Contains(err.Error(), `"a\u202eb"`) ||
		!strings.Contains(err.Error(), "bidi") {
		t.Errorf("error for a bidi override: %v", err)
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
