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

// Scattering rows into per-bucket buffers batch by batch must give each bucket exactly the rows a
// take of its rows (in arrival order) from the concatenated batches gives: values, nulls (a
// bucket's first null arriving after valid rows, in a later batch), sliced batches, every width.
func TestScatterEqualsTakeOfConcatenation(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 20, Scale: 2}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true},
	}, nil)
	widths, ok := scatterWidths(schema)
	if !ok {
		t.Fatal("scatterWidths refused a schema of fixed-width and binary columns")
	}
	for _, bad := range []arrow.DataType{arrow.FixedWidthTypes.Boolean, arrow.ListOf(arrow.PrimitiveTypes.Int64), arrow.BinaryTypes.LargeString} {
		if _, ok := scatterWidths(arrow.NewSchema([]arrow.Field{{Name: "x", Type: bad}}, nil)); ok {
			t.Errorf("scatterWidths accepted %s", bad)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const buckets = 5
	bufs := make([]*scatterBuf, buckets)
	for i := range bufs {
		bufs[i] = newScatterBuf(widths)
	}
	var recs []arrow.RecordBatch
	var rowsOf [buckets][]int64 // global indexes of each bucket's rows, in arrival order
	var total int64
	for b := 0; b < 6; b++ {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		n := 40 + b*25
		for r := 0; r < n; r++ {
			if b >= 3 && rng.IntN(4) == 0 { // the first batches have no nulls
				for c := range bld.Fields() {
					bld.Field(c).AppendNull()
				}
				continue
			}
			v := int64(b*1000 + r)
			bld.Field(0).(*array.Int64Builder).Append(v)
			bld.Field(1).(*array.Int32Builder).Append(int32(v))
			bld.Field(2).(*array.Int8Builder).Append(int8(v))
			bld.Field(3).(*array.Float64Builder).Append(float64(v) / 3)
			bld.Field(4).(*array.Decimal128Builder).Append(decimal128.FromI64(v * 7))
			bld.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(v * 1000))
			bld.Field(6).(*array.StringBuilder).Append(string(rune('a'+r%26)) + "-" + string(make([]byte, r%7)))
			bld.Field(7).(*array.BinaryBuilder).Append([]byte{byte(r), byte(b)})
			bld.Field(8).(*array.FixedSizeBinaryBuilder).Append([]byte{byte(r), byte(b), 9})
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		if b == 2 || b == 4 { // a slice keeps its parent's offsets
			s := rec.NewSlice(5, rec.NumRows()-3)
			rec.Release()
			rec = s
		}
		recs = append(recs, rec)
		var touched []*bucketBuffer
		bb := make([]*bucketBuffer, buckets)
		for r := 0; r < int(rec.NumRows()); r++ {
			k := rng.IntN(buckets - 1) // the last bucket never gets a row
			if bb[k] == nil {
				bb[k] = &bucketBuffer{sc: bufs[k]}
				touched = append(touched, bb[k])
			}
			bb[k].batchRows = append(bb[k].batchRows, int32(r))
			rowsOf[k] = append(rowsOf[k], total+int64(r))
		}
		w := &Writer{scatterW: widths}
		w.scatterBatch(rec, touched)
		total += rec.NumRows()
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	ctx := context.Background()
	for k, sb := range bufs {
		if sb.rows != len(rowsOf[k]) {
			t.Fatalf("bucket %d: %d rows scattered, want %d", k, sb.rows, len(rowsOf[k]))
		}
		got := sb.record(schema)
		for c := 0; c < len(widths); c++ {
			parts := make([]arrow.Array, len(recs))
			for i, r := range recs {
				parts[i] = r.Column(c)
			}
			all, err := array.Concatenate(parts, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			want, err := takeIndexes(ctx, all, rowsOf[k])
			all.Release()
			if err != nil {
				t.Fatal(err)
			}
			if !array.Equal(want, got.Column(c)) || want.NullN() != got.Column(c).NullN() {
				t.Errorf("bucket %d column %s: scattered\n%v\nwant\n%v", k, schema.Field(c).Name, got.Column(c), want)
			}
			want.Release()
		}
		got.Release()
	}
}
