package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/table"
)

// Runner runs independent functions, possibly concurrently, and returns the first error (the
// shape of job.Parallel's runner). This package starts no goroutines; a caller that wants splits
// decoded in parallel passes one.
type Runner func(fns []func() error) error

// RecordsOptions tune RecordsWith.
type RecordsOptions struct {
	// BatchSize is the most rows per batch; <= 0 means 8192.
	BatchSize int
	// Parallel, if set, decodes up to Workers splits at a time through it (parallelRecords).
	// Batches still reach fn in plan order, one call at a time; a split decoded ahead of its turn
	// is held in memory, at most Workers+1 splits ahead of the output.
	Parallel Runner
	// Workers is how many splits are decoded together when Parallel is set (< 2: no parallelism).
	Workers int
	// Columns, if set, are the schema fields to decode (Reader.Select); the others come as null
	// arrays, except where a merge needs them. Include the columns a filter of the batches reads.
	Columns []int
}

// Records reads every visible row of the planned splits as Arrow record batches of at most
// batchSize rows, with the plan's schema (Arrow types of arrowconv.ArrowType). It is RecordsWith
// without parallelism.
func Records(ctx context.Context, t *table.Table, plan *Plan, batchSize int, fn func(arrow.RecordBatch) error) error {
	return RecordsWith(ctx, t, plan, RecordsOptions{BatchSize: batchSize}, fn)
}

// RecordsWith reads every visible row of the planned splits as Arrow record batches of at most
// o.BatchSize rows, with the plan's schema (Arrow types of arrowconv.ArrowType). fn owns each batch
// only during the call; it must Retain it to keep it. Rows come in ReadSplit's order (split by
// split, in plan order); batch boundaries are not significant.
//
// Files that need no merge (Java's raw-convertible rule: see columnarOK, rawReadable and
// mergeSections) are decoded straight into batches, without the system columns. Splits that need
// merging in deduplicate and first-row tables are merged on Arrow batches (readSplitColumnar);
// other rows are merged by the row path and re-assembled into batches.
func RecordsWith(ctx context.Context, t *table.Table, plan *Plan, o RecordsOptions, fn func(arrow.RecordBatch) error) error {
	if o.BatchSize <= 0 {
		o.BatchSize = 8192
	}
	schema, err := arrowconv.ArrowSchema(plan.Schema.Fields)
	if err != nil {
		return err
	}
	workers := o.Workers
	if o.Parallel == nil || workers < 2 || len(plan.Splits) < 2 {
		r, err := NewReader(t, plan.Schema)
		if err != nil {
			return err
		}
		if err := r.Select(o.Columns); err != nil {
			return err
		}
		ms := r.columnarMergeSpec(schema)
		for _, s := range plan.Splits {
			if err := r.splitRecords(ctx, s, ms, schema, o.BatchSize, fn); err != nil {
				return err
			}
		}
		return nil
	}
	return parallelRecords(ctx, t, plan, o, schema, fn)
}

// splitRecords reads split s as Arrow batches of schema sc: through readSplitColumnar when the
// split can be merged column by column, else through readSplitBatches, whose row-path rows are
// re-assembled into batches (flushed before every columnar batch and at the end of the split).
func (r *Reader) splitRecords(ctx context.Context, s Split, ms *colMergeSpec, sc *arrow.Schema, batchSize int, fn func(arrow.RecordBatch) error) error {
	if r.mergesColumnar(ms, s) {
		return r.readSplitColumnar(ctx, s, ms, sc, batchSize, fn)
	}
	fields := r.schema.Fields
	var bld *array.RecordBuilder
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		rec := bld.NewRecordBatch()
		defer rec.Release()
		n = 0
		return fn(rec)
	}
	row := func(row []any) error {
		if bld == nil {
			bld = array.NewRecordBuilder(memAlloc, sc)
		}
		for i, v := range row {
			if err := arrowconv.AppendDatum(bld.Field(i), fields[i].Type, v); err != nil {
				return fmt.Errorf("column %s: %w", fields[i].Name, err)
			}
		}
		n++
		if n >= batchSize {
			return flush()
		}
		return nil
	}
	batch := func(rec arrow.RecordBatch) error {
		if err := flush(); err != nil {
			return err
		}
		return fn(rec)
	}
	defer func() {
		if bld != nil {
			bld.Release()
		}
	}()
	if err := r.readSplitBatches(ctx, s, sc, batchSize, row, batch); err != nil {
		return err
	}
	return flush()
}
