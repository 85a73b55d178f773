package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/write"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
	"github.com/spf13/cobra"
)

func newWriteCommand() *cobra.Command {
	var (
		tf tableFlags
		in inputFlags
	)
	c := &cobra.Command{
		Use:   "write",
		Short: "Write files into a table as one commit (one-shot, not resumable)",
		Long: `Write reads every file matching --from, maps its columns onto the table's columns by name, and
commits all rows as one Paimon snapshot. Nothing is committed if any file or value is bad; the error names
the file, line (or Parquet row) and column, and the data files already written are deleted. A failed or
interrupted write can simply be run again; it does not resume.

With --op-column, that input column holds each row's kind: +I, -U, +U, -D (or insert, update_before,
update_after, delete); -U/-D rows delete their key from primary-key tables.`,
		Example: `  lakeload write --warehouse /data/wh --table shop.orders --from 'in/*.parquet'
  lakeload write --warehouse /data/wh --table shop.orders --from changes.csv --op-column op
  lakeload write --warehouse /data/wh --table shop.events --from 'events/*.jsonl' --format jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			opts, err := in.mapping()
			if err != nil {
				return err
			}
			t, err := cat.LoadTable(ctx, id)
			if err != nil {
				return err
			}
			inFS, err := in.fileIO()
			if err != nil {
				return err
			}
			splits, err := file.PlanWith(ctx, inFS, in.from, in.format, opts.Limits)
			if err != nil {
				return inputError{err}
			}
			w, err := write.New(ctx, t, write.Options{})
			if err != nil {
				return err
			}
			var rows int64
			for _, sp := range splits {
				n, err := writeSplit(cmd, w, inFS, sp, t.Schema, opts)
				rows += n
				if err != nil {
					_ = w.Abort(context.WithoutCancel(ctx)) // also after Ctrl-C: delete what was written
					return err
				}
			}
			msgs, err := w.PrepareWith(ctx, job.Parallel(ctx, runtime.GOMAXPROCS(0))) // buckets flushed in parallel, like load
			if err != nil {
				_ = w.Abort(context.WithoutCancel(ctx)) // also after Ctrl-C: delete what was written
				return err
			}
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
			out := cmd.OutOrStdout()
			if res.SnapshotID == 0 {
				fmt.Fprintf(out, "no rows in %d input files; nothing committed\n", len(splits))
				return nil
			}
			fmt.Fprintf(out, "wrote %d rows from %d input files into %d data files; committed snapshot %d of %s\n",
				rows, len(splits), files, res.SnapshotID, id)
			return nil
		},
	}
	tf.register(c)
	in.register(c)
	return c
}

func writeSplit(cmd *cobra.Command, w *write.Writer, fs anyFS, sp source.Split, schema schemaT, opts source.MappingOptions) (int64, error) {
	ctx := cmd.Context()
	r, err := file.Open(ctx, fs, sp, schema, opts)
	if err != nil {
		return 0, inputError{err}
	}
	defer r.Close()
	var rows int64
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, inputError{err}
		}
		err = w.Write(ctx, b.Record, b.Kinds)
		rows += b.Record.NumRows()
		b.Record.Release()
		if err != nil {
			return rows, fmt.Errorf("%s: %w", sp.Path, err)
		}
	}
}
