package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

// scanBatchRows is the batch size of `scan --output arrow|parquet`.
const scanBatchRows = 65536

// scanGCPercent is the GC target of `scan --output arrow|parquet` unless $GOGC is set.
const scanGCPercent = 200

// writeColumnarScan writes the planned rows to w as an Arrow IPC stream (format "arrow") or one
// Parquet file (format "parquet", zstd, Arrow types of arrowconv.ArrowType), at most limit rows
// (0 = all). Rows come from read.Records, so files that need no merge are never turned into rows.
// written holds the rows written so far, updated batch by batch (the live counter of the progress display).
// q's filter keeps rows (evaluated on the batches read, after any merge) and its columns select the
// output's columns.
func writeColumnarScan(ctx context.Context, t *table.Table, plan *read.Plan, w io.Writer, format string, limit int64, q scanQuery, written *atomic.Int64) error {
	var (
		write  func(arrow.RecordBatch) error
		finish func() error
	)
	outFields := q.fields(plan.Schema.Fields)
	outSchema, err := arrowconv.ArrowSchema(outFields)
	if err != nil {
		return err
	}
	switch format {
	case "arrow":
		schema, err := arrowconv.ArrowSchema(outFields)
		if err != nil {
			return err
		}
		iw := ipc.NewWriter(w, ipc.WithSchema(schema))
		write, finish = iw.Write, iw.Close
	case "parquet":
		pw, err := parquet.NewWriter(w, outFields, parquet.WriterOptions{})
		if err != nil {
			return err
		}
		write = pw.Write
		finish = func() error { _, err := pw.Close(); return err }
	default:
		return fmt.Errorf("--output %q is not a columnar format", format)
	}
	if os.Getenv("GOGC") == "" {
		// Decoding allocates a batch's worth of short-lived buffers per column; collecting half as often
		// costs ~20% less CPU for some 50 MiB more heap on a 1M-row scan (bench/README.md).
		defer debug.SetGCPercent(debug.SetGCPercent(scanGCPercent))
	}
	var n int64
	errLimit := errors.New("limit")
	// Splits decode on up to GOMAXPROCS of job's goroutines; batches are written in plan order.
	opts := read.RecordsOptions{BatchSize: scanBatchRows, Parallel: read.Runner(task.Parallel(ctx, runtime.GOMAXPROCS(0))),
		Workers: runtime.GOMAXPROCS(0), Columns: q.decoded()}
	keep := q.batchFilter(plan.Schema.Fields)
	emit := func(rec arrow.RecordBatch) error {
		if limit > 0 {
			if n >= limit {
				return errLimit
			}
			if n+rec.NumRows() > limit {
				rec = rec.NewSlice(0, limit-n)
				defer rec.Release()
			}
		}
		n += rec.NumRows()
		if err := write(rec); err != nil {
			return fmt.Errorf("writing %s output: %w", format, err)
		}
		written.Store(n)
		return nil
	}
	err = read.RecordsWith(ctx, t, plan, opts, func(rec arrow.RecordBatch) error {
		runs, err := keep(rec)
		if err != nil {
			return err
		}
		for _, run := range runs {
			part := rec
			if run[0] != 0 || run[1] != rec.NumRows() {
				part = rec.NewSlice(run[0], run[1])
			}
			if q.cols != nil {
				cols := make([]arrow.Array, len(q.cols))
				for i, c := range q.cols {
					cols[i] = part.Column(c)
				}
				projected := array.NewRecordBatch(outSchema, cols, part.NumRows())
				if part != rec {
					part.Release()
				}
				part = projected
			}
			err := emit(part)
			if part != rec {
				part.Release()
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && err != errLimit {
		return err
	}
	if err := finish(); err != nil {
		return fmt.Errorf("writing %s output: %w", format, err)
	}
	return nil
}
