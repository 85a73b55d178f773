package orcfile

import (
	"math"
	"time"
	_ "time/tzdata" // writer time zones (Java writes e.g. "Asia/Shanghai") resolve without system zoneinfo
)

// orcEpoch is 2015-01-01 00:00:00 UTC in Unix seconds, the zero of ORC timestamp seconds.
const orcEpoch = 1420070400

// loadZone resolves a stripe's writer time zone; "" and UTC resolve to nil (UTC).
func loadZone(name string) (*time.Location, error) {
	switch name {
	case "", "UTC", "GMT", "Etc/UTC", "Z":
		return nil, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, unsupportedf("writer time zone %q: %v", name, err)
	}
	return loc, nil
}

// timestampValue rebuilds a timestamp from its DATA (seconds since 2015-01-01 in the writer's
// zone) and SECONDARY (nanoseconds, low 3 bits = trailing decimal zeros removed minus 1) values.
//
// A TIMESTAMP (no time zone) is returned as its wall-clock time in UTC, which is how Paimon
// treats TIMESTAMP values; a TIMESTAMP_INSTANT is returned as the instant in UTC.
func timestampValue(secs int64, enc uint64, tz *time.Location, instant bool) (time.Time, bool) {
	nanos := enc >> 3
	if z := enc & 7; z != 0 {
		for range z + 1 {
			if nanos >= 1e9 { // checked before each step, so it cannot overflow
				return time.Time{}, false
			}
			nanos *= 10
		}
	}
	if nanos >= 1e9 {
		return time.Time{}, false
	}
	base := int64(orcEpoch)
	if tz != nil && !instant {
		base = time.Date(2015, 1, 1, 0, 0, 0, 0, tz).Unix()
	}
	if (secs > 0 && base > math.MaxInt64-secs) || (secs < 0 && base < math.MinInt64-secs) {
		return time.Time{}, false
	}
	unix := secs + base
	if unix < 0 && nanos > 999_999 { // ORC-763: writers add one second to such values
		unix--
	}
	t := time.Unix(unix, int64(nanos)).UTC()
	if tz != nil && !instant {
		w := t.In(tz)
		t = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC)
	}
	return t, true
}
