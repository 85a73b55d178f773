// Package datafile is what lakeload's readers of Paimon data files share: the format of a file
// (by its name's extension, as Java picks the reader), the error for formats or features lakeload
// cannot read, and an iterator that turns decoded Datum columns into Arrow record batches of
// lakeload's Arrow types (arrowconv.ArrowType), so ORC and Avro files come out exactly as Parquet
// files of the same schema do.
//
// Invariants: batches hold at most the requested number of rows and never an empty one; the Arrow
// type of every column is arrowconv.ArrowType of its Paimon type.
package datafile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrUnsupported marks a data file lakeload cannot read: a format it has no reader for, or a
// feature of a known format it lacks. It is not corruption (the CLI exits 4, not 1).
var ErrUnsupported = errors.New("data file format not supported")

// The data file formats lakeload reads.
const (
	Parquet = "parquet"
	ORC     = "orc"
	Avro    = "avro"
)

// FormatOf is the format of a data file named name: its extension, lower-cased, as Java Paimon's
// readers pick a file's format (DataFilePathFactory.formatIdentifier), whatever the table's
// file.format says now.
func FormatOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && !strings.ContainsRune(name[i:], '/') {
		return strings.ToLower(name[i+1:])
	}
	return ""
}

// Unsupported returns the error for a file of a format lakeload has no reader for.
func Unsupported(path, format string) error {
	return fmt.Errorf("%w: data file %s has format %q; lakeload reads parquet, orc and avro data files", ErrUnsupported, path, format)
}

// Column is a column to read: its name in the file and the Paimon type it was written with.
type Column struct {
	Name string
	Type spec.DataType
}

// Chunk is a run of rows decoded from a file: one Datum slice per requested column, all N long.
type Chunk struct {
	Cols [][]any
	N    int
}

// Iterator yields Arrow record batches of the requested columns, in the order requested.
// Release it when done.
type Iterator struct {
	schema *arrow.Schema
	cols   []Column
	next   func() (Chunk, bool, error)
	rows   int
	chunk  Chunk
	pos    int
	cur    arrow.RecordBatch
	err    error
}

// NewIterator returns an Iterator over the chunks next returns (ok=false at the end), cut into
// batches of at most batchRows rows (<= 0: one batch per chunk).
func NewIterator(cols []Column, batchRows int64, next func() (Chunk, bool, error)) (*Iterator, error) {
	fs := make([]spec.DataField, len(cols))
	for i, c := range cols {
		fs[i] = spec.DataField{ID: i, Name: c.Name, Type: c.Type}
	}
	sc, err := arrowconv.ArrowSchema(fs)
	if err != nil {
		return nil, err
	}
	rows := int(batchRows)
	if batchRows <= 0 || batchRows > 1<<30 {
		rows = 1 << 30
	}
	return &Iterator{schema: sc, cols: cols, next: next, rows: rows}, nil
}

// Schema is the schema of every batch.
func (it *Iterator) Schema() *arrow.Schema { return it.schema }

// Next advances to the next batch; false at the end or on error (see Err).
func (it *Iterator) Next() bool {
	if it.cur != nil {
		it.cur.Release()
		it.cur = nil
	}
	if it.err != nil || it.next == nil {
		return false
	}
	for it.pos >= it.chunk.N {
		c, ok, err := it.next()
		if err != nil {
			it.err = err
			return false
		}
		if !ok {
			it.next = nil
			return false
		}
		if len(c.Cols) != len(it.cols) {
			it.err = fmt.Errorf("datafile: chunk of %d columns, want %d", len(c.Cols), len(it.cols))
			return false
		}
		it.chunk, it.pos = c, 0
	}
	end := min(it.chunk.N, it.pos+it.rows)
	arrs := make([]arrow.Array, len(it.cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for k, c := range it.cols {
		b := array.NewBuilder(memory.DefaultAllocator, it.schema.Field(k).Type)
		vals := it.chunk.Cols[k]
		if len(vals) < end {
			b.Release()
			it.err = fmt.Errorf("datafile: column %s has %d values, want %d", c.Name, len(vals), it.chunk.N)
			return false
		}
		for _, v := range vals[it.pos:end] {
			if err := arrowconv.AppendDatum(b, c.Type, v); err != nil {
				b.Release()
				it.err = fmt.Errorf("column %s: %w", c.Name, err)
				return false
			}
		}
		arrs[k] = b.NewArray()
		b.Release()
	}
	it.cur = array.NewRecordBatch(it.schema, arrs, int64(end-it.pos))
	it.pos = end
	return true
}

// RecordBatch is the current batch, valid until Next or Release.
func (it *Iterator) RecordBatch() arrow.RecordBatch { return it.cur }

// Err is the error that ended the iteration, if any.
func (it *Iterator) Err() error { return it.err }

// Release frees the current batch; the iterator ends.
func (it *Iterator) Release() {
	if it.cur != nil {
		it.cur.Release()
		it.cur = nil
	}
	it.next = nil
}
