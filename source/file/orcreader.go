package file

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/codec/orcfile"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// ORC input: an ORC file (Hive, Spark, pyarrow, Java Paimon's ORC data files) is decoded by the
// codec leaf codec/orcfile — the same decoder the Paimon side uses, without source knowing the
// sink — into Arrow records of the types orcArrowType gives, then mapped onto the table by
// source.ArrowMapping exactly as Parquet is (by column name, safe widening casts). The file is held
// in memory whole while it is read (orcfile decodes from bytes), so a file larger than the decode
// budget (the memory limit) is refused; decoding stripe by stripe, orcfile caps what one file can
// make it allocate in proportion to its size.

// openORCFile reads the whole ORC file f and parses its tail. The error names the file.
func openORCFile(path string, f fileio.File, lim source.Limits) (*orcfile.File, error) {
	size := f.Size()
	limit, fromMemLimit := lim.DecodedBytes()
	if size > limit {
		what := "the decode budget (MappingOptions.Limits.MaxDecodedBytes)"
		if fromMemLimit {
			what = "the memory limit (--memory-limit)"
		}
		return nil, fmt.Errorf("file %s: an ORC input file is read into memory whole, and this one (%d bytes) is larger than %s, %d bytes: split it into smaller files, or raise --memory-limit",
			path, size, what, limit)
	}
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && !(errors.Is(err, io.EOF) && size == 0) {
		return nil, fmt.Errorf("input file %s: %w", path, err)
	}
	of, err := orcfile.Open(data)
	if err == nil && of.Schema.Kind != orcfile.Struct {
		err = fmt.Errorf("%w: the root type is %s, not a struct of columns", orcfile.ErrUnsupported, of.Schema.Kind)
	}
	if err != nil {
		return nil, orcError(path, err)
	}
	return of, nil
}

// orcError names the file in an orcfile error and says what to do; damage wraps spec.ErrCorrupt.
func orcError(path string, err error) error {
	switch {
	case errors.Is(err, orcfile.ErrCorrupt):
		return fmt.Errorf("file %s: not a readable ORC file: %w (%w); if the file is damaged or truncated, re-export or re-copy it", path, spec.ErrCorrupt, err)
	case errors.Is(err, orcfile.ErrUnsupported):
		return fmt.Errorf("file %s: %w: convert the file to Parquet (or ORC without that feature)", path, err)
	}
	return fmt.Errorf("file %s: %w", path, err)
}

// ORCRows is the row count in the footer of the ORC file at path: a planned ORC split's RowCount,
// which must be exact, since an ORC file can hold many more rows than bytes (a split's span of
// sequence numbers is its row count).
func ORCRows(ctx context.Context, fs fileio.FileIO, path string, lim source.Limits) (int64, error) {
	return orcRows(ctx, fs, path, lim)
}

func orcRows(ctx context.Context, fs fileio.FileIO, path string, lim source.Limits) (int64, error) {
	f, err := fs.Open(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("input file %s: %w", path, err)
	}
	defer f.Close()
	of, err := openORCFile(path, f, lim)
	if err != nil {
		return 0, err
	}
	return int64(min(of.NumRows, 1<<62)), nil
}

// orcReader reads an ORC split: its rows [RowStart, RowStart+RowCount), stripe by stripe.
type orcReader struct {
	split  source.Split
	f      fileio.File
	of     *orcfile.File
	m      *source.ArrowMapping
	schema *arrow.Schema    // the columns read, as Arrow types
	names  []string         // their ORC field names
	types  []*orcfile.Type  // and types
	mem    memory.Allocator //
	stripe int              // next stripe to decode
	cols   [][]any          // the decoded stripe's columns
	at     int              // next row of cols
	first  int64            // file row of cols[.][0]
	row    int64            // file row of the next row returned
	end    int64            // file row after the split
	err    error
	// skipBad reports rows failing row-level validation in Batch.Rejected; pending holds the rows
	// after a rejected one, not yet converted.
	skipBad bool
	pending arrow.RecordBatch
}

