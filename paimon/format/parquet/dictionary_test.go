package parquet

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestDictionaryOnlyWherePays: a column of distinct values is written PLAIN (no dictionary page, whose
// hash table costs more than the rest of the encoding), a column of few values keeps its dictionary,
// and every value reads back.
func TestDictionaryOnlyWherePays(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "uid", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "ustr", Type: typ(spec.VarChar, true)},
		{ID: 2, Name: "udbl", Type: typ(spec.Double, true)},
		{ID: 3, Name: "city", Type: typ(spec.VarChar, true)},
		{ID: 4, Name: "small", Type: typ(spec.Int, true)},
		{ID: 5, Name: "nulls", Type: typ(spec.BigInt, true)},
	}
	const n = 20_000
	rows := make([][]any, n)
	for i := range rows {
		var small any = int32(i % 7)
		if i%5 == 0 {
			small = nil
		}
		rows[i] = []any{int64(i) * 13, fmt.Sprintf("name-%d", i*7919%1_000_003), float64(i) / 3,
			[]string{"Oslo", "Lima", "Kyoto"}[i%3], small, nil}
	}
	data, _ := writeRows(t, fields, rows, 4096, WriterOptions{})
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	wantDict := map[string]bool{"uid": false, "ustr": false, "udbl": false, "city": true, "small": true, "nulls": true}
	md := r.File().MetaData()
	for rg := 0; rg < md.NumRowGroups(); rg++ {
		for c := 0; c < md.Schema.NumColumns(); c++ {
			cc, err := md.RowGroup(rg).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			name := md.Schema.Column(c).Path()
			dict := cc.HasDictionaryPage()
			for _, e := range cc.Encodings() {
				if e != parquet.Encodings.Plain && e != parquet.Encodings.RLE && e != parquet.Encodings.RLEDict && e != parquet.Encodings.PlainDict {
					t.Errorf("column %s: encoding %s", name, e)
				}
			}
			if dict != wantDict[name] {
				t.Errorf("row group %d column %s: dictionary page %v, want %v", rg, name, dict, wantDict[name])
			}
		}
	}
	got := readRows(t, data, fields, nil, 0)
	for i := range rows {
		if fmt.Sprint(got[i]) != fmt.Sprint(rows[i]) {
			t.Fatalf("row %d: %v, want %v", i, got[i], rows[i])
		}
	}
}

// TestDictionaryPaysEstimate: the distinct-count estimate decides at parquet-mr's break-even, not at
// an arbitrary ratio: int64 values repeating every k rows keep the dictionary while k is small.
func TestDictionaryPaysEstimate(t *testing.T) {
	for _, tc := range []struct {
		distinct int
		pays     bool
	}{{1, true}, {100, true}, {10_000, true}, {40_000, true}, {60_000, false}, {65_536, false}} {
		b := newBuilder(t, typ(spec.BigInt, false))
		for i := range 65_536 {
			if err := arrowconv.AppendDatum(b, typ(spec.BigInt, false), int64(i%tc.distinct)*1_000_003); err != nil {
				t.Fatal(err)
			}
		}
		a := b.NewArray()
		pays, decided := dictionaryPays(a)
		a.Release()
		if !decided || pays != tc.pays {
			t.Errorf("%d distinct of 65536: pays %v decided %v, want pays %v", tc.distinct, pays, decided, tc.pays)
		}
	}
}

// dictionaryPaysFullPass is dictionaryPays for INT64 columns without the early stop: every value of
// the sample counted, then the break-even test.
func dictionaryPaysFullPass(a *array.Int64) bool {
	n := min(a.Len(), dictionarySample)
	var lc linearCounter
	for i := 0; i < n; i++ {
		if a.IsValid(i) {
			lc.add(mix64(uint64(a.Value(i))))
		}
	}
	if lc.n == 0 {
		return true
	}
	d := lc.estimate()
	indexBits := float64(bits.Len64(uint64(max(d-1, 1))))
	return float64(d)*8+float64(lc.n)*indexBits/8 < float64(lc.n)*8
}

// TestDictionaryEarlyStopDecidesAsFullPass: stopping the count once a dictionary cannot pay gives the
// decision of counting the whole sample, for columns of every cardinality around the break-even
// (distinct values placed early, late or spread), with and without nulls, shorter and longer than
// the sample.
func TestDictionaryEarlyStopDecidesAsFullPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, n := range []int{1, 1000, countBlock + 1, 15_625, 40_000, dictionarySample + 5000} {
		for _, frac := range []float64{0.001, 0.1, 0.5, 0.8, 0.85, 0.9, 0.95, 1} {
			for _, order := range []string{"spread", "distinct-first", "distinct-last"} {
				for _, nullPct := range []int{0, 30} {
					distinct := max(1, int(float64(n)*frac))
					b := array.NewInt64Builder(memory.DefaultAllocator)
					for i := 0; i < n; i++ {
						if nullPct > 0 && rng.IntN(100) < nullPct {
							b.AppendNull()
							continue
						}
						var v int64
						switch order {
						case "spread":
							v = int64(rng.IntN(distinct))
						case "distinct-first":
							v = int64(min(i, distinct-1))
						case "distinct-last":
							v = int64(max(0, i-(n-distinct)))
						}
						b.Append(v * 7919)
					}
					a := b.NewInt64Array()
					b.Release()
					got, decided := dictionaryPays(a)
					if want := dictionaryPaysFullPass(a); !decided || got != want {
						t.Errorf("n=%d distinct≈%d %s nulls %d%%: pays %v (decided %v), full pass %v", n, distinct, order, nullPct, got, decided, want)
					}
					a.Release()
				}
			}
		}
	}
}

// TestLinearCounterKeepsSetBits: the counter's running count of set bits (what estimate reads) is
// the bitmap's population count, whether a hash sets a new bit or one already set.
func TestLinearCounterKeepsSetBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 18))
	var lc linearCounter
	for i := range 200_000 {
		h := r.Uint64()
		if i%3 == 0 {
			h = uint64(r.IntN(50)) << 48 // repeats
		}
		lc.add(h)
		if i%997 == 0 || i == 199_999 {
			set := 0
			for _, w := range lc.bits {
				set += bits.OnesCount64(w)
			}
			if lc.set != set {
				t.Fatalf("after %d adds: %d bits counted, %d set", i+1, lc.set, set)
			}
		}
	}
}
