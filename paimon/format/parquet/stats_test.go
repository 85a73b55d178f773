package parquet

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

func TestStatsAllTypes(t *testing.T) {
	fields := allTypesFields()
	rows := allTypesRows(200)
	_, st := writeRows(t, fields, rows, 37, WriterOptions{RowGroupRows: 50})
	if len(st.Columns) != len(fields) {
		t.Fatalf("%d column stats", len(st.Columns))
	}
	for c, f := range fields {
		var vals []any
		var nulls int64
		for _, r := range rows {
			if r[c] == nil {
				nulls++
			} else {
				vals = append(vals, r[c])
			}
		}
		got := st.Columns[c]
		if got.NullCount != nulls {
			t.Errorf("%s: null count %d, want %d", f.Name, got.NullCount, nulls)
		}
		if !f.Type.IsAtomic() {
			if got.Min != nil || got.Max != nil {
				t.Errorf("%s: complex column has min/max %v/%v", f.Name, got.Min, got.Max)
			}
			continue
		}
		lo, hi := refMinMax(f.Type, vals)
		if !datumEqual(got.Min, lo) || !datumEqual(got.Max, hi) {
			t.Errorf("%s: stats %#v..%#v, want %#v..%#v", f.Name, got.Min, got.Max, lo, hi)
		}
	}
}

// refMinMax is an independent reference: a sort-free scan with Java's comparator and Paimon's
// truncate(16) applied to the results.
func refMinMax(t spec.DataType, vals []any) (any, any) {
	if len(vals) == 0 {
		return nil, nil
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		if javaCompare(v, lo) < 0 {
			lo = v
		}
		if javaCompare(v, hi) > 0 {
			hi = v
		}
	}
	switch x := hi.(type) {
	case float32:
		if lo.(float32) == 0 {
			lo = float32(math.Copysign(0, -1))
		}
		if x == 0 {
			hi = float32(0)
		}
	case float64:
		if lo.(float64) == 0 {
			lo = math.Copysign(0, -1)
		}
		if x == 0 {
			hi = 0.0
		}
	case string:
		r := []rune(x)
		if len(r) > 16 {
			r = r[:16]
			r[15]++
			hi = string(r)
		}
		if lr := []rune(lo.(string)); len(lr) > 16 {
			lo = string(lr[:16])
		}
	case []byte:
		if len(x) > 16 {
			b := bytes.Clone(x[:16])
			b[15]++ // test data never has 0xFF there
			hi = b
		}
		if lb := lo.([]byte); len(lb) > 16 {
			lo = lb[:16]
		}
	}
	return lo, hi
}

func javaCompare(a, b any) int {
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int8:
		return cmp3(int64(x), int64(b.(int8)))
	case int16:
		return cmp3(int64(x), int64(b.(int16)))
	case int32:
		return cmp3(int64(x), int64(b.(int32)))
	case int64:
		return cmp3(x, b.(int64))
	case float32:
		return cmpFloat(float64(x), float64(b.(float32)))
	case float64:
		return cmpFloat(x, b.(float64))
	case spec.DecimalValue:
		return x.Unscaled.Cmp(b.(spec.DecimalValue).Unscaled)
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case spec.TimestampValue:
		y := b.(spec.TimestampValue)
		if c := cmp3(x.Millis, y.Millis); c != 0 {
			return c
		}
		return cmp3(int64(x.NanoOfMilli), int64(y.NanoOfMilli))
	}
	panic("unexpected datum")
}

func cmp3(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case math.Signbit(a) && !math.Signbit(b):
		return -1
	case !math.Signbit(a) && math.Signbit(b):
		return 1
	}
	return 0
}

// statsOf writes one column of values and returns its stats.
func statsOf(t *testing.T, ty spec.DataType, vals ...any) ColumnStats {
	t.Helper()
	fields := []spec.DataField{{ID: 1, Name: "c", Type: ty}}
	rows := make([][]any, len(vals))
	for i, v := range vals {
		rows[i] = []any{v}
	}
	data, st := writeRows(t, fields, rows, 2, WriterOptions{})
	got := readRows(t, data, fields, nil, 0)
	for i := range rows {
		if !datumEqual(got[i][0], vals[i]) {
			t.Fatalf("row %d read back %#v, want %#v", i, got[i][0], vals[i])
		}
	}
	return st.Columns[0]
}

func TestStatsFloatSpecialValues(t *testing.T) {
	d := typ(spec.Double, true)
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name     string
		vals     []any
		min, max any
	}{
		{"nan gives unknown", []any{1.0, math.NaN(), -3.0}, nil, nil},
		{"zero min widened to -0.0", []any{0.0, 2.0}, negZero, 2.0},
		{"-0.0 max widened to +0.0", []any{-5.0, negZero}, -5.0, 0.0},
		{"-0.0 below 0.0", []any{0.0, negZero}, negZero, 0.0},
		{"infinities", []any{math.Inf(1), nil, math.Inf(-1)}, math.Inf(-1), math.Inf(1)},
	}
	for _, c := range cases {
		got := statsOf(t, d, c.vals...)
		if !datumEqual(got.Min, c.min) || !datumEqual(got.Max, c.max) {
			t.Errorf("%s: got %v..%v, want %v..%v", c.name, got.Min, got.Max, c.min, c.max)
		}
	}
	got := statsOf(t, typ(spec.Float, true), float32(math.NaN()), nil)
	if got.Min != nil || got.Max != nil || got.NullCount != 1 {
		t.Errorf("float NaN: %+v", got)
	}
}

