package spec

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PartitionPath renders the partition directory exactly as Java (InternalRowPartitionComputer +
// PartitionPathUtils.generatePartitionPath, paimon-format.md §1.3): "k1=v1/k2=v2/" with a trailing slash,
// fields in the given (partition-key) order, names and values escaped with EscapePathName.
//
// legacyName=true (Java default) renders toString of the internal value: DATE → day count, TIME → millis of day,
// TIMESTAMP → LocalDateTime.toString ("2024-01-01T10:00"), DECIMAL → plain string, FLOAT/DOUBLE → Java
// toString ("1.0E10"). legacyName=false renders CAST(x AS STRING): DATE → "2024-01-01", TIME(p) → "10:00:00",
// TIMESTAMP(p) → "2024-01-01 10:00:00.000000" (LTZ in UTC; Java uses its JVM zone), BINARY → UTF-8 text.
// nil, empty and whitespace-only renderings become defaultName. BINARY values under legacy naming (Java writes
// an object identity "[B@…") and nested types are rejected.
func PartitionPath(fields []DataField, values []any, defaultName string, legacyName bool) (string, error) {
	if len(fields) != len(values) {
		return "", fmt.Errorf("partition path: %d fields but %d values", len(fields), len(values))
	}
	var b strings.Builder
	for i, f := range fields {
		v := ""
		if values[i] != nil {
			var err error
			if v, err = partitionValueString(f.Type, values[i], legacyName); err != nil {
				return "", fmt.Errorf("partition column %q: %w", f.Name, err)
			}
		}
		if isJavaBlank(v) {
			v = defaultName
		}
		b.WriteString(EscapePathName(f.Name))
		b.WriteByte('=')
		b.WriteString(EscapePathName(v))
		b.WriteByte('/')
	}
	return b.String(), nil
}

// partitionValueString renders one non-null partition datum.
func partitionValueString(t DataType, v any, legacy bool) (string, error) {
	bad := func() (string, error) {
		return "", fmt.Errorf("value %v (%T) does not match type %s", v, v, t)
	}
	switch t.Root {
	case Boolean:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		return strconv.FormatBool(x), nil
	case TinyInt:
		x, ok := v.(int8)
		if !ok {
			return bad()
		}
		return strconv.Itoa(int(x)), nil
	case SmallInt:
		x, ok := v.(int16)
		if !ok {
			return bad()
		}
		return strconv.Itoa(int(x)), nil
	case Int:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		return strconv.Itoa(int(x)), nil
	case BigInt:
		x, ok := v.(int64)
		if !ok {
			return bad()
		}
		return strconv.FormatInt(x, 10), nil
	case Float:
		x, ok := v.(float32)
		if !ok {
			return bad()
		}
		return JavaFloatString(x), nil
	case Double:
		x, ok := v.(float64)
		if !ok {
			return bad()
		}
		return JavaDoubleString(x), nil
	case Decimal:
		x, ok := v.(DecimalValue)
		if !ok {
			return bad()
		}
		u := x.Unscaled
		if u == nil {
			u = new(big.Int)
		}
		return javaPlainDecimal(u, t.Scale), nil
	case Char, VarChar:
		x, ok := v.(string)
		if !ok {
			return bad()
		}
		return x, nil
	case Binary, VarBinary:
		x, ok := v.([]byte)
		if !ok {
			return bad()
		}
		if legacy {
			return "", fmt.Errorf("BINARY partition values cannot be named with partition.legacy-name=true (Java writes an object identity)")
		}
		if !utf8.Valid(x) {
			return "", fmt.Errorf("BINARY partition value is not valid UTF-8")
		}
		return string(x), nil
	case Date:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		if legacy {
			return strconv.Itoa(int(x)), nil
		}
		return castDateString(int64(x))
	case Time:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		if legacy {
			return strconv.Itoa(int(x)), nil
		}
		return castTimeString(x, t.Precision), nil
	case Timestamp, TimestampLTZ:
		x, ok := v.(TimestampValue)
		if !ok {
			return bad()
		}
		if x.NanoOfMilli < 0 || x.NanoOfMilli > 999_999 {
			return "", fmt.Errorf("timestamp nano-of-milli %d outside 0..999999", x.NanoOfMilli)
		}
		if legacy {
			return javaLocalDateTimeString(x), nil
		}
		return castTimestampString(x, t.Precision)
	}
	return "", fmt.Errorf("type %s cannot be a partition column", t)
}

// EscapePathName escapes s as Java's PartitionPathUtils.escapePathName: control characters 0x00-0x1F, 0x7F and
// `"#%'*/:=?\{}[]^` become %XX with uppercase hex; everything else (space, non-ASCII) is kept.
func EscapePathName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && needsEscape(byte(r)) {
			fmt.Fprintf(&b, "%%%02X", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(c byte) bool {
	return c < 0x20 || c == 0x7F || strings.IndexByte("\"#%'*/:=?\\{}[]^", c) >= 0
}
