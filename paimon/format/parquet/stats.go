package parquet

import (
	"bytes"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// StatsTruncateLength is the length of Paimon's default metadata.stats-mode truncate(16).
const StatsTruncateLength = 16

// collector accumulates one column's statistics over the batches written.
type collector interface {
	collect(arr arrow.Array)
	result() ColumnStats
}

func newCollector(t spec.DataType) collector {
	switch t.Root {
	case spec.Boolean:
		return &boolCollector{}
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Date, spec.Time:
		return &intCollector{t: t}
	case spec.Float, spec.Double:
		return &floatCollector{t: t}
	case spec.Decimal:
		return &decimalCollector{}
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		return &bytesCollector{str: t.Root == spec.Char || t.Root == spec.VarChar}
	case spec.Timestamp, spec.TimestampLTZ:
		return &timestampCollector{unit: arrowconv.TimestampUnit(t.Precision)}
	}
	return &nullCollector{}
}

// nullCollector keeps only the null count (complex types).
type nullCollector struct{ nulls int64 }

func (c *nullCollector) collect(arr arrow.Array) { c.nulls += int64(arr.NullN()) }
func (c *nullCollector) result() ColumnStats     { return ColumnStats{NullCount: c.nulls} }

type boolCollector struct {
	nulls             int64
	hasFalse, hasTrue bool
}

func (c *boolCollector) collect(arr arrow.Array) {
	a := arr.(*array.Boolean)
	c.nulls += int64(a.NullN())
	for i := 0; i < a.Len(); i++ {
		if a.IsValid(i) {
			if a.Value(i) {
				c.hasTrue = true
			} else {
				c.hasFalse = true
			}
		}
	}
}

func (c *boolCollector) result() ColumnStats {
	s := ColumnStats{NullCount: c.nulls}
	if c.hasFalse || c.hasTrue {
		s.Min, s.Max = !c.hasFalse, c.hasTrue
	}
	return s
}

type intCollector struct {
	t        spec.DataType
	nulls    int64
	any      bool
	min, max int64
}

func minMaxInts[T int8 | int16 | int32 | int64 | arrow.Date32 | arrow.Time32](c *intCollector, arr arrow.Array, vals []T) {
	for i, v := range vals {
		if arr.IsNull(i) {
			continue
		}
		x := int64(v)
		if !c.any {
			c.min, c.max, c.any = x, x, true
			continue
		}
		c.min, c.max = min(c.min, x), max(c.max, x)
	}
}

func (c *intCollector) collect(arr arrow.Array) {
	c.nulls += int64(arr.NullN())
	switch a := arr.(type) {
	case *array.Int8:
		minMaxInts(c, arr, a.Int8Values())
	case *array.Int16:
		minMaxInts(c, arr, a.Int16Values())
	case *array.Int32:
		minMaxInts(c, arr, a.Int32Values())
	case *array.Int64:
		minMaxInts(c, arr, a.Int64Values())
	case *array.Date32:
		minMaxInts(c, arr, a.Date32Values())
	case *array.Time32:
		minMaxInts(c, arr, a.Time32Values())
	}
}

func (c *intCollector) result() ColumnStats {
	s := ColumnStats{NullCount: c.nulls}
	if !c.any {
		return s
	}
	conv := func(v int64) any {
		switch c.t.Root {
		case spec.TinyInt:
			return int8(v)
		case spec.SmallInt:
			return int16(v)
		case spec.BigInt:
			return v
		}
		return int32(v) // INT, DATE, TIME
	}
	s.Min, s.Max = conv(c.min), conv(c.max)
	return s
}

// floatCollector orders like Java's Float.compare/Double.compare (-0.0 < 0.0). Like Java (parquet-mr's
// statistics builder used by ParquetSimpleStatsExtractor), a column holding NaN has unknown
// min/max, a +0.0 min is widened to -0.0 and a -0.0 max to +0.0.
type floatCollector struct {
	t        spec.DataType
	nulls    int64
	any, nan bool
	min, max float64
}

// floatLess is Java's Double.compare(a, b) < 0 for non-NaN values.
func floatLess(a, b float64) bool {
	if a == b {
		return math.Signbit(a) && !math.Signbit(b)
	}
	return a < b
}

func (c *floatCollector) add(x float64) {
	if math.IsNaN(x) {
		c.nan = true
		return
	}
	if !c.any {
		c.min, c.max, c.any = x, x, true
		return
	}
	if floatLess(x, c.min) {
		c.min = x
	}
	if floatLess(c.max, x) {
		c.max = x
	}
}

func (c *floatCollector) collect(arr arrow.Array) {
	c.nulls += int64(arr.NullN())
	switch a := arr.(type) {
	case *array.Float32:
		for i, v := range a.Float32Values() {
			if a.IsValid(i) {
				c.add(float64(v))
			}
		}
	case *array.Float64:
		for i, v := range a.Float64Values() {
			if a.IsValid(i) {
				c.add(v)
			}
		}
	}
}

func (c *floatCollector) result() ColumnStats {
	s := ColumnStats{NullCount: c.nulls}
	if !c.any || c.nan {
		return s
	}
	lo, hi := c.min, c.max
	if lo == 0 {
		lo = math.Copysign(0, -1)
	}
	if hi == 0 {
		hi = 0
	}
	if c.t.Root == spec.Float {
		s.Min, s.Max = float32(lo), float32(hi)
	} else {
		s.Min, s.Max = lo, hi
	}
	return s
}

type decimalCollector struct {
	nulls    int64
	any      bool
	min, max decimal128.Num
}

func (c *decimalCollector) collect(arr arrow.Array) {
	a := arr.(*array.Decimal128)
	c.nulls += int64(a.NullN())
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		v := a.Value(i)
		if !c.any {
			c.min, c.max, c.any = v, v, true
			continue
		}
		if v.Less(c.min) {
			c.min = v
		}
		if c.max.Less(v) {
			c.max = v
		}
	}
}

