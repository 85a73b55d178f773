package read

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/spec"
)

// arrowFile pulls Arrow batches of some top-level columns of one Parquet data file, in the order
// the columns were asked for. It opens one pqarrow.FileReader per file (parquet.OpenReader + Read
// open two, and the second one's schema conversion showed in scan profiles). Batches it returns
// stay valid after Next if the caller retained them. Decoder panics become errors wrapping
// spec.ErrCorrupt.
type arrowFile struct {
	path   string
	f      fileio.File
	rr     pqarrow.RecordReader // nil: no rows or no columns
	it     batchIter            // ORC and Avro files (rr is nil then)
	schema *arrow.Schema        // requested columns, requested order
	order  []int                // requested column k is rr's column order[k]
	cur    arrow.RecordBatch
	err    error
}

// openArrowFile opens data file path (size bytes; <= 0: ask the file) for reading columns in
// batches of at most rows rows.
// The columns' types come from schema, the one the file was written with. Files other than
// Parquet (by extension) are decoded by their format's reader.
func openArrowFile(ctx context.Context, fs fileio.FileIO, path string, size int64, columns []string, schema *spec.TableSchema, rows int64) (af *arrowFile, err error) {
	f, err := fs.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	if format := datafile.FormatOf(path); format != datafile.Parquet {
		if size <= 0 {
			size = f.Size()
		}
		cols, err := typedColumns(schema, columns)
		var it batchIter
		if err == nil {
			it, err = openNonParquet(ctx, f, path, format, size, cols, rows)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("data file %s: %w", path, err)
		}
		sc := it.(*pathErrIter).Schema()
		return &arrowFile{path: path, f: f, it: it, schema: sc}, nil
	}
	defer func() {
		if p := recover(); p != nil {
			af, err = nil, fmt.Errorf("data file %s: parquet: %w: %v", path, spec.ErrCorrupt, p)
		}
		if err != nil {
			f.Close()
		}
	}()
	if size <= 0 {
		size = f.Size()
	}
	var src pq.ReaderAtSeeker = io.NewSectionReader(f, 0, size)
	pf, err := file.NewParquetReader(src)
	if err != nil {
		return nil, fmt.Errorf("data file %s: parquet: %w: %w", path, spec.ErrCorrupt, err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: rows}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("data file %s: parquet schema: %w: %w", path, spec.ErrCorrupt, err)
	}
	fsc, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("data file %s: parquet schema: %w: %w", path, spec.ErrCorrupt, err)
	}
	af = &arrowFile{path: path, f: f}
	fields := make([]arrow.Field, len(columns))
	var leaves []int
	for k, name := range columns {
		idx := fsc.FieldIndices(name)
		if len(idx) != 1 {
			return nil, fmt.Errorf("data file %s has %d columns named %q, want 1", path, len(idx), name)
		}
		fields[k] = fsc.Field(idx[0])
		leaves = appendLeafColumns(leaves, &fr.Manifest.Fields[idx[0]])
	}
	af.schema = arrow.NewSchema(fields, nil)
	if len(leaves) == 0 || pf.NumRowGroups() == 0 {
		return af, nil
	}
	rr, err := parquet.GetRecordReader(ctx, fr, leaves)
	if err != nil {
		return nil, fmt.Errorf("data file %s: parquet: %w: %w", path, spec.ErrCorrupt, err)
	}
	af.rr = rr
	got := rr.Schema()
	used := make([]bool, got.NumFields())
	af.order = make([]int, len(columns))
	for k, name := range columns {
		af.order[k] = -1
		for j, g := range got.Fields() {
			if !used[j] && g.Name == name {
				af.order[k], used[j] = j, true
				break
			}
		}
		if af.order[k] < 0 {
			rr.Release()
			return nil, fmt.Errorf("data file %s: parquet reader returned no column %q", path, name)
		}
	}
	return af, nil
}

func appendLeafColumns(out []int, f *pqarrow.SchemaField) []int {
	if f.IsLeaf() {
		return append(out, f.ColIndex)
	}
	for k := range f.Children {
		out = appendLeafColumns(out, &f.Children[k])
	}
	return out
}

// Next advances to the next non-empty batch; false at the end or on error (see Err).
func (af *arrowFile) Next() (ok bool) {
	if af.cur != nil {
		af.cur.Release()
		af.cur = nil
	}
	if af.it != nil {
		if af.err == nil && af.it.Next() {
			af.cur = af.it.RecordBatch()
			af.cur.Retain()
			return true
		}
		if af.err == nil {
			af.err = af.it.Err()
		}
		return false
	}
	if af.rr == nil || af.err != nil {
		return false
	}
	defer func() {
		if p := recover(); p != nil {
			af.err, ok = fmt.Errorf("data file %s: parquet: %w: %v", af.path, spec.ErrCorrupt, p), false
		}
	}()
	for af.rr.Next() {
		rec := af.rr.RecordBatch()
		if rec.NumRows() == 0 {
			continue
		}
		cols := make([]arrow.Array, len(af.order))
		for k, j := range af.order {
			cols[k] = rec.Column(j)
		}
		af.cur = array.NewRecordBatch(af.schema, cols, rec.NumRows())
		return true
	}
	if err := af.rr.Err(); err != nil && err != io.EOF {
		if errors.Is(err, parquet.ErrUnrepresentable) {
			af.err = fmt.Errorf("data file %s: %w", af.path, err)
		} else {
			af.err = fmt.Errorf("data file %s: parquet: %w: %w", af.path, spec.ErrCorrupt, err)
		}
	}
	return false
}

// Batch is the current batch, valid until Next or Close unless retained.
func (af *arrowFile) Batch() arrow.RecordBatch { return af.cur }

// Err is the error that ended the iteration, if any.
func (af *arrowFile) Err() error { return af.err }

// Close releases the reader and closes the file.
func (af *arrowFile) Close() {
	if af.cur != nil {
		af.cur.Release()
		af.cur = nil
	}
	if af.rr != nil {
		af.rr.Release()
		af.rr = nil
	}
	if af.it != nil {
		af.it.Release()
		af.it = nil
	}
	if af.f != nil {
		af.f.Close()
		af.f = nil
	}
}
