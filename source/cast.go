package source

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
)

// failure is a value that a caster cannot store; Index is relative to the caster's input array.
type failure struct {
	Index    int
	Value    string
	Expected string
}

// caster converts an array of one input type to the target Arrow type. The result has offset 0
// and must be released by the caller; a value that cannot be stored exactly yields a failure.
type caster func(a arrow.Array) (arrow.Array, *failure)

// castEnv carries what casters need besides types.
type castEnv struct {
	mem         memory.Allocator
	loc         *time.Location
	ignoreExtra bool
}

// newCaster returns a caster from input type in to table type t (Arrow type out), or an error
// saying why the cast could lose information and what to do.
func newCaster(env castEnv, in arrow.DataType, t spec.DataType, out arrow.DataType) (caster, error) {
	if in.ID() == arrow.NULL {
		if !t.Nullable {
			return nil, fmt.Errorf("input column has type null (all values null) but the table column is NOT NULL")
		}
		return func(a arrow.Array) (arrow.Array, *failure) {
			return array.MakeArrayOfNull(env.mem, out, a.Len()), nil
		}, nil
	}
	if arrow.IsNested(out.ID()) {
		return newNestedCaster(env, in, t, out)
	}
	if arrow.TypeEqual(in, out) {
		return passThrough, nil
	}
	incompatible := fmt.Errorf("input type %s cannot be stored losslessly as %s (Arrow %s): convert the input column or change the table column type", in, typeName(t), out)
	switch o := out.(type) {
	case *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type, *arrow.Int8Type:
		if !intWidens(in, out) {
			return nil, incompatible
		}
		return intCaster(out), nil
	case *arrow.Float64Type:
		if in.ID() != arrow.FLOAT32 {
			return nil, incompatible
		}
		return func(a arrow.Array) (arrow.Array, *failure) {
			in := a.(*array.Float32).Float32Values()
			return buildFixed(a, out, func(i int) (float64, *failure) { return float64(in[i]), nil })
		}, nil
	case *arrow.Decimal128Type:
		return decimalCaster(in, o, incompatible)
	case *arrow.StringType:
		switch in.ID() {
		case arrow.LARGE_STRING, arrow.STRING_VIEW:
			return rebuildStrings(env, out, false), nil
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
			return rebuildStrings(env, out, true), nil
		}
	case *arrow.BinaryType:
		switch in.ID() {
		case arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
			return rebuildBinary(env, out), nil
		}
	case *arrow.Time32Type:
		if it, ok := in.(*arrow.Time32Type); ok && it.Unit == arrow.Second {
			return func(a arrow.Array) (arrow.Array, *failure) {
				v := a.(*array.Time32).Time32Values()
				return buildFixed(a, out, func(i int) (arrow.Time32, *failure) { return v[i] * 1000, nil })
			}, nil
		}
		if _, ok := in.(*arrow.Time64Type); ok {
			return nil, fmt.Errorf("input type %s has sub-millisecond precision but Paimon TIME stores milliseconds: convert the input column", in)
		}
	case *arrow.TimestampType:
		return timestampCaster(env, in, o, incompatible)
	}
	return nil, incompatible
}

func typeName(t spec.DataType) string {
	names := map[spec.TypeRoot]string{spec.Boolean: "BOOLEAN", spec.TinyInt: "TINYINT", spec.SmallInt: "SMALLINT", spec.Int: "INT",
		spec.BigInt: "BIGINT", spec.Float: "FLOAT", spec.Double: "DOUBLE", spec.Char: "CHAR", spec.VarChar: "STRING",
		spec.Binary: "BINARY", spec.VarBinary: "BYTES", spec.Date: "DATE", spec.Time: "TIME", spec.Array: "ARRAY",
		spec.Multiset: "MULTISET", spec.Map: "MAP", spec.Row: "ROW"}
	switch t.Root {
	case spec.Decimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case spec.Timestamp:
		return fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case spec.TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP_LTZ(%d)", t.Precision)
	}
	if n, ok := names[t.Root]; ok {
		return n
	}
	return fmt.Sprintf("type root %d", t.Root)
}

func passThrough(a arrow.Array) (arrow.Array, *failure) {
	if a.Data().Offset() == 0 {
		a.Retain()
		return a, nil
	}
	// Re-base to offset 0 so parents can rely on it.
	d := array.NewSliceData(a.Data(), 0, int64(a.Len()))
	defer d.Release()
	return array.MakeFromData(d), nil
}

