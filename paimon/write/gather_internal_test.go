package write

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gather over several batches must equal a take from their concatenation, for the direct paths
// (fixed width, strings, bytes, sliced batches, nulls) and the concatenating fallback (booleans, lists).
func TestGatherEqualsConcatenateTake(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 20, Scale: 2}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true},
		{Name: "bool", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	var recs []arrow.RecordBatch
	for b := 0; b < 4; b++ {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		n := 50 + b*30
		for r := 0; r < n; r++ {
			if rng.IntN(5) == 0 {
				for c := range bld.Fields() {
					bld.Field(c).AppendNull()
				}
				continue
			}
			v := int64(b*1000 + r)
			bld.Field(0).(*array.Int64Builder).Append(v)
			bld.Field(1).(*array.Int32Builder).Append(int32(v))
			bld.Field(2).(*array.Float64Builder).Append(float64(v) / 3)
			bld.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(v * 7))
			bld.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(v * 1000))
			bld.Field(5).(*array.StringBuilder).Append(string(rune('a'+r%26)) + "-" + string(make([]byte, r%7)))
			bld.Field(6).(*array.BinaryBuilder).Append([]byte{byte(r), byte(b)})
			bld.Field(7).(*array.FixedSizeBinaryBuilder).Append([]byte{byte(r), byte(b), 9})
			bld.Field(8).(*array.BooleanBuilder).Append(r%3 == 0)
			lb := bld.Field(9).(*array.ListBuilder)
			lb.Append(true)
			lb.ValueBuilder().(*array.Int64Builder).AppendValues([]int64{v, v + 1}[:r%3%2+1], nil)
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		if b == 2 { // a slice keeps its parent's offsets
			s := rec.NewSlice(5, rec.NumRows()-3)
			rec.Release()
			rec = s
		}
		recs = append(recs, rec)
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	// Several batches, one batch, and one sliced batch (the scattered and single-window cases).
	for _, set := range [][]arrow.RecordBatch{recs, recs[:1], recs[2:3]} {
		gatherMatchesTake(t, schema, set, rng)
	}
}

// gatherMatchesTake checks pendingView.gather over recs against a take from their concatenation,
// for random rows in random order (a primary-key bucket's key order).
func gatherMatchesTake(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch, rng *rand.Rand) {
	t.Helper()
	v := newPendingView(recs)
	defer v.release()
	total := v.starts[len(recs)]
	sel := make([]int64, 120)
	for i := range sel {
		sel[i] = rng.Int64N(total)
	}
	bs, rs := v.locations(sel)
	if len(recs) == 1 {
		for i := range sel {
			if bs[i] != 0 || int64(rs[i]) != sel[i] {
				t.Fatalf("locations of row %d in one batch: (%d, %d)", sel[i], bs[i], rs[i])
			}
		}
	}
	ctx := context.Background()
	for c := 0; c < v.numCols(); c++ {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		all, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		want, err := takeIndexes(ctx, all, sel)
		all.Release()
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.gather(ctx, c, sel, bs, rs)
		if err != nil {
			t.Fatalf("%d batch(es), column %s: %v", len(recs), schema.Field(c).Name, err)
		}
		if !array.Equal(want, got) {
			t.Errorf("%d batch(es), column %s: gather\n%v\nwant\n%v", len(recs), schema.Field(c).Name, got, want)
		}
		got.Release()
		want.Release()
	}
}
