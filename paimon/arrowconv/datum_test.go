package arrowconv

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestTimestampToUnitBounds: datums convert to int64 units up to both ends exactly.
func TestTimestampToUnitBounds(t *testing.T) {
	for _, u := range []arrow.TimeUnit{arrow.Nanosecond, arrow.Microsecond, arrow.Millisecond} {
		for _, n := range []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1, math.MaxInt64} {
			ts := TimestampFromUnit(n, u)
			got, err := TimestampToUnit(ts, u)
			if err != nil || got != n {
				t.Errorf("%s %d: %+v back to %d, %v", u, n, ts, got, err)
			}
		}
	}
	for _, ts := range []spec.TimestampValue{
		{Millis: -9223372036855, NanoOfMilli: 224191}, // one ns below math.MinInt64 ns
		{Millis: 9223372036854, NanoOfMilli: 775808},  // one ns above math.MaxInt64 ns
	} {
		if n, err := TimestampToUnit(ts, arrow.Nanosecond); err == nil {
			t.Errorf("%+v: %d, want an overflow error", ts, n)
		}
	}
}
