package temporal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lakeload/lakeload/job"
)

// Executor is a job.Executor that runs each window attempt as a workflow on a Temporal task queue.
type Executor struct {
	Client    client.Client
	TaskQueue string
	Spec      job.Spec // the job's, as the workflow carries it
	Timing    Timing
	Logger    *slog.Logger
}

// WorkflowID names the workflow of window w attempt a of a job. The commit user (a UUID made when the
// job is created) keeps ids of equally named jobs of other tables, or of a forgotten and recreated
// job, apart.
func WorkflowID(jobName, commitUser string, w int64, a int) string {
	if commitUser == "" {
		return fmt.Sprintf("lakeload/%s/w%d/a%d", jobName, w, a)
	}
	return fmt.Sprintf("lakeload/%s/%s/w%d/a%d", jobName, commitUser, w, a)
}

// RunTasks starts (or re-attaches to) the workflow of b's window attempt and waits for it. Earlier
// attempts' workflows of the window still running (a driver that died mid-window) are cancelled
// first, best effort: their stored results are just another attempt, never committed with this one.
func (e *Executor) RunTasks(ctx context.Context, b job.TaskBatch) (int64, error) {
	for a := 1; a < b.Attempt; a++ {
		err := e.Client.CancelWorkflow(ctx, WorkflowID(b.Job, b.CommitUser, b.Window, a), "")
		var nf *serviceerror.NotFound
		if err != nil && !errors.As(err, &nf) && e.Logger != nil {
			e.Logger.Warn("cancel the workflow of an earlier attempt", "window", b.Window, "attempt", a, "err", err)
		}
	}
	id := WorkflowID(b.Job, b.CommitUser, b.Window, b.Attempt)
	run, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: e.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, WorkflowName, WindowInput{Spec: e.Spec, Batch: b, Timing: e.Timing})
	if err != nil {
		return 0, fmt.Errorf("start workflow %s on task queue %s: %w", id, e.TaskQueue, err)
	}
	var rows int64
	if err := run.Get(ctx, &rows); err != nil {
		return 0, fromWire(fmt.Errorf("workflow %s (run %s): %w", id, run.GetRunID(), err))
	}
	return rows, nil
}

// fromWire turns an input error raised by a worker back into a *job.InputError, which the driver
// handles like an in-process one (voids a fresh window, exit code of bad input).
func fromWire(err error) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if app, ok := e.(*temporal.ApplicationError); ok && app.Type() == inputErrorType {
			return &job.InputError{Err: fmt.Errorf("%s (reported by a worker)", app.Message())}
		}
	}
	return err
}
