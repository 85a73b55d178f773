package parquet

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/arrowconv"
)

// dictionarySample is the number of values of a column's first batch that decide its encoding.
const dictionarySample = 1 << 16

// dictionaryPays reports whether dictionary encoding is expected to make the values of a (top-level,
// atomic) column smaller than PLAIN: parquet-mr's test (Java Paimon's writer keeps the dictionary of a
// column chunk only while dictionary bytes + index bytes < plain bytes), decided up front from the
// column's first batch, so that the hash table of a column of distinct values is never built.
// decided is false for the types it does not estimate (their columns keep the dictionary default).
func dictionaryPays(arr arrow.Array) (pays, decided bool) {
	n := min(arr.Len(), dictionarySample)
	var width float64          // plain bytes per value
	var value func(int) uint64 // a fixed-width value's bit pattern
	var lc linearCounter
	switch a := arr.(type) {
	case *array.Int8:
		width = 4
		vals := a.Int8Values()
		value = func(i int) uint64 { return uint64(vals[i]) }
	case *array.Int16:
		width = 4
		vals := a.Int16Values()
		value = func(i int) uint64 { return uint64(vals[i]) }
	case *array.Int32:
		width = 4
		vals := a.Int32Values()
		value = func(i int) uint64 { return uint64(vals[i]) }
	case *array.Date32:
		width = 4
		vals := a.Date32Values()
		value = func(i int) uint64 { return uint64(vals[i]) }
	case *array.Int64:
		width = 8
		vals := a.Int64Values()
		value = func(i int) uint64 { return uint64(vals[i]) }
	case *array.Timestamp:
		width = 8
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Nanosecond {
			width = 12 // INT96
		}
		vals := a.TimestampValues()
		value = func(i int) uint64 { return uint64(vals[i]) }
	case *array.Float32:
		width = 4
		vals := a.Float32Values()
		value = func(i int) uint64 { return uint64(math.Float32bits(vals[i])) }
	case *array.Float64:
		width = 8
		vals := a.Float64Values()
		value = func(i int) uint64 { return math.Float64bits(vals[i]) }
	case *array.String:
		width = countBytes(&lc, a, n, arrowconv.StringValues(a))
	case *array.Binary:
		width = countBytes(&lc, a, n, a.Value)
	default:
		return false, false
	}
	if value != nil && !countFixed(&lc, arr, n, width, value) {
		return false, true // cannot pay, whatever the rest of the sample holds
	}
	if lc.n == 0 {
		return true, true // nothing to judge by: keep the default
	}
	d := lc.estimate()
	indexBits := float64(bits.Len64(uint64(max(d-1, 1))))
	plain := float64(lc.n) * width
	dict := float64(d)*width + float64(lc.n)*indexBits/8
	return dict < plain, true
}

// countBlock is how many values countFixed adds between two checks of cannotPay.
const countBlock = 1024

// countFixed adds the valid values among the first n of a (given as bit patterns by value) to lc. It
// stops early, returning false, once the values counted so far prove that a dictionary cannot pay
// for values of width bytes (cannotPay): the answer the whole sample would give. The proof needs
// most of the sample (a column of distinct 8-byte values stops after ~84% of it), so this trims
// the count rather than replacing it.
func countFixed(lc *linearCounter, a arrow.Array, n int, width float64, value func(int) uint64) bool {
	noNulls := a.NullN() == 0
	for start := 0; start < n; start += countBlock {
		end := min(start+countBlock, n)
		for i := start; i < end; i++ {
			if noNulls || a.IsValid(i) {
				lc.add(mix64(value(i)))
			}
		}
		if end < n && cannotPay(lc.estimate(), n, width) {
			return false
		}
	}
	return true
}

// cannotPay reports whether a dictionary of at least d distinct values cannot make at most n values
// of width bytes smaller than PLAIN: the estimate only grows with the values still to be counted, and
// so does the index width, while n bounds the values counted (dictionaryPays's test, at its best case).
func cannotPay(d, n int, width float64) bool {
	indexBits := float64(bits.Len64(uint64(max(d-1, 1))))
	return float64(d)*width >= float64(n)*(width-indexBits/8)
}

// countBytes adds the valid values among the first n of a to lc and returns their mean PLAIN width
// (4-byte length prefix + bytes).
func countBytes(lc *linearCounter, a arrow.Array, n int, value func(int) []byte) float64 {
	var total int
	for i := range n {
		if a.IsValid(i) {
			v := value(i)
			total += 4 + len(v)
			lc.add(hashBytes(v))
		}
	}
	if lc.n == 0 {
		return 0
	}
	return float64(total) / float64(lc.n)
}

// linearCounter estimates the number of distinct values added (linear counting over 2^16 bits:
// within a few percent up to dictionarySample values).
type linearCounter struct {
	bits [1 << 10]uint64
	set  int // bits set
	n    int
}

func (c *linearCounter) add(h uint64) {
	b := h >> 48
	w := &c.bits[b>>6]
	c.set += int(*w>>(b&63)&1 ^ 1)
	*w |= 1 << (b & 63)
	c.n++
}

func (c *linearCounter) estimate() int {
	const m = float64(len(c.bits) * 64)
	zero := m - float64(c.set)
	if zero == 0 {
		return c.n
	}
	return min(c.n, int(math.Round(-m*math.Log(zero/m))))
}

// mix64 is splitmix64's finalizer: a deterministic bijection with well-spread high bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// hashBytes is a deterministic 64-bit hash of b (8 bytes at a time through mix64).
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	for len(b) >= 8 {
		h = mix64(h ^ binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return mix64(h ^ tail ^ 0x2545f4914f6cdd1d)
}
