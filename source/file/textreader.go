package file

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// batchRows is the number of rows per batch of every reader.
var batchRows = 64 * 1024

// rowSink accumulates converted rows into Arrow builders.
type rowSink struct {
	schema   *arrow.Schema
	builders []array.Builder
	kinds    []spec.RowKind // nil without op column
	withOp   bool
	rows     int
}

func newRowSink(mem memory.Allocator, schema *arrow.Schema, withOp bool) *rowSink {
	s := &rowSink{schema: schema, withOp: withOp}
	for _, f := range schema.Fields() {
		s.builders = append(s.builders, array.NewBuilder(mem, f.Type))
	}
	return s
}

// finish returns the accumulated record and kinds and resets the sink. Values a rejected row left
// in some builders (past s.rows) are dropped.
func (s *rowSink) finish() (arrow.RecordBatch, []spec.RowKind) {
	cols := make([]arrow.Array, len(s.builders))
	for i, b := range s.builders {
		cols[i] = b.NewArray()
		if cols[i].Len() > s.rows {
			cut := array.NewSlice(cols[i], 0, int64(s.rows))
			cols[i].Release()
			cols[i] = cut
		}
	}
	rec := array.NewRecordBatch(s.schema, cols, int64(s.rows))
	for _, c := range cols {
		c.Release()
	}
	kinds := s.kinds
	s.kinds, s.rows = nil, 0
	return rec, kinds
}

func (s *rowSink) release() {
	for _, b := range s.builders {
		b.Release()
	}
}

// rowSource is one text format: it reads or skips rows one at a time.
type rowSource interface {
	// readRow converts the next row into sink (one value per builder, plus a kind when withOp),
	// or returns io.EOF.
	readRow(sink *rowSink) error
	// skipRow consumes the next row without converting it, or returns io.EOF.
	skipRow() error
	// raw returns the text of the row read last, for the quarantine.
	raw() string
}

// textReader is the source.Reader of CSV and JSON Lines files.
type textReader struct {
	split source.Split
	f     io.Closer // the file (and its decompressor)
	src   rowSource
	sink  *rowSink
	row   int64 // index of the next row within the file
	err   error
	// skipBad reports rows failing row-level validation in Batch.Rejected instead of failing.
	skipBad bool
}

// newTextReader returns the reader of split's rows from src: a byte range split's source starts at
// its row RowStart; a whole-file source starts at row 0 and skips to RowStart.
func newTextReader(split source.Split, f io.Closer, src rowSource, sink *rowSink, skipBad bool) (*textReader, error) {
	r := &textReader{split: split, f: f, src: src, sink: sink, skipBad: skipBad}
	if split.IsRange() {
		r.row = split.RowStart
	}
	for r.row < split.RowStart {
		if err := src.skipRow(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("file %s has %d rows but the split starts at row %d: the file changed since planning", split.Path, r.row, split.RowStart)
			}
			return nil, err
		}
		r.row++
	}
	return r, nil
}

// Next implements source.Reader.
func (r *textReader) Next(ctx context.Context) (*source.Batch, error) {
	if r.err != nil {
		return nil, r.err
	}
	first := r.row
	end := int64(-1)
	if r.split.RowCount >= 0 {
		end = r.split.RowStart + r.split.RowCount
	}
	for r.sink.rows < batchRows && (end < 0 || r.row < end) {
		if r.sink.rows%1024 == 0 {
			if err := ctx.Err(); err != nil {
				r.err = err
				return nil, err
			}
		}
		err := r.src.readRow(r.sink)
		if ve, ok := err.(*source.ValueError); ok && ve.Row < 0 {
			ve.Row = r.row // sources know lines; the data row index is counted here
		}
		if rej, ok := source.RejectOf(err); ok && r.skipBad {
			rej.SetRaw(r.src.raw())
			r.row++
			// The rejected row ends the batch: a batch's rows are consecutive input rows.
			rec, kinds := r.sink.finish()
			return &source.Batch{Record: rec, Kinds: kinds, Split: r.split, FirstRow: first, Rejected: []source.Rejected{rej}}, nil
		}
		if errors.Is(err, io.EOF) {
			if end >= 0 {
				r.err = fmt.Errorf("file %s ended after %d rows but the split expects rows up to %d: the file changed since planning", r.split.Path, r.row, end)
				return nil, r.err
			}
			break
		}
		if err != nil {
			r.err = err
			return nil, err
		}
		r.sink.rows++
		r.row++
	}
	if r.sink.rows == 0 {
		r.err = io.EOF
		return nil, io.EOF
	}
	rec, kinds := r.sink.finish()
	return &source.Batch{Record: rec, Kinds: kinds, Split: r.split, FirstRow: first}, nil
}

// Close implements source.Reader.
func (r *textReader) Close() error {
	r.sink.release()
	if r.err == nil {
		r.err = errors.New("reader is closed")
	}
	return r.f.Close()
}
