package main

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/temporal"
	"github.com/lakeload/lakeload/source/file"
	"github.com/spf13/cobra"
)

func newWorkerCommand() *cobra.Command {
	var (
		tf          temporalFlags
		concurrency int
		logFormat   string
	)
	c := &cobra.Command{
		Use:   "worker",
		Short: "Run the drivers and tasks of jobs submitted with 'lakeload load --temporal' (scale-out)",
		Long: `Worker polls a Temporal task queue and runs the jobs submitted with 'lakeload load --temporal' on the
same queue: their driver segments (recovery, commits, publication: the job's workflow runs the driver in bounded
segments, each on some worker, up to two per worker on the queue <task-queue>.driver) and their write tasks (read
input splits, write data files, store the result in the job's checkpoint store). Every worker must reach the
warehouse and the checkpoint store (use s3:// locations across machines) and the input files at the path the
submitter was given. Tasks and segments are at-least-once: one run twice, or a worker killed mid-way (even the one
running the driver), never loads a row twice (docs/scale-out.md). Stop a worker with Ctrl-C or SIGTERM; its
running tasks and segment are retried elsewhere.`,
		Example: `  lakeload worker --temporal temporal.internal:7233
  lakeload worker --temporal localhost:7233 --namespace loads --task-queue lakeload-big --concurrency 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if tf.hostPort == "" {
				return usageError{fmt.Errorf("--temporal is required: the HOST:PORT of the Temporal frontend")}
			}
			if concurrency < 0 {
				return usageError{fmt.Errorf("--concurrency %d: give the number of tasks to run at once (0: one per CPU)", concurrency)}
			}
			if concurrency == 0 {
				concurrency = runtime.NumCPU()
			}
			if logFormat != "text" && logFormat != "json" {
				return usageError{fmt.Errorf("--log-format %q: use text or json", logFormat)}
			}
			ctx := cmd.Context()
			logger := newLogger(cmd.ErrOrStderr(), logFormat)
			c, err := tf.dial(ctx, logger)
			if err != nil {
				return err
			}
			defer c.Close()
			w := temporal.NewWorker(c, tf.taskQueue, concurrency, &temporal.Activities{Open: openTaskEnv, OpenDriver: driverOpener(logger), Client: c})
			if err := w.Start(); err != nil {
				return fmt.Errorf("start worker on task queue %s: %w", tf.taskQueue, err)
			}
			logger.Info("worker started", "temporal", tf.hostPort, "namespace", tf.namespace, "task_queue", tf.taskQueue, "concurrency", concurrency)
			<-ctx.Done()
			w.Stop()
			fmt.Fprintln(cmd.ErrOrStderr(), "lakeload: worker stopped; its unfinished tasks and driver segments run again on other workers")
			return nil
		},
	}
	tf.register(c, "HOST:PORT of the Temporal frontend (required)")
	c.Flags().IntVar(&concurrency, "concurrency", 0, "tasks this worker runs at once (default: number of CPUs)")
	c.Flags().StringVar(&logFormat, "log-format", "text", "log format on stderr: text or json")
	return c
}

// openTaskEnv opens the table, checkpoint store and input of a job for one task try.
func openTaskEnv(ctx context.Context, ref temporal.JobRef) (job.TaskEnv, error) {
	jf := jobFlags{tableFlags: tableFlags{warehouse: ref.Warehouse, table: ref.Table}, name: ref.Job, checkpoint: ref.Checkpoint}
	cat, id, err := jf.open()
	if err != nil {
		return job.TaskEnv{}, err
	}
	store, err := jf.store(cat, id)
	if err != nil {
		return job.TaskEnv{}, err
	}
	t, err := cat.LoadTable(ctx, id)
	if err != nil {
		return job.TaskEnv{}, err
	}
	in := refInput(ref)
	in.format = "" // a worker reads each split in the format its plan gives
	mapping, err := in.mapping()
	if err != nil {
		return job.TaskEnv{}, err
	}
	mapping.SkipBadRows = ref.SkipBadRows
	hook := faultHook(os.Stderr) // LAKELOAD_CRASH_AT / LAKELOAD_PAUSE_AT / LAKELOAD_HOLD_AT at task-written and result-stored
	inFS, err := in.fileIO()
	if err != nil {
		return job.TaskEnv{}, err
	}
	return job.TaskEnv{Table: t, Store: store, Source: file.Source{FS: inFS}, Mapping: mapping, IDColumn: ref.IDColumn, Hook: hook}, nil
}
