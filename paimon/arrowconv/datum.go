package arrowconv

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"

	"github.com/lakeload/lakeload/paimon/spec"
)

// nanos per Arrow time unit.
func unitNanos(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1e9
	case arrow.Millisecond:
		return 1e6
	case arrow.Microsecond:
		return 1e3
	}
	return 1
}

// TimestampFromUnit converts a count of unit since the epoch to a TimestampValue.
func TimestampFromUnit(v int64, u arrow.TimeUnit) spec.TimestampValue {
	if u == arrow.Second {
		return spec.TimestampValue{Millis: v * 1000}
	}
	per := 1e6 / unitNanos(u) // units per milli
	ms, rem := v/per, v%per
	if rem < 0 {
		ms--
		rem += per
	}
	return spec.TimestampValue{Millis: ms, NanoOfMilli: int32(rem * unitNanos(u))}
}

// TimestampToUnit converts ts to a count of unit (sub-unit nanos are truncated, as Paimon does
// for lower precisions); it fails on overflow.
func TimestampToUnit(ts spec.TimestampValue, u arrow.TimeUnit) (int64, error) {
	if ts.NanoOfMilli < 0 || ts.NanoOfMilli > 999999 {
		return 0, fmt.Errorf("timestamp nano-of-milli %d out of range", ts.NanoOfMilli)
	}
	if u == arrow.Second {
		return floorDiv(ts.Millis, 1000), nil
	}
	per := 1e6 / unitNanos(u)
	frac := int64(ts.NanoOfMilli) / unitNanos(u) // 0 <= frac < per
	ms := ts.Millis
	if ms < 0 { // as (ms+1)·per + (frac−per): the lowest count (math.MinInt64 ns) has ms·per below it
		ms, frac = ms+1, frac-per
	}
	if ms > math.MaxInt64/per || ms < math.MinInt64/per {
		return 0, fmt.Errorf("timestamp %d ms overflows %s", ts.Millis, u)
	}
	base := ms * per
	if (frac > 0 && base > math.MaxInt64-frac) || (frac < 0 && base < math.MinInt64-frac) {
		return 0, fmt.Errorf("timestamp %d ms overflows %s", ts.Millis, u)
	}
	return base + frac, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// intAt reads an integer of any Arrow integer type.
func intAt(col arrow.Array, i int) (int64, bool) {
	switch a := col.(type) {
	case *array.Int8:
		return int64(a.Value(i)), true
	case *array.Int16:
		return int64(a.Value(i)), true
	case *array.Int32:
		return int64(a.Value(i)), true
	case *array.Int64:
		return a.Value(i), true
	case *array.Uint8:
		return int64(a.Value(i)), true
	case *array.Uint16:
		return int64(a.Value(i)), true
	case *array.Uint32:
		return int64(a.Value(i)), true
	}
	return 0, false
}

func intInRange(v, lo, hi int64, t spec.DataType) error {
	if v < lo || v > hi {
		return fmt.Errorf("parquet: value %d out of range for type root %d", v, t.Root)
	}
	return nil
}

// DatumAt converts value i of col to the Datum of Paimon type t (spec/types.go). It accepts the
// Arrow types of ArrowType and the common alternatives a Parquet file may decode to (any
// timestamp unit or zone, Decimal256, large/view strings, ...). A null is nil.
func DatumAt(col arrow.Array, i int, t spec.DataType) (any, error) {
	if i < 0 || i >= col.Len() {
		return nil, fmt.Errorf("parquet: index %d out of range [0, %d)", i, col.Len())
	}
	if col.IsNull(i) {
		return nil, nil
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("parquet: arrow %s cannot hold Paimon type root %d", col.DataType(), t.Root)
	}
	switch t.Root {
	case spec.Boolean:
		if a, ok := col.(*array.Boolean); ok {
			return a.Value(i), nil
		}
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		v, ok := intAt(col, i)
		if !ok {
			return bad()
		}
		switch t.Root {
		case spec.TinyInt:
			return int8(v), intInRange(v, math.MinInt8, math.MaxInt8, t)
		case spec.SmallInt:
			return int16(v), intInRange(v, math.MinInt16, math.MaxInt16, t)
		case spec.Int:
			return int32(v), intInRange(v, math.MinInt32, math.MaxInt32, t)
		}
		return v, nil
	case spec.Float:
		if a, ok := col.(*array.Float32); ok {
			return a.Value(i), nil
		}
	case spec.Double:
		if a, ok := col.(*array.Float64); ok {
			return a.Value(i), nil
		}
	case spec.Decimal:
		return decimalAt(col, i, t)
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		var b []byte
		switch a := col.(type) {
		case *array.String:
			b = StringValues(a)(i)
		case *array.LargeString:
			b = []byte(a.Value(i))
		case *array.StringView:
			b = []byte(a.Value(i))
		case *array.Binary:
			b = a.Value(i)
		case *array.LargeBinary:
			b = a.Value(i)
		case *array.BinaryView:
			b = a.Value(i)
		case *array.FixedSizeBinary:
			b = a.Value(i)
		default:
			return bad()
		}
		if t.Root == spec.Char || t.Root == spec.VarChar {
			return string(b), nil
		}
		return bytes.Clone(b), nil
	case spec.Date:
		switch a := col.(type) {
		case *array.Date32:
			return int32(a.Value(i)), nil
		case *array.Date64:
			return int32(floorDiv(int64(a.Value(i)), 86400000)), nil
		}
	case spec.Time:
		switch a := col.(type) {
		case *array.Time32:
			v := int64(a.Value(i))
			if a.DataType().(*arrow.Time32Type).Unit == arrow.Second {
				v *= 1000
			}
			return int32(v), nil
		case *array.Time64:
			return int32(floorDiv(int64(a.Value(i)), 1e6/unitNanos(a.DataType().(*arrow.Time64Type).Unit))), nil
		}
	case spec.Timestamp, spec.TimestampLTZ:
		if a, ok := col.(*array.Timestamp); ok {
			return TimestampFromUnit(int64(a.Value(i)), a.DataType().(*arrow.TimestampType).Unit), nil
		}
	case spec.Array, spec.Multiset:
		if t.Elem == nil {
			return nil, fmt.Errorf("parquet: ARRAY/MULTISET without element type")
		}
		if m, ok := col.(*array.Map); ok && t.Root == spec.Multiset {
			return multisetAt(m, i, *t.Elem)
		}
		l, ok := col.(array.ListLike)
		if !ok {
			return bad()
		}
		start, end := l.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			v, err := DatumAt(l.ListValues(), int(j), *t.Elem)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case spec.Map:
		m, ok := col.(*array.Map)
		if !ok || t.Elem == nil || t.Value == nil {
			return bad()
		}
		start, end := m.ValueOffsets(i)
		out := make([]spec.MapEntry, 0, end-start)
		for j := start; j < end; j++ {
			k, err := DatumAt(m.Keys(), int(j), *t.Elem)
			if err != nil {
				return nil, err
			}
			v, err := DatumAt(m.Items(), int(j), *t.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, spec.MapEntry{Key: k, Value: v})
		}
		return out, nil
	case spec.Row:
		s, ok := col.(*array.Struct)
		if !ok || s.NumField() != len(t.Fields) {
			return bad()
		}
		out := make([]any, len(t.Fields))
		for k, f := range t.Fields {
			v, err := DatumAt(s.Field(k), i, f.Type)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", f.Name, err)
			}
			out[k] = v
		}
		return out, nil
	}
	return bad()
}

