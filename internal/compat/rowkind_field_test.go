package compat

import (
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
)

// TestRowKindFieldOption: with table option rowkind.field, the named column decides each row's kind
// (Java RowKindGenerator), whatever kind the caller passed. lakeload writes every row as an insert;
// the "-D" rows must still delete their keys for Java, pypaimon and lakeload.
func TestRowKindFieldOption(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	wh := t.TempDir()
	def := tableDef{cols: [][2]string{{"id", "INT"}, {"v", "STRING"}, {"op", "STRING"}},
		pk: []string{"id"}, options: map[string]string{"bucket": "1", "rowkind.field": "op"}}
	tbl := newTable(t, wh, "rk", def)
	lakeloadCommit(t, tbl, []change{ins(int32(1), "a", "+I"), ins(int32(2), "b", "+I"), ins(int32(3), "c", "+I")})
	id := lakeloadCommit(t, tbl, []change{ins(int32(1), "a", "-D"), ins(int32(2), "b2", "+U")})
	want := canonLines(t, tbl.Schema.Fields, [][]any{{int32(2), "b2", "+U"}, {int32(3), "c", "+I"}})
	path := tablePath(wh, "rk")
	diffLinesAs(t, "java", want, java.Read(path, oracle.ReadOpts{Snapshot: id}))
	diffLinesAs(t, "pypaimon", want, py.Read(path, oracle.ReadOpts{Snapshot: id}))
	diffLinesAs(t, "lakeload", want, lakeloadRows(t, tbl, id))
}
