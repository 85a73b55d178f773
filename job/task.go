package job

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// Transform optionally rewrites each input batch before it is written (library users only). It
// receives a record shaped like the table and must return one shaped like the table, with kinds
// (nil = all inserts) for its rows. It must be deterministic: a recomputed window must write the
// same rows.
type Transform func(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind) (arrow.RecordBatch, []spec.RowKind, error)

// TaskInput fully describes one write task; it is plain data so a task can run anywhere.
type TaskInput struct {
	Window  int64           `json:"window"`
	Attempt int             `json:"attempt"`
	Task    int             `json:"task"`
	Splits  []SplitInWindow `json:"splits"`
}

// SplitInWindow is a split of the job plan with the first sequence number of its rows.
type SplitInWindow struct {
	Index    int          `json:"index"` // position in the job plan
	Split    source.Split `json:"split"`
	FirstSeq int64        `json:"firstSeq"`
}

// TaskOutput is what a task leaves behind: its commit messages and what it covered.
type TaskOutput struct {
	Messages []table.CommitMessage
	Covered  []int // plan indexes of the splits written
	Rows     int64
}

// runTask reads the task's splits in order and writes their rows with sequence numbers
// FirstSeq + row index. It aborts (deletes) its files on error: they belong to no commit.
func runTask(ctx context.Context, fs fileio.FileIO, t *table.Table, in TaskInput, opts source.MappingOptions, tf Transform) (TaskOutput, error) {
	w, err := write.New(ctx, t, write.Options{})
	if err != nil {
		return TaskOutput{}, err
	}
	out := TaskOutput{}
	for _, sp := range in.Splits {
		n, err := writeSplit(ctx, fs, t, w, sp, opts, tf)
		out.Rows += n
		if err != nil {
			_ = w.Abort(ctx)
			return TaskOutput{}, err
		}
		out.Covered = append(out.Covered, sp.Index)
	}
	if out.Messages, err = w.Prepare(ctx); err != nil {
		_ = w.Abort(ctx)
		return TaskOutput{}, err
	}
	return out, nil
}

func writeSplit(ctx context.Context, fs fileio.FileIO, t *table.Table, w *write.Writer, sp SplitInWindow, opts source.MappingOptions, tf Transform) (int64, error) {
	r, err := file.Open(ctx, fs, sp.Split, t.Schema, opts)
	if err != nil {
		return 0, &InputError{Err: err}
	}
	defer r.Close()
	var rows int64
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, &InputError{Err: err}
		}
		rec, kinds := b.Record, b.Kinds
		if tf != nil {
			r2, k2, err := tf(ctx, rec, kinds)
			rec.Release()
			if err != nil {
				return rows, fmt.Errorf("transform of %s: %w", sp.Split, err)
			}
			rec, kinds = r2, k2
		}
		// The sequence number of a row depends only on its position in the split, so every attempt
		// writes the same numbers (protocol invariant I4).
		err = w.WriteSeq(ctx, rec, kinds, sp.FirstSeq+b.FirstRow-sp.Split.RowStart)
		n := rec.NumRows()
		rec.Release()
		if err != nil {
			return rows, fmt.Errorf("%s: %w", sp.Split, err)
		}
		rows += n
	}
}

// InputError marks an error caused by the input data (a file, row or value at fault).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }
