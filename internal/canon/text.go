package canon

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lakeload/lakeload/paimon/spec"
)

// appendString appends s as a JSON string: only ", \ and control characters below U+0020 are
// escaped (\b \f \n \r \t, else \u00xx lowercase); invalid UTF-8 bytes become U+FFFD.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				dst = append(dst, '\\', '"')
			case c == '\\':
				dst = append(dst, '\\', '\\')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, fmt.Sprintf(`\u%04x`, c)...)
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// Decimal renders an unscaled DECIMAL value with exactly scale fraction digits ("-0.05", "12").
func Decimal(unscaled *big.Int, scale int) string {
	if unscaled == nil {
		unscaled = new(big.Int)
	}
	digits := new(big.Int).Abs(unscaled).String()
	sign := ""
	if unscaled.Sign() < 0 {
		sign = "-"
	}
	if scale <= 0 {
		return sign + digits + strings.Repeat("0", -scale)
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	cut := len(digits) - scale
	return sign + digits[:cut] + "." + digits[cut:]
}

// Bytes renders a BINARY/VARBINARY value as lowercase hex.
func Bytes(b []byte) string { return hex.EncodeToString(b) }

// year renders a proleptic Gregorian year like java.time: 4 digits for 0..9999, a sign otherwise.
func year(y int) string {
	switch {
	case y > 9999:
		return fmt.Sprintf("+%d", y)
	case y < 0:
		return fmt.Sprintf("-%04d", -y)
	}
	return fmt.Sprintf("%04d", y)
}

// Date renders days since 1970-01-01 as YYYY-MM-DD.
func Date(days int32) string {
	t := time.Unix(int64(days)*86400, 0).UTC()
	return fmt.Sprintf("%s-%02d-%02d", year(t.Year()), int(t.Month()), t.Day())
}

// Time renders millis of day as HH:MM:SS.mmm. Out-of-range values are not wrapped: hours may exceed
// 23 and a negative value gets a leading "-" (the oracles use the same arithmetic).
func Time(millis int32) string {
	m := int64(millis)
	neg := ""
	if m < 0 {
		neg, m = "-", -m
	}
	return fmt.Sprintf("%s%02d:%02d:%02d.%03d", neg, m/3600000, m/60000%60, m/1000%60, m%1000)
}

// Timestamp renders a timestamp as YYYY-MM-DDTHH:MM:SS.nnnnnnnnn (wall clock; for LTZ the UTC instant).
func Timestamp(ts spec.TimestampValue) string {
	sec := floorDiv(ts.Millis, 1000)
	nanos := (ts.Millis-sec*1000)*1_000_000 + int64(ts.NanoOfMilli)
	t := time.Unix(sec, nanos).UTC()
	return fmt.Sprintf("%s-%02d-%02dT%02d:%02d:%02d.%09d", year(t.Year()), int(t.Month()), t.Day(),
		t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
