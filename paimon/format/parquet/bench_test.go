package parquet

import (
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
)

// BenchmarkWrite writes 1M rows of (BIGINT, STRING, DOUBLE) per iteration and reports rows/s.
func BenchmarkWrite(b *testing.B) {
	const rows = 1 << 20
	fields := []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "name", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}},
		{ID: 2, Name: "score", Type: typ(spec.Double, true)},
	}
	sc, err := ArrowSchema(fields)
	if err != nil {
		b.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	ids := rb.Field(0).(*array.Int64Builder)
	names := rb.Field(1).(*array.StringBuilder)
	scores := rb.Field(2).(*array.Float64Builder)
	for i := 0; i < rows; i++ {
		ids.Append(int64(i))
		names.Append(fmt.Sprintf("user-%07d", i*7919%rows))
		scores.Append(float64(i%1000) / 7)
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	b.ResetTimer()
	var size int64
	for i := 0; i < b.N; i++ {
		w, err := NewWriter(io.Discard, fields, WriterOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for off := int64(0); off < rows; off += 64 << 10 {
			part := rec.NewSlice(off, off+64<<10)
			if err := w.Write(part); err != nil {
				b.Fatal(err)
			}
			part.Release()
		}
		st, err := w.Close()
		if err != nil {
			b.Fatal(err)
		}
		size = st.FileSize
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(size), "file-bytes")
}
