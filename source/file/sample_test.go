package file

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// TestBundledSample reads testdata/sample with the orders table the README describes.
func TestBundledSample(t *testing.T) {
	tbl := table(t, "id BIGINT NOT NULL", "customer STRING", "amount DECIMAL(12, 2)", "status STRING", "ts TIMESTAMP(3)", "dt STRING NOT NULL")
	count := func(path string, opts source.MappingOptions) (rows int64, kinds map[spec.RowKind]int, nullStatus int) {
		kinds = map[spec.RowKind]int{}
		for _, sp := range planAll(t, path) {
			bs, err := readAll(t, sp, tbl, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bs {
				rows += b.Record.NumRows()
				for _, k := range b.Kinds {
					kinds[k]++
				}
				nullStatus += b.Record.Column(3).NullN()
				ids := b.Record.Column(0).(*array.Int64)
				if ids.NullN() != 0 {
					t.Errorf("%s: null ids", sp.Path)
				}
			}
		}
		return
	}
	rows, _, nulls := count("../../testdata/sample/orders-[12].*", source.MappingOptions{})
	if rows != 3000 || nulls != 273 { // ids ≡ 5 mod 11 in 1..3000
		t.Errorf("orders: %d rows, %d null statuses; want 3000, 273", rows, nulls)
	}
	rows, kinds, _ := count("../../testdata/sample/orders-changes.csv", source.MappingOptions{OpColumn: "op"})
	if rows != 511 || kinds[spec.RowKindInsert] != 100 || kinds[spec.RowKindUpdateBefore] != 174 || kinds[spec.RowKindUpdateAfter] != 174 || kinds[spec.RowKindDelete] != 63 {
		t.Errorf("changes: %d rows, kinds %v", rows, kinds)
	}
}

func planAll(t *testing.T, glob string) []source.Split {
	t.Helper()
	ss, err := Plan(t.Context(), osFS{}, glob, "")
	if err != nil {
		t.Fatal(err)
	}
	return ss
}
