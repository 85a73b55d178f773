package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/dv"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// memAlloc allocates the arrays the columnar paths build.
var memAlloc = memory.DefaultAllocator

// forceRowPath makes Records read every file through the row path (tests compare both paths).
var forceRowPath bool

// onColumnarFile, if set, is called for every file Records reads through the columnar path (tests).
var onColumnarFile func(manifest.DataFileMeta)

// columnarOK reports whether file f may be read straight into Arrow batches instead of row by
// row: it was written with the reading schema (no column mapping or casts) and, in a primary-key
// table, is known to hold no retract rows (DeleteRowCount recorded and 0; unknown counts take the
// row path, as Java's rawConvertible does not trust them). The caller decides whether the file
// needs merging; this only says its rows can be copied as they are.
func (r *Reader) columnarOK(f manifest.DataFileMeta) bool {
	if forceRowPath || f.SchemaID != r.schema.ID {
		return false
	}
	if r.merge != nil && (f.DeleteRowCount == nil || *f.DeleteRowCount != 0) {
		return false
	}
	return true
}

// readSplitBatches reads split s as ReadSplit does, but hands every file that needs no merge and
// passes columnarOK to batch as Arrow batches of schema sc (at most batchSize rows each), and every
// other row to row, preserving ReadSplit's order.
func (r *Reader) readSplitBatches(ctx context.Context, s Split, sc *arrow.Schema, batchSize int,
	row func([]any) error, batch func(arrow.RecordBatch) error) error {
	readFile := func(f manifest.DataFileMeta, emit func(mergetree.KeyValue) error) error {
		if r.columnarOK(f) {
			if onColumnarFile != nil {
				onColumnarFile(f)
			}
			return r.readColumnar(ctx, s, f, sc, batchSize, batch)
		}
		return r.files.read(ctx, s, f, emit)
	}
	kvRow := func(kv mergetree.KeyValue) error { return row(kv.Value) }
	if r.merge == nil || r.rawReadable(s) {
		for _, f := range s.Files {
			if err := readFile(f, kvRow); err != nil {
				return err
			}
		}
		return nil
	}
	return r.mergeSections(ctx, s, true, kvRow, readFile)
}

// readColumnar reads file f of split s as Arrow batches of schema sc (the reading schema's fields,
// system columns not read), rows removed by the file's deletion vector dropped. Empty batches are
// not emitted.
func (r *Reader) readColumnar(ctx context.Context, s Split, f manifest.DataFileMeta, sc *arrow.Schema, batchSize int, emit func(arrow.RecordBatch) error) error {
	fr := r.files
	path, err := fr.paths.DataFile(s.Partition, s.Bucket, f.FileName, f.ExternalPath)
	if err != nil {
		return err
	}
	var deleted dv.DeletionVector
	if d, ok := s.Deletions[f.FileName]; ok {
		if deleted, err = fr.readDV(ctx, d); err != nil {
			return fmt.Errorf("deletion vector of %s: %w", path, err)
		}
	}
	fields := r.schema.Fields
	var names []string
	at := make([]int, len(fields)) // batch column of each field; -1: not selected, a null array
	for i, fd := range fields {
		at[i] = -1
		if fr.need == nil || fr.need[i] {
			at[i] = len(names)
			names = append(names, fd.Name)
		}
	}
	af, err := openArrowFile(ctx, fr.t.FS, path, f.FileSize, names, r.schema, int64(batchSize))
	if err != nil {
		return err
	}
	defer af.Close()
	var pos int64
	batch := func(rec arrow.RecordBatch) error {
		n := rec.NumRows()
		if int(rec.NumCols()) != len(names) {
			return fmt.Errorf("data file %s: read %d columns, want %d (%v)", path, rec.NumCols(), len(names), names)
		}
		cols := make([]arrow.Array, len(fields))
		defer func() {
			for _, c := range cols {
				if c != nil {
					c.Release()
				}
			}
		}()
		for i, fd := range fields {
			if at[i] < 0 {
				cols[i] = array.MakeArrayOfNull(memAlloc, sc.Field(i).Type, int(n))
				continue
			}
			c, err := conform(rec.Column(at[i]), sc.Field(i).Type, fd.Type)
			if err != nil {
				return fmt.Errorf("data file %s column %s (rows from %d): %w", path, fd.Name, pos, err)
			}
			cols[i] = c
		}
		out := array.NewRecordBatch(sc, cols, n)
		defer out.Release()
		first := pos
		pos += n
		if deleted != nil {
			kept, err := dropDeleted(out, deleted, first)
			if err != nil {
				return fmt.Errorf("data file %s: applying deletion vector: %w", path, err)
			}
			defer kept.Release()
			out = kept
		}
		if out.NumRows() == 0 {
			return nil
		}
		return emit(out)
	}
	for af.Next() {
		if err := batch(af.Batch()); err != nil {
			return err
		}
	}
	return af.Err()
}

