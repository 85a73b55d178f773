package parquet

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// chunkStats are the statistics of the values of one column chunk, kept in the physical type.
type chunkStats struct {
	nulls, values     int64
	any               bool // a non-NaN value was seen
	nan               bool
	imin, imax        int64
	fmin, fmax        float64
	bmin, bmax        []byte
	hasFalse, hasTrue bool
}

// addFloat widens the chunk's min/max (Java's order, -0.0 < +0.0) to x; NaN only sets nan.
func (cs *chunkStats) addFloat(x float64) {
	if x != x {
		cs.nan = true
	} else if !cs.any {
		cs.fmin, cs.fmax, cs.any = x, x, true
	} else {
		if floatLess(x, cs.fmin) {
			cs.fmin = x
		}
		if floatLess(cs.fmax, x) {
			cs.fmax = x
		}
	}
}

// addBytes widens the chunk's byte-wise unsigned min/max to v (copied when kept).
func (cs *chunkStats) addBytes(v []byte) {
	if !cs.any {
		cs.bmin, cs.bmax, cs.any = setBytes(cs.bmin, v), setBytes(cs.bmax, v), true
		return
	}
	if string(v) < string(cs.bmin) {
		cs.bmin = setBytes(cs.bmin, v)
	} else if string(v) > string(cs.bmax) {
		cs.bmax = setBytes(cs.bmax, v)
	}
}

// setBytes copies v into dst's storage; the result is never nil (an empty value is a value).
func setBytes(dst, v []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, len(v))
	}
	return append(dst[:0], v...)
}

// parquetStats are the footer statistics of a chunk of c's with statistics cs, made by arrow-go's own statistics type from the
// chunk's min/max so that they are exactly what the general path writes.
func (c *fastColumn) parquetStats(cs *chunkStats) (metadata.EncodedStatistics, error) {
	ts := metadata.NewStatistics(c.descr, memory.DefaultAllocator)
	ts.IncNulls(cs.nulls)
	ts.IncNumValues(cs.values)
	switch s := ts.(type) {
	case *metadata.BooleanStatistics:
		if cs.hasFalse || cs.hasTrue {
			s.SetMinMax(!cs.hasFalse, cs.hasTrue)
		}
	case *metadata.Int32Statistics:
		if cs.any {
			s.SetMinMax(int32(cs.imin), int32(cs.imax))
		}
	case *metadata.Int64Statistics:
		if cs.any {
			s.SetMinMax(cs.imin, cs.imax)
		}
	case *metadata.Float32Statistics:
		if cs.any {
			s.SetMinMax(float32(cs.fmin), float32(cs.fmax))
		}
	case *metadata.Float64Statistics:
		if cs.any {
			s.SetMinMax(cs.fmin, cs.fmax)
		}
	case *metadata.ByteArrayStatistics:
		if cs.any {
			s.SetMinMax(cs.bmin, cs.bmax)
		}
	}
	st, err := ts.Encode()
	if err != nil {
		return st, err
	}
	st.ApplyStatSizeLimits(fastMaxStatsBytes)
	st.Signed = c.descr.SortOrder() == schema.SortSIGNED
	return st, nil
}

// foldRange merges the chunk's integer range into a collector's (any: the collector has one).
func foldRange(any *bool, lo, hi *int64, cs *chunkStats) {
	if cs.any {
		widenRange(any, lo, hi, cs.imin, cs.imax)
	}
}

// widenRange widens the range [*lo, *hi] to hold [a, b] (any: the range has values yet).
func widenRange(any *bool, lo, hi *int64, a, b int64) {
	if !*any {
		*lo, *hi, *any = a, b, true
		return
	}
	*lo, *hi = min(*lo, a), max(*hi, b)
}

// foldStats merges a chunk's statistics into the file's Paimon statistics (stats.go semantics).
func (c *fastColumn) foldStats(cs *chunkStats) {
	switch p := c.stats.(type) {
	case *boolCollector:
		p.nulls += cs.nulls
		p.hasFalse = p.hasFalse || cs.hasFalse
		p.hasTrue = p.hasTrue || cs.hasTrue
	case *intCollector:
		p.nulls += cs.nulls
		foldRange(&p.any, &p.min, &p.max, cs)
	case *timestampCollector:
		p.nulls += cs.nulls
		foldRange(&p.any, &p.min, &p.max, cs)
	case *floatCollector:
		p.nulls += cs.nulls
		p.nan = p.nan || cs.nan
		if cs.any {
			p.add(cs.fmin)
			p.add(cs.fmax)
		}
	case *bytesCollector:
		p.nulls += cs.nulls
		if cs.any {
			if !p.any || string(cs.bmin) < string(p.min) {
				p.min = setBytes(p.min, cs.bmin)
			}
			if !p.any || string(cs.bmax) > string(p.max) {
				p.max = setBytes(p.max, cs.bmax)
			}
			p.any = true
		}
	case *nullCollector:
		p.nulls += cs.nulls
	}
}
