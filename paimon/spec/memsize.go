package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseMemorySize parses a Java MemorySize string: a non-negative integer optionally followed by a unit
// (b/bytes, k/kb/kibibytes, m/mb/mebibytes, g/gb/gibibytes, t/tb/tebibytes; case-insensitive, spaces allowed),
// e.g. "128 mb", "256MB", "1 kb", "4096". Units are powers of 1024, as in Java.
func ParseMemorySize(s string) (int64, error) {
	text := strings.TrimSpace(s)
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("memory size %q: must start with a non-negative integer", s)
	}
	n, err := strconv.ParseInt(text[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("memory size %q: number out of range", s)
	}
	var mult int64
	switch strings.ToLower(strings.TrimSpace(text[i:])) {
	case "", "b", "bytes":
		mult = 1
	case "k", "kb", "kibibytes":
		mult = 1 << 10
	case "m", "mb", "mebibytes":
		mult = 1 << 20
	case "g", "gb", "gibibytes":
		mult = 1 << 30
	case "t", "tb", "tebibytes":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("memory size %q: unknown unit %q", s, strings.TrimSpace(text[i:]))
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("memory size %q: exceeds the maximum of %d bytes", s, int64(math.MaxInt64))
	}
	return n * mult, nil
}

// ParseJavaDuration parses a Java TimeUtils duration: an integer followed by an optional unit
// (ns, us/µs, ms, s/sec, min/m, h, d and their long forms; no unit = milliseconds), e.g. "1 h", "30min", "500".
func ParseJavaDuration(s string) (time.Duration, error) {
	text := strings.TrimSpace(s)
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("duration %q: must start with a non-negative integer", s)
	}
	n, err := strconv.ParseInt(text[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("duration %q: number out of range", s)
	}
	units := map[string]time.Duration{
		"": time.Millisecond, "ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond,
		"nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
		"us": time.Microsecond, "µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond,
		"microsecond": time.Microsecond, "microseconds": time.Microsecond,
		"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
		"millisecond": time.Millisecond, "milliseconds": time.Millisecond,
		"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
		"m": time.Minute, "min": time.Minute, "minute": time.Minute, "minutes": time.Minute,
		"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
		"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	}
	unit := strings.ToLower(strings.TrimSpace(text[i:]))
	mult, ok := units[unit]
	if !ok {
		return 0, fmt.Errorf("duration %q: unknown unit %q", s, unit)
	}
	if n > int64(math.MaxInt64/mult) {
		return 0, fmt.Errorf("duration %q: too large", s)
	}
	return time.Duration(n) * mult, nil
}
