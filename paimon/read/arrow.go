package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/table"
)

// Records reads every visible row of the planned splits as Arrow record batches of at most
// batchSize rows, with the plan's schema (Arrow types of parquet.ArrowType). fn owns each batch
// only during the call; it must Retain it to keep it. Rows come in ReadSplit's order; batch
// boundaries are not significant.
//
// Files that need no merge (Java's raw-convertible rule: see columnarOK, rawReadable and
// mergeSections) are decoded straight into batches, without the system columns; other rows are
// merged by the row path and re-assembled into batches.
func Records(ctx context.Context, t *table.Table, plan *Plan, batchSize int, fn func(arrow.RecordBatch) error) error {
	if batchSize <= 0 {
		batchSize = 8192
	}
	schema, err := parquet.ArrowSchema(plan.Schema.Fields)
	if err != nil {
		return err
	}
	r, err := NewReader(t, plan.Schema)
	if err != nil {
		return err
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	fields := plan.Schema.Fields
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
		for i, v := range row {
			if err := parquet.AppendDatum(bld.Field(i), fields[i].Type, v); err != nil {
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
	for _, s := range plan.Splits {
		if err := r.readSplitBatches(ctx, s, schema, batchSize, row, batch); err != nil {
			return err
		}
	}
	return flush()
}
