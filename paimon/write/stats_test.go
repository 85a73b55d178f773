package write_test

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/write"
)

// less orders two non-null datums of one column the way the test expects statistics to: numbers by
// value, strings and bytes by unsigned bytes, false < true, decimals by unscaled value.
func less(a, b any) bool {
	switch x := a.(type) {
	case int32:
		return x < b.(int32)
	case int64:
		return x < b.(int64)
	case float64:
		return x < b.(float64)
	case string:
		return x < b.(string)
	case []byte:
		return bytes.Compare(x, b.([]byte)) < 0
	case bool:
		return !x && b.(bool)
	case spec.DecimalValue:
		return x.Unscaled.Cmp(b.(spec.DecimalValue).Unscaled) < 0
	}
	panic(fmt.Sprintf("less: %T", a))
}

// expectedStats computes min, max and null count of the given columns of rows.
func expectedStats(rows [][]any, cols []int) (mins, maxs []any, nulls []int64) {
	mins, maxs, nulls = make([]any, len(cols)), make([]any, len(cols)), make([]int64, len(cols))
	for _, r := range rows {
		for i, c := range cols {
			v := r[c]
			switch {
			case v == nil:
				nulls[i]++
			case mins[i] == nil:
				mins[i], maxs[i] = v, v
			default:
				if less(v, mins[i]) {
					mins[i] = v
				}
				if less(maxs[i], v) {
					maxs[i] = v
				}
			}
		}
	}
	return mins, maxs, nulls
}

// checkStats decodes s with types and compares it with the stats of cols over rows.
func checkStats(t *testing.T, what string, s manifest.SimpleStats, types []spec.DataType, rows [][]any, cols []int) {
	t.Helper()
	mins, maxs, nulls := expectedStats(rows, cols)
	gotMin, err := binrow.Deserialize(types, s.MinValues)
	if err != nil {
		t.Fatalf("%s min: %v", what, err)
	}
	gotMax, err := binrow.Deserialize(types, s.MaxValues)
	if err != nil {
		t.Fatalf("%s max: %v", what, err)
	}
	if len(s.NullCounts) != len(cols) {
		t.Fatalf("%s: %d null counts for %d columns", what, len(s.NullCounts), len(cols))
	}
	for i := range cols {
		if fmt.Sprint(gotMin[i]) != fmt.Sprint(mins[i]) || fmt.Sprint(gotMax[i]) != fmt.Sprint(maxs[i]) {
			t.Errorf("%s column %d: [%v, %v], want [%v, %v]", what, i, gotMin[i], gotMax[i], mins[i], maxs[i])
		}
		if s.NullCounts[i] == nil || *s.NullCounts[i] != nulls[i] {
			t.Errorf("%s column %d: null count %v, want %d", what, i, s.NullCounts[i], nulls[i])
		}
	}
}

func statsRows(n int, seed uint64) [][]any {
	rng := rand.New(rand.NewPCG(seed, 7))
	maybe := func(v any) any {
		if rng.IntN(5) == 0 {
			return nil
		}
		return v
	}
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{
			int32(i - n/2), // k: unique, NOT NULL in PK tables
			fmt.Sprintf("key-%03d", rng.IntN(1000)),
			maybe(rng.Int64N(1<<40) - 1<<39),
			maybe(fmt.Sprintf("s%d", rng.IntN(100000))),
			maybe(rng.NormFloat64() * 1e6),
			maybe(rng.IntN(2) == 0),
			maybe(int32(rng.IntN(40000) - 20000)),
			maybe(spec.DecimalValue{Unscaled: big.NewInt(rng.Int64N(1e9) - 5e8)}),
		}
	}
	return rows
}

var statsCols = [][2]string{
	{"k", "INT"}, {"k2", "STRING"}, {"b", "BIGINT"}, {"s", "STRING"}, {"d", "DOUBLE"},
	{"z", "BOOLEAN"}, {"dt", "DATE"}, {"dec", "DECIMAL(10, 2)"},
}

