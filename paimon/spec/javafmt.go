package spec

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// isJavaWhitespace is Java's Character.isWhitespace: Unicode space/line/paragraph separators except the
// non-breaking ones (U+00A0, U+2007, U+202F), plus \t \n \v \f \r and U+001C..U+001F.
func isJavaWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1C, 0x1D, 0x1E, 0x1F:
		return true
	case 0xA0, 0x2007, 0x202F:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// isJavaBlank is Paimon's StringUtils.isNullOrWhitespaceOnly for a non-null string.
func isJavaBlank(s string) bool {
	for _, r := range s {
		if !isJavaWhitespace(r) {
			return false
		}
	}
	return true
}

// JavaDoubleString renders f as Java's Double.toString (JDK 19+ specification, Ryu-like shortest form):
// "1.0", "0.001", "1234567.0", "1.0E7", "1.0E-4", "4.9E-324", "NaN", "Infinity", "-0.0".
func JavaDoubleString(f float64) string { return javaFloatingString(f, 64) }

// JavaFloatString renders f as Java's Float.toString (JDK 19+): "1.0E10", "0.1", "1.4E-45".
func JavaFloatString(f float32) string { return javaFloatingString(float64(f), 32) }

// javaFloatingString implements the shared algorithm: pick the shortest decimal that rounds back to f (at least
// two significant digits, the closer one if several), then print it plainly for 1e-3 <= |f| < 1e7 and as
// d.dddE<exp> otherwise, always with at least one fractional digit.
func javaFloatingString(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	digits, exp := sciDigits(strconv.FormatFloat(f, 'e', -1, bits))
	if len(digits) == 1 {
		// Java never picks a 1-digit decimal: use the 2-digit decimal closest to f if it still rounds to f.
		d2, e2 := sciDigits(strconv.FormatFloat(f, 'e', 1, bits))
		if back, err := strconv.ParseFloat(d2[:1]+"."+d2[1:]+"e"+strconv.Itoa(e2), bits); err == nil && back == f {
			digits, exp = d2, e2
		}
	}
	digits, exp = closestEven(digits, exp, f, bits)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		digits = "0"
	}
	// value = 0.d1d2… × 10^(exp+1), i.e. d1.d2… × 10^exp
	if f >= 1e-3 && f < 1e7 {
		pointPos := exp + 1 // digits before the decimal point
		var intPart, fracPart string
		switch {
		case pointPos <= 0:
			intPart = "0"
			fracPart = strings.Repeat("0", -pointPos) + digits
		case pointPos >= len(digits):
			intPart = digits + strings.Repeat("0", pointPos-len(digits))
			fracPart = "0"
		default:
			intPart, fracPart = digits[:pointPos], digits[pointPos:]
		}
		return sign + intPart + "." + fracPart
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}

// closestEven returns, among digits×10^k and its neighbours ±1 in the last digit that still round to f, the one
// closest to f, preferring an even last digit on a tie (Java's rule; Go's shortest formatting rounds ties up).
func closestEven(digits string, exp int, f float64, bits int) (string, int) {
	m, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return digits, exp
	}
	scale := exp - (len(digits) - 1) // value = m × 10^scale
	exact := new(big.Rat).SetFloat64(f)
	dist := func(c *big.Int) *big.Rat {
		v := new(big.Rat).SetInt(c)
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(scale))), nil))
		if scale >= 0 {
			v.Mul(v, p)
		} else {
			v.Quo(v, p)
		}
		v.Sub(v, exact)
		return v.Abs(v)
	}
	best, bestDist := m, dist(m)
	for _, delta := range []int64{-1, 1} {
		c := new(big.Int).Add(m, big.NewInt(delta))
		if c.Sign() <= 0 || len(c.String()) != len(digits) {
			continue
		}
		if back, err := strconv.ParseFloat(c.String()+"e"+strconv.Itoa(scale), bits); err != nil || back != f {
			continue
		}
		d := dist(c)
		if cmp := d.Cmp(bestDist); cmp < 0 || (cmp == 0 && c.Bit(0) == 0 && best.Bit(0) == 1) {
			best, bestDist = c, d
		}
	}
	return best.String(), exp
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// sciDigits splits Go's "d.ddde±XX" into the digit string and the exponent.
func sciDigits(s string) (string, int) {
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	return strings.Replace(mant, ".", "", 1), exp
}

