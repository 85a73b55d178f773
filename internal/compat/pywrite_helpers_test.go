package compat

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// kindText is the rowkind.field spelling of a row kind (what pypaimon reads from that column).
var kindText = map[spec.RowKind]string{
	spec.RowKindInsert: "+I", spec.RowKindUpdateBefore: "-U", spec.RowKindUpdateAfter: "+U", spec.RowKindDelete: "-D",
}

// oracleSpec turns a tableDef into the pypaimon oracle's create-table spec (same SQL type strings).
func (d tableDef) oracleSpec() *oracle.TableSpec {
	s := &oracle.TableSpec{PrimaryKeys: d.pk, PartitionKeys: d.part, Options: d.options}
	for _, c := range d.cols {
		s.Columns = append(s.Columns, oracle.Column{Name: c[0], Type: c[1]})
	}
	return s
}

// pyCommit writes changes through pypaimon as one batch commit (creating the table from d if absent)
// and returns the new snapshot id. Row kinds other than +I need the table option rowkind.field naming a
// column that already holds the kind's text in each row (see withKind).
func pyCommit(t *testing.T, py *oracle.Client, path string, d tableDef, fields []spec.DataField, changes []change) int64 {
	t.Helper()
	lines := make([]string, len(changes))
	for i, c := range changes {
		if c.Kind != spec.RowKindInsert && d.options["rowkind.field"] == "" {
			t.Fatalf("change %d is %s but the table has no rowkind.field", i, kindText[c.Kind])
		}
		b, err := canon.Row(fields, c.Row)
		if err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
		lines[i] = string(b)
	}
	return py.Write(path, oracle.WriteOpts{Spec: d.oracleSpec(), Rows: lines})
}

// withKind returns c with column col set to the text of c's kind, so pypaimon (rowkind.field) and
// lakeload (explicit kind) write the same change.
func withKind(c change, col int) change {
	row := append([]any(nil), c.Row...)
	row[col] = kindText[c.Kind]
	return change{Kind: c.Kind, Row: row}
}

// openTable opens WAREHOUSE/db.db/name with lakeload (for tables another writer created).
func openTable(t *testing.T, wh, name string) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), local.New(), tablePath(wh, name), "db."+name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// threeReaders checks that lakeload, Java Paimon and pypaimon all read snapshot id of the table as want.
func threeReaders(t *testing.T, what string, tbl *table.Table, id int64, want []string) {
	t.Helper()
	java, py := oracle.Java(t), oracle.Py(t)
	diffLinesAs(t, what+" lakeload", want, sorted(lakeloadRows(t, tbl, id)))
	diffLinesAs(t, what+" java", want, java.Read(tbl.Path, oracle.ReadOpts{Snapshot: id}))
	diffLinesAs(t, what+" pypaimon", want, py.Read(tbl.Path, oracle.ReadOpts{Snapshot: id}))
}

// sameSnapshots checks that lakeload parses every snapshot of the table like Java does (commit user,
// identifier, kind, schema id, record counts, properties).
func sameSnapshots(t *testing.T, tbl *table.Table) {
	t.Helper()
	ctx := context.Background()
	want := oracle.Java(t).Snapshots(tbl.Path)
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(want) {
		t.Fatalf("lakeload lists %d snapshots, Java %d", len(ids), len(want))
	}
	for i, id := range ids {
		s, err := tbl.Snapshots().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{
			"id": s.ID, "schemaId": s.SchemaID, "commitUser": s.CommitUser, "commitIdentifier": s.CommitIdentifier,
			"commitKind": s.CommitKind, "totalRecordCount": deref(s.TotalRecordCount),
			"deltaRecordCount": deref(s.DeltaRecordCount), "properties": props(s.Properties),
		}
		w := want[i]
		w["properties"] = props(w["properties"])
		for k, v := range got {
			if fmt.Sprint(v) != fmt.Sprint(w[k]) {
				t.Errorf("snapshot %d %s: lakeload %v, Java %v", id, k, v, w[k])
			}
		}
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// props normalises snapshot properties (nil, map[string]string or map[string]any) to a printable form.
func props(p any) string {
	m := map[string]string{}
	switch x := p.(type) {
	case map[string]string:
		m = x
	case map[string]any:
		for k, v := range x {
			m[k] = fmt.Sprint(v)
		}
	}
	return fmt.Sprint(m) // fmt prints maps with sorted keys
}

func sorted(lines []string) []string {
	canon.Sort(lines)
	return lines
}
