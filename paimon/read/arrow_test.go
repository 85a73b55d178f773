package read_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

// TestRecordsMatchRows reads a Java-written primary-key fixture both as datum rows and as Arrow
// batches (small batches, so several are produced) and checks they hold the same values.
func TestRecordsMatchRows(t *testing.T) {
	ctx := context.Background()
	tbl, err := table.Open(ctx, local.New(), mustAbs(t, "../../testdata/java-written/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor"), "mor")
	if err != nil {
		t.Fatal(err)
	}
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := read.Scan(ctx, tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]any
	batches := 0
	err = read.Records(ctx, tbl, plan, 3, func(rec arrow.RecordBatch) error {
		batches++
		if rec.NumRows() > 3 {
			t.Errorf("batch of %d rows, want at most 3", rec.NumRows())
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			row := make([]any, rec.NumCols())
			for c := range row {
				v, err := arrowconv.DatumAt(rec.Column(c), r, plan.Schema.Fields[c].Type)
				if err != nil {
					return err
				}
				row[c] = v
			}
			got = append(got, row)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || len(got) != len(rows) || batches < 2 {
		t.Fatalf("got %d rows in %d batches, want %d rows in ≥2 batches", len(got), batches, len(rows))
	}
	for i := range rows {
		for c := range rows[i] {
			if !equalDatum(rows[i][c], got[i][c]) {
				t.Errorf("row %d col %d: %#v vs %#v", i, c, rows[i][c], got[i][c])
			}
		}
	}
}
