package mergetree

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
)

// compareBenchKeys returns n pairs of composite keys (INT, STRING, BIGINT, DOUBLE) that often share
// a prefix, so comparisons reach later fields, with some nulls.
func compareBenchKeys(n int) ([]spec.DataType, [][2][]any) {
	r := rand.New(rand.NewPCG(1, 2))
	types := []spec.DataType{intType(true), stringType, {Root: spec.BigInt, Nullable: true}, {Root: spec.Double, Nullable: true}}
	key := func() []any {
		k := []any{int32(r.IntN(4)), fmt.Sprint("user-", r.IntN(4)), r.Int64N(4), float64(r.IntN(4)) / 2}
		if r.IntN(16) == 0 {
			k[r.IntN(len(k))] = nil
		}
		return k
	}
	pairs := make([][2][]any, n)
	for i := range pairs {
		pairs[i] = [2][]any{key(), key()}
	}
	return types, pairs
}

// BenchmarkCompareKeys compares the merge path's key comparator (dispatch on the datum's Go type)
// with binrow's (dispatch on the Paimon type) on the same keys, in one invocation:
// go test -run '^$' -bench CompareKeys ./paimon/mergetree/.
func BenchmarkCompareKeys(b *testing.B) {
	types, pairs := compareBenchKeys(4096)
	sum := 0
	b.Run("by-go-type", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p := pairs[i%len(pairs)]
			sum += compareRows(p[0], p[1])
		}
	})
	b.Run("by-paimon-type", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p := pairs[i%len(pairs)]
			sum += binrow.CompareRows(types, p[0], p[1])
		}
	})
	_ = sum
}

// TestCompareEnginesAgree: on keys of the types both engines order, the merge path's comparator and
// binrow's give the same answer (same null rule, same Java float rule).
func TestCompareEnginesAgree(t *testing.T) {
	types, pairs := compareBenchKeys(20000)
	for _, p := range pairs {
		if a, b := compareRows(p[0], p[1]), binrow.CompareRows(types, p[0], p[1]); a != b {
			t.Fatalf("%v vs %v: by Go type %d, by Paimon type %d", p[0], p[1], a, b)
		}
	}
}
