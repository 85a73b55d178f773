package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

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
	segments  temporal.SegmentOptions
}

func (f *temporalFlags) register(c *cobra.Command, what string) {
	c.Flags().StringVar(&f.hostPort, "temporal", "", what)
	c.Flags().StringVar(&f.namespace, "namespace", "default", "Temporal namespace (with --temporal)")
	c.Flags().StringVar(&f.taskQueue, "task-queue", "lakeload", "Temporal task queue the workers poll (with --temporal)")
}

// registerTiming adds load's task timing flags.
func (f *temporalFlags) registerTiming(c *cobra.Command) {
	c.Flags().DurationVar(&f.timing.TaskTimeout, "task-timeout", time.Hour, "with --temporal: a task try running longer is retried on another worker (the late try is harmless)")
	c.Flags().DurationVar(&f.timing.HeartbeatTimeout, "heartbeat-timeout", 30*time.Second, "with --temporal: a task try or driver segment whose worker is silent this long (killed, cut off) is retried on another worker")
	c.Flags().Int32Var(&f.timing.MaxTries, "task-tries", 10, "with --temporal: tries per task before the load stops (a rerun resumes)")
	c.Flags().Int64Var(&f.segments.MaxWindows, "segment-windows", 0, "with --temporal: a driver segment (one activity running the driver on a worker) ends after this many windows (0: by --segment-duration only)")
	c.Flags().DurationVar(&f.segments.MaxDuration, "segment-duration", temporal.DefaultSegmentDuration, "with --temporal: a driver segment ends at the first window boundary after this long; the next segment continues on any worker")
	c.Flags().IntVar(&f.segments.PerRun, "segments-per-run", temporal.DefaultSegmentsPerRun, "with --temporal: the job workflow continues as new after this many segments (keeps its history small)")
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
