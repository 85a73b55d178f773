package pqflat

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// RecordReader reads flat columns as record batches, the way pqarrow's record reader does. It
// implements pqarrow.RecordReader; SeekToRow is not supported.
type RecordReader struct {
	refs  atomic.Int64
	mem   memory.Allocator
	sc    *arrow.Schema
	cols  []*column
	batch int64
	left  int64
	cur   arrow.RecordBatch
	err   error
}

var _ pqarrow.RecordReader = (*RecordReader)(nil)

// NewRecordReader returns a reader of the leaf columns leaves (nil = all) of fr in rowGroups
// (nil = all), in batches of fr.Props.BatchSize rows (<= 0: all rows in one batch), with the
// schema, batch boundaries and arrays fr.GetRecordReader would give, allocating from mem. ok is
// false (and the reader nil) when a column is not one pqflat decodes (see the package doc); the
// caller then reads through pqarrow. Like pqarrow's serial reader, it decodes on the caller's
// goroutine and leaves cancellation to the caller, between batches.
func NewRecordReader(fr *pqarrow.FileReader, leaves, rowGroups []int, mem memory.Allocator) (rr *RecordReader, ok bool) {
	pf := fr.ParquetReader()
	md := pf.MetaData()
	if rowGroups == nil {
		for g := 0; g < pf.NumRowGroups(); g++ {
			rowGroups = append(rowGroups, g)
		}
	}
	if leaves == nil {
		for c := 0; c < md.Schema.NumColumns(); c++ {
			leaves = append(leaves, c)
		}
	}
	top, err := fr.Manifest.GetFieldIndices(leaves) // pqarrow's order: by first leaf requested
	if err != nil || len(top) == 0 {
		return nil, false
	}
	var fields []arrow.Field
	var cols []*column
	for _, i := range top {
		sf := &fr.Manifest.Fields[i]
		if !sf.IsLeaf() || sf.ColIndex < 0 || sf.ColIndex >= md.Schema.NumColumns() {
			return nil, false
		}
		col := md.Schema.Column(sf.ColIndex)
		k := kindOf(col, sf.Field.Type)
		if k == kindNone {
			return nil, false
		}
		for _, g := range rowGroups {
			if g < 0 || g >= pf.NumRowGroups() {
				return nil, false
			}
			cc, err := md.RowGroup(g).ColumnChunk(sf.ColIndex)
			if err != nil || !chunkSupported(cc) {
				return nil, false
			}
		}
		fields = append(fields, *sf.Field)
		cols = append(cols, newColumn(pf, sf.ColIndex, rowGroups, sf.Field.Type, k, col.MaxDefinitionLevel()))
	}
	var rows int64
	for _, g := range rowGroups {
		rows += md.RowGroup(g).NumRows()
	}
	batch := fr.Props.BatchSize
	if batch <= 0 {
		batch = rows
	}
	rr = &RecordReader{mem: mem, sc: arrow.NewSchema(fields, fr.Manifest.SchemaMeta), cols: cols, batch: batch, left: rows}
	rr.refs.Add(1)
	return rr, true
}

// Schema implements array.RecordReader.
func (r *RecordReader) Schema() *arrow.Schema { return r.sc }

// Next decodes the next batch; false at the end or on error (Err).
func (r *RecordReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil || r.left <= 0 {
		return false
	}
	n := min(r.batch, r.left)
	arrs := make([]arrow.Array, len(r.cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, c := range r.cols {
		a, err := c.read(r.mem, int(n))
		if err != nil {
			r.err = fmt.Errorf("column %q: %w", r.sc.Field(i).Name, err)
			return false
		}
		arrs[i] = a
	}
	r.cur = array.NewRecordBatch(r.sc, arrs, n)
	r.left -= n
	return true
}

// RecordBatch is the current batch, valid until the next call to Next or Release.
func (r *RecordReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch.
//
// Deprecated: Use RecordBatch.
func (r *RecordReader) Record() arrow.RecordBatch { return r.cur }

// Err is the error that ended the batches, if any.
func (r *RecordReader) Err() error { return r.err }

// Read is Next followed by RecordBatch.
func (r *RecordReader) Read() (arrow.RecordBatch, error) {
	if !r.Next() {
		if r.err == nil {
			return nil, io.EOF
		}
		return nil, r.err
	}
	return r.cur, nil
}

// SeekToRow is not supported.
func (r *RecordReader) SeekToRow(int64) error {
	return errors.New("pqflat: SeekToRow is not supported")
}

// Retain implements array.RecordReader.
func (r *RecordReader) Retain() { r.refs.Add(1) }

// Release implements array.RecordReader.
func (r *RecordReader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	for _, c := range r.cols {
		c.close()
	}
}
