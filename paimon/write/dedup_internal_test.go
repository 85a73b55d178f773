package write

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
)

// dedupInt64 must keep exactly the rows mergetree.Fold keeps for the deduplicate engine, with sequence
// numbers in any order (the comparison sort) and increasing with the rows (as Write gives them: the
// radix sort), over negative and positive keys of one, two and all eight bytes.
func TestDedupInt64MatchesFold(t *testing.T) {
	for _, tc := range []struct {
		name     string
		spread   int64
		monotone bool
	}{{"random-seqs", 300, false}, {"increasing-seqs", 300, true}, {"increasing-seqs-wide", 1 << 40, true}, {"increasing-seqs-full", 0, true}} {
		t.Run(tc.name, func(t *testing.T) { testDedupInt64MatchesFold(t, tc.spread, tc.monotone) })
	}
}

func testDedupInt64MatchesFold(t *testing.T, spread int64, monotone bool) {
	typ, err := spec.ParseType("BIGINT NOT NULL")
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.NewSchema([]spec.DataField{{Name: "k", Type: typ}}, nil, []string{"k"}, map[string]string{"bucket": "1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := mergetree.NewConfig(s)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := 0; i < n; i++ {
		switch {
		case spread == 0: // any int64, with repeats
			b.Append(int64(rng.Uint64()>>uint(rng.IntN(2)*62)) * []int64{1, -1}[rng.IntN(2)])
		default:
			b.Append(rng.Int64N(spread) - spread/2)
		}
	}
	col := b.NewInt64Array()
	defer col.Release()
	sel := make([]int64, 0, n)
	for i := n - 1; i >= 0; i -= 2 { // a subset, out of row order
		sel = append(sel, int64(i))
	}
	seqs := make([]int64, len(sel))
	kinds := make([]spec.RowKind, len(sel))
	recs := make([]mergetree.KeyValue, len(sel))
	next := int64(0)
	for i, r := range sel {
		seqs[i] = int64(rng.IntN(1 << 30))
		if monotone {
			next += 1 + int64(rng.IntN(3))
			seqs[i] = next
		}
		kinds[i] = spec.RowKind(rng.IntN(4))
		recs[i] = mergetree.KeyValue{Key: []any{col.Value(int(r))}, Seq: seqs[i], Kind: kinds[i], Value: []any{r}}
	}
	want, err := mergetree.Fold(cfg, recs)
	if err != nil {
		t.Fatal(err)
	}
	osel, oseq, okind, keys := dedupInt64(col, sel, seqs, kinds)
	if len(osel) != len(want) {
		t.Fatalf("dedupInt64 kept %d rows, Fold %d", len(osel), len(want))
	}
	for i, kv := range want {
		got := []any{keys[i][0], oseq[i], okind[i], osel[i]}
		exp := []any{kv.Key[0], kv.Seq, kv.Kind, kv.Value[0]}
		if !slices.Equal(got, exp) {
			t.Fatalf("row %d: got (key, seq, kind, row) %v, Fold %v", i, got, exp)
		}
	}
}
