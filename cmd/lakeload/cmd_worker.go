package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"

	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/temporal"
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
			w := temporal.NewWorker(c, tf.taskQueue, concurrency, &temporal.Activities{Open: temporal.OpenTask(workerHooks(nil)),
				OpenDriver: temporal.OpenDriver(workerHooks(logger)), Client: c})
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

// workerHooks are the worker's log (nil for tasks: they log nothing) and its fault hook
// (LAKELOAD_CRASH_AT / LAKELOAD_PAUSE_AT / LAKELOAD_HOLD_AT); a driver segment's progress goes to the log.
func workerHooks(logger *slog.Logger) temporal.WorkerHooks {
	return temporal.WorkerHooks{Logger: logger, Hook: faultHook(os.Stderr),
		Progress: func(log *slog.Logger) func(job.Progress) { return progressReporter(io.Discard, log) }}
}
