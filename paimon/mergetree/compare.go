package mergetree

import (
	"bytes"
	"math/big"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
)

// compareDatum orders two non-null or null Datums like Java Paimon's generated RecordComparator
// (GenerateUtils.generateCompare) with nulls first (binrow.CompareNulls): integers, DATE and TIME signed;
// FLOAT/DOUBLE as Float.compare/Double.compare (-0.0 < 0.0, NaN largest); false < true;
// strings and binaries unsigned byte-wise then shorter first; DECIMAL numerically; timestamps by
// millis then nanos; ARRAY/ROW element-wise with nulls first, then shorter first. The Go type of
// the Datum selects the rule, so callers must pass Datums of the documented Go types; values of
// different Go types are ordered by a fixed type rank instead of panicking.
func compareDatum(a, b any) int {
	if c, decided := binrow.CompareNulls(a == nil, b == nil); decided {
		return c
	}
	switch x := a.(type) {
	case int32:
		if y, ok := b.(int32); ok {
			return cmpOrdered(x, y)
		}
	case int64:
		if y, ok := b.(int64); ok {
			return cmpOrdered(x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	case int8:
		if y, ok := b.(int8); ok {
			return cmpOrdered(x, y)
		}
	case int16:
		if y, ok := b.(int16); ok {
			return cmpOrdered(x, y)
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmpBool(x, y)
		}
	case float32:
		if y, ok := b.(float32); ok {
			return binrow.CompareJavaDouble(float64(x), float64(y))
		}
	case float64:
		if y, ok := b.(float64); ok {
			return binrow.CompareJavaDouble(x, y)
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y)
		}
	case spec.DecimalValue:
		if y, ok := b.(spec.DecimalValue); ok {
			return unscaled(x).Cmp(unscaled(y))
		}
	case spec.TimestampValue:
		if y, ok := b.(spec.TimestampValue); ok {
			if c := cmpOrdered(x.Millis, y.Millis); c != 0 {
				return c
			}
			return cmpOrdered(x.NanoOfMilli, y.NanoOfMilli)
		}
	case []any:
		if y, ok := b.([]any); ok {
			return compareRows(x, y)
		}
	}
	return cmpOrdered(typeRank(a), typeRank(b))
}

// compareRows compares two rows field by field with compareDatum, then by length.
func compareRows(a, b []any) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if c := compareDatum(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmpOrdered(len(a), len(b))
}

func cmpOrdered[T int | int8 | int16 | int32 | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	default:
		return 0
	}
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	default:
		return -1
	}
}

var zeroInt = new(big.Int)

// unscaled returns the unscaled value of d, treating a nil pointer as zero.
func unscaled(d spec.DecimalValue) *big.Int {
	if d.Unscaled == nil {
		return zeroInt
	}
	return d.Unscaled
}

// typeRank gives Datums of unexpected, mismatched Go types a deterministic order.
func typeRank(v any) int {
	switch v.(type) {
	case bool:
		return 1
	case int8:
		return 2
	case int16:
		return 3
	case int32:
		return 4
	case int64:
		return 5
	case float32:
		return 6
	case float64:
		return 7
	case spec.DecimalValue:
		return 8
	case string:
		return 9
	case []byte:
		return 10
	case spec.TimestampValue:
		return 11
	case []any:
		return 12
	default:
		return 13
	}
}
