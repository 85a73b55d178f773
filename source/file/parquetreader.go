package file

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/codec/pqflat"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// parquetReader reads a Parquet split through codec/pqflat (flat columns) or pqarrow, projecting the mapped columns only.
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
	// leaves are the Parquet columns read; skip the rows of the first row group read that come
	// before the split.
	leaves []int
	skip   int64
	// pages counts the decompressed pages and dictionaries held (arrow-go's page buffers), batch
	// the Arrow data decoded by one rr.Next call; fromMemLimit says their limit is the Go memory limit.
	pages, batch *budget
	fromMemLimit bool
}

// footerRows returns the row count in a Parquet file's footer.
func footerRows(path string, f fileio.File, lim source.Limits) (n int64, err error) {
	defer recoverFooter(path, f, &err) // n stays 0 on a panic
	pf, err := openFooter(path, f, lim)
	if err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

func openParquet(ctx context.Context, split source.Split, f fileio.File, fields []spec.DataField, opts source.MappingOptions, mem memory.Allocator) (pr *parquetReader, err error) {
	path := split.Path
	limit, fromMemLimit := opts.Limits.DecodedBytes()
	pages, batch := newBudget(mem, limit), newBudget(mem, limit)
	defer recoverFooter(path, f, &err) // pr stays nil on a panic
	pf, err := openFooter(path, f, opts.Limits, pqfile.WithReadProps(parquet.NewReaderProperties(pages)))
	if err != nil {
		return nil, err
	}
	r := &parquetReader{split: split, f: f, pf: pf, row: split.RowStart, end: pf.NumRows(), skipBad: opts.SkipBadRows,
		pages: pages, batch: batch, fromMemLimit: fromMemLimit}
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
	fr, schema, err := parquetArrowSchema(path, pf, pqarrow.ArrowReadProperties{BatchSize: int64(batchRows)}, batch)
	if err != nil {
		return fail(err)
	}
	full, err := source.NewArrowMapping(path, schema, fields, opts, mem)
	if err != nil {
		return fail(err)
	}
	for _, j := range full.Used() {
		r.leaves = appendLeaves(r.leaves, &fr.Manifest.Fields[j])
	}
	if len(r.leaves) == 0 {
		return fail(fmt.Errorf("file %s: no input column matches a table column: check the file against the table schema", path))
	}
	groups, skip := r.rowGroups()
	if err := r.checkRowGroups(groups); err != nil {
		return fail(err)
	}
	if len(groups) > 0 {
		if rr, ok := pqflat.NewRecordReader(fr, r.leaves, groups, batch); ok { // flat columns: the fast decoder
			r.rr = rr
		} else if r.rr, err = fr.GetRecordReader(ctx, r.leaves, groups); err != nil {
			return fail(fmt.Errorf("file %s: %w", path, err))
		}
	}
	if pages.over.Load() || batch.over.Load() { // an allocation off this goroutine went past the budget
		return fail(r.overBudgetError())
	}
	if r.rr != nil {
		if r.m, err = source.NewArrowMapping(path, r.rr.Schema(), fields, opts, mem); err != nil {
			return fail(err)
		}
	}
	r.skip = skip
	return r, nil
}

// rowGroups returns the row groups holding the split's rows and how many rows of the first come
// before the split. Reading only those (instead of seeking) keeps every decode on the caller's
// goroutine, where the budget can stop it.
func (r *parquetReader) rowGroups() (groups []int, skip int64) {
	md := r.pf.MetaData()
	var first int64
	for g := 0; g < md.NumRowGroups() && first < r.end; g++ {
		n := md.RowGroup(g).NumRows()
		if first+n > r.row {
			if len(groups) == 0 {
				skip = r.row - first
			}
			groups = append(groups, g)
		}
		first += n
	}
	return groups, skip
}

// checkRowGroups refuses, before reading, a row group whose projected column chunks lie outside the
// file (corrupt) or take more than the budget compressed: a row group's chunks are read into
// memory whole.
func (r *parquetReader) checkRowGroups(groups []int) error {
	md := r.pf.MetaData()
	size := r.f.Size()
	for _, g := range groups {
		rg := md.RowGroup(g)
		var sum, biggest int64
		col := ""
		for _, c := range r.leaves {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return fmt.Errorf("file %s: %w: Parquet row group %d, column %d: %v; %s", r.split.Path, spec.ErrCorrupt, g, c, err, reExport)
			}
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
				start = min(start, cc.DictionaryPageOffset())
			}
			n := cc.TotalCompressedSize()
			if start < 0 || n < 0 || start+n > size {
				return fmt.Errorf("file %s (%d bytes): %w: Parquet row group %d, column %q: its chunk at bytes %d..%d is not inside the file; %s",
					r.split.Path, size, spec.ErrCorrupt, g, cc.PathInSchema().String(), start, start+n, reExport)
			}
			if sum += n; n > biggest {
				biggest, col = n, cc.PathInSchema().String()
			}
		}
		if sum > r.pages.limit {
			return fmt.Errorf("file %s: Parquet row group %d (%d rows): the columns read take %d bytes compressed (column %q %d), more than %s: %s",
				r.split.Path, g, rg.NumRows(), sum, col, biggest, r.budgetText(), r.budgetAdvice())
		}
	}
	return nil
}