func decimalAt(col arrow.Array, i int, t spec.DataType) (any, error) {
	var v *big.Int
	scale := int32(t.Scale)
	switch a := col.(type) {
	case *array.Decimal128:
		v, scale = a.Value(i).BigInt(), a.DataType().(*arrow.Decimal128Type).Scale
	case *array.Decimal256:
		v, scale = a.Value(i).BigInt(), a.DataType().(*arrow.Decimal256Type).Scale
	default:
		n, ok := intAt(col, i)
		if !ok {
			return nil, fmt.Errorf("parquet: arrow %s cannot hold DECIMAL", col.DataType())
		}
		v = big.NewInt(n)
	}
	if scale != int32(t.Scale) {
		return nil, fmt.Errorf("parquet: decimal scale %d, want %d", scale, t.Scale)
	}
	return spec.DecimalValue{Unscaled: v}, nil
}

func multisetAt(m *array.Map, i int, elem spec.DataType) (any, error) {
	start, end := m.ValueOffsets(i)
	out := []any{}
	for j := start; j < end; j++ {
		k, err := DatumAt(m.Keys(), int(j), elem)
		if err != nil {
			return nil, err
		}
		n, ok := intAt(m.Items(), int(j))
		if !ok || m.Items().IsNull(int(j)) || n < 0 {
			return nil, fmt.Errorf("parquet: invalid MULTISET count")
		}
		for ; n > 0; n-- {
			out = append(out, k)
		}
	}
	return out, nil
}

