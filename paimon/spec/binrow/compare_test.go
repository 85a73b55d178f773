package binrow

import (
	"math"
	"slices"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestCompareOrders checks that each list is strictly ascending under Compare (every pair).
func TestCompareOrders(t *testing.T) {
	nan32 := float32(math.NaN())
	cases := []struct {
		name string
		typ  spec.DataType
		asc  []any
	}{
		{"BOOLEAN", ty(spec.Boolean), []any{nil, false, true}},
		{"TINYINT", ty(spec.TinyInt), []any{nil, int8(-128), int8(-1), int8(0), int8(127)}},
		{"SMALLINT", ty(spec.SmallInt), []any{nil, int16(-300), int16(2), int16(300)}},
		{"INT", ty(spec.Int), []any{nil, int32(math.MinInt32), int32(-1), int32(0), int32(math.MaxInt32)}},
		{"DATE", ty(spec.Date), []any{nil, int32(-719162), int32(0), int32(19000)}},
		{"BIGINT", ty(spec.BigInt), []any{nil, int64(math.MinInt64), int64(-1), int64(1), int64(math.MaxInt64)}},
		{"FLOAT", ty(spec.Float), []any{nil, float32(math.Inf(-1)), float32(-1), float32(math.Copysign(0, -1)),
			float32(0), float32(math.SmallestNonzeroFloat32), float32(math.Inf(1)), nan32}},
		{"DOUBLE", ty(spec.Double), []any{nil, math.Inf(-1), -1e300, math.Copysign(0, -1), 0.0, 1e-300,
			math.Inf(1), math.NaN()}},
		{"DECIMAL(38,2)", decT(38, 2), []any{nil, pow2(-1, 120), dec(t, "-1"), dec(t, "0"), dec(t, "1"), pow2(1, 64)}},
		{"STRING", strT(), []any{nil, "", "a", "ab", "abc", "b", "z", "\u00e9", "\u65e5", "\U0001F600"}},
		{"BYTES", bytesT(), []any{nil, []byte{}, []byte{0}, []byte{0, 0}, []byte{1}, []byte{0x7f}, []byte{0x80}, []byte{0xff}}},
		{"TIMESTAMP(9)", tsT(9), []any{nil, spec.TimestampValue{Millis: -2, NanoOfMilli: 999999},
			spec.TimestampValue{Millis: -1}, spec.TimestampValue{Millis: -1, NanoOfMilli: 1},
			spec.TimestampValue{Millis: 0}, spec.TimestampValue{Millis: 0, NanoOfMilli: 999999}}},
	}
	for _, c := range cases {
		for i, a := range c.asc {
			for j, b := range c.asc {
				want := 0
				if i < j {
					want = -1
				} else if i > j {
					want = 1
				}
				if got := Compare(c.typ, a, b); got != want {
					t.Errorf("%s: Compare(%v, %v) = %d, want %d", c.name, a, b, got, want)
				}
			}
		}
	}
	// All NaN payloads are equal (Java Float.compare canonicalises NaN).
	other := math.Float64frombits(0x7ff8000000000123)
	if Compare(ty(spec.Double), math.NaN(), other) != 0 {
		t.Error("NaN payloads compare unequal")
	}
}

// TestCompareRows checks field-by-field ordering and use in a sort.
func TestCompareRows(t *testing.T) {
	types := []spec.DataType{strT(), ty(spec.BigInt)}
	rows := [][]any{
		{"b", int64(1)}, {"a", int64(2)}, {nil, int64(9)}, {"a", nil}, {"a", int64(-5)}, {"ab", int64(0)},
	}
	slices.SortFunc(rows, func(x, y []any) int { return CompareRows(types, x, y) })
	want := [][]any{{nil, int64(9)}, {"a", nil}, {"a", int64(-5)}, {"a", int64(2)}, {"ab", int64(0)}, {"b", int64(1)}}
	for i := range want {
		if sameRow(types, rows[i], want[i]) >= 0 {
			t.Fatalf("sorted rows %v, want %v", rows, want)
		}
	}
	if CompareRows(types, want[2], want[2]) != 0 {
		t.Error("row not equal to itself")
	}
}

// TestComparePanicsOnWrongGoType checks that a datum of the wrong Go type is reported loudly.
func TestComparePanicsOnWrongGoType(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Compare(INT, int, int32) did not panic")
		}
	}()
	Compare(ty(spec.Int), 1, int32(1))
}
