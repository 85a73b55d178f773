package parquet

import (
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// normalize maps a written Datum to what reading it back must give: the multiset is read as
// its elements grouped in first-occurrence order.
func normalizeRow(fields []spec.DataField, row []any) []any {
	out := append([]any(nil), row...)
	for i, f := range fields {
		if f.Type.Root == spec.Multiset && row[i] != nil {
			var keys []any
			counts := map[any]int{}
			for _, e := range row[i].([]any) {
				if counts[e] == 0 {
					keys = append(keys, e)
				}
				counts[e]++
			}
			var g []any
			for _, k := range keys {
				for n := 0; n < counts[k]; n++ {
					g = append(g, k)
				}
			}
			if g == nil {
				g = []any{}
			}
			out[i] = g
		}
	}
	return out
}

func TestRoundTripAllTypes(t *testing.T) {
	fields := allTypesFields()
	rows := allTypesRows(300)
	for _, tc := range []struct {
		name  string
		opts  WriterOptions
		batch int
	}{
		{"zstd-one-batch", WriterOptions{}, 1000},
		{"snappy-small-batches-small-rowgroups", WriterOptions{Compression: "snappy", RowGroupRows: 7}, 13},
		{"none", WriterOptions{Compression: "none"}, 100},
		{"gzip-zstd-level", WriterOptions{Compression: "gzip"}, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, st := writeRows(t, fields, rows, tc.batch, tc.opts)
			if st.RowCount != int64(len(rows)) {
				t.Fatalf("RowCount %d, want %d", st.RowCount, len(rows))
			}
			got := readRows(t, data, fields, nil, 16)
			if len(got) != len(rows) {
				t.Fatalf("read %d rows, want %d", len(got), len(rows))
			}
			for r := range rows {
				want := normalizeRow(fields, rows[r])
				for c, f := range fields {
					if !datumEqual(got[r][c], want[c]) {
						t.Fatalf("row %d column %s: got %#v, want %#v", r, f.Name, got[r][c], want[c])
					}
				}
			}
		})
	}
}

func TestReadProjectionOrder(t *testing.T) {
	fields := allTypesFields()
	rows := allTypesRows(20)
	data, _ := writeRows(t, fields, rows, 20, WriterOptions{})
	pick := []int{27, 11, 3, 19} // row, str, i32, ts9
	var sub []spec.DataField
	var names []string
	for _, i := range pick {
		sub = append(sub, fields[i])
		names = append(names, fields[i].Name)
	}
	got := readRows(t, data, sub, names, 0)
	for r := range rows {
		for k, i := range pick {
			if !datumEqual(got[r][k], rows[r][i]) {
				t.Fatalf("row %d column %s: got %#v, want %#v", r, fields[i].Name, got[r][k], rows[r][i])
			}
		}
	}
	r, err := OpenReader(bytesReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(t.Context(), []string{"nope"}, 0); err == nil {
		t.Fatal("unknown column accepted")
	}
}

func TestEmptyFile(t *testing.T) {
	fields := allTypesFields()
	data, st := writeRows(t, fields, nil, 1, WriterOptions{})
	if st.RowCount != 0 || len(st.Columns) != len(fields) {
		t.Fatalf("stats %+v", st)
	}
	for i, c := range st.Columns {
		if c.Min != nil || c.Max != nil || c.NullCount != 0 {
			t.Fatalf("column %d stats %+v", i, c)
		}
	}
	if got := readRows(t, data, fields, nil, 10); len(got) != 0 {
		t.Fatalf("read %d rows", len(got))
	}
}
