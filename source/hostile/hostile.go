// Package hostile writes hostile input files for tests: inputs small on disk that a reader without
// limits turns into gigabytes of memory, a stack overflow or a read that never ends. They are
// generated when a test runs (never committed).
package hostile

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ParquetBomb writes a Parquet decompression bomb to path: one row group of rows rows of zeros in
// every column of schema (INT (int32) or BIGINT (int64) columns), each column chunk one
// zstd-compressed PLAIN page that compresses to a few KiB. A reader holding every column's page at
// once needs rows×(4 or 8) bytes per column.
func ParquetBomb(path string, schema *arrow.Schema, rows int) error {
	zeros := map[arrow.Type]arrow.Array{} // one array per type, shared by the columns
	defer func() {
		for _, a := range zeros {
			a.Release()
		}
	}()
	arrs := make([]arrow.Array, schema.NumFields())
	for i, f := range schema.Fields() {
		if zeros[f.Type.ID()] == nil {
			switch f.Type.ID() {
			case arrow.INT32:
				ib := array.NewInt32Builder(memory.DefaultAllocator)
				ib.AppendValues(make([]int32, rows), nil)
				zeros[arrow.INT32] = ib.NewArray()
				ib.Release()
			case arrow.INT64:
				ib := array.NewInt64Builder(memory.DefaultAllocator)
				ib.AppendValues(make([]int64, rows), nil)
				zeros[arrow.INT64] = ib.NewArray()
				ib.Release()
			default:
				return fmt.Errorf("hostile: column %s: only int32 and int64 columns", f.Name)
			}
		}
		arrs[i] = zeros[f.Type.ID()]
	}
	rec := array.NewRecordBatch(schema, arrs, int64(rows))
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(false),
		parquet.WithDataPageSize(1<<30), parquet.WithMaxRowGroupLength(int64(rows)), parquet.WithStats(false),
		parquet.WithBatchSize(int64(rows)))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		_ = f.Close()
		return err
	}
	if err := w.Write(rec); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// Int64Columns is a schema of n nullable int64 columns named prefix0, prefix1, ….
func Int64Columns(prefix string, n int) []arrow.Field {
	fields := make([]arrow.Field, n)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("%s%d", prefix, i), Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	}
	return fields
}

// WideFooter writes to w a Parquet file with no row groups whose footer declares cols nullable INT
// columns (schema elements): about 14 bytes per column, so a million columns make a 14 MB footer.
func WideFooter(w io.Writer, cols int) error {
	var t thrift
	t.field(5, 1) // version: i32 1
	t.i32(1)
	t.listField(2, 12, cols+1) // schema: list<SchemaElement>
	t.begin()
	t.field(8, 4) // name
	t.bin("schema")
	t.field(5, 5) // num_children
	t.i32(int64(cols))
	t.end()
	for i := 0; i < cols; i++ {
		t.begin()
		t.field(5, 1) // type INT32
		t.i32(1)
		t.field(5, 3) // repetition_type OPTIONAL
		t.i32(1)
		t.field(8, 4) // name
		t.bin(fmt.Sprintf("c%d", i))
		t.end()
	}
	t.field(6, 3) // num_rows: i64 0
	t.i32(0)
	t.listField(4, 12, 0) // row_groups: empty
	t.buf = append(t.buf, 0)
	var tail [8]byte
	binary.LittleEndian.PutUint32(tail[:4], uint32(len(t.buf)))
	copy(tail[4:], "PAR1")
	for _, b := range [][]byte{[]byte("PAR1"), t.buf, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// thrift is a minimal Thrift compact-protocol writer (the encoding of Parquet footers).
type thrift struct {
	buf  []byte
	last []int16 // the last field id of each open struct
	cur  int16
}

func (t *thrift) begin() { t.last = append(t.last, t.cur); t.cur = 0 }
func (t *thrift) end() {
	t.buf = append(t.buf, 0)
	t.cur, t.last = t.last[len(t.last)-1], t.last[:len(t.last)-1]
}

// field writes a field header of compact type typ and field id (a delta from the previous field).
func (t *thrift) field(typ byte, id int16) {
	t.buf = append(t.buf, byte(id-t.cur)<<4|typ)
	t.cur = id
}

func (t *thrift) listField(id int16, elem byte, n int) {
	t.field(9, id)
	if n < 15 {
		t.buf = append(t.buf, byte(n)<<4|elem)
		return
	}
	t.buf = append(t.buf, 0xf0|elem)
	t.buf = binary.AppendUvarint(t.buf, uint64(n))
}

func (t *thrift) i32(v int64) { t.buf = binary.AppendUvarint(t.buf, uint64((v<<1)^(v>>63))) }
func (t *thrift) bin(s string) {
	t.buf = binary.AppendUvarint(t.buf, uint64(len(s)))
	t.buf = append(t.buf, s...)
}