func TestStatsTruncation(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}
	bin := spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxLength}
	long := "abcdefghijklmnopqrstuvwxyz"
	maxRune := string(rune(0x10FFFF))
	cases := []struct {
		name     string
		ty       spec.DataType
		vals     []any
		min, max any
	}{
		{"short strings untouched", str, []any{"b", "a", "", nil}, "", "b"},
		{"exactly 16 code points", str, []any{long[:16], "a"}, "a", long[:16]},
		{"long max incremented", str, []any{long, "a"}, "a", "abcdefghijklmnoq"},
		{"long min truncated", str, []any{long, "zz"}, long[:16], "zz"},
		{"code points not bytes", str, []any{strings.Repeat("é", 20)}, strings.Repeat("é", 16),
			strings.Repeat("é", 15) + "ê"},
		{"last code point maximal: carry left", str, []any{strings.Repeat("a", 15) + maxRune + "z"}, strings.Repeat("a", 15) + maxRune,
			strings.Repeat("a", 14) + "b"},
		{"no upper bound: min and max unknown", str, []any{strings.Repeat(maxRune, 17), "a"}, nil, nil},
		{"surrogate gap skipped", str, []any{strings.Repeat("x", 15) + string(rune(0xD7FF)) + "y"},
			strings.Repeat("x", 15) + string(rune(0xD7FF)), strings.Repeat("x", 15) + string(rune(0xE000))},
		{"unsigned bytewise order", str, []any{"\u00e9", "z"}, "z", "\u00e9"},
		{"binary long", bin, []any{bytes.Repeat([]byte{1}, 20), []byte{0}}, []byte{0}, append(bytes.Repeat([]byte{1}, 15), 2)},
		{"binary carry over 0xFF", bin, []any{append(bytes.Repeat([]byte{7}, 15), 0xFF, 0xFF)},
			append(bytes.Repeat([]byte{7}, 15), 0xFF), append(bytes.Repeat([]byte{7}, 14), 8)},
		{"binary no upper bound", bin, []any{bytes.Repeat([]byte{0xFF}, 17), []byte{1}}, nil, nil},
		{"binary unsigned order", bin, []any{[]byte{0x80}, []byte{0x7F}}, []byte{0x7F}, []byte{0x80}},
	}
	for _, c := range cases {
		got := statsOf(t, c.ty, c.vals...)
		if !datumEqual(got.Min, c.min) || !datumEqual(got.Max, c.max) {
			t.Errorf("%s: got %#v..%#v, want %#v..%#v", c.name, got.Min, got.Max, c.min, c.max)
		}
	}
}

func TestStatsAllNullAndBooleans(t *testing.T) {
	got := statsOf(t, typ(spec.Int, true), nil, nil, nil)
	if got.Min != nil || got.Max != nil || got.NullCount != 3 {
		t.Errorf("all null: %+v", got)
	}
	got = statsOf(t, typ(spec.Boolean, true), true, nil, true)
	if got.Min != true || got.Max != true || got.NullCount != 1 {
		t.Errorf("booleans: %+v", got)
	}
	got = statsOf(t, typ(spec.Boolean, true), true, false)
	if got.Min != false || got.Max != true {
		t.Errorf("booleans: %+v", got)
	}
}

func TestWriterRejectsBadInput(t *testing.T) {
	fields := []spec.DataField{{ID: 1, Name: "c", Type: typ(spec.BigInt, false)}}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, fields, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nullable := []spec.DataField{{ID: 1, Name: "c", Type: typ(spec.BigInt, true)}}
	rec := buildRecord(t, nullable, [][]any{{int64(1)}, {nil}})
	defer rec.Release()
	if err := w.Write(rec); err == nil {
		t.Fatal("null in NOT NULL column accepted")
	}
	if _, err := w.Close(); err == nil {
		t.Fatal("Close after failed Write succeeded")
	}

	w, err = NewWriter(&buf, fields, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wrong := buildRecord(t, []spec.DataField{{ID: 1, Name: "c", Type: typ(spec.Int, false)}}, [][]any{{int32(1)}})
	defer wrong.Release()
	if err := w.Write(wrong); err == nil {
		t.Fatal("INT column accepted for BIGINT field")
	}
	if _, err := NewWriter(&buf, fields, WriterOptions{Compression: "brotli-9000"}); err == nil {
		t.Fatal("unknown compression accepted")
	}
	if _, err := NewWriter(&buf, []spec.DataField{{Name: "d", Type: dec(39, 0)}}, WriterOptions{}); err == nil {
		t.Fatal("DECIMAL(39) accepted")
	}
	if err := arrowconv.AppendDatum(newBuilder(t, dec(3, 0)), dec(3, 0), decv("1000")); err == nil {
		t.Fatal("AppendDatum accepted 1000 for DECIMAL(3)")
	}
}
