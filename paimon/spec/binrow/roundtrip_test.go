package binrow

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// allTypes covers every atomic type, compact and non-compact variants.
var allTypes = []spec.DataType{
	ty(spec.Boolean), ty(spec.TinyInt), ty(spec.SmallInt), ty(spec.Int), ty(spec.BigInt),
	ty(spec.Float), ty(spec.Double), decT(10, 2), decT(18, 0), decT(19, 0), decT(38, 10),
	{Root: spec.Char, Length: 10}, {Root: spec.VarChar, Length: 20}, strT(),
	{Root: spec.Binary, Length: 4}, {Root: spec.VarBinary, Length: 20}, bytesT(),
	ty(spec.Date), {Root: spec.Time, Precision: 3},
	tsT(0), tsT(3), tsT(6), tsT(9), ltzT(0), ltzT(3), ltzT(6), ltzT(9),
}

// allTypeRows returns rows of allTypes: extremes, nulls, negative values, boundary lengths.
func allTypeRows(t testing.TB) [][]any {
	nulls := make([]any, len(allTypes))
	rows := [][]any{
		nulls,
		{true, int8(-128), int16(-32768), int32(math.MinInt32), int64(math.MinInt64),
			float32(math.Inf(-1)), math.Inf(1), dec(t, "-9999999999"), dec(t, "-999999999999999999"),
			dec(t, "-9999999999999999999"), dec(t, "-99999999999999999999999999999999999999"),
			"", "", "", []byte{}, []byte{}, []byte{},
			int32(math.MinInt32), int32(0),
			spec.TimestampValue{Millis: math.MinInt64}, spec.TimestampValue{Millis: -1},
			spec.TimestampValue{Millis: -62135596800000, NanoOfMilli: 1000},
			spec.TimestampValue{Millis: -1, NanoOfMilli: 999999},
			spec.TimestampValue{Millis: -86400000}, spec.TimestampValue{Millis: -1},
			spec.TimestampValue{Millis: -2, NanoOfMilli: 1000}, spec.TimestampValue{Millis: -3, NanoOfMilli: 1}},
		{false, int8(127), int16(32767), int32(math.MaxInt32), int64(math.MaxInt64),
			float32(math.NaN()), -zero(), dec(t, "9999999999"), dec(t, "999999999999999999"),
			dec(t, "9999999999999999999"), dec(t, "99999999999999999999999999999999999999"),
			"1234567", "12345678", strings.Repeat("é", 40), []byte{0, 0, 0, 0}, []byte{1, 2, 3, 4, 5, 6, 7},
			[]byte{0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0}, int32(2932896), int32(86399999),
			spec.TimestampValue{Millis: math.MaxInt64}, spec.TimestampValue{Millis: 1},
			spec.TimestampValue{Millis: 1, NanoOfMilli: 999000}, spec.TimestampValue{Millis: 253402300799999, NanoOfMilli: 999999},
			spec.TimestampValue{Millis: 0}, spec.TimestampValue{Millis: 1700000000123},
			spec.TimestampValue{Millis: 0, NanoOfMilli: 0}, spec.TimestampValue{Millis: 1700000000123, NanoOfMilli: 456789}},
		{nil, int8(0), nil, int32(0), nil, float32(math.Copysign(0, -1)), nil, dec(t, "0"), nil,
			dec(t, "0"), nil, "日本語", nil, "\x00\xff invalid utf8 kept", nil, []byte("12345678"), nil,
			int32(0), nil, spec.TimestampValue{}, nil, spec.TimestampValue{}, nil, spec.TimestampValue{}, nil,
			spec.TimestampValue{NanoOfMilli: 5}, nil},
	}
	// -2^k and 2^k-1 at p=38 for every k that fits the precision.
	for k := uint(0); k < 126; k += 7 {
		r := append([]any(nil), rows[1]...)
		r[9] = pow2(-1, k%63)
		r[10] = pow2(-1, k)
		rows = append(rows, r)
	}
	return rows
}

// TestRoundTripAllTypes checks Encode→Decode and Serialize→Deserialize for every type, and that
// re-encoding decoded values reproduces the bytes.
func TestRoundTripAllTypes(t *testing.T) {
	for n, vals := range allTypeRows(t) {
		row, err := Encode(allTypes, vals)
		if err != nil {
			t.Fatalf("row %d: Encode: %v", n, err)
		}
		if len(row)%8 != 0 {
			t.Errorf("row %d: length %d not a multiple of 8", n, len(row))
		}
		back, err := Decode(allTypes, row)
		if err != nil {
			t.Fatalf("row %d: Decode: %v", n, err)
		}
		if i := sameRow(allTypes, vals, back); i >= 0 {
			t.Fatalf("row %d field %d (%s): decoded %#v, want %#v", n, i, typeName(allTypes[i]), back[i], vals[i])
		}
		again, err := Encode(allTypes, back)
		if err != nil || !bytes.Equal(again, row) {
			t.Fatalf("row %d: re-encode differs (%v)", n, err)
		}
		ser, err := Serialize(allTypes, vals)
		if err != nil {
			t.Fatalf("row %d: Serialize: %v", n, err)
		}
		if a, err := Arity(ser); err != nil || a != len(allTypes) {
			t.Fatalf("row %d: Arity = %d, %v", n, a, err)
		}
		des, err := Deserialize(allTypes, ser)
		if err != nil {
			t.Fatalf("row %d: Deserialize: %v", n, err)
		}
		if i := sameRow(allTypes, vals, des); i >= 0 {
			t.Fatalf("row %d field %d: deserialized %#v, want %#v", n, i, des[i], vals[i])
		}
	}
}

// TestDecodeDoesNotAlias checks that decoded []byte values are copies.
func TestDecodeDoesNotAlias(t *testing.T) {
	types := []spec.DataType{bytesT(), bytesT()}
	row, err := Encode(types, []any{[]byte("abc"), []byte("0123456789")})
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(types, row)
	if err != nil {
		t.Fatal(err)
	}
	clear(row)
	if string(v[0].([]byte)) != "abc" || string(v[1].([]byte)) != "0123456789" {
		t.Errorf("decoded values changed with the row: %q %q", v[0], v[1])
	}
}

// TestTimestampCompactDropsNanos mirrors Java: precision ≤ 3 keeps only millis.
func TestTimestampCompactDropsNanos(t *testing.T) {
	types := []spec.DataType{tsT(3)}
	row, err := Encode(types, []any{spec.TimestampValue{Millis: 5, NanoOfMilli: 7}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(types, row)
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != (spec.TimestampValue{Millis: 5}) {
		t.Errorf("decoded %v, want millis 5 without nanos", v[0])
	}
}
