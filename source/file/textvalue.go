package file

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// badValue is a value that cannot be stored; the reader adds file and line.
type badValue struct {
	path     string // column name, with element/field suffixes for nested values
	value    string
	expected string
	cause    error
}

func (e *badValue) Error() string {
	return fmt.Sprintf("column %q: bad value %q: expected %s", e.path, e.value, e.expected)
}

// expectedForm describes the text form accepted for t.
func expectedForm(t spec.DataType) string {
	switch t.Root {
	case spec.Boolean:
		return "BOOLEAN: true, false, 1 or 0 (case-insensitive)"
	case spec.TinyInt:
		return "TINYINT: a decimal integer from -128 to 127"
	case spec.SmallInt:
		return "SMALLINT: a decimal integer from -32768 to 32767"
	case spec.Int:
		return "INT: a decimal integer from -2147483648 to 2147483647"
	case spec.BigInt:
		return "BIGINT: a decimal integer from -9223372036854775808 to 9223372036854775807"
	case spec.Float:
		return "FLOAT: a number within float32 range (or NaN, Infinity, -Infinity)"
	case spec.Double:
		return "DOUBLE: a number (or NaN, Infinity, -Infinity)"
	case spec.Decimal:
		return fmt.Sprintf("DECIMAL(%d, %d): [-]digits[.digits] with at most %d integer and %d fraction digits (no exponent, no rounding)",
			t.Precision, t.Scale, t.Precision-t.Scale, t.Scale)
	case spec.Char, spec.VarChar:
		return "STRING: UTF-8 text"
	case spec.Binary, spec.VarBinary:
		return "BYTES: standard base64 (RFC 4648, with padding)"
	case spec.Date:
		return "DATE: YYYY-MM-DD"
	case spec.Time:
		return "TIME: HH:MM:SS[.fff] (at most millisecond precision)"
	case spec.Timestamp:
		return fmt.Sprintf("TIMESTAMP(%d): YYYY-MM-DD[T| ]HH:MM:SS[.fraction] with at most %d significant fraction digits and no offset", t.Precision, t.Precision)
	case spec.TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP_LTZ(%d): YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|±HH:MM] with at most %d significant fraction digits", t.Precision, t.Precision)
	case spec.Array:
		return "ARRAY: a JSON array"
	case spec.Map:
		return "MAP: a JSON object"
	case spec.Row:
		return "ROW: a JSON object"
	}
	return "a supported type"
}

// appendText parses s (a non-null text value) as an atomic type t and appends it to b.
func appendText(b array.Builder, t spec.DataType, s string, loc *time.Location) error {
	bad := func(cause error) error { return &badValue{value: s, expected: expectedForm(t), cause: cause} }
	switch t.Root {
	case spec.Boolean:
		switch strings.ToLower(s) {
		case "true", "1":
			b.(*array.BooleanBuilder).Append(true)
		case "false", "0":
			b.(*array.BooleanBuilder).Append(false)
		default:
			return bad(nil)
		}
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		bits := intBits(t.Root)
		v, err := strconv.ParseInt(s, 10, bits)
		if err != nil || strings.ContainsRune(s, '_') {
			return bad(nil)
		}
		switch x := b.(type) {
		case *array.Int8Builder:
			x.Append(int8(v))
		case *array.Int16Builder:
			x.Append(int16(v))
		case *array.Int32Builder:
			x.Append(int32(v))
		case *array.Int64Builder:
			x.Append(v)
		}
	case spec.Float:
		v, err := strconv.ParseFloat(s, 32)
		if err != nil || (math.IsInf(v, 0) && !isInfText(s)) || strings.ContainsRune(s, '_') {
			return bad(nil)
		}
		b.(*array.Float32Builder).Append(float32(v))
	case spec.Double:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || (math.IsInf(v, 0) && !isInfText(s)) || strings.ContainsRune(s, '_') {
			return bad(nil)
		}
		b.(*array.Float64Builder).Append(v)
	case spec.Decimal:
		n, ok := parseDecimal(s, t.Precision, t.Scale)
		if !ok {
			return bad(nil)
		}
		b.(*array.Decimal128Builder).Append(n)
	case spec.Char, spec.VarChar:
		if !utf8.ValidString(s) {
			return bad(nil)
		}
		if p := source.LengthProblem(t, []byte(s)); p != "" {
			return &badValue{value: s, expected: p}
		}
		b.(*array.StringBuilder).Append(s)
	case spec.Binary, spec.VarBinary:
		v, err := base64.StdEncoding.Strict().DecodeString(s)
		if err != nil {
			return bad(nil)
		}
		if p := source.LengthProblem(t, v); p != "" {
			return &badValue{value: s, expected: p}
		}
		b.(*array.BinaryBuilder).Append(v)
	case spec.Date:
		d, ok := parseDate(s)
		if !ok {
			return bad(nil)
		}
		b.(*array.Date32Builder).Append(arrow.Date32(d))
	case spec.Time:
		ms, ok := parseTime(s, min(t.Precision, 3))
		if !ok {
			return bad(nil)
		}
		b.(*array.Time32Builder).Append(arrow.Time32(ms))
	case spec.Timestamp, spec.TimestampLTZ:
		v, err := parseTimestamp(s, t, loc)
		if err != nil {
			return bad(err)
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(v))
	default:
		return &badValue{value: s, expected: expectedForm(t)}
	}
	return nil
}

