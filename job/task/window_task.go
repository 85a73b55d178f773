package task

import (
	"context"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/write"
)

// lockedWriter lets several readers feed one writer.
type lockedWriter struct {
	mu sync.Mutex
	w  *write.Writer
}

func (l *lockedWriter) WriteSeq(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind, firstSeq int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.WriteSeq(ctx, rec, kinds, firstSeq)
}

// runWindowTask is the in-process form of a window's single task: up to parallelism splits are read
// at once, every row goes to one writer per (partition, bucket), and the buckets are flushed in
// parallel. Sequence numbers come from split positions, so the order in which readers deliver
// batches does not matter (I4). On error the task's files are deleted: they belong to no commit.
// Memory is bounded by configuration, not by the window or the input: readers hand each batch to
// the writer synchronously (no queue, so a reader is at most one batch ahead of the writer), and
// the writer flushes its buffered rows as level-0 sorted runs whenever they reach the table's
// write-buffer-size (package write), releasing them.
func runWindowTask(ctx context.Context, wr Writing, in Input, parallelism int) (Output, error) {
	w, err := write.New(ctx, wr.Table, writeOptions(in.OverwriteIndex))
	if err != nil {
		return Output{}, err
	}
	lw := &lockedWriter{w: w}
	outs := make([]Output, len(in.Splits))
	fns := make([]func(context.Context) error, len(in.Splits))
	for i, sp := range in.Splits {
		fns[i] = func(context.Context) error {
			n, err := writeSplit(ctx, wr, lw, sp, &outs[i])
			outs[i].Rows = n
			return err
		}
	}
	if err := RunAll(ctx, parallelism, fns); err != nil {
		_ = w.Abort(context.WithoutCancel(ctx))
		return Output{}, err
	}
	var out Output
	for i, o := range outs {
		out.Rows += o.Rows
		out.Skipped += o.Skipped
		out.IDs = append(out.IDs, o.IDs...)
		out.Rejected = append(out.Rejected, o.Rejected...)
		out.Covered = append(out.Covered, in.Splits[i].Index)
	}
	slices.Sort(out.IDs)
	slices.Sort(out.Covered)
	if out.Messages, err = w.PrepareWith(ctx, Parallel(ctx, parallelism)); err != nil {
		_ = w.Abort(context.WithoutCancel(ctx))
		return Output{}, err
	}
	out.Messages = recordIndexBase(out.Messages, in.OverwriteIndex)
	return out, nil
}