// validityAt0 copies a's validity bitmap to offset 0; nil when a has no nulls.
func validityAt0(a arrow.Array) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	d := a.Data()
	bm := make([]byte, bitutil.BytesForBits(int64(a.Len())))
	bitutil.CopyBitmap(d.Buffers()[0].Bytes(), d.Offset(), a.Len(), bm, 0)
	return memory.NewBufferBytes(bm)
}

// buildFixed builds a fixed-width array of type out with conv applied to every non-null index of a.
func buildFixed[T arrow.FixedWidthType](a arrow.Array, out arrow.DataType, conv func(i int) (T, *failure)) (arrow.Array, *failure) {
	n := a.Len()
	vals := make([]T, n)
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			continue
		}
		v, f := conv(i)
		if f != nil {
			f.Index = i
			return nil, f
		}
		vals[i] = v
	}
	d := array.NewData(out, n, []*memory.Buffer{validityAt0(a), memory.NewBufferBytes(arrow.GetBytes(vals))}, nil, a.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// intValue returns a getter of the integer values of a (any signed or unsigned integer array).
func intValue(a arrow.Array) func(i int) int64 {
	switch x := a.(type) {
	case *array.Int8:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int16:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int32:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int64:
		return func(i int) int64 { return x.Value(i) }
	case *array.Uint8:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Uint16:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Uint32:
		return func(i int) int64 { return int64(x.Value(i)) }
	}
	return nil // uint64 is handled separately
}

// intBits returns the value bits of an integer type and whether it is signed; 0 for non-integers.
func intBits(t arrow.DataType) (int, bool) {
	switch t.ID() {
	case arrow.INT8:
		return 8, true
	case arrow.INT16:
		return 16, true
	case arrow.INT32:
		return 32, true
	case arrow.INT64:
		return 64, true
	case arrow.UINT8:
		return 8, false
	case arrow.UINT16:
		return 16, false
	case arrow.UINT32:
		return 32, false
	case arrow.UINT64:
		return 64, false
	}
	return 0, false
}

// intWidens reports whether every value of integer type in fits signed integer type out.
func intWidens(in, out arrow.DataType) bool {
	ib, signed := intBits(in)
	ob, _ := intBits(out)
	if ib == 0 {
		return false
	}
	if signed {
		return ib <= ob
	}
	return ib < ob
}

func intCaster(out arrow.DataType) caster {
	return func(a arrow.Array) (arrow.Array, *failure) {
		get := intValue(a)
		switch out.ID() {
		case arrow.INT16:
			return buildFixed(a, out, func(i int) (int16, *failure) { return int16(get(i)), nil })
		case arrow.INT32:
			return buildFixed(a, out, func(i int) (int32, *failure) { return int32(get(i)), nil })
		}
		return buildFixed(a, out, func(i int) (int64, *failure) { return get(i), nil })
	}
}

// decimalDigits counts the decimal digits of |n| (0 has 1 digit).
func decimalDigits(n decimal128.Num) int {
	s := n.Abs().ToString(0)
	return len(s)
}

func decimalCaster(in arrow.DataType, out *arrow.Decimal128Type, incompatible error) (caster, error) {
	p, s := int(out.Precision), int(out.Scale)
	expected := fmt.Sprintf("a value with at most %d integer digits (DECIMAL(%d, %d))", p-s, p, s)
	if bits, _ := intBits(in); bits > 0 {
		mul := decimal128.GetScaleMultiplier(s)
		return func(a arrow.Array) (arrow.Array, *failure) {
			get := intValue(a)
			var u64 *array.Uint64
			if get == nil {
				u64 = a.(*array.Uint64)
			}
			return buildFixed(a, out, func(i int) (decimal128.Num, *failure) {
				var n decimal128.Num
				if u64 != nil {
					n = decimal128.FromU64(u64.Value(i))
				} else {
					n = decimal128.FromI64(get(i))
				}
				if decimalDigits(n)+s > p && n != (decimal128.Num{}) {
					return n, &failure{Value: n.ToString(0), Expected: expected}
				}
				return n.Mul(mul), nil
			})
		}, nil
	}
	it, ok := in.(*arrow.Decimal128Type)
	if !ok || int(it.Scale) > s {
		if ok {
			return nil, fmt.Errorf("input type %s has more fraction digits than DECIMAL(%d, %d): rounding is never implicit; widen the table column's scale or round the input", in, p, s)
		}
		return nil, incompatible
	}
	up := int32(s) - it.Scale
	return func(a arrow.Array) (arrow.Array, *failure) {
		d := a.(*array.Decimal128)
		return buildFixed(a, out, func(i int) (decimal128.Num, *failure) {
			n := d.Value(i)
			if n != (decimal128.Num{}) && decimalDigits(n)+int(up) > p {
				return n, &failure{Value: n.ToString(it.Scale), Expected: expected}
			}
			return n.IncreaseScaleBy(up), nil
		})
	}, nil
}

func rebuildStrings(env castEnv, out arrow.DataType, fromBinary bool) caster {
	return func(a arrow.Array) (arrow.Array, *failure) {
		b := array.NewStringBuilder(env.mem)
		defer b.Release()
		b.Reserve(a.Len())
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			var v string
			switch x := a.(type) {
			case *array.LargeString:
				v = x.Value(i)
			case *array.StringView:
				v = x.Value(i)
			case array.BinaryLike:
				v = string(binaryValue(x, i))
			}
			if fromBinary && !utf8.ValidString(v) {
				return nil, &failure{Index: i, Value: fmt.Sprintf("%x", v), Expected: "valid UTF-8 text"}
			}
			b.Append(v)
		}
		return b.NewArray(), nil
	}
}

