package canon

import (
	"math"
	"strconv"
	"strings"
)

// Float formats f exactly as Python's repr(float) does: the shortest digit string that reads back
// as f, in fixed notation when the decimal exponent is in [-4, 16) ("1.0", "0.0001",
// "1234567890123456.0") and in exponent notation otherwise ("1e-05", "1.5e+16"). NaN and the
// infinities are not JSON numbers and are returned as "NaN", "inf", "-inf"; see Value for their
// canonical (quoted) spelling.
func Float(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	var b strings.Builder
	if math.Signbit(f) {
		b.WriteByte('-')
		f = -f
	}
	// 'e' with precision -1 gives the shortest round-trip digits: d[.ddd]e±XX.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expPart, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expPart)
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		digits = "0"
	}
	decpt := exp + 1 // value = 0.digits * 10^decpt
	if f == 0 {
		decpt = 1
	}
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -decpt))
			b.WriteString(digits)
		case decpt >= len(digits):
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", decpt-len(digits)))
			b.WriteString(".0")
		default:
			b.WriteString(digits[:decpt])
			b.WriteByte('.')
			b.WriteString(digits[decpt:])
		}
		return b.String()
	}
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	e := decpt - 1
	b.WriteByte('e')
	if e < 0 {
		b.WriteByte('-')
		e = -e
	} else {
		b.WriteByte('+')
	}
	if e < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(e))
	return b.String()
}

// floatJSON is the canonical JSON fragment of a float64: a number, or a quoted NaN/Infinity name.
func floatJSON(f float64) string {
	switch {
	case math.IsNaN(f):
		return `"NaN"`
	case math.IsInf(f, 1):
		return `"Infinity"`
	case math.IsInf(f, -1):
		return `"-Infinity"`
	}
	return Float(f)
}