// javaPlainDecimal is Java's BigDecimal.toPlainString for unscaled × 10^-scale (scale >= 0).
func javaPlainDecimal(unscaled *big.Int, scale int) string {
	s := unscaled.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if scale > 0 {
		if len(s) <= scale {
			s = "0." + strings.Repeat("0", scale-len(s)) + s
		} else {
			s = s[:len(s)-scale] + "." + s[len(s)-scale:]
		}
	}
	if neg {
		return "-" + s
	}
	return s
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian (year, month, day).
func civilFromDays(days int64) (int64, int, int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp + 3)
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// javaLocalDateString is java.time.LocalDate.toString: yyyy-MM-dd, 4-digit zero padded year for |year| < 1000,
// "+" prefix above 9999.
func javaLocalDateString(days int64) string {
	y, m, d := civilFromDays(days)
	var ys string
	switch {
	case y < 0 && y > -1000:
		ys = fmt.Sprintf("-%04d", -y)
	case y >= 0 && y < 1000:
		ys = fmt.Sprintf("%04d", y)
	case y > 9999:
		ys = fmt.Sprintf("+%d", y)
	default:
		ys = strconv.FormatInt(y, 10)
	}
	return fmt.Sprintf("%s-%02d-%02d", ys, m, d)
}

// javaLocalTimeString is java.time.LocalTime.toString: HH:mm, then :ss if seconds or nanos are non-zero, then
// .SSS, .SSSSSS or .SSSSSSSSS (the shortest of those that is exact).
func javaLocalTimeString(nanoOfDay int64) string {
	h := nanoOfDay / 3_600_000_000_000
	mi := nanoOfDay / 60_000_000_000 % 60
	s := nanoOfDay / 1_000_000_000 % 60
	n := nanoOfDay % 1_000_000_000
	out := fmt.Sprintf("%02d:%02d", h, mi)
	if s > 0 || n > 0 {
		out += fmt.Sprintf(":%02d", s)
		switch {
		case n == 0:
		case n%1_000_000 == 0:
			out += fmt.Sprintf(".%03d", n/1_000_000)
		case n%1000 == 0:
			out += fmt.Sprintf(".%06d", n/1000)
		default:
			out += fmt.Sprintf(".%09d", n)
		}
	}
	return out
}

// splitMillis splits a Paimon timestamp into (days since epoch, nano of day) as Timestamp.toLocalDateTime does.
func splitMillis(ts TimestampValue) (int64, int64) {
	const msPerDay = 86_400_000
	days := ts.Millis / msPerDay
	ms := ts.Millis % msPerDay
	if ms < 0 {
		days--
		ms += msPerDay
	}
	return days, ms*1_000_000 + int64(ts.NanoOfMilli)
}

// javaLocalDateTimeString is Paimon Timestamp.toString = LocalDateTime.toString ("2024-01-01T10:00").
func javaLocalDateTimeString(ts TimestampValue) string {
	days, nod := splitMillis(ts)
	return javaLocalDateString(days) + "T" + javaLocalTimeString(nod)
}

// castDateString is Paimon's CAST(date AS STRING) (DateTimeUtils.formatDate): yyyy-MM-dd for years 0..9999.
func castDateString(days int64) (string, error) {
	y, m, d := civilFromDays(days)
	if y < 0 || y > 9999 {
		return "", fmt.Errorf("date %d days is outside years 0..9999", days)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), nil
}

// castTimeString is Paimon's CAST(time(p) AS STRING) (DateTimeUtils.formatTimestampMillis): HH:mm:ss, then for
// p > 0 up to p fraction digits of the millis, stopping after the last non-zero digit (at least one digit).
func castTimeString(millisOfDay int32, precision int) string {
	t := int64(millisOfDay)
	for t < 0 {
		t += 86_400_000
	}
	ms := t % 1000
	out := fmt.Sprintf("%02d:%02d:%02d", t/3_600_000, t%3_600_000/60_000, t%60_000/1000)
	if precision > 0 {
		out += "."
		for p := precision; p > 0; p-- {
			out += string(rune('0' + ms/100))
			ms = ms % 100 * 10
			if ms == 0 {
				break
			}
		}
	}
	return out
}

// castTimestampString is Paimon's CAST(timestamp(p) AS STRING) (DateTimeUtils.formatTimestamp):
// "yyyy-MM-dd HH:mm:ss" plus the 9-digit nano fraction with trailing zeros removed down to p digits.
func castTimestampString(ts TimestampValue, precision int) (string, error) {
	days, nod := splitMillis(ts)
	date, err := castDateString(days)
	if err != nil {
		return "", err
	}
	secs := nod / 1_000_000_000
	frac := fmt.Sprintf("%09d", nod%1_000_000_000)
	for len(frac) > precision && strings.HasSuffix(frac, "0") {
		frac = frac[:len(frac)-1]
	}
	out := fmt.Sprintf("%s %02d:%02d:%02d", date, secs/3600, secs/60%60, secs%60)
	if frac != "" {
		out += "." + frac
	}
	return out, nil
}
