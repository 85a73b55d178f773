package temporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
)

// Names under which the workflow and the activity are registered (the wire contract between
// driver and workers of one lakeload version).
const (
	WorkflowName = "lakeload.WindowTasks"
	ActivityName = "lakeload.RunTask"
	// inputErrorType is the application error type of a job.InputError crossing the wire.
	inputErrorType = "lakeload.InputError"
)

// Timing bounds the activities of a window's tasks.
type Timing struct {
	TaskTimeout      time.Duration // start-to-close of one try (default 1h): a slower try is retried, and is just another try
	HeartbeatTimeout time.Duration // a try that does not heartbeat this long is retried (default 30s)
	MaxTries         int32         // tries per task before the window fails (default 10; 0 = default)
}

func (t Timing) withDefaults() Timing {
	if t.TaskTimeout <= 0 {
		t.TaskTimeout = time.Hour
	}
	if t.HeartbeatTimeout <= 0 {
		t.HeartbeatTimeout = 30 * time.Second
	}
	if t.MaxTries <= 0 {
		t.MaxTries = 10
	}
	return t
}

// WindowInput is the input of the workflow of one window attempt.
type WindowInput struct {
	Spec   job.Spec      `json:"spec"`
	Batch  job.TaskBatch `json:"batch"`
	Timing Timing        `json:"timing"`
}

// TaskActivityInput is the input of one task's activity: the batch without its task list, and the task.
type TaskActivityInput struct {
	Spec  job.Spec      `json:"spec"`
	Batch job.TaskBatch `json:"batch"` // Tasks is nil
	Task  job.TaskInput `json:"task"`
}

// WindowWorkflow runs every task of a window attempt as a parallel activity and returns the rows
// written by the tries that stored results. It is deterministic: it only schedules activities and
// sums their results. A task failing after its retries fails the workflow (the other tasks'
// activities are abandoned; their stored results stay valid for a later commit of this attempt).
func WindowWorkflow(ctx workflow.Context, in WindowInput) (int64, error) {
	t := in.Timing.withDefaults()
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: t.TaskTimeout,
		HeartbeatTimeout:    t.HeartbeatTimeout,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute,
			MaximumAttempts: t.MaxTries, NonRetryableErrorTypes: []string{inputErrorType}},
	})
	batch := in.Batch
	batch.Tasks = nil
	futures := make([]workflow.Future, len(in.Batch.Tasks))
	for i, task := range in.Batch.Tasks {
		futures[i] = workflow.ExecuteActivity(ctx, ActivityName, TaskActivityInput{Spec: in.Spec, Batch: batch, Task: task})
	}
	var rows int64
	var firstErr error
	for _, f := range futures {
		var n int64
		if err := f.Get(ctx, &n); err != nil {
			if firstErr == nil {
				firstErr = err // the activity error names the task's window and task
			}
			continue
		}
		rows += n
	}
	return rows, firstErr
}

// Opener resolves a job's Spec to the table, store and source a task writes with (OpenTask). It is
// called for every activity try, so a try sees the table's current schema.
type Opener func(ctx context.Context, spec job.Spec) (job.TaskEnv, error)

// Activities holds the worker side: the activity that runs one task.
type Activities struct {
	Open Opener
	// HeartbeatEvery is the heartbeat period of a running task or segment (default: a third of its
	// heartbeat timeout).
	HeartbeatEvery time.Duration
	// OpenDriver builds a job's Config for a driver segment (DriveSegment, OpenDriver); nil: this
	// worker runs no segments.
	OpenDriver DriverOpener
	// Client starts the window workflows of the segments this worker drives.
	Client client.Client
	// NewExecutor overrides the executor of a segment's window tasks (tests); nil: an Executor on Client
	// and the segment's task queue.
	NewExecutor func(in SegmentInput, taskQueue string) job.Executor

	leaseWait   func(holder checkpoint.LeaseRecord) // tests: called each time a segment waits for an earlier try
	leasePolicy func(p *job.LeasePolicy)            // tests: sees (and may give a fake clock to) each segment try's lease policy
}

// RunTask is the activity: it opens the job's environment and runs job.RunTask while heartbeating.
// A job.InputError becomes a non-retryable application error of type lakeload.InputError.
func (a *Activities) RunTask(ctx context.Context, in TaskActivityInput) (int64, error) {
	env, err := a.Open(ctx, in.Spec)
	if err != nil {
		return 0, fmt.Errorf("job %s window %d task %d: open the job's table and store: %w", in.Spec.Name, in.Task.Window, in.Task.Task, err)
	}
	every := a.HeartbeatEvery
	if every <= 0 {
		every = time.Second
		if info := activity.GetInfo(ctx); info.HeartbeatTimeout > 0 {
			every = info.HeartbeatTimeout / 3
		}
	}
	stop := heartbeat(ctx, every, in.Task.Task)
	n, err := job.RunTask(ctx, env, in.Batch, in.Task)
	stop()
	var ie *job.InputError
	if errors.As(err, &ie) {
		return 0, temporal.NewNonRetryableApplicationError(err.Error(), inputErrorType, err)
	}
	if err != nil {
		return 0, fmt.Errorf("job %s window %d attempt %d task %d: %w", in.Spec.Name, in.Task.Window, in.Task.Attempt, in.Task.Task, err)
	}
	return n, nil
}
