package parquet

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// BenchmarkWrite writes 1M rows of (BIGINT, STRING, DOUBLE) per iteration through the fast path
// and the general path (arrow-go's column writers) and reports rows/s.
func BenchmarkWrite(b *testing.B) {
	const rows = 1 << 20
	fields := []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "name", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}},
		{ID: 2, Name: "score", Type: typ(spec.Double, true)},
	}
	sc, err := arrowconv.ArrowSchema(fields)
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
	for _, path := range []string{"fast", "general"} {
		b.Run(path, func(b *testing.B) {
			var size int64
			for i := 0; i < b.N; i++ {
				w, err := NewWriter(io.Discard, fields, WriterOptions{general: path == "general"})
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
		})
	}
}

// BenchmarkReadTimestamps reads 1M rows of (BIGINT, TIMESTAMP(p)), a tenth null, written by lakeload,
// alternately through pqarrow directly (arrow-go's own INT96 decoding, which lakeload's non-negative
// nanos of day satisfy) and through GetRecordReader (Java-compatible INT96 decoding), and reports
// the time ratio lakeload/pqarrow (alternating keeps a loaded machine from favouring either).
// p=9 is INT96; p=6 is INT64, for which GetRecordReader only checks the schema.
func BenchmarkReadTimestamps(b *testing.B) {
	const rows = 1 << 20
	for _, p := range []int{9, 6} {
		data := timestampFile(b, p, rows)
		read := func(b *testing.B, viaPqarrow bool) time.Duration {
			start := time.Now()
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
			if err != nil {
				b.Fatal(err)
			}
			var rr pqarrow.RecordReader
			if viaPqarrow {
				rr, err = fr.GetRecordReader(context.Background(), nil, nil)
			} else {
				rr, err = GetRecordReader(context.Background(), fr, nil)
			}
			if err != nil {
				b.Fatal(err)
			}
			n := int64(0)
			for rr.Next() {
				n += rr.RecordBatch().NumRows()
			}
			if err := rr.Err(); err != nil || n != rows {
				b.Fatalf("%d rows, %v", n, err)
			}
			rr.Release()
			return time.Since(start)
		}
		b.Run(fmt.Sprintf("p=%d", p), func(b *testing.B) {
			var lake, pqa time.Duration
			for i := 0; i < b.N; i++ {
				pqa += read(b, true)
				lake += read(b, false)
			}
			b.ReportMetric(float64(lake)/float64(pqa), "lakeload/pqarrow")
			b.ReportMetric(float64(rows)*float64(b.N)/lake.Seconds(), "lakeload-rows/s")
		})
	}
}

// timestampFile is a lakeload-written file of rows (BIGINT, TIMESTAMP(p)) rows around 1970.
func timestampFile(b *testing.B, p, rows int) []byte {
	fields := []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "ts", Type: ts(spec.Timestamp, p)},
	}
	sc, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		b.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	ids := rb.Field(0).(*array.Int64Builder)
	tss := rb.Field(1).(*array.TimestampBuilder)
	for i := 0; i < rows; i++ {
		ids.Append(int64(i))
		if i%10 == 0 {
			tss.AppendNull()
		} else {
			ns := int64(i-rows/2) * 1_000_003_777 // ±16 years around 1970
			tss.Append(arrow.Timestamp(ns / int64(arrowconv.TimestampUnit(p).Multiplier())))
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, fields, WriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}