// budgetText names the decode budget and where it comes from.
func (r *parquetReader) budgetText() string {
	if r.fromMemLimit {
		return fmt.Sprintf("%d bytes, the memory limit (--memory-limit, the Go memory limit)", r.pages.limit)
	}
	return fmt.Sprintf("%d bytes, the decode budget (MappingOptions.Limits.MaxDecodedBytes)", r.pages.limit)
}

func (r *parquetReader) budgetAdvice() string {
	return "re-export the file with smaller row groups (or pages), or raise --memory-limit if the file is trusted"
}

// overBudgetError explains a decode stopped by the budget, naming the row group being read and its
// largest projected column (as the footer declares it uncompressed).
func (r *parquetReader) overBudgetError() error {
	md := r.pf.MetaData()
	col, biggest := "", int64(-1)
	g, first := 0, int64(0)
	for ; g < md.NumRowGroups(); g++ {
		if n := md.RowGroup(g).NumRows(); r.row < first+n {
			break
		}
		first += md.RowGroup(g).NumRows()
	}
	if g < md.NumRowGroups() {
		rg := md.RowGroup(g)
		for _, c := range r.leaves {
			if cc, err := rg.ColumnChunk(c); err == nil && cc.TotalUncompressedSize() > biggest {
				biggest, col = cc.TotalUncompressedSize(), cc.PathInSchema().String()
			}
		}
	}
	return fmt.Errorf("file %s, rows from %d: decoding Parquet %s, column %q (%d bytes uncompressed, per the footer): "+
		"more than %s decompressed or decoded at once (a decompression bomb, or row groups too large for the memory limit): %s",
		r.split.Path, r.row+1, rowGroupBytes(r.pf, r.row), col, biggest, r.budgetText(), r.budgetAdvice())
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
		if p := recover(); p != nil { // arrow-go may panic on corrupt pages; the budget panics past its limit
			r.pages.armed.Store(false)
			r.batch.armed.Store(false)
			if _, over := p.(*overBudget); over {
				err = r.overBudgetError()
			} else {
				err = fmt.Errorf("file %s, rows from %d: %w: Parquet decoder failed in %s: %v; %s", r.split.Path, r.row+1, spec.ErrCorrupt,
					rowGroupBytes(r.pf, r.row), p, reExport)
			}
			b, r.err = nil, err
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
	var rec arrow.RecordBatch
	for rec == nil {
		if !r.read() {
			r.err = r.rr.Err()
			if r.err == nil || errors.Is(r.err, io.EOF) {
				r.err = fmt.Errorf("file %s ended at row %d before row %d: the file changed since planning", r.split.Path, r.row, r.end)
			} else {
				r.err = fmt.Errorf("file %s, rows from %d: reading Parquet %s: %w; if the file is damaged or truncated, re-export or re-copy it, then run the same command again",
					r.split.Path, r.row+1, rowGroupBytes(r.pf, r.row), r.err)
			}
			return nil, r.err
		}
		rec = r.rr.RecordBatch()
		if n := rec.NumRows(); r.skip >= n { // rows of the first row group before the split
			r.skip -= n
			rec = nil
		} else if r.skip > 0 {
			rec = rec.NewSlice(r.skip, n)
			defer rec.Release()
			r.skip = 0
		}
	}
	if n := rec.NumRows(); r.row+n > r.end {
		rec = rec.NewSlice(0, r.end-r.row)
		defer rec.Release()
	}
	return r.convert(rec)
}

// read decodes the next batch with the budgets armed: past either, it panics with *overBudget.
func (r *parquetReader) read() bool {
	r.batch.live.Store(0) // the batch budget is per call: earlier batches belong to the caller
	r.pages.armed.Store(true)
	r.batch.armed.Store(true)
	ok := r.rr.Next()
	r.pages.armed.Store(false)
	r.batch.armed.Store(false)
	return ok
}

// convert maps input rows starting at r.row to the table's shape (convertArrow); rows after a
// rejected one wait in r.pending for the next call.
func (r *parquetReader) convert(rec arrow.RecordBatch) (*source.Batch, error) {
	b, used, rest, err := convertArrow(r.m, r.split, r.skipBad, rec, r.row)
	if err != nil {
		r.err = err
		return nil, err
	}
	r.pending = rest
	r.row += used
	return b, nil
}

// convertArrow maps the input rows of rec, the file's rows from row, to the table's shape with m.
// With skipBad, the first row that fails row-level validation ends the batch and is reported in
// Rejected; used counts the rows consumed (the rejected one included), and rest holds the rows after
// it (nil when none), for the next call. Parquet and ORC readers share it.
func convertArrow(m *source.ArrowMapping, split source.Split, skipBad bool, rec arrow.RecordBatch, row int64) (b *source.Batch, used int64, rest arrow.RecordBatch, err error) {
	out, kinds, err := m.Apply(rec, row)
	if err == nil {
		return &source.Batch{Record: out, Kinds: kinds, Split: split, FirstRow: row}, out.NumRows(), nil, nil
	}
	rej, ok := source.RejectOf(err)
	if !ok || !skipBad {
		return nil, 0, nil, err
	}
	bad := rej.Row - 1 - row // index of the rejected row within rec
	if bad < 0 || bad >= rec.NumRows() {
		return nil, 0, nil, fmt.Errorf("file %s: internal error: rejected row %d outside rows %d..%d", split.Path, rej.Row, row+1, row+rec.NumRows())
	}
	rej.Values = inputRowValues(rec, int(bad))
	head := rec.NewSlice(0, bad)
	defer head.Release()
	if out, kinds, err = m.Apply(head, row); err != nil { // rows before the first bad one are fine
		return nil, 0, nil, err
	}
	if bad+1 < rec.NumRows() {
		rest = rec.NewSlice(bad+1, rec.NumRows())
	}
	return &source.Batch{Record: out, Kinds: kinds, Split: split, FirstRow: row, Rejected: []source.Rejected{rej}}, bad + 1, rest, nil
}

// inputRowValues returns row i of rec as column name → JSON-marshalable value, for the quarantine.
func inputRowValues(rec arrow.RecordBatch, i int) map[string]any {
	vals := make(map[string]any, rec.NumCols())
	for c, col := range rec.Columns() {
		vals[rec.ColumnName(c)] = col.GetOneForMarshal(i)
	}
	return vals
}

// closeParquet releases the record reader; r.f stays open (pf.Close would close it). A reader a
// decoder panic left inconsistent may panic again here: that is ignored.
func (r *parquetReader) closeParquet() error {
	defer func() { _ = recover() }()
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
