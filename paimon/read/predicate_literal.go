package read

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
)

// numberLiteral converts a number written in a filter to the datum of type t.
func numberLiteral(s string, t spec.DataType) (any, error) {
	switch t.Root {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		bits := map[spec.TypeRoot]int{spec.TinyInt: 8, spec.SmallInt: 16, spec.Int: 32, spec.BigInt: 64}[t.Root]
		n, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			lo, hi := -(int64(1) << (bits - 1)), int64(math.MaxInt64)>>(64-bits)
			return nil, fmt.Errorf("expected an integer from %d to %d, got %s", lo, hi, s)
		}
		switch t.Root {
		case spec.TinyInt:
			return int8(n), nil
		case spec.SmallInt:
			return int16(n), nil
		case spec.Int:
			return int32(n), nil
		}
		return n, nil
	case spec.Float, spec.Double:
		bits := 64
		if t.Root == spec.Float {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, fmt.Errorf("expected a number, got %s", s)
		}
		if t.Root == spec.Float {
			return float32(f), nil
		}
		return f, nil
	case spec.Decimal:
		return decimalLiteral(s, t)
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		return nil, fmt.Errorf("expected a 'quoted string', got the number %s", s)
	case spec.Date:
		return nil, fmt.Errorf("expected a date as a string like '2024-03-01', got %s", s)
	case spec.Time:
		return nil, fmt.Errorf("expected a time as a string like '13:45:00', got %s", s)
	case spec.Timestamp, spec.TimestampLTZ:
		return nil, fmt.Errorf("expected a timestamp as a string like '2024-03-01 13:45:00', got %s", s)
	case spec.Boolean:
		return nil, fmt.Errorf("expected TRUE or FALSE, got %s", s)
	}
	return nil, fmt.Errorf("cannot be compared with %s", s)
}

// decimalLiteral parses [+-]digits[.digits] into a DecimalValue of t's scale; more fractional
// digits than the scale are refused (no value of the column could equal it).
func decimalLiteral(s string, t spec.DataType) (any, error) {
	bad := fmt.Errorf("expected a decimal number like 12.34, got %s", s)
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return nil, bad
	}
	intPart, frac, _ := strings.Cut(body, ".")
	if intPart == "" && frac == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return nil, bad
	}
	if len(frac) > t.Scale {
		return nil, fmt.Errorf("%s has %d digits after the point, the column has %d", s, len(frac), t.Scale)
	}
	frac += strings.Repeat("0", t.Scale-len(frac))
	n, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok {
		return nil, bad
	}
	if strings.HasPrefix(s, "-") {
		n.Neg(n)
	}
	return spec.DecimalValue{Unscaled: n}, nil
}

var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
}

// stringLiteral casts a 'string' written in a filter to the datum of type t.
func stringLiteral(s string, t spec.DataType) (any, error) {
	switch t.Root {
	case spec.Char, spec.VarChar:
		return s, nil
	case spec.Binary, spec.VarBinary:
		return []byte(s), nil
	case spec.Boolean:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("expected TRUE or FALSE, got '%s'", s)
	case spec.Date:
		d, err := time.Parse("2006-01-02", strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("expected a date 'YYYY-MM-DD', got '%s'", s)
		}
		return int32(floorDiv(d.Unix(), 86400)), nil
	case spec.Time:
		d, err := time.Parse("15:04:05.999999999", strings.TrimSpace(s))
		if err != nil {
			if d, err = time.Parse("15:04", strings.TrimSpace(s)); err != nil {
				return nil, fmt.Errorf("expected a time 'HH:MM:SS[.fff]', got '%s'", s)
			}
		}
		return int32(d.Hour()*3600000 + d.Minute()*60000 + d.Second()*1000 + d.Nanosecond()/1e6), nil
	case spec.Timestamp, spec.TimestampLTZ:
		for _, l := range timestampLayouts {
			if ts, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
				return spec.TimestampValue{Millis: ts.UnixMilli(), NanoOfMilli: int32(ts.Nanosecond() % 1e6)}, nil
			}
		}
		return nil, fmt.Errorf("expected a timestamp 'YYYY-MM-DD HH:MM:SS[.fffffffff]', got '%s'", s)
	}
	v, err := numberLiteral(strings.TrimSpace(s), t)
	if err != nil {
		return nil, errors.New(strings.Replace(err.Error(), "got "+strings.TrimSpace(s), "got '"+s+"'", 1))
	}
	return v, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
