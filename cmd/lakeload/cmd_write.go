package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/write"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
	"github.com/spf13/cobra"
)

func newWriteCommand() *cobra.Command {
	var (
		tf tableFlags
		in job.Input
		lf logFlags
	)
	c := &cobra.Command{
		Use:   "write",
		Short: "Write files into a table as one commit (one-shot, not resumable)",
		Long: `Write reads every file matching --from, maps its columns onto the table's columns by name, and
commits all rows as one Paimon snapshot. Nothing is committed if any file or value is bad; the error names
the file, line (or Parquet row) and column, and the data files already written are deleted. A failed or
interrupted write can simply be run again; it does not resume.

With --op-column, that input column holds each row's kind: +I, -U, +U, -D (or insert, update_before,
update_after, delete); -U/-D rows delete their key from primary-key tables.

While it works, the progress (files and rows written, rate, ETA) is a line on stderr redrawn every
second on a terminal, otherwise a log line every --progress-interval and one at the end.`,
		Example: `  lakeload write --warehouse /data/wh --table shop.orders --from 'in/*.parquet'
  lakeload write --warehouse /data/wh --table shop.orders --from changes.csv --op-column op
  lakeload write --warehouse /data/wh --table shop.events --from 'events/*.jsonl' --format jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if err := lf.check(); err != nil {
				return err
			}
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			if err := in.Validate(); err != nil {
				return err
			}
			opts, err := in.MappingOptions()
			if err != nil {
				return err
			}
			t, err := cat.LoadTable(ctx, id)
			if err != nil {
				return err
			}
			inFS, err := in.OpenFS()
			if err != nil {
				return err
			}
			splits, err := job.PlanFiles(ctx, inFS, in)
			if err != nil {
				return inputError{err}
			}
			w, err := write.New(ctx, t, write.Options{})
			if err != nil {
				return err
			}
			live := newWriteLive(splits)
			display := lf.display(cmd.ErrOrStderr(), live.line, live.attrs)
			display.start()
			succeeded := false
			defer func() { display.finish(succeeded) }()
			if err := writeSplits(ctx, w, inFS, splits, t.Schema, opts, live); err != nil {
				_ = w.Abort(context.WithoutCancel(ctx)) // also after Ctrl-C: delete what was written
				return err
			}
			live.phase.set(writePhaseFlushing)
			msgs, err := w.PrepareWith(ctx, task.Parallel(ctx, runtime.GOMAXPROCS(0))) // buckets flushed in parallel, like load
			if err != nil {
				_ = w.Abort(context.WithoutCancel(ctx)) // also after Ctrl-C: delete what was written
				return err
			}
			live.phase.set(writePhaseCommitting)
			files := 0
			for _, m := range msgs {
				files += len(m.NewFiles)
			}
			res, err := commit.Commit(ctx, t, msgs, commit.Options{
				User: uuid.NewString(), Identifier: commit.BatchIdentifier, LookupAfter: -1,
			})
			if err != nil {
				return err
			}
			succeeded = true
			live.phase.set(writePhaseDone)
			display.finish(true)
			rows := live.rows.Load()
			out := cmd.OutOrStdout()
			if res.SnapshotID == 0 {
				fmt.Fprintf(out, "no rows in %d input files; nothing committed\n", len(splits))
				return nil
			}
			fmt.Fprintf(out, "wrote %s from %s into %s; committed snapshot %d of %s\n",
				count(rows, "row"), count(len(splits), "input file"), count(files, "data file"), res.SnapshotID, id)
			return nil
		},
	}
	tf.register(c)
	bindInput(c.Flags(), &in)
	lf.register(c)
	return c
}

// writeSplits writes every batch of splits in order (the sequence numbers of a serial read), while
// task.ReadInOrder decodes up to GOMAXPROCS splits ahead on other cores; live counts the rows batch by
// batch and each split once the writer has passed it (the progress display).
func writeSplits(ctx context.Context, w *write.Writer, fs anyFS, splits []source.Split, schema schemaT, opts source.MappingOptions, live *writeLive) error {
	open := func(ctx context.Context, sp source.Split) (source.Reader, error) {
		return file.Open(ctx, fs, sp, schema, opts)
	}
	next := 0 // splits[:next] are done
	err := task.ReadInOrder(ctx, runtime.GOMAXPROCS(0), 2, splits, open, func(b *source.Batch) error {
		for next < len(splits) && splits[next] != b.Split {
			live.fileDone(splits[next])
			next++
		}
		err := w.Write(ctx, b.Record, b.Kinds)
		live.rows.Add(b.Record.NumRows())
		b.Record.Release()
		if err != nil {
			return fmt.Errorf("%s: %w", b.Split.Path, err)
		}
		return nil
	})
	var ie *job.InputError
	if errors.As(err, &ie) {
		return inputError{ie.Err}
	}
	if err == nil {
		for ; next < len(splits); next++ {
			live.fileDone(splits[next])
		}
	}
	return err
}
