package write_test

import (
	"context"
	"testing"

	"github.com/lakeload/lakeload/internal/roundtrip"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/table/tabletest"
	"github.com/lakeload/lakeload/paimon/write"
)

// newTable creates a table in a fresh in-memory file system from (name, SQL type) columns.
func newTable(t *testing.T, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	return tabletest.NewMem(t, cols, part, pk, opts)
}

type change = roundtrip.Change

var ins, del = roundtrip.Ins, roundtrip.Del

// writeChanges writes changes with a new writer and prepares them.
func writeChanges(t *testing.T, tbl *table.Table, o write.Options, changes []change) []table.CommitMessage {
	t.Helper()
	return roundtrip.Write(t, tbl, o, changes)
}

// commitMsgs commits msgs as commit user "test".
func commitMsgs(t *testing.T, tbl *table.Table, msgs []table.CommitMessage) int64 {
	t.Helper()
	return roundtrip.Commit(t, tbl, msgs, "test")
}

// fileRow is one physical row of a data file.
type fileRow struct {
	seq  int64
	kind spec.RowKind
	vals []any // table columns
}

// readDataFile reads every physical row of a data file written for message m.
func readDataFile(t *testing.T, tbl *table.Table, m table.CommitMessage, f manifest.DataFileMeta) []fileRow {
	t.Helper()
	ctx := context.Background()
	p, err := tbl.NewPaths().DataFile(m.Partition, m.Bucket, f.FileName, f.ExternalPath)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := tbl.FS.Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if fh.Size() != f.FileSize {
		t.Errorf("%s: meta says %d bytes, file has %d", f.FileName, f.FileSize, fh.Size())
	}
	rd, err := parquet.OpenReader(fh, fh.Size())
	if err != nil {
		t.Fatal(err)
	}
	phys, err := write.PhysicalFields(tbl.Schema)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(phys))
	for i, pf := range phys {
		names[i] = pf.Name
	}
	it, err := rd.Read(ctx, names, 1024)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Release()
	pk := tbl.HasPrimaryKey()
	nk := len(phys) - len(tbl.Schema.Fields)
	var out []fileRow
	for it.Next() {
		rec := it.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			fr := fileRow{}
			for c, pf := range phys {
				v, err := arrowconv.DatumAt(rec.Column(c), r, pf.Type)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case pk && pf.Name == "_SEQUENCE_NUMBER":
					fr.seq = v.(int64)
				case pk && pf.Name == "_VALUE_KIND":
					fr.kind = spec.RowKind(v.(int8))
				case c >= nk:
					fr.vals = append(fr.vals, v)
				}
			}
			out = append(out, fr)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if int64(len(out)) != f.RowCount {
		t.Errorf("%s: meta says %d rows, file has %d", f.FileName, f.RowCount, len(out))
	}
	return out
}
