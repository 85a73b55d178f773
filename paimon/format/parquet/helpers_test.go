package parquet

import (
	"bytes"
	"context"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

func typ(root spec.TypeRoot, nullable bool) spec.DataType {
	return spec.DataType{Root: root, Nullable: nullable}
}

func dec(p, s int) spec.DataType {
	return spec.DataType{Root: spec.Decimal, Nullable: true, Precision: p, Scale: s}
}

func ts(root spec.TypeRoot, p int) spec.DataType {
	return spec.DataType{Root: root, Nullable: true, Precision: p}
}

func ptr(t spec.DataType) *spec.DataType { return &t }

func decv(s string) spec.DecimalValue {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return spec.DecimalValue{Unscaled: v}
}

// buildRecord turns rows of Datums into a record of arrowconv.ArrowSchema(fields) via AppendDatum.
func buildRecord(t testing.TB, fields []spec.DataField, rows [][]any) arrow.RecordBatch {
	t.Helper()
	sc, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for r, row := range rows {
		for c, f := range fields {
			if err := arrowconv.AppendDatum(b.Field(c), f.Type, row[c]); err != nil {
				t.Fatalf("row %d field %s: %v", r, f.Name, err)
			}
		}
	}
	return b.NewRecordBatch()
}

// writeRows writes rows in batches of batch rows and returns the file bytes and stats.
func writeRows(t testing.TB, fields []spec.DataField, rows [][]any, batch int, opts WriterOptions) ([]byte, FileStats) {
	t.Helper()
	var recs []arrow.RecordBatch
	for off := 0; off < len(rows); off += batch {
		rec := buildRecord(t, fields, rows[off:min(off+batch, len(rows))])
		defer rec.Release()
		recs = append(recs, rec)
	}
	data, st, _ := writeBatches(t, fields, recs, opts)
	return data, st
}

// writeBatches writes the batches as one file and returns its bytes, its stats and whether the
// fast path wrote it; FileStats.FileSize must be the bytes written.
func writeBatches(t testing.TB, fields []spec.DataField, batches []arrow.RecordBatch, opts WriterOptions) ([]byte, FileStats, bool) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, fields, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range batches {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if st.FileSize != int64(buf.Len()) {
		t.Fatalf("FileSize %d, wrote %d bytes", st.FileSize, buf.Len())
	}
	return buf.Bytes(), st, w.fast != nil
}

// readRows reads every row of the file as Datums of fields (matched by position in the file).
func readRows(t testing.TB, data []byte, fields []spec.DataField, columns []string, batchRows int64) [][]any {
	t.Helper()
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Read(context.Background(), columns, batchRows)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Release()
	var out [][]any
	for it.Next() {
		rec := it.RecordBatch()
		if int(rec.NumCols()) != len(fields) {
			t.Fatalf("batch has %d columns, want %d", rec.NumCols(), len(fields))
		}
		if batchRows > 0 && rec.NumRows() > batchRows {
			t.Fatalf("batch of %d rows, asked for %d", rec.NumRows(), batchRows)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]any, len(fields))
			for c, f := range fields {
				if rec.Schema().Field(c).Name != f.Name {
					t.Fatalf("column %d is %q, want %q", c, rec.Schema().Field(c).Name, f.Name)
				}
				v, err := arrowconv.DatumAt(rec.Column(c), i, f.Type)
				if err != nil {
					t.Fatalf("row %d column %s: %v", len(out), f.Name, err)
				}
				row[c] = v
			}
			out = append(out, row)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if int64(len(out)) != r.NumRows() {
		t.Fatalf("read %d rows, footer says %d", len(out), r.NumRows())
	}
	return out
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func newBuilder(t testing.TB, ty spec.DataType) array.Builder {
	t.Helper()
	dt, err := arrowconv.ArrowType(ty)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	t.Cleanup(b.Release)
	return b
}
