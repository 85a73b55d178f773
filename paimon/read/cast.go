package read

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lakeload/lakeload/paimon/spec"
)

// castFunc converts a value read from a file of an older schema to the reading schema's type
// (Java CastExecutors for the conversions ALTER TABLE allows).
type castFunc func(v any) (any, error)

// castFor returns the conversion from type from to type to, nil when none is needed.
func castFor(from, to spec.DataType) (castFunc, error) {
	if from.Root == to.Root && from.Precision == to.Precision && from.Scale == to.Scale &&
		(from.Length == to.Length || !isString(to.Root) && !isBinary(to.Root)) {
		return nil, nil
	}
	fail := func() (castFunc, error) {
		return nil, fmt.Errorf("cannot read %s values as %s", from, to)
	}
	switch {
	case isInteger(from.Root) && to.Root == spec.Decimal: // before the numeric case, which would shadow it
		return func(v any) (any, error) {
			return rescale(spec.DecimalValue{Unscaled: big.NewInt(asInt(v))}, 0, to), nil
		}, nil
	case isInteger(from.Root) || isFloat(from.Root):
		switch {
		case isInteger(to.Root):
			return func(v any) (any, error) { return toInteger(to.Root, v), nil }, nil
		case isFloat(to.Root) && isInteger(from.Root) && to.Root == spec.Float:
			// Java (float) long rounds once; float32(float64(x)) would round twice for large longs.
			return func(v any) (any, error) { return float32(asInt(v)), nil }, nil
		case isFloat(to.Root):
			return func(v any) (any, error) { return toFloat(to.Root, asFloat(v)), nil }, nil
		case isString(to.Root):
			return func(v any) (any, error) { return toCharacterString(numberString(v), to), nil }, nil
		}
	case from.Root == spec.Boolean && isString(to.Root):
		return func(v any) (any, error) { return toCharacterString(strconv.FormatBool(v.(bool)), to), nil }, nil
	case from.Root == spec.Boolean && isInteger(to.Root):
		return func(v any) (any, error) {
			if v.(bool) {
				return toInteger(to.Root, int64(1)), nil
			}
			return toInteger(to.Root, int64(0)), nil
		}, nil
	case isString(from.Root) && isString(to.Root):
		return func(v any) (any, error) { return toCharacterString(v.(string), to), nil }, nil
	case isString(from.Root) && isBinary(to.Root):
		return func(v any) (any, error) { return toBinaryString([]byte(v.(string)), to), nil }, nil
	case isBinary(from.Root) && isBinary(to.Root):
		return func(v any) (any, error) { return toBinaryString(v.([]byte), to), nil }, nil
	case isBinary(from.Root) && isString(to.Root):
		return func(v any) (any, error) { return string(v.([]byte)), nil }, nil
	case isString(from.Root) && (isInteger(to.Root) || isFloat(to.Root) || to.Root == spec.Boolean):
		return func(v any) (any, error) { return parseString(to, v.(string)) }, nil
	case from.Root == spec.Decimal && to.Root == spec.Decimal:
		return func(v any) (any, error) { return rescale(v.(spec.DecimalValue), from.Scale, to), nil }, nil
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

// parseString converts a string like Java's BinaryStringUtils.toBoolean/toByte/…/toDouble. A value
// Java cannot parse fails the read there, so it is an error here too (not a silent null).
func parseString(to spec.DataType, s string) (any, error) {
	switch {
	case to.Root == spec.Boolean:
		switch strings.ToLower(s) {
		case "t", "true", "y", "yes", "1":
			return true, nil
		case "f", "false", "n", "no", "0":
			return false, nil
		}
		return nil, fmt.Errorf("cannot parse %q as BOOLEAN", s)
	case isInteger(to.Root):
		n, err := javaParseInteger(s, integerBits(to.Root))
		if err != nil {
			return nil, fmt.Errorf("cannot parse %q as %s: %w", s, to, err)
		}
		return toInteger(to.Root, n), nil
	default:
		// Java's parseFloat/parseDouble ignore surrounding whitespace and round once to the target width.
		bits := 64
		if to.Root == spec.Float {
			bits = 32
		}
		f, err := strconv.ParseFloat(strings.TrimFunc(s, func(r rune) bool { return r <= ' ' }), bits)
		if err != nil {
			return nil, fmt.Errorf("cannot parse %q as %s: %w", s, to, err)
		}
		return toFloat(to.Root, f), nil
	}
}

func integerBits(r spec.TypeRoot) int {
	switch r {
	case spec.TinyInt:
		return 8
	case spec.SmallInt:
		return 16
	case spec.Int:
		return 32
	}
	return 64
}

// javaParseInteger is BinaryStringUtils.toLong/toInt/toShort/toByte: an optional sign, digits, and an
// optional '.' followed by digits that are dropped (truncation); no whitespace; overflow is an error.
func javaParseInteger(s string, bits int) (int64, error) {
	digits := s
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if len(s) == 1 {
			return 0, errors.New("only a sign")
		}
		neg, digits = s[0] == '-', s[1:]
	}
	if s == "" {
		return 0, errors.New("empty input")
	}
	whole, frac, _ := strings.Cut(digits, ".")
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, fmt.Errorf("invalid character %q", part[i])
			}
		}
	}
	if whole == "" {
		return 0, nil
	}
	if neg {
		whole = "-" + whole
	}
	return strconv.ParseInt(whole, 10, bits)
}

// toCharacterString is Java BinaryStringUtils.toCharacterString: cut to the target length in code
// points; a CHAR target is padded with spaces.
func toCharacterString(s string, to spec.DataType) string {
	n := utf8.RuneCountInString(s)
	switch {
	case n > to.Length:
		i := 0
		for k := 0; k < to.Length; k++ {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
		return s[:i]
	case n < to.Length && to.Root == spec.Char:
		return s + strings.Repeat(" ", to.Length-n)
	}
	return s
}

// toBinaryString is Java BinaryStringUtils.toBinaryString: BINARY(n) is cut or zero-padded to n
// bytes, VARBINARY(n) only cut.
func toBinaryString(b []byte, to spec.DataType) []byte {
	switch {
	case len(b) == to.Length:
		return b
	case to.Root == spec.Binary:
		out := make([]byte, to.Length)
		copy(out, b)
		return out
	case len(b) > to.Length:
		return b[:to.Length]
	}
	return b
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
		// Java DateTimeUtils.truncate zeroes the last digits of the epoch millis with integer division,
		// i.e. toward zero: before 1970 it rounds up in time. Mirror it so both readers agree.
		unit := int64(math.Pow10(3 - precision))
		if ts.Millis%unit == 0 && ts.NanoOfMilli == 0 {
			return ts
		}
		return spec.TimestampValue{Millis: ts.Millis / unit * unit}
	}
	unit := int32(math.Pow10(9 - precision))
	return spec.TimestampValue{Millis: ts.Millis, NanoOfMilli: ts.NanoOfMilli - ts.NanoOfMilli%unit}
}
