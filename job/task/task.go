package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/metrics"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
	"github.com/lakeload/lakeload/source"
)

// Transform optionally rewrites each input batch before it is written (library users only). It
// receives a record shaped like the table and must return one shaped like the table, with kinds
// (nil = all inserts) for its rows. It must be deterministic: a recomputed window must write the
// same rows.
type Transform func(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind) (arrow.RecordBatch, []spec.RowKind, error)

// Input fully describes one write task; it is plain data so a task can run anywhere.
type Input struct {
	Window  int64           `json:"window"`
	Attempt int             `json:"attempt"`
	Task    int             `json:"task"`
	Splits  []SplitInWindow `json:"splits"`
	// OverwriteIndex is set for an overwrite window of a dynamic-bucket table: the HASH files its
	// keys continue (overwrite_dynamic.go).
	OverwriteIndex *OverwriteIndex `json:"overwriteIndex,omitempty"`
}

// SplitInWindow is a split of the job plan with the first sequence number of its rows.
type SplitInWindow struct {
	Index    int          `json:"index"` // position in the job plan
	Split    source.Split `json:"split"`
	FirstSeq int64        `json:"firstSeq"`
}

// Output is what a task leaves behind: its commit messages and what it covered.
type Output struct {
	Messages []table.CommitMessage
	Covered  []int // plan indexes of the splits written
	Rows     int64
	IDs      []string          // row-id mode: the ids of the rows written, sorted
	Skipped  int64             // row-id mode: rows skipped because an earlier window published their id
	Rejected []source.Rejected // rows left out by --bad-rows=quarantine, in split order
}

// Writing is what a task writes with in the process that runs it, besides its Input.
type Writing struct {
	Source    source.Source
	Table     *table.Table
	Mapping   source.MappingOptions
	Transform Transform     // library users only; nil: none
	IDs       *IDFilter     // row-id mode: the ids to skip; nil: row-id mode is off
	Metrics   *metrics.Load // nil: metrics off
	// PerTask is how many splits one task reads at once; SplitTasks says each task has a writer of
	// its own (runTask) rather than one writer per bucket shared by its readers (runWindowTask).
	PerTask    int
	SplitTasks bool
}

// runTask reads the task's splits in order and writes their rows with sequence numbers
// FirstSeq + row index. It aborts (deletes) its files on error: they belong to no commit.
// In row-id mode (wr.IDs != nil) it records the id of every row written and skips rows whose id an
// earlier window published.
func runTask(ctx context.Context, wr Writing, in Input) (Output, error) {
	w, err := write.New(ctx, wr.Table, writeOptions(in.OverwriteIndex))
	if err != nil {
		return Output{}, err
	}
	out := Output{}
	for _, sp := range in.Splits {
		n, err := writeSplit(ctx, wr, w, sp, &out)
		out.Rows += n
		if err != nil {
			_ = w.Abort(ctx)
			return Output{}, err
		}
		out.Covered = append(out.Covered, sp.Index)
	}
	slices.Sort(out.IDs)
	slices.Sort(out.Covered) // results name splits ascending; a window's input order may differ
	if out.Messages, err = w.Prepare(ctx); err != nil {
		_ = w.Abort(ctx)
		return Output{}, err
	}
	out.Messages = recordIndexBase(out.Messages, in.OverwriteIndex)
	return out, nil
}

// seqWriter is where a task's rows go: a writer of its own, or one shared by the window's readers.
type seqWriter interface {
	WriteSeq(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind, firstSeq int64) error
}

func writeSplit(ctx context.Context, wr Writing, w seqWriter, sp SplitInWindow, out *Output) (int64, error) {
	r, err := wr.Source.Open(ctx, sp.Split, wr.Table.Schema, wr.Mapping)
	if err != nil {
		return 0, &source.InputError{Err: err}
	}
	tf := wr.Transform
	defer r.Close()
	var rows int64
	// write writes rows [i, j) of a batch; the sequence number of a row depends only on its
	// position in the split, so every attempt writes the same numbers (protocol invariant I4) and
	// skipped rows leave gaps.
	write := func(b *source.Batch, i, j int64) error {
		rec, kinds := b.Record, b.Kinds
		if i > 0 || j < rec.NumRows() {
			rec = rec.NewSlice(i, j)
			defer rec.Release()
			if kinds != nil {
				kinds = kinds[i:j]
			}
		}
		if tf != nil {
			r2, k2, err := tf(ctx, rec, kinds)
			if err != nil {
				return fmt.Errorf("transform of %s: %w", sp.Split, err)
			}
			defer r2.Release()
			rec, kinds = r2, k2
		}
		if err := w.WriteSeq(ctx, rec, kinds, sp.FirstSeq+b.FirstRow+i-sp.Split.RowStart); err != nil {
			return fmt.Errorf("%s: %w", sp.Split, err)
		}
		rows += rec.NumRows()
		wr.Metrics.AddRowsWritten(rec.NumRows())
		return nil
	}
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, &source.InputError{Err: err}
		}
		out.Rejected = append(out.Rejected, b.Rejected...)
		wr.Metrics.AddRowsRead(b.Record.NumRows() + int64(len(b.Rejected))) // per batch, off the row path
		wr.Metrics.AddRowsRejected(int64(len(b.Rejected)))
		if b.Record.NumRows() == 0 { // only rejected rows
			b.Record.Release()
			continue
		}
		err = writeBatch(b, wr.IDs, sp.Split.Path, out, write)
		b.Record.Release()
		if err != nil {
			return rows, err
		}
	}
}

// writeBatch writes a batch whole, or (row-id mode) its runs of rows not skipped.
func writeBatch(b *source.Batch, ids *IDFilter, path string, out *Output, write func(*source.Batch, int64, int64) error) error {
	n := b.Record.NumRows()
	if ids == nil {
		return write(b, 0, n)
	}
	keep, err := ids.keep(b.Record, func(k int) string { return RowAt(path, b.FirstRow+int64(k)) }, &out.IDs)
	if err != nil {
		return err
	}
	if keep == nil {
		return write(b, 0, n)
	}
	for i := int64(0); i < n; {
		if !keep[i] {
			out.Skipped++
			i++
			continue
		}
		j := i
		for j < n && keep[j] {
			j++
		}
		if err := write(b, i, j); err != nil {
			return err
		}
		i = j
	}
	return nil
}
