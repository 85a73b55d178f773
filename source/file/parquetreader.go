package file

import (
	"context"
	"errors"
	"fmt"
	"io"

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
}

// footerRows returns the row count in a Parquet file's footer.
func footerRows(path string, f fileio.File) (n int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, fmt.Errorf("file %s: %w: Parquet footer: %v", path, spec.ErrCorrupt, p)
		}
	}()
	pf, err := pqfile.NewParquetReader(f)
	if err != nil {
		return 0, fmt.Errorf("file %s: not a readable Parquet file: %w", path, err)
	}
	return pf.NumRows(), nil // pf.Close would close f, which the caller owns
}

func openParquet(ctx context.Context, split source.Split, f fileio.File, fields []spec.DataField, opts source.MappingOptions, mem memory.Allocator) (pr *parquetReader, err error) {
	path := split.Path
	defer func() {
		if p := recover(); p != nil { // arrow-go may panic on a corrupt footer
			pr, err = nil, fmt.Errorf("file %s: %w: Parquet decoder failed: %v", path, spec.ErrCorrupt, p)
		}
	}()
	pf, err := pqfile.NewParquetReader(f)
	if err != nil {
		return nil, fmt.Errorf("file %s: not a readable Parquet file: %w", path, err)
	}
	r := &parquetReader{split: split, f: f, pf: pf, row: split.RowStart, end: pf.NumRows()}
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
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(batchRows)}, mem)
	if err != nil {
		return fail(fmt.Errorf("file %s: %w", path, err))
	}
	schema, err := fr.Schema()
	if err != nil {
		return fail(fmt.Errorf("file %s: Parquet schema has no Arrow equivalent: %w", path, err))
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
			b, err = nil, fmt.Errorf("file %s, row %d: %w: Parquet decoder failed: %v", r.split.Path, r.row, spec.ErrCorrupt, p)
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
	if r.row >= r.end {
		r.err = io.EOF
		return nil, io.EOF
	}
	if !r.rr.Next() {
		r.err = r.rr.Err()
		if r.err == nil || errors.Is(r.err, io.EOF) {
			r.err = fmt.Errorf("file %s ended at row %d before row %d: the file changed since planning", r.split.Path, r.row, r.end)
		} else {
			r.err = fmt.Errorf("file %s, row %d: reading Parquet: %w", r.split.Path, r.row, r.err)
		}
		return nil, r.err
	}
	rec := r.rr.RecordBatch()
	if n := rec.NumRows(); r.row+n > r.end {
		rec = rec.NewSlice(0, r.end-r.row)
		defer rec.Release()
	}
	out, kinds, err := r.m.Apply(rec, r.row)
	if err != nil {
		r.err = err
		return nil, err
	}
	b = &source.Batch{Record: out, Kinds: kinds, Split: r.split, FirstRow: r.row}
	r.row += out.NumRows()
	return b, nil
}

// closeParquet releases the record reader; r.f stays open (pf.Close would close it).
func (r *parquetReader) closeParquet() error {
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
