package binrow

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Compare compares two datums of type t like Java Paimon's key comparator (paimon-format §6.3):
// nil sorts first; integers, DATE and TIME numerically; FLOAT/DOUBLE as Float.compare /
// Double.compare (-0.0 < 0.0, NaN largest, all NaNs equal); false < true; DECIMAL numerically
// (both share t's scale); CHAR/VARCHAR and BINARY/VARBINARY unsigned byte-wise, shorter prefix
// first; TIMESTAMP by millis then nano-of-milli. It returns -1, 0 or +1.
//
// Compare panics if a or b is not the datum Go type for t (spec.Datum) or t is not atomic: both
// are programming errors, not data errors.
func Compare(t spec.DataType, a, b any) int {
	if c, decided := CompareNulls(a == nil, b == nil); decided {
		return c
	}
	switch t.Root {
	case spec.Boolean:
		x, y := must[bool](t, a), must[bool](t, b)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		default:
			return 1
		}
	case spec.TinyInt:
		return cmp.Compare(must[int8](t, a), must[int8](t, b))
	case spec.SmallInt:
		return cmp.Compare(must[int16](t, a), must[int16](t, b))
	case spec.Int, spec.Date, spec.Time:
		return cmp.Compare(must[int32](t, a), must[int32](t, b))
	case spec.BigInt:
		return cmp.Compare(must[int64](t, a), must[int64](t, b))
	case spec.Float:
		return CompareJavaDouble(float64(must[float32](t, a)), float64(must[float32](t, b)))
	case spec.Double:
		return CompareJavaDouble(must[float64](t, a), must[float64](t, b))
	case spec.Decimal:
		x, y := must[spec.DecimalValue](t, a), must[spec.DecimalValue](t, b)
		if x.Unscaled == nil || y.Unscaled == nil {
			panic(fmt.Sprintf("binrow: Compare %s: DecimalValue with nil unscaled value", typeName(t)))
		}
		return x.Unscaled.Cmp(y.Unscaled)
	case spec.Char, spec.VarChar:
		return strings.Compare(must[string](t, a), must[string](t, b))
	case spec.Binary, spec.VarBinary:
		return bytes.Compare(must[[]byte](t, a), must[[]byte](t, b))
	case spec.Timestamp, spec.TimestampLTZ:
		x, y := must[spec.TimestampValue](t, a), must[spec.TimestampValue](t, b)
		if c := cmp.Compare(x.Millis, y.Millis); c != 0 {
			return c
		}
		return cmp.Compare(x.NanoOfMilli, y.NanoOfMilli)
	}
	panic(fmt.Sprintf("binrow: Compare: %s is not comparable as a key", typeName(t)))
}

// CompareRows compares rows field by field with Compare; the first difference decides. Both
// rows must have len(types) fields.
func CompareRows(types []spec.DataType, a, b []any) int {
	if len(a) != len(types) || len(b) != len(types) {
		panic(fmt.Sprintf("binrow: CompareRows: %d types but rows of %d and %d fields", len(types), len(a), len(b)))
	}
	for i, t := range types {
		if c := Compare(t, a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// CompareNulls is the null rule every comparator of keys and sequence fields shares (binrow's by
// Paimon type, mergetree's by Go type, paimon/read's by Arrow column): Java's generated comparators
// with nullIsLast=false (paimon-format §6.3). A null sorts before every value and equals another
// null; decided is false when neither is null, and the values decide. A descending
// sequence.field.sort-order reverses only the values' order, never this rule.
func CompareNulls(aNull, bNull bool) (c int, decided bool) {
	switch {
	case aNull && bNull:
		return 0, true
	case aNull:
		return -1, true
	case bNull:
		return 1, true
	}
	return 0, false
}

// CompareJavaDouble is Java's Double.compare (and Float.compare of floats widened to float64):
// numeric order, except -0.0 < 0.0 and NaN (any payload) equal to itself and larger than +Inf.
// The numeric comparisons come first: they decide almost every call.
func CompareJavaDouble(x, y float64) int {
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	// Equal numerically; only ±0 can still differ.
	return cmp.Compare(signRank(x), signRank(y))
}

// must asserts a datum's Go type, panicking with the type at fault.
func must[T any](t spec.DataType, v any) T {
	x, ok := v.(T)
	if !ok {
		panic(fmt.Sprintf("binrow: Compare %s: want %s, got %T", typeName(t), datumGoType(t), v))
	}
	return x
}

// signRank orders zeros of equal value: -0.0 (0) before +0.0 (1).
func signRank(x float64) int {
	if math.Signbit(x) {
		return 0
	}
	return 1
}
