package file

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// parquetReader reads a Parquet split through pqarrow, projecting the mapped columns only.
type parquetReader struct {
	split source.Split
	f     fileio.File
	pf    *pqfile.Reader
	rr    pqarrow.RecordReader
	m     *source.ArrowMapping
	row   int64 // file row index of the next row
	end   int64 // file row index after the last row of the split
	err   error
	// skipBad reports rows failing row-level validation in Batch.Rejected instead of failing;
	// pending holds the input rows after a rejected one (they start at row), not yet converted.
	skipBad bool
	pending arrow.RecordBatch
}

// footerRows returns the row count in a Parquet file's footer.
func footerRows(path string, f fileio.File) (n int64, err error) {
	defer recoverFooter(path, f, &err) // n stays 0 on a panic
	pf, err := openFooter(path, f)
	if err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

func openParquet(ctx context.Context, split source.Split, f fileio.File, fields []spec.DataField, opts source.MappingOptions, mem memory.Allocator) (pr *parquetReader, err error) {
	path := split.Path
	defer recoverFooter(path, f, &err) // pr stays nil on a panic
	pf, err := openFooter(path, f)
	if err != nil {
		return nil, err
	}
	r := &parquetReader{split: split, f: f, pf: pf, row: split.RowStart, end: pf.NumRows(), skipBad: opts.SkipBadRows}
	fail := func(err error) (*parquetReader, error) {
		_ = r.closeParquet()
		return nil, err
	}
	if split.RowCount >= 0 {
		r.end = split.RowStart + split.RowCount
		if r.end > pf.NumRows() {
			return fail(fmt.Errorf("file %s has %d rows but the split reads rows %d..%d: the file changed since planning", path, pf.NumRows(), split.RowStart, r.end))
		}
	}
	if split.RowStart > pf.NumRows() {
		return fail(fmt.Errorf("file %s has %d rows but the split starts at row %d: the file changed since planning", path, pf.NumRows(), split.RowStart))
	}
	fr, schema, err := parquetArrowSchema(path, pf, pqarrow.ArrowReadProperties{BatchSize: int64(batchRows)}, mem)
	if err != nil {
		return fail(err)
	}
	full, err := source.NewArrowMapping(path, schema, fields, opts, mem)
	if err != nil {
		return fail(err)
	}
	var leaves []int
	for _, j := range full.Used() {
		leaves = appendLeaves(leaves, &fr.Manifest.Fields[j])
	}
	if len(leaves) == 0 {
		return fail(fmt.Errorf("file %s: no input column matches a table column: check the file against the table schema", path))
	}
	if r.rr, err = fr.GetRecordReader(ctx, leaves, nil); err != nil {
		return fail(fmt.Errorf("file %s: %w", path, err))
	}
	if r.m, err = source.NewArrowMapping(path, r.rr.Schema(), fields, opts, mem); err != nil {
		return fail(err)
	}
	if split.RowStart > 0 && split.RowStart < pf.NumRows() {
		if err := r.rr.SeekToRow(split.RowStart); err != nil {
			return fail(fmt.Errorf("file %s: seek to row %d: %w", path, split.RowStart, err))
		}
	}
	return r, nil
}

func appendLeaves(out []int, f *pqarrow.SchemaField) []int {
	if f.IsLeaf() {
		return append(out, f.ColIndex)
	}
	for i := range f.Children {
		out = appendLeaves(out, &f.Children[i])
	}
	return out
}

// Next implements source.Reader.
func (r *parquetReader) Next(ctx context.Context) (b *source.Batch, err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go may panic on corrupt pages
			b, err = nil, fmt.Errorf("file %s, rows from %d: %w: Parquet decoder failed in %s: %v; %s", r.split.Path, r.row+1, spec.ErrCorrupt,
				rowGroupBytes(r.pf, r.row), p, reExport)
			r.err = err
		}
	}()
	if r.err != nil {
		return nil, r.err
	}
	if err := ctx.Err(); err != nil {
		r.err = err
		return nil, err
	}
	if r.pending != nil {
		rec := r.pending
		r.pending = nil
		defer rec.Release()
		return r.convert(rec)
	}
	if r.row >= r.end {
		r.err = io.EOF
		return nil, io.EOF
	}
	if !r.rr.Next() {
		r.err = r.rr.Err()
		if r.err == nil || errors.Is(r.err, io.EOF) {
			r.err = fmt.Errorf("file %s ended at row %d before row %d: the file changed since planning", r.split.Path, r.row, r.end)
		} else {
			r.err = fmt.Errorf("file %s, rows from %d: reading Parquet %s: %w; if the file is damaged or truncated, re-export or re-copy it, then run the same command again",
				r.split.Path, r.row+1, rowGroupBytes(r.pf, r.row), r.err)
		}
		return nil, r.err
	}
	rec := r.rr.RecordBatch()
	if n := rec.NumRows(); r.row+n > r.end {
		rec = rec.NewSlice(0, r.end-r.row)
		defer rec.Release()
	}
	return r.convert(rec)
}

// convert maps input rows starting at r.row to the table's shape. With skipBad, the first row that
// fails row-level validation ends the batch and is reported in Rejected; the rows after it wait in
// r.pending for the next call.
func (r *parquetReader) convert(rec arrow.RecordBatch) (*source.Batch, error) {
	out, kinds, err := r.m.Apply(rec, r.row)
	if err == nil {
		b := &source.Batch{Record: out, Kinds: kinds, Split: r.split, FirstRow: r.row}
		r.row += out.NumRows()
		return b, nil
	}
	rej, ok := source.RejectOf(err)
	if !ok || !r.skipBad {
		r.err = err
		return nil, err
	}
	bad := rej.Row - 1 - r.row // index of the rejected row within rec
	if bad < 0 || bad >= rec.NumRows() {
		r.err = fmt.Errorf("file %s: internal error: rejected row %d outside rows %d..%d", r.split.Path, rej.Row, r.row+1, r.row+rec.NumRows())
		return nil, r.err
	}
	rej.Values = inputRowValues(rec, int(bad))
	head := rec.NewSlice(0, bad)
	defer head.Release()
	if out, kinds, err = r.m.Apply(head, r.row); err != nil { // rows before the first bad one are fine
		r.err = err
		return nil, err
	}
	if bad+1 < rec.NumRows() {
		r.pending = rec.NewSlice(bad+1, rec.NumRows())
	}
	b := &source.Batch{Record: out, Kinds: kinds, Split: r.split, FirstRow: r.row, Rejected: []source.Rejected{rej}}
	r.row += bad + 1
	return b, nil
}

// inputRowValues returns row i of rec as column name → JSON-marshalable value, for the quarantine.
func inputRowValues(rec arrow.RecordBatch, i int) map[string]any {
	vals := make(map[string]any, rec.NumCols())
	for c, col := range rec.Columns() {
		vals[rec.ColumnName(c)] = col.GetOneForMarshal(i)
	}
	return vals
}

// closeParquet releases the record reader; r.f stays open (pf.Close would close it).
func (r *parquetReader) closeParquet() error {
	if r.pending != nil {
		r.pending.Release()
		r.pending = nil
	}
	if r.rr != nil {
		r.rr.Release()
		r.rr = nil
	}
	return nil
}

// Close implements source.Reader.
func (r *parquetReader) Close() error {
	if r.err == nil {
		r.err = errors.New("reader is closed")
	}
	_ = r.closeParquet()
	return r.f.Close()
}
