package parquet

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Reader reads a Parquet data file (lakeload- or Java/pypaimon-written) as Arrow record batches.
// It never closes the io.ReaderAt it was opened on.
type Reader struct {
	pf     *file.Reader
	fr     *pqarrow.FileReader
	schema *arrow.Schema
}

// corrupt wraps a decoding failure (or recovered panic) of the file as spec.ErrCorrupt.
func corrupt(what string, cause any) error {
	if err, ok := cause.(error); ok {
		return fmt.Errorf("parquet: %s: %w: %w", what, spec.ErrCorrupt, err)
	}
	return fmt.Errorf("parquet: %s: %w: %v", what, spec.ErrCorrupt, cause)
}

// OpenReader parses the footer of the fileSize-byte Parquet file in r.
func OpenReader(r io.ReaderAt, fileSize int64) (rd *Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			rd, err = nil, corrupt("open", p)
		}
	}()
	var src parquet.ReaderAtSeeker = io.NewSectionReader(r, 0, fileSize)
	pf, err := file.NewParquetReader(src)
	if err != nil {
		return nil, corrupt("open", err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, corrupt("arrow schema", err)
	}
	sc, err := fr.Schema()
	if err != nil {
		return nil, corrupt("arrow schema", err)
	}
	return &Reader{pf: pf, fr: fr, schema: sc}, nil
}

// Schema is the Arrow schema the file decodes to (pqarrow's mapping of the Parquet schema, e.g.
// INT96 → Timestamp(ns), decoded as Java writes it: int96.go); arrowconv.DatumAt accepts all of its types.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// NumRows is the row count recorded in the footer.
func (r *Reader) NumRows() int64 { return r.pf.NumRows() }

// File exposes the low-level Parquet reader (footer, row groups, pages).
func (r *Reader) File() *file.Reader { return r.pf }

// Read returns an iterator over all rows of the named top-level columns (nil = all), in the order
// requested, batchRows rows per batch (<= 0: whole row groups).
func (r *Reader) Read(ctx context.Context, columns []string, batchRows int64) (it *RecordIterator, err error) {
	defer func() {
		if p := recover(); p != nil {
			it, err = nil, corrupt("read", p)
		}
	}()
	fields := r.fr.Manifest.Fields
	var top []int
	if columns == nil {
		for i := range fields {
			top = append(top, i)
		}
	} else {
		seen := map[int]bool{}
		for _, name := range columns {
			idx := r.schema.FieldIndices(name)
			if len(idx) != 1 {
				return nil, fmt.Errorf("parquet: file has %d columns named %q", len(idx), name)
			}
			if seen[idx[0]] {
				return nil, fmt.Errorf("parquet: column %q requested twice", name)
			}
			seen[idx[0]] = true
			top = append(top, idx[0])
		}
	}
	var leaves []int
	for _, i := range top {
		leaves = appendLeaves(leaves, &fields[i])
	}
	fr, err := pqarrow.NewFileReader(r.pf, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, corrupt("read", err)
	}
	it = &RecordIterator{}
	if len(leaves) == 0 || r.pf.NumRowGroups() == 0 {
		sc := arrow.NewSchema(nil, nil)
		if len(top) > 0 {
			sc = projectSchema(r.schema, top)
		}
		it.schema = sc
		return it, nil
	}
	rr, err := GetRecordReader(ctx, fr, leaves)
	if err != nil {
		return nil, corrupt("read", err)
	}
	it.rr = rr
	it.schema = projectSchema(r.schema, top)
	it.order = orderOf(rr.Schema(), it.schema)
	return it, nil
}

func appendLeaves(out []int, f *pqarrow.SchemaField) []int {
	if f.IsLeaf() {
		return append(out, f.ColIndex)
	}
	for k := range f.Children {
		out = appendLeaves(out, &f.Children[k])
	}
	return out
}

func projectSchema(sc *arrow.Schema, top []int) *arrow.Schema {
	fs := make([]arrow.Field, len(top))
	for k, i := range top {
		fs[k] = sc.Field(i)
	}
	return arrow.NewSchema(fs, nil)
}

// orderOf maps each wanted column to its position in got (pqarrow returns file order).
func orderOf(got, want *arrow.Schema) []int {
	order := make([]int, want.NumFields())
	used := make([]bool, got.NumFields())
	for k, f := range want.Fields() {
		for j, g := range got.Fields() {
			if !used[j] && g.Name == f.Name {
				order[k], used[j] = j, true
				break
			}
		}
	}
	return order
}