// AppendDatum appends the Datum v of Paimon type t to b, a builder of ArrowType(t) (nil appends a null).
func AppendDatum(b array.Builder, t spec.DataType, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error {
		return fmt.Errorf("parquet: cannot append %T as Paimon type root %d to %s builder", v, t.Root, b.Type())
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		if x, ok := v.(bool); ok {
			bb.Append(x)
			return nil
		}
	case *array.Int8Builder:
		if x, ok := v.(int8); ok {
			bb.Append(x)
			return nil
		}
	case *array.Int16Builder:
		if x, ok := v.(int16); ok {
			bb.Append(x)
			return nil
		}
	case *array.Int32Builder:
		if x, ok := v.(int32); ok {
			bb.Append(x)
			return nil
		}
	case *array.Int64Builder:
		if x, ok := v.(int64); ok {
			bb.Append(x)
			return nil
		}
	case *array.Float32Builder:
		if x, ok := v.(float32); ok {
			bb.Append(x)
			return nil
		}
	case *array.Float64Builder:
		if x, ok := v.(float64); ok {
			bb.Append(x)
			return nil
		}
	case *array.Date32Builder:
		if x, ok := v.(int32); ok {
			bb.Append(arrow.Date32(x))
			return nil
		}
	case *array.Time32Builder:
		if x, ok := v.(int32); ok {
			bb.Append(arrow.Time32(x))
			return nil
		}
	case *array.Decimal128Builder:
		x, ok := v.(spec.DecimalValue)
		if !ok || x.Unscaled == nil {
			return bad()
		}
		p := bb.Type().(*arrow.Decimal128Type).Precision
		if x.Unscaled.BitLen() > 127 {
			return fmt.Errorf("parquet: decimal %s does not fit DECIMAL(%d)", x.Unscaled, p)
		}
		n := decimal128.FromBigInt(x.Unscaled)
		if !n.FitsInPrecision(p) {
			return fmt.Errorf("parquet: decimal %s does not fit DECIMAL(%d)", x.Unscaled, p)
		}
		bb.Append(n)
		return nil
	case *array.Decimal256Builder:
		x, ok := v.(spec.DecimalValue)
		if !ok || x.Unscaled == nil || x.Unscaled.BitLen() > 255 {
			return bad()
		}
		bb.Append(decimal256.FromBigInt(x.Unscaled))
		return nil
	case *array.StringBuilder:
		switch x := v.(type) {
		case string:
			bb.Append(x)
			return nil
		case []byte:
			bb.BinaryBuilder.Append(x)
			return nil
		}
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case []byte:
			bb.Append(x)
			return nil
		case string:
			bb.AppendString(x)
			return nil
		}
	case *array.TimestampBuilder:
		x, ok := v.(spec.TimestampValue)
		if !ok {
			return bad()
		}
		n, err := TimestampToUnit(x, bb.Type().(*arrow.TimestampType).Unit)
		if err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
		bb.Append(arrow.Timestamp(n))
		return nil
	case *array.MapBuilder:
		return appendMap(bb, t, v)
	case *array.ListBuilder:
		x, ok := v.([]any)
		if !ok || t.Elem == nil {
			return bad()
		}
		bb.Append(true)
		for _, e := range x {
			if err := AppendDatum(bb.ValueBuilder(), *t.Elem, e); err != nil {
				return err
			}
		}
		return nil
	case *array.StructBuilder:
		x, ok := v.([]any)
		if !ok || len(x) != len(t.Fields) || bb.NumField() != len(t.Fields) {
			return bad()
		}
		bb.Append(true)
		for k, f := range t.Fields {
			if err := AppendDatum(bb.FieldBuilder(k), f.Type, x[k]); err != nil {
				return fmt.Errorf("field %q: %w", f.Name, err)
			}
		}
		return nil
	}
	return bad()
}

func appendMap(bb *array.MapBuilder, t spec.DataType, v any) error {
	if t.Elem == nil {
		return fmt.Errorf("parquet: MAP/MULTISET without key type")
	}
	key := *t.Elem
	key.Nullable = false
	if t.Root == spec.Multiset {
		elems, ok := v.([]any)
		if !ok {
			return fmt.Errorf("parquet: MULTISET datum must be []any, got %T", v)
		}
		var keys []any
		var counts []int32
	next:
		for _, e := range elems {
			if e == nil {
				return fmt.Errorf("parquet: null MULTISET element (Parquet map keys are NOT NULL)")
			}
			for k := range keys {
				if reflect.DeepEqual(keys[k], e) {
					counts[k]++
					continue next
				}
			}
			keys, counts = append(keys, e), append(counts, 1)
		}
		bb.Append(true)
		for k := range keys {
			if err := AppendDatum(bb.KeyBuilder(), key, keys[k]); err != nil {
				return err
			}
			bb.ItemBuilder().(*array.Int32Builder).Append(counts[k])
		}
		return nil
	}
	entries, ok := v.([]spec.MapEntry)
	if !ok || t.Value == nil {
		return fmt.Errorf("parquet: MAP datum must be []spec.MapEntry, got %T", v)
	}
	bb.Append(true)
	for _, e := range entries {
		if e.Key == nil {
			return fmt.Errorf("parquet: null MAP key")
		}
		if err := AppendDatum(bb.KeyBuilder(), key, e.Key); err != nil {
			return err
		}
		if err := AppendDatum(bb.ItemBuilder(), *t.Value, e.Value); err != nil {
			return err
		}
	}
	return nil
}

// StringValues returns an accessor of the raw UTF-8 bytes of each value of a (no copy).
func StringValues(a *array.String) func(int) []byte {
	off := a.ValueOffsets()
	data := a.ValueBytes()
	return func(i int) []byte { return data[off[i]-off[0] : off[i+1]-off[0]] }
}
