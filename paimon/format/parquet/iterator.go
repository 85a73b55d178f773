package parquet

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// RecordIterator yields the record batches of Reader.Read (columns in the requested order).
// Decoding failures, including panics inside the Parquet decoder, end the iteration with an
// error wrapping spec.ErrCorrupt (ErrUnrepresentable for a value lakeload cannot hold). Release it
// when done.
type RecordIterator struct {
	rr     pqarrow.RecordReader
	schema *arrow.Schema
	order  []int
	cur    arrow.RecordBatch
	err    error
}

// Schema is the schema of every batch.
func (it *RecordIterator) Schema() *arrow.Schema { return it.schema }

// Next advances to the next batch; it returns false at the end or on error (see Err).
func (it *RecordIterator) Next() (ok bool) {
	if it.cur != nil {
		it.cur.Release()
		it.cur = nil
	}
	if it.rr == nil || it.err != nil {
		return false
	}
	defer func() {
		if p := recover(); p != nil {
			it.err, ok = corrupt("read", p), false
		}
	}()
	if !it.rr.Next() {
		if err := it.rr.Err(); err != nil {
			it.err = readError(err)
		}
		return false
	}
	rec := it.rr.RecordBatch()
	cols := make([]arrow.Array, len(it.order))
	for k, j := range it.order {
		cols[k] = rec.Column(j)
	}
	it.cur = array.NewRecordBatch(it.schema, cols, rec.NumRows())
	return true
}

// RecordBatch is the current batch, valid until the next call to Next or Release.
func (it *RecordIterator) RecordBatch() arrow.RecordBatch { return it.cur }

// Err is the error that ended the iteration, if any.
func (it *RecordIterator) Err() error { return it.err }

// Release frees the iterator's resources.
func (it *RecordIterator) Release() {
	if it.cur != nil {
		it.cur.Release()
		it.cur = nil
	}
	if it.rr != nil {
		it.rr.Release()
		it.rr = nil
	}
}

// readError classifies an error of the record reader: corrupt data unless it is a value lakeload
// cannot hold.
func readError(err error) error {
	if errors.Is(err, ErrUnrepresentable) {
		return err
	}
	return corrupt("read", err)
}