func openORC(split source.Split, f fileio.File, fields []spec.DataField, opts source.MappingOptions, mem memory.Allocator) (*orcReader, error) {
	path := split.Path
	of, err := openORCFile(path, f, opts.Limits)
	if err != nil {
		return nil, err
	}
	rows := int64(min(of.NumRows, 1<<62))
	end := rows
	if split.RowCount >= 0 {
		end = split.RowStart + split.RowCount
	}
	if end > rows || split.RowStart > rows {
		return nil, fmt.Errorf("file %s has %d rows but the split reads rows %d..%d: the file changed since planning", path, rows, split.RowStart, end)
	}
	// Map by name first (every column, without types), then type only the columns read.
	all := of.Schema.FieldNames
	cols, err := source.MapColumns(path, all, fields, opts)
	if err != nil {
		return nil, err
	}
	targets := make([]*spec.DataType, len(all))
	for i, j := range cols.Input {
		if j >= 0 {
			targets[j] = &fields[i].Type
		}
	}
	r := &orcReader{split: split, f: f, of: of, mem: mem, row: split.RowStart, end: end, skipBad: opts.SkipBadRows}
	var afields []arrow.Field
	for j, name := range all {
		if targets[j] == nil && j != cols.Op {
			continue // not read: its type does not matter
		}
		at, err := orcArrowType(of.Schema.Children[j], targets[j])
		if err != nil {
			return nil, fmt.Errorf("file %s: column %q: %w", path, name, err)
		}
		afields = append(afields, arrow.Field{Name: name, Type: at, Nullable: true})
		r.names = append(r.names, name)
		r.types = append(r.types, of.Schema.Children[j])
	}
	if len(afields) == 0 {
		return nil, fmt.Errorf("file %s: no input column matches a table column: check the file against the table schema", path)
	}
	r.schema = arrow.NewSchema(afields, nil)
	if r.m, err = source.NewArrowMapping(path, r.schema, fields, opts, mem); err != nil {
		return nil, err
	}
	return r, nil
}

// Next implements source.Reader.
func (r *orcReader) Next(ctx context.Context) (*source.Batch, error) {
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
	if r.cols == nil || r.at >= len(r.cols[0]) {
		if err := r.nextStripe(); err != nil {
			r.err = err
			return nil, err
		}
	}
	n := min(len(r.cols[0])-r.at, batchRows, int(r.end-r.row))
	rec, err := r.record(n)
	if err != nil {
		r.err = err
		return nil, err
	}
	defer rec.Release()
	return r.convert(rec)
}

// nextStripe decodes the next stripe holding rows of the split (stripes before it are skipped
// undecoded) and positions r.at at r.row.
func (r *orcReader) nextStripe() error {
	if r.cols != nil {
		r.first += int64(len(r.cols[0]))
		r.cols = nil
	}
	for {
		if r.stripe >= len(r.of.Stripes) {
			return fmt.Errorf("file %s ended at row %d before row %d: the file changed since planning", r.split.Path, r.first, r.end)
		}
		i := r.stripe
		r.stripe++
		n := int64(min(r.of.Stripes[i].NumRows, 1<<62))
		if r.first+n <= r.row { // empty, or before the split
			r.first += n
			continue
		}
		cols, err := r.of.StripeColumns(i, r.names)
		if err != nil {
			return fmt.Errorf("file %s, stripe %d (rows from %d): %w", r.split.Path, i, r.first+1, orcError(r.split.Path, err))
		}
		if int64(len(cols[0])) != n {
			return fmt.Errorf("file %s, stripe %d: %w: %d rows decoded, the footer says %d", r.split.Path, i, spec.ErrCorrupt, len(cols[0]), n)
		}
		r.cols, r.at = cols, int(r.row-r.first)
		return nil
	}
}

// record builds the Arrow record of the next n rows of the decoded stripe.
func (r *orcReader) record(n int) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(r.mem, r.schema)
	defer b.Release()
	for c := range r.names {
		fb := b.Field(c)
		fb.Reserve(n)
		for k := r.at; k < r.at+n; k++ {
			if err := appendORC(fb, r.types[c], r.cols[c][k]); err != nil {
				return nil, fmt.Errorf("file %s, row %d, column %q: %w", r.split.Path, r.first+int64(k)+1, r.names[c], err)
			}
		}
	}
	r.at += n
	return b.NewRecordBatch(), nil
}

func (r *orcReader) convert(rec arrow.RecordBatch) (*source.Batch, error) {
	b, used, rest, err := convertArrow(r.m, r.split, r.skipBad, rec, r.row)
	if err != nil {
		r.err = err
		return nil, err
	}
	r.pending = rest
	r.row += used
	return b, nil
}

// Close implements source.Reader.
func (r *orcReader) Close() error {
	if r.err == nil {
		r.err = errors.New("reader is closed")
	}
	if r.pending != nil {
		r.pending.Release()
		r.pending = nil
	}
	r.cols = nil
	return r.f.Close()
}
