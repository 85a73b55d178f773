package write

import (
	"math/rand/v2"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// BenchmarkDedupKeys: one bucket's fold (15,625 rows, 2% repeated keys), rows in sequence order (the
// radix path) and with shuffled sequence numbers (the comparison sort).
func BenchmarkDedupKeys(b *testing.B) {
	const n = 15625
	rng := rand.New(rand.NewPCG(5, 6))
	keys, sel, seqs := make([]int64, n), make([]int64, n), make([]int64, n)
	kinds := make([]spec.RowKind, n)
	for i := range keys {
		keys[i] = rng.Int64N(1_000_000)
		sel[i], seqs[i] = int64(i), int64(i)
	}
	shuffled := append([]int64(nil), seqs...)
	rng.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, bc := range []struct {
		name string
		seqs []int64
	}{{"in-order", seqs}, {"shuffled", shuffled}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				dedupKeys(keys, sel, bc.seqs, kinds)
			}
		})
	}
}