func (c *decimalCollector) result() ColumnStats {
	s := ColumnStats{NullCount: c.nulls}
	if c.any {
		s.Min = spec.DecimalValue{Unscaled: c.min.BigInt()}
		s.Max = spec.DecimalValue{Unscaled: c.max.BigInt()}
	}
	return s
}

type timestampCollector struct {
	unit     arrow.TimeUnit
	nulls    int64
	any      bool
	min, max int64
}

func (c *timestampCollector) collect(arr arrow.Array) {
	a := arr.(*array.Timestamp)
	c.nulls += int64(a.NullN())
	for i, v := range a.TimestampValues() {
		if a.IsNull(i) {
			continue
		}
		x := int64(v)
		if !c.any {
			c.min, c.max, c.any = x, x, true
			continue
		}
		c.min, c.max = min(c.min, x), max(c.max, x)
	}
}

func (c *timestampCollector) result() ColumnStats {
	s := ColumnStats{NullCount: c.nulls}
	if c.any {
		s.Min, s.Max = arrowconv.TimestampFromUnit(c.min, c.unit), arrowconv.TimestampFromUnit(c.max, c.unit)
	}
	return s
}

// bytesCollector orders unsigned byte-wise (Java BinaryString.compareTo / SortUtil.compareBinary)
// and truncates like TruncateSimpleColStatsCollector: strings by code points, binary by bytes.
type bytesCollector struct {
	str      bool
	nulls    int64
	any      bool
	min, max []byte
}

