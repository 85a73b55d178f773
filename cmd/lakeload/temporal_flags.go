package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/temporal"
	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// temporalFlags are the flags reaching a Temporal service (load --temporal, worker, status --temporal).
type temporalFlags struct {
	hostPort  string
	namespace string
	taskQueue string
	timing    temporal.Timing // load only
}

func (f *temporalFlags) register(c *cobra.Command, what string) {
	c.Flags().StringVar(&f.hostPort, "temporal", "", what)
	c.Flags().StringVar(&f.namespace, "namespace", "default", "Temporal namespace (with --temporal)")
	c.Flags().StringVar(&f.taskQueue, "task-queue", "lakeload", "Temporal task queue the workers poll (with --temporal)")
}

// registerTiming adds load's task timing flags.
func (f *temporalFlags) registerTiming(c *cobra.Command) {
	c.Flags().DurationVar(&f.timing.TaskTimeout, "task-timeout", time.Hour, "with --temporal: a task try running longer is retried on another worker (the late try is harmless)")
	c.Flags().DurationVar(&f.timing.HeartbeatTimeout, "heartbeat-timeout", 30*time.Second, "with --temporal: a task try whose worker is silent this long (killed, cut off) is retried")
	c.Flags().Int32Var(&f.timing.MaxTries, "task-tries", 10, "with --temporal: tries per task before the load stops (a rerun resumes)")
}

// dial connects to the Temporal frontend; the SDK's log goes to logger at warning level and above.
func (f *temporalFlags) dial(ctx context.Context, logger *slog.Logger) (client.Client, error) {
	quiet := slog.New(levelFilter{logger.Handler(), slog.LevelWarn})
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := client.DialContext(dctx, client.Options{HostPort: f.hostPort, Namespace: f.namespace, Logger: tlog.NewStructuredLogger(quiet)})
	if err != nil {
		return nil, fmt.Errorf("--temporal %s (namespace %s): cannot reach the Temporal service: %w; check the address, or start one with 'temporal server start-dev'",
			f.hostPort, f.namespace, err)
	}
	return c, nil
}

// levelFilter drops records below min.
type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (l levelFilter) Enabled(ctx context.Context, lv slog.Level) bool {
	return lv >= l.min && l.Handler.Enabled(ctx, lv)
}

// temporalExecutor connects to Temporal and returns the executor load uses with --temporal.
func (f *temporalFlags) temporalExecutor(ctx context.Context, jf *jobFlags, in *inputFlags, idColumn string, skipBadRows bool, logger *slog.Logger) (job.Executor, func(), error) {
	ref, err := jobRef(jf, in, idColumn)
	if err != nil {
		return nil, nil, err
	}
	ref.SkipBadRows = skipBadRows
	if f.timing.TaskTimeout <= 0 || f.timing.HeartbeatTimeout <= 0 || f.timing.MaxTries <= 0 {
		return nil, nil, usageError{fmt.Errorf("--task-timeout, --heartbeat-timeout and --task-tries must be positive (got %s, %s, %d)",
			f.timing.TaskTimeout, f.timing.HeartbeatTimeout, f.timing.MaxTries)}
	}
	c, err := f.dial(ctx, logger)
	if err != nil {
		return nil, nil, err
	}
	return &temporal.Executor{Client: c, TaskQueue: f.taskQueue, Ref: ref, Timing: f.timing, Logger: logger}, c.Close, nil
}

// jobRef describes the job for workers on other machines: local locations become absolute paths
// (a worker's working directory is its own), object-store locations are sent as given.
func jobRef(jf *jobFlags, in *inputFlags, idColumn string) (temporal.JobRef, error) {
	ref := temporal.JobRef{Job: jf.name, Table: jf.table, OpColumn: in.opColumn, IgnoreExtra: in.ignoreExtra,
		TimeZone: in.timeZone, IDColumn: idColumn}
	for _, l := range []struct {
		flag, v string
		dst     *string
	}{{"--warehouse", jf.warehouse, &ref.Warehouse}, {"--checkpoint", jf.checkpoint, &ref.Checkpoint}, {"--from", in.from, &ref.From}} {
		*l.dst = l.v
		if l.v == "" || fileio.Scheme(l.v) != "file" || filepath.IsAbs(l.v) || strings.HasPrefix(l.v, "file:") {
			continue
		}
		abs, err := filepath.Abs(l.v)
		if err != nil {
			return ref, usageError{fmt.Errorf("%s %q: %w", l.flag, l.v, err)}
		}
		*l.dst = abs
	}
	return ref, nil
}
