package parquet

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The byte-string collector's min and max over several batches (with and without nulls, sliced, with
// empty strings and shared prefixes) must be the bytewise min and max of every non-null value.
func TestBytesCollectorMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 50; trial++ {
		c := &bytesCollector{str: true}
		var all [][]byte
		for b := 0; b < 1+rng.IntN(4); b++ {
			bld := array.NewStringBuilder(memory.DefaultAllocator)
			n := 1 + rng.IntN(40)
			nulls := rng.IntN(2) == 0
			for i := 0; i < n; i++ {
				if nulls && rng.IntN(4) == 0 {
					bld.AppendNull()
					continue
				}
				v := make([]byte, rng.IntN(5))
				for j := range v {
					v[j] = "ab\x00\xff"[rng.IntN(4)]
				}
				bld.Append(string(v))
			}
			arr := bld.NewStringArray()
			bld.Release()
			lo := rng.IntN(n)
			hi := lo + rng.IntN(n-lo+1)
			s := array.NewSlice(arr, int64(lo), int64(hi)).(*array.String)
			for i := 0; i < s.Len(); i++ {
				if s.IsValid(i) {
					all = append(all, []byte(s.Value(i)))
				}
			}
			c.collect(s)
			s.Release()
			arr.Release()
		}
		if len(all) == 0 {
			if c.any {
				t.Fatalf("trial %d: min/max of no values: %q %q", trial, c.min, c.max)
			}
			continue
		}
		wantMin, wantMax := all[0], all[0]
		for _, v := range all {
			if bytes.Compare(v, wantMin) < 0 {
				wantMin = v
			}
			if bytes.Compare(v, wantMax) > 0 {
				wantMax = v
			}
		}
		if !c.any || !bytes.Equal(c.min, wantMin) || !bytes.Equal(c.max, wantMax) {
			t.Fatalf("trial %d: min %q max %q, want %q %q", trial, c.min, c.max, wantMin, wantMax)
		}
	}
}
