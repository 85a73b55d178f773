package mergetree

import (
	"fmt"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// benchRuns builds 8 runs of 125k records each (1M total) with overlapping keys.
func benchRuns(n, runs int) [][]KeyValue {
	out := make([][]KeyValue, runs)
	per := n / runs
	for r := range out {
		out[r] = make([]KeyValue, per)
		for i := range out[r] {
			k := int32(i*runs/2 + r) // runs overlap pairwise on keys
			out[r][i] = KeyValue{Key: []any{k}, Seq: int64(r*per + i), Value: []any{k, int64(i), fmt.Sprint(i % 100)}}
		}
	}
	return out
}

func benchmarkMerge(b *testing.B, opts map[string]string) {
	c := mustConfig(b, opts, col("v", spec.DataType{Root: spec.BigInt, Nullable: true}), col("s", stringType))
	runs := benchRuns(1_000_000, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rs := make([]Run, len(runs))
		for i := range runs {
			rs[i] = SliceRun(runs[i])
		}
		n := 0
		if err := Merge(c, rs, func(KeyValue) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1_000_000, "records/op")
}

func BenchmarkMerge1M8RunsDeduplicate(b *testing.B) { benchmarkMerge(b, nil) }

func BenchmarkMerge1M8RunsAggregation(b *testing.B) {
	benchmarkMerge(b, map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "sum"})
}