func (c *bytesCollector) collect(arr arrow.Array) {
	c.nulls += int64(arr.NullN())
	var value func(int) []byte
	switch a := arr.(type) {
	case *array.String:
		value = arrowconv.StringValues(a)
	case *array.Binary:
		value = a.Value
	default:
		return
	}
	var lo, hi []byte
	found := false
	if s, ok := arr.(*array.String); ok && arr.NullN() == 0 {
		// No nulls: walk the offsets directly (no accessor call and no validity test per value).
		off, data := s.ValueOffsets(), s.ValueBytes()
		for i := 0; i+1 < len(off); i++ {
			v := data[off[i]-off[0] : off[i+1]-off[0]]
			if !found {
				lo, hi, found = v, v, true
				continue
			}
			if bytes.Compare(v, lo) < 0 {
				lo = v
			} else if bytes.Compare(v, hi) > 0 {
				hi = v
			}
		}
	} else {
		for i := 0; i < arr.Len(); i++ {
			if arr.IsNull(i) {
				continue
			}
			v := value(i)
			if !found {
				lo, hi, found = v, v, true
				continue
			}
			if bytes.Compare(v, lo) < 0 {
				lo = v
			} else if bytes.Compare(v, hi) > 0 {
				hi = v
			}
		}
	}
	if !found {
		return
	}
	if !c.any || bytes.Compare(lo, c.min) < 0 {
		c.min = bytes.Clone(lo)
	}
	if !c.any || bytes.Compare(hi, c.max) > 0 {
		c.max = bytes.Clone(hi)
	}
	c.any = true
}

func (c *bytesCollector) result() ColumnStats {
	s := ColumnStats{NullCount: c.nulls}
	if !c.any {
		return s
	}
	if c.str {
		hi, ok := truncateStringMax(string(c.max), StatsTruncateLength)
		if !ok {
			return s
		}
		s.Min, s.Max = truncateStringMin(string(c.min), StatsTruncateLength), hi
		return s
	}
	hi, ok := truncateBytesMax(c.max, StatsTruncateLength)
	if !ok {
		return s
	}
	s.Min, s.Max = truncateBytesMin(c.min, StatsTruncateLength), hi
	return s
}

// codePointPrefix returns the byte length of the first n code points of s (Java BinaryString
// counts a code point per UTF-8 lead byte).
func codePointPrefix(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		i += utf8Width(s[i])
		if i > len(s) {
			i = len(s)
		}
	}
	return i
}

// utf8Width is the sequence length announced by a UTF-8 lead byte (Java numBytesForFirstByte).
func utf8Width(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b>>5 == 0x6:
		return 2
	case b>>4 == 0xE:
		return 3
	case b>>3 == 0x1E:
		return 4
	}
	return 1
}

// truncateStringMin is BinaryString.substring(0, n).
func truncateStringMin(s string, n int) string { return strings.Clone(s[:codePointPrefix(s, n)]) }

// truncateStringMax returns the least upper bound Java's truncateMax builds: s itself if it has at
// most n code points, else its first n code points with the last incrementable one incremented
// (and the rest dropped). ok is false when no code point can be incremented. Where Java would
// produce a lone surrogate (U+D7FF+1), the next scalar value U+E000 is used instead.
func truncateStringMax(s string, n int) (string, bool) {
	p := codePointPrefix(s, n)
	if p == len(s) {
		return s, true
	}
	runes := []rune(s[:p])
	for i := len(runes) - 1; i >= 0; i-- {
		next := runes[i] + 1
		if next >= 0xD800 && next <= 0xDFFF {
			next = 0xE000
		}
		if next <= 0x10FFFF && runes[i] >= 0 {
			runes = append(runes[:i], next)
			return string(runes), true
		}
	}
	return "", false
}

func truncateBytesMin(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return bytes.Clone(b[:n])
}

// truncateBytesMax: b itself if short enough, else its first n bytes with the last non-0xFF byte
// incremented and the rest dropped; ok is false if all n bytes are 0xFF.
func truncateBytesMax(b []byte, n int) ([]byte, bool) {
	if len(b) <= n {
		return b, true
	}
	out := bytes.Clone(b[:n])
	for i := n - 1; i >= 0; i-- {
		if out[i] != 0xFF {
			out[i]++
			return out[:i+1], true
		}
	}
	return nil, false
}