func isInfText(s string) bool {
	s = strings.TrimLeft(strings.ToLower(s), "+-")
	return s == "inf" || s == "infinity"
}

// parseDecimal parses [-+]digits[.digits] into the unscaled value for DECIMAL(p, s).
func parseDecimal(text string, p, s int) (decimal128.Num, bool) {
	str := text
	neg := false
	if str != "" && (str[0] == '-' || str[0] == '+') {
		neg, str = str[0] == '-', str[1:]
	}
	intPart, frac, hasDot := strings.Cut(str, ".")
	if (intPart == "" && frac == "") || (hasDot && frac == "" && intPart == "") || !allDigits(intPart) || !allDigits(frac) || len(frac) > s {
		return decimal128.Num{}, false
	}
	intPart = strings.TrimLeft(intPart, "0")
	if len(intPart) > p-s {
		return decimal128.Num{}, false
	}
	digits := intPart + frac + strings.Repeat("0", s-len(frac))
	v, ok := new(big.Int).SetString("0"+digits, 10)
	if !ok {
		return decimal128.Num{}, false
	}
	if neg {
		v.Neg(v)
	}
	return decimal128.FromBigInt(v), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// num parses a fixed-width run of digits.
func num(s string) (int, bool) {
	if s == "" || !allDigits(s) {
		return 0, false
	}
	v, _ := strconv.Atoi(s)
	return v, true
}

// parseDate parses YYYY-MM-DD into days since 1970-01-01.
func parseDate(s string) (int32, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	y, ok1 := num(s[0:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	if !ok1 || !ok2 || !ok3 || !validDate(y, m, d) {
		return 0, false
	}
	return int32(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400), true
}

func validDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Day() == d
}

// parseClock parses HH:MM:SS[.f{1,9}] into seconds of day and nanoseconds, requiring that digits
// beyond precision digits are zero.
func parseClock(s string, precision int) (secs, nanos int, ok bool) {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return 0, 0, false
	}
	h, ok1 := num(s[0:2])
	mi, ok2 := num(s[3:5])
	se, ok3 := num(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || se > 59 {
		return 0, 0, false
	}
	if rest := s[8:]; rest != "" {
		if rest[0] != '.' || len(rest) < 2 || len(rest) > 10 || !allDigits(rest[1:]) {
			return 0, 0, false
		}
		f := rest[1:]
		nanos, _ = strconv.Atoi(f + strings.Repeat("0", 9-len(f)))
		if nanos%pow10(9-precision) != 0 {
			return 0, 0, false
		}
	}
	return (h*60+mi)*60 + se, nanos, true
}

func pow10(n int) int {
	v := 1
	for ; n > 0; n-- {
		v *= 10
	}
	return v
}

// parseTime parses HH:MM:SS[.fff] into millis of day.
func parseTime(s string, precision int) (int32, bool) {
	secs, nanos, ok := parseClock(s, precision)
	return int32(secs*1000 + nanos/1e6), ok
}

// parseTimestamp parses a TIMESTAMP or TIMESTAMP_LTZ value into the column's Arrow unit.
func parseTimestamp(s string, t spec.DataType, loc *time.Location) (int64, error) {
	if len(s) < 19 || (s[10] != 'T' && s[10] != ' ' && s[10] != 't') {
		return 0, fmt.Errorf("not a timestamp")
	}
	days, ok := parseDate(s[:10])
	if !ok {
		return 0, fmt.Errorf("invalid date")
	}
	clock, zone := s[11:], ""
	if i := strings.IndexAny(clock, "Zz+-"); i >= 0 {
		clock, zone = clock[:i], clock[i:]
	}
	secs, nanos, ok := parseClock(clock, t.Precision)
	if !ok {
		return 0, fmt.Errorf("invalid time of day, or more than %d significant fraction digits", t.Precision)
	}
	if zone != "" && t.Root == spec.Timestamp {
		return 0, fmt.Errorf("TIMESTAMP has no time zone: remove the offset, or declare the column TIMESTAMP_LTZ")
	}
	var when time.Time
	y, mo, d := time.Unix(int64(days)*86400, 0).UTC().Date()
	switch {
	case zone == "" && (t.Root == spec.Timestamp || loc == time.UTC):
		when = time.Unix(int64(days)*86400+int64(secs), int64(nanos)).UTC()
	case zone == "":
		when = time.Date(y, mo, d, secs/3600, secs/60%60, secs%60, nanos, loc)
		if when.Hour() != secs/3600 || when.Minute() != secs/60%60 {
			return 0, fmt.Errorf("local time does not exist in %s (daylight saving gap)", loc)
		}
	default:
		off, ok := parseOffset(zone)
		if !ok {
			return 0, fmt.Errorf("invalid offset %q (use Z or ±HH:MM)", zone)
		}
		when = time.Unix(int64(days)*86400+int64(secs)-int64(off), int64(nanos)).UTC()
	}
	unit := arrowUnit(t.Precision)
	per := int64(1e9) / unitNanos[unit]
	sec := when.Unix()
	if sec > math.MaxInt64/per-1 || sec < math.MinInt64/per+1 {
		return 0, fmt.Errorf("out of range for %s", unit)
	}
	return sec*per + int64(when.Nanosecond())/unitNanos[unit], nil
}

var unitNanos = map[arrow.TimeUnit]int64{arrow.Millisecond: 1e6, arrow.Microsecond: 1e3, arrow.Nanosecond: 1}

func arrowUnit(precision int) arrow.TimeUnit {
	switch {
	case precision <= 3:
		return arrow.Millisecond
	case precision <= 6:
		return arrow.Microsecond
	}
	return arrow.Nanosecond
}

// parseOffset parses Z, ±HH:MM, ±HHMM or ±HH into seconds east of UTC.
func parseOffset(z string) (int, bool) {
	if z == "Z" || z == "z" {
		return 0, true
	}
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	r := z[1:]
	var h, m int
	var ok1, ok2 bool = false, true
	switch len(r) {
	case 2:
		h, ok1 = num(r)
	case 4:
		h, ok1 = num(r[:2])
		m, ok2 = num(r[2:])
	case 5:
		if r[2] != ':' {
			return 0, false
		}
		h, ok1 = num(r[:2])
		m, ok2 = num(r[3:])
	default:
		return 0, false
	}
	if !ok1 || !ok2 || h > 18 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

// intBits is the width of an integer type (no map built per value: this runs for every CSV/JSON cell).
func intBits(r spec.TypeRoot) int {
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