// TestFileStatistics: value stats over all columns and key stats over the key columns equal the
// min/max/null counts computed here from the rows written.
func TestFileStatistics(t *testing.T) {
	cases := []struct {
		name string
		pk   []string
		opts map[string]string
	}{
		{"append", nil, nil},
		{"primary key", []string{"k2", "k"}, map[string]string{"bucket": "1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := newTable(t, statsCols, nil, c.pk, c.opts)
			rows := statsRows(300, 1)
			var changes []change
			for _, r := range rows {
				changes = append(changes, ins(r...))
			}
			msgs := writeChanges(t, tbl, write.Options{}, changes)
			if len(msgs) != 1 || len(msgs[0].NewFiles) != 1 {
				t.Fatalf("want one file, got %+v", msgs)
			}
			f := msgs[0].NewFiles[0]
			if f.ValueStatsCols != nil {
				t.Errorf("_VALUE_STATS_COLS = %v, want null (all columns)", f.ValueStatsCols)
			}
			types := make([]spec.DataType, len(tbl.Schema.Fields))
			all := make([]int, len(types))
			for i, fd := range tbl.Schema.Fields {
				types[i], all[i] = fd.Type, i
			}
			checkStats(t, "value stats", f.ValueStats, types, rows, all)
			if c.pk == nil {
				if !bytes.Equal(f.MinKey, binrow.EmptyRow) || !bytes.Equal(f.MaxKey, binrow.EmptyRow) || len(f.KeyStats.NullCounts) != 0 {
					t.Errorf("append file has keys: %x %x %+v", f.MinKey, f.MaxKey, f.KeyStats)
				}
				return
			}
			checkStats(t, "key stats", f.KeyStats, tbl.KeyTypes(), rows, []int{1, 0})
			// Min/max key are the first and last key in key order (k2, then k).
			keyLess := func(a, b []any) bool {
				if a[1] != b[1] {
					return a[1].(string) < b[1].(string)
				}
				return a[0].(int32) < b[0].(int32)
			}
			lo, hi := rows[0], rows[0]
			for _, r := range rows {
				if keyLess(r, lo) {
					lo = r
				}
				if keyLess(hi, r) {
					hi = r
				}
			}
			gotLo, _ := binrow.Deserialize(tbl.KeyTypes(), f.MinKey)
			gotHi, _ := binrow.Deserialize(tbl.KeyTypes(), f.MaxKey)
			if fmt.Sprint(gotLo) != fmt.Sprint([]any{lo[1], lo[0]}) || fmt.Sprint(gotHi) != fmt.Sprint([]any{hi[1], hi[0]}) {
				t.Errorf("key range [%v, %v], want [%v, %v]", gotLo, gotHi, []any{lo[1], lo[0]}, []any{hi[1], hi[0]})
			}
			if *f.DeleteRowCount != 0 || f.RowCount != int64(len(rows)) || f.Level != 0 || *f.FileSource != 0 {
				t.Errorf("meta: deletes %d rows %d level %d source %d", *f.DeleteRowCount, f.RowCount, f.Level, *f.FileSource)
			}
		})
	}
}

// TestStatisticsSkipNestedColumns: with a nested column, stats cover the atomic columns only and
// _VALUE_STATS_COLS names them.
func TestStatisticsSkipNestedColumns(t *testing.T) {
	tbl := newTable(t, [][2]string{{"id", "INT"}, {"tags", "ARRAY<STRING>"}, {"name", "STRING"}}, nil, nil, nil)
	rows := [][]any{
		{int32(3), []any{"a"}, "c"},
		{int32(-1), nil, nil},
		{int32(7), []any{}, "a"},
	}
	var changes []change
	for _, r := range rows {
		changes = append(changes, ins(r...))
	}
	msgs := writeChanges(t, tbl, write.Options{}, changes)
	f := msgs[0].NewFiles[0]
	if fmt.Sprint(f.ValueStatsCols) != "[id name]" {
		t.Fatalf("_VALUE_STATS_COLS = %v, want [id name]", f.ValueStatsCols)
	}
	types := []spec.DataType{tbl.Schema.Fields[0].Type, tbl.Schema.Fields[2].Type}
	checkStats(t, "value stats", f.ValueStats, types, rows, []int{0, 2})
}
