package parquet

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// decodeHybrid is a reference decoder of the RLE/bit-packed hybrid (Parquet spec), for n values.
func decodeHybrid(t *testing.T, b []byte, bitWidth, n int) []uint32 {
	t.Helper()
	var out []uint32
	for len(out) < n {
		h, k := binary.Uvarint(b)
		if k <= 0 {
			t.Fatalf("bad run header after %d values", len(out))
		}
		b = b[k:]
		if h&1 == 0 { // RLE run
			w := (bitWidth + 7) / 8
			var v uint32
			for i := 0; i < w; i++ {
				v |= uint32(b[i]) << (8 * i)
			}
			b = b[w:]
			for range h >> 1 {
				out = append(out, v)
			}
			continue
		}
		count := int(h>>1) * 8
		var acc uint64
		nbits, pos := 0, 0
		for range count {
			for nbits < bitWidth {
				acc |= uint64(b[pos]) << nbits
				pos++
				nbits += 8
			}
			out = append(out, uint32(acc&(1<<bitWidth-1)))
			acc >>= bitWidth
			nbits -= bitWidth
		}
		b = b[pos:]
	}
	if len(b) != 0 {
		t.Fatalf("%d bytes left after %d values", len(b), n)
	}
	return out[:n]
}

// TestHybridRoundTrip: appendHybrid's runs decode to the values for every bit width and for runs
// around the RLE threshold of 8, at the start, middle and end of the input.
func TestHybridRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for bw := 1; bw <= 32; bw++ {
		for trial := 0; trial < 40; trial++ {
			var vals []uint32
			for len(vals) < 200 {
				v := uint32(r.Uint64() & (1<<bw - 1))
				run := []int{1, 1, 2, 7, 8, 9, 15, 16, 17, 64}[r.IntN(10)]
				for range run {
					vals = append(vals, v)
				}
			}
			vals = vals[:r.IntN(len(vals))+1]
			got := decodeHybrid(t, appendHybrid(nil, vals, bw), bw, len(vals))
			for i := range vals {
				if got[i] != vals[i] {
					t.Fatalf("bit width %d: value %d is %d, want %d (%v)", bw, i, got[i], vals[i], vals)
				}
			}
		}
	}
	levels := []uint8{1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	got := decodeHybrid(t, appendHybrid(nil, levels, 1), 1, len(levels))
	for i := range levels {
		if got[i] != uint32(levels[i]) {
			t.Fatalf("levels: %v, want %v", got, levels)
		}
	}
}
