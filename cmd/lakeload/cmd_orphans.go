package main

import (
	"context"
	"fmt"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/spf13/cobra"
)

func newCleanOrphansCommand() *cobra.Command {
	var (
		tf          tableFlags
		olderThan   time.Duration
		dryRun      bool
		checkpoints []string
		lf          logFlags
	)
	c := &cobra.Command{
		Use:   "clean-orphans",
		Short: "Delete files of a table that no snapshot, tag or unfinished load job references (as Paimon's remove_orphan_files)",
		Long: `Clean-orphans deletes files left behind by failed writes and interrupted commits: data files in the
partition/bucket directories and files in manifest/, index/ and statistics/ that no snapshot, tag or changelog
references, and temporary files in snapshot/ and changelog/. Only files last modified more than --older-than ago
are considered: choose a duration longer than any write or load window can take (Paimon's default is 1 day).
Files that unfinished load jobs have written and recorded but not committed yet are kept: jobs in the default
checkpoint location (<warehouse>/.lakeload/jobs/<db>/<table>/) are read, add --checkpoint for jobs stored
elsewhere. Snapshot, schema, hint, tag and consumer files are never deleted. Only regular files are deleted:
symbolic links and special files are listed as skipped, and a directory that is a link is not entered.
While it works, the progress (the step, directories listed or candidates checked, files examined and
deleted) is a line on stderr redrawn every second on a terminal, otherwise a log line every
--progress-interval and one at the end.`,
		Example: `  lakeload clean-orphans --warehouse /data/wh --table shop.orders --older-than 24h --dry-run
  lakeload clean-orphans --warehouse /data/wh --table shop.orders --older-than 72h`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if err := lf.check(); err != nil {
				return err
			}
			if olderThan < 0 {
				return usageError{fmt.Errorf("--older-than %s: use a duration of 0 or more", olderThan)}
			}
			cat, id, t, err := tf.openTable(ctx)
			if err != nil {
				return err
			}
			stores, err := jobStores(ctx, cat, id, checkpoints)
			if err != nil {
				return err
			}
			protected, err := inFlightFiles(ctx, stores)
			if err != nil {
				return err
			}
			live := &maintainLive{command: "clean-orphans", dryRun: dryRun}
			display := lf.display(cmd.ErrOrStderr(), live.line, live.attrs)
			display.start()
			res, err := maintain.CleanOrphansWith(ctx, t, maintain.OrphanOptions{OlderThan: time.Now().Add(-olderThan), DryRun: dryRun,
				Protected: protected, Progress: func(p maintain.Progress) { live.report(p); display.poke() }})
			display.finish(err == nil)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, f := range res.Files {
				fmt.Fprintf(out, "%12d  %s\n", f.Size, f.Path)
			}
			verb := "deleted"
			if dryRun {
				verb = "would delete"
			}
			fmt.Fprintf(out, "%s %d orphan files (%d bytes) of %s; %d files of unfinished load jobs kept\n",
				verb, len(res.Files), res.Bytes, id, len(protected))
			for _, p := range res.Skipped {
				fmt.Fprintf(out, "skipped %s: a symbolic link or special file (never followed or deleted)\n", p)
			}
			return nil
		},
	}
	tf.register(c)
	c.Flags().DurationVar(&olderThan, "older-than", 0, "only delete files last modified longer ago than this, e.g. 24h (required)")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "list the orphan files with their sizes, delete nothing")
	c.Flags().StringArrayVar(&checkpoints, "checkpoint", nil, "checkpoint store of a load job kept outside the default location (repeatable)")
	lf.register(c)
	_ = c.MarkFlagRequired("older-than")
	return c
}

// jobStores returns the checkpoint stores of the table's load jobs: every job directory in the default
// location plus the extra store directories.
func jobStores(ctx context.Context, cat *catalog.Catalog, id catalog.Identifier, extra []string) ([]*checkpoint.Store, error) {
	infos, err := cat.FS.List(ctx, job.JobsDir(cat, id))
	if err != nil {
		return nil, fmt.Errorf("list load jobs in %s: %w", job.JobsDir(cat, id), err)
	}
	var out []*checkpoint.Store
	for _, fi := range infos {
		if fi.IsDir {
			out = append(out, checkpoint.NewStore(cat.FS, fi.Path))
		}
	}
	for _, dir := range extra {
		fs, path, err := fileio.Open(dir)
		if err != nil {
			return nil, usageError{fmt.Errorf("--checkpoint %s: %w", dir, err)}
		}
		out = append(out, checkpoint.NewStore(fs, path))
	}
	return out, nil
}

// inFlightFiles names the files that unfinished jobs stored as task results of windows that are
// neither published nor voided: recovery may still commit them, so they are not orphans. A store that
// cannot be read stops the cleaning (its files cannot be told apart from orphans).
func inFlightFiles(ctx context.Context, stores []*checkpoint.Store) (map[string]bool, error) {
	out := map[string]bool{}
	for _, s := range stores {
		st, err := s.Load(ctx)
		if err != nil {
			return nil, fmt.Errorf("read load job store %s to keep its uncommitted files: %w "+
				"(repair it, or remove the job with 'lakeload job forget' if it is not needed)", s.Root(), err)
		}
		if _, done := st.Done(); done {
			continue
		}
		for _, ws := range st.Windows() {
			if ws.Published != nil || ws.Voided != nil {
				continue
			}
			for _, a := range ws.Attempts {
				msgs, err := task.Messages(a.Results...)
				if err != nil {
					return nil, fmt.Errorf("read load job store %s to keep its uncommitted files: %w "+
						"(repair it, or remove the job with 'lakeload job forget' if it is not needed)", s.Root(), err)
				}
				for _, m := range msgs {
					for _, f := range m.NewFiles {
						out[f.FileName] = true
						for _, x := range f.ExtraFiles {
							out[x] = true
						}
					}
					for _, x := range m.NewIndexFiles {
						out[x.FileName] = true
					}
				}
			}
		}
	}
	return out, nil
}