// conform returns col as an array of Arrow type target (the reading schema's type for Paimon type
// t). A column whose type already equals target is shared, relabelled with target's exact field
// names; any other column is converted value by value exactly as the row path does
// (arrowconv.DatumAt, then arrowconv.AppendDatum).
func conform(col arrow.Array, target arrow.DataType, t spec.DataType) (arrow.Array, error) {
	if arrow.TypeEqual(col.DataType(), target) {
		if _, nested := target.(arrow.NestedType); !nested {
			col.Retain() // no field names to relabel: share the column as is
			return col, nil
		}
		d := relabel(col.Data(), target)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	b := array.NewBuilder(memAlloc, target)
	defer b.Release()
	b.Reserve(col.Len())
	for i := 0; i < col.Len(); i++ {
		v, err := arrowconv.DatumAt(col, i, t)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		if err := arrowconv.AppendDatum(b, t, v); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
	return b.NewArray(), nil
}

// relabel returns d with type t (equal to d's by arrow.TypeEqual), recursively for nested
// children, so nested field names are the reading schema's rather than the file's.
func relabel(d arrow.ArrayData, t arrow.DataType) arrow.ArrayData {
	children := d.Children()
	var types []arrow.DataType
	switch nt := t.(type) {
	case *arrow.MapType:
		types = []arrow.DataType{nt.Elem()}
	case arrow.ListLikeType:
		types = []arrow.DataType{nt.Elem()}
	case *arrow.StructType:
		for _, f := range nt.Fields() {
			types = append(types, f.Type)
		}
	}
	kids := make([]arrow.ArrayData, len(children))
	for i, c := range children {
		if i < len(types) {
			kids[i] = relabel(c, types[i])
		} else {
			c.Retain()
			kids[i] = c
		}
	}
	out := array.NewData(t, d.Len(), d.Buffers(), kids, d.NullN(), d.Offset())
	for _, k := range kids {
		k.Release()
	}
	return out
}

// dropDeleted returns the rows of rec (file positions first…) that deleted does not remove.
func dropDeleted(rec arrow.RecordBatch, deleted dv.DeletionVector, first int64) (arrow.RecordBatch, error) {
	n := rec.NumRows()
	var runs [][2]int64
	start := int64(-1)
	for i := int64(0); i < n; i++ {
		if deleted.IsDeleted(first + i) {
			if start >= 0 {
				runs = append(runs, [2]int64{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		runs = append(runs, [2]int64{start, n})
	}
	switch len(runs) {
	case 0:
		return rec.NewSlice(0, 0), nil
	case 1:
		return rec.NewSlice(runs[0][0], runs[0][1]), nil
	}
	var total int64
	for _, r := range runs {
		total += r[1] - r[0]
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for ci := range cols {
		parts := make([]arrow.Array, len(runs))
		for k, r := range runs {
			parts[k] = array.NewSlice(rec.Column(ci), r[0], r[1])
		}
		c, err := array.Concatenate(parts, memAlloc)
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", rec.ColumnName(ci), err)
		}
		cols[ci] = c
	}
	return array.NewRecordBatch(rec.Schema(), cols, total), nil
}
