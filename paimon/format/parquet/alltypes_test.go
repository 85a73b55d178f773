package parquet

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// allTypesFields covers every atomic type (decimals p 9/18/38, timestamps p 0/3/6/9, LTZ) plus
// NOT NULL columns and nested types.
func allTypesFields() []spec.DataField {
	row := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
		{ID: 100, Name: "a", Type: typ(spec.Int, true)},
		{ID: 101, Name: "b", Type: typ(spec.VarChar, true)},
	}}
	row.Fields[1].Type.Length = spec.MaxLength
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}
	fs := []spec.DataField{
		{Name: "bool", Type: typ(spec.Boolean, true)},
		{Name: "i8", Type: typ(spec.TinyInt, true)},
		{Name: "i16", Type: typ(spec.SmallInt, true)},
		{Name: "i32", Type: typ(spec.Int, true)},
		{Name: "i64", Type: typ(spec.BigInt, true)},
		{Name: "f32", Type: typ(spec.Float, true)},
		{Name: "f64", Type: typ(spec.Double, true)},
		{Name: "d9", Type: dec(9, 2)},
		{Name: "d18", Type: dec(18, 4)},
		{Name: "d38", Type: dec(38, 10)},
		{Name: "chr", Type: spec.DataType{Root: spec.Char, Nullable: true, Length: 3}},
		{Name: "str", Type: str},
		{Name: "bin", Type: spec.DataType{Root: spec.Binary, Nullable: true, Length: 2}},
		{Name: "bytes", Type: spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxLength}},
		{Name: "date", Type: typ(spec.Date, true)},
		{Name: "time", Type: spec.DataType{Root: spec.Time, Nullable: true}},
		{Name: "ts0", Type: ts(spec.Timestamp, 0)},
		{Name: "ts3", Type: ts(spec.Timestamp, 3)},
		{Name: "ts6", Type: ts(spec.Timestamp, 6)},
		{Name: "ts9", Type: ts(spec.Timestamp, 9)},
		{Name: "ltz3", Type: ts(spec.TimestampLTZ, 3)},
		{Name: "ltz6", Type: ts(spec.TimestampLTZ, 6)},
		{Name: "ltz9", Type: ts(spec.TimestampLTZ, 9)},
		{Name: "nn_i64", Type: typ(spec.BigInt, false)},
		{Name: "nn_str", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength}},
		{Name: "arr", Type: spec.DataType{Root: spec.Array, Nullable: true, Elem: ptr(typ(spec.Int, true))}},
		{Name: "map", Type: spec.DataType{Root: spec.Map, Nullable: true, Elem: ptr(str), Value: ptr(typ(spec.BigInt, true))}},
		{Name: "row", Type: row},
		{Name: "nested", Type: spec.DataType{Root: spec.Array, Nullable: true, Elem: ptr(spec.DataType{
			Root: spec.Array, Nullable: true, Elem: ptr(str)})}},
		{Name: "mset", Type: spec.DataType{Root: spec.Multiset, Nullable: true, Elem: ptr(str)}},
	}
	for i := range fs {
		fs[i].ID = i
	}
	return fs
}

func tsv(ms int64, nano int32) spec.TimestampValue {
	return spec.TimestampValue{Millis: ms, NanoOfMilli: nano}
}

// allTypesRows returns n rows: row 0 extreme values, row 1 all nullable columns null, row 2
// empty strings/collections, then generated values (unicode, negative timestamps, ...).
func allTypesRows(n int) [][]any {
	rows := [][]any{
		{true, int8(math.MaxInt8), int16(math.MinInt16), int32(math.MaxInt32), int64(math.MinInt64),
			float32(math.MaxFloat32), math.SmallestNonzeroFloat64,
			decv("999999999"), decv("-999999999999999999"), decv(strings.Repeat("9", 38)),
			"abc", "héllo wörld ✓ 日本語 🎉", []byte{0, 0xFF}, []byte{0xDE, 0xAD, 0xBE, 0xEF},
			int32(-719162), int32(86399999),
			tsv(-62135596800000, 0), tsv(253402300799999, 0), tsv(-1, 999000), tsv(-9223372036854, 775807),
			tsv(1700000000123, 0), tsv(1700000000123, 456000), tsv(9223372036854, 775807),
			int64(math.MaxInt64), "",
			[]any{int32(1), nil, int32(3)},
			[]spec.MapEntry{{Key: "k", Value: int64(1)}, {Key: "ü", Value: nil}},
			[]any{int32(7), "seven"},
			[]any{[]any{"a", nil}, nil, []any{}},
			[]any{"x", "y", "x"},
		},
		{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
			nil, nil, nil, int64(0), "not null", nil, nil, nil, nil, nil},
		{false, int8(0), int16(0), int32(0), int64(0), float32(0), 0.0, decv("0"), decv("0"), decv("0"),
			"", "", []byte{}, []byte{}, int32(0), int32(0), tsv(0, 0), tsv(0, 0), tsv(0, 0), tsv(0, 0),
			tsv(0, 0), tsv(0, 0), tsv(0, 0), int64(-1), "",
			[]any{}, []spec.MapEntry{}, []any{nil, nil}, []any{}, []any{}},
	}
	for i := 3; i < n; i++ {
		k := int64(i)
		rows = append(rows, []any{
			i%2 == 0, int8(i % 100), int16(-i), int32(i * 1000), k * -1234567,
			float32(i) / 3, float64(i) * 1.5,
			decv(fmt.Sprint(-k * 12345)), decv(fmt.Sprint(k * 123456789012)), decv(fmt.Sprintf("-%d%030d", k, k)),
			fmt.Sprintf("c%02d", i%100), fmt.Sprintf("ключ-%d-€", i), []byte{byte(i), byte(i >> 8)}, bytes.Repeat([]byte{byte(i)}, i%5),
			int32(i - 1000), int32(i * 997 % 86400000),
			tsv((k-500)*1000, 0), tsv(k*-77777, 0), tsv(k*1234-99999, int32(i%1000)*1000), tsv(k*1234-99999, int32(i*7919%1000000)),
			tsv(k*1000, 0), tsv(-k*1000, int32(i%1000)*1000), tsv(k, int32(i*31%1000000)),
			k, fmt.Sprint(i),
			[]any{int32(i), int32(-i)},
			[]spec.MapEntry{{Key: fmt.Sprint(i), Value: k}},
			[]any{int32(i), nil},
			[]any{[]any{fmt.Sprint(i)}},
			[]any{fmt.Sprint(i % 3)},
		})
	}
	return rows
}

// datumEqual compares Datums (decimals numerically, NaN equal to NaN, nil/empty []byte distinct
// from null only by nil-ness of the Datum itself).
func datumEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case spec.DecimalValue:
		y, ok := b.(spec.DecimalValue)
		return ok && x.Unscaled.Cmp(y.Unscaled) == 0
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case float32:
		y, ok := b.(float32)
		return ok && (x == y && math.Signbit(float64(x)) == math.Signbit(float64(y)) || x != x && y != y)
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || x != x && y != y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !datumEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case []spec.MapEntry:
		y, ok := b.([]spec.MapEntry)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !datumEqual(x[i].Key, y[i].Key) || !datumEqual(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
