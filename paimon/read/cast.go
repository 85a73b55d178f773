package read

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/lakeload/lakeload/paimon/spec"
)

// castFunc converts a value read from a file of an older schema to the reading schema's type
// (Java CastExecutors for the conversions ALTER TABLE allows).
type castFunc func(v any) (any, error)

// castFor returns the conversion from type from to type to, nil when none is needed.
func castFor(from, to spec.DataType) (castFunc, error) {
	if from.Root == to.Root && from.Precision == to.Precision && from.Scale == to.Scale {
		return nil, nil
	}
	fail := func() (castFunc, error) {
		return nil, fmt.Errorf("cannot read %s values as %s", from, to)
	}
	switch {
	case isInteger(from.Root) || isFloat(from.Root):
		switch {
		case isInteger(to.Root):
			return func(v any) (any, error) { return toInteger(to.Root, v), nil }, nil
		case isFloat(to.Root):
			return func(v any) (any, error) { return toFloat(to.Root, asFloat(v)), nil }, nil
		case isString(to.Root):
			return func(v any) (any, error) { return numberString(v), nil }, nil
		}
	case from.Root == spec.Boolean && isString(to.Root):
		return func(v any) (any, error) { return strconv.FormatBool(v.(bool)), nil }, nil
	case from.Root == spec.Boolean && isInteger(to.Root):
		return func(v any) (any, error) {
			if v.(bool) {
				return toInteger(to.Root, int64(1)), nil
			}
			return toInteger(to.Root, int64(0)), nil
		}, nil
	case isString(from.Root) && isString(to.Root):
		return nil, nil
	case isString(from.Root) && isBinary(to.Root):
		return func(v any) (any, error) { return []byte(v.(string)), nil }, nil
	case isBinary(from.Root) && isBinary(to.Root):
		return nil, nil
	case isBinary(from.Root) && isString(to.Root):
		return func(v any) (any, error) { return string(v.([]byte)), nil }, nil
	case isString(from.Root) && (isInteger(to.Root) || isFloat(to.Root) || to.Root == spec.Boolean):
		return func(v any) (any, error) { return parseString(to, v.(string)) }, nil
	case from.Root == spec.Decimal && to.Root == spec.Decimal:
		return func(v any) (any, error) { return rescale(v.(spec.DecimalValue), from.Scale, to), nil }, nil
	case isInteger(from.Root) && to.Root == spec.Decimal:
		return func(v any) (any, error) {
			return rescale(spec.DecimalValue{Unscaled: big.NewInt(asInt(v))}, 0, to), nil
		}, nil
	case (from.Root == spec.Timestamp || from.Root == spec.TimestampLTZ) && (to.Root == spec.Timestamp || to.Root == spec.TimestampLTZ):
		return func(v any) (any, error) { return truncateTimestamp(v.(spec.TimestampValue), to.Precision), nil }, nil
	}
	return fail()
}

func isInteger(r spec.TypeRoot) bool {
	return r == spec.TinyInt || r == spec.SmallInt || r == spec.Int || r == spec.BigInt
}
func isFloat(r spec.TypeRoot) bool  { return r == spec.Float || r == spec.Double }
func isString(r spec.TypeRoot) bool { return r == spec.Char || r == spec.VarChar }
func isBinary(r spec.TypeRoot) bool { return r == spec.Binary || r == spec.VarBinary }

func asInt(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case float32:
		return javaD2L(float64(x))
	case float64:
		return javaD2L(x)
	}
	return 0
}

// javaD2L is Java's (long) double: truncation toward zero, NaN → 0, saturating.
func javaD2L(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func asFloat(v any) float64 {
	switch x := v.(type) {
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return float64(asInt(v))
}

// toInteger narrows like Java: floating values go through (int)/(long) (saturating), integers wrap.
func toInteger(to spec.TypeRoot, v any) any {
	var n int64
	switch x := v.(type) {
	case float32, float64:
		f := asFloat(x)
		if to != spec.BigInt {
			// Java (int) d saturates at int range, then narrows for byte/short.
			switch {
			case math.IsNaN(f):
				n = 0
			case f >= math.MaxInt32:
				n = math.MaxInt32
			case f <= math.MinInt32:
				n = math.MinInt32
			default:
				n = int64(int32(f))
			}
		} else {
			n = javaD2L(f)
		}
	default:
		n = asInt(v)
	}
	switch to {
	case spec.TinyInt:
		return int8(n)
	case spec.SmallInt:
		return int16(n)
	case spec.Int:
		return int32(n)
	}
	return n
}

func toFloat(to spec.TypeRoot, f float64) any {
	if to == spec.Float {
		return float32(f)
	}
	return f
}

func numberString(v any) string {
	switch x := v.(type) {
	case float32:
		return spec.JavaFloatString(x)
	case float64:
		return spec.JavaDoubleString(x)
	}
	return strconv.FormatInt(asInt(v), 10)
}

func parseString(to spec.DataType, s string) (any, error) {
	switch {
	case to.Root == spec.Boolean:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, nil
		}
		return b, nil
	case isInteger(to.Root):
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, nil
		}
		return toInteger(to.Root, n), nil
	default:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, nil
		}
		return toFloat(to.Root, f), nil
	}
}

// rescale changes a decimal's scale with HALF_UP rounding; a value that no longer fits becomes null, as in Java.
func rescale(d spec.DecimalValue, fromScale int, to spec.DataType) any {
	u := new(big.Int).Set(d.Unscaled)
	switch diff := to.Scale - fromScale; {
	case diff > 0:
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(diff)), nil))
	case diff < 0:
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-diff)), nil)
		q, r := new(big.Int).QuoRem(u, div, new(big.Int))
		if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(div) >= 0 {
			if u.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		u = q
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(to.Precision)), nil)
	if new(big.Int).Abs(u).Cmp(limit) >= 0 {
		return nil
	}
	return spec.DecimalValue{Unscaled: u}
}

func truncateTimestamp(ts spec.TimestampValue, precision int) spec.TimestampValue {
	if precision >= 9 {
		return ts
	}
	if precision <= 3 {
		unit := int64(math.Pow10(3 - precision))
		m := ts.Millis - ((ts.Millis%unit)+unit)%unit
		return spec.TimestampValue{Millis: m}
	}
	unit := int32(math.Pow10(9 - precision))
	return spec.TimestampValue{Millis: ts.Millis, NanoOfMilli: ts.NanoOfMilli - ts.NanoOfMilli%unit}
}