func binaryValue(a arrow.Array, i int) []byte {
	switch x := a.(type) {
	case *array.Binary:
		return x.Value(i)
	case *array.LargeBinary:
		return x.Value(i)
	case *array.BinaryView:
		return x.Value(i)
	case *array.FixedSizeBinary:
		return x.Value(i)
	}
	return nil
}

func rebuildBinary(env castEnv, out arrow.DataType) caster {
	return func(a arrow.Array) (arrow.Array, *failure) {
		b := array.NewBinaryBuilder(env.mem, arrow.BinaryTypes.Binary)
		defer b.Release()
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			b.Append(binaryValue(a, i))
		}
		return b.NewArray(), nil
	}
}

var unitFactor = map[arrow.TimeUnit]int64{arrow.Second: 1e9, arrow.Millisecond: 1e6, arrow.Microsecond: 1e3, arrow.Nanosecond: 1}

func timestampCaster(env castEnv, in arrow.DataType, out *arrow.TimestampType, incompatible error) (caster, error) {
	it, ok := in.(*arrow.TimestampType)
	if !ok {
		return nil, incompatible
	}
	if unitFactor[it.Unit] < unitFactor[out.Unit] {
		return nil, fmt.Errorf("input type %s is more precise than the table column (%s): raise the column's precision or truncate the input", in, out)
	}
	ltz := out.TimeZone != ""
	if !ltz && it.TimeZone != "" {
		return nil, fmt.Errorf("input type %s holds instants (time zone %q) but the table column is TIMESTAMP without time zone: declare it TIMESTAMP_LTZ or convert the input to local wall-clock time", in, it.TimeZone)
	}
	mul := unitFactor[it.Unit] / unitFactor[out.Unit]
	shiftZone := ltz && it.TimeZone == "" && env.loc != time.UTC
	expected := fmt.Sprintf("a timestamp representable in %s", out)
	return func(a arrow.Array) (arrow.Array, *failure) {
		v := a.(*array.Timestamp).TimestampValues()
		return buildFixed(a, out, func(i int) (arrow.Timestamp, *failure) {
			x := int64(v[i])
			if shiftZone {
				t := v[i].ToTime(it.Unit)
				wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), env.loc)
				var err error
				if x, err = toUnit(wall, it.Unit); err != nil {
					return 0, &failure{Value: t.Format("2006-01-02 15:04:05.999999999"), Expected: expected}
				}
			}
			if x > math.MaxInt64/mul || x < math.MinInt64/mul {
				return 0, &failure{Value: strconv.FormatInt(x, 10), Expected: expected}
			}
			return arrow.Timestamp(x * mul), nil
		})
	}, nil
}

// toUnit converts t to a count of unit since the epoch, failing on overflow.
func toUnit(t time.Time, unit arrow.TimeUnit) (int64, error) {
	sec, nsec := t.Unix(), int64(t.Nanosecond())
	per := int64(1e9) / unitFactor[unit]
	if sec > math.MaxInt64/per-1 || sec < math.MinInt64/per+1 {
		return 0, fmt.Errorf("timestamp %s out of range for unit %s", t, unit)
	}
	return sec*per + nsec/unitFactor[unit], nil
}
