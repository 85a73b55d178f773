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

// dedupInt64 must keep exactly the rows mergetree.Fold keeps for the deduplicate engine.
func TestDedupInt64MatchesFold(t *testing.T) {
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
		b.Append(rng.Int64N(300) - 150)
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
	for i, r := range sel {
		seqs[i] = int64(rng.IntN(1 << 30))
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
