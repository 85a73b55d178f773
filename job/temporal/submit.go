package temporal

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// StartJob starts the job workflow of in.Spec on taskQueue, or attaches to it when it already runs
// (conflict policy "use existing": a rerun or a second submitter follows the running driver instead
// of starting another; the running workflow keeps the options it was started with). A finished or
// failed workflow of the id is started anew; its job.Run resumes from the checkpoint store.
func StartJob(ctx context.Context, c client.Client, taskQueue string, in JobInput) (client.WorkflowRun, error) {
	id := JobWorkflowID(in.Spec)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, JobWorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("start job workflow %s on task queue %s: %w", id, taskQueue, err)
	}
	return run, nil
}

// WaitJob waits for the job workflow of run (following its continue-as-new runs), calling poll
// every period meanwhile (the caller's progress report). A job that failed in the workflow returns
// the driver's error with its kind restored (see errorKinds): a *job.InputError, or an error matching
// the same sentinel (checkpoint.ErrLeaseHeld, checkpoint.ErrStop, …) as in process. Cancelling ctx
// stops waiting only: the job goes on.
func WaitJob(ctx context.Context, run client.WorkflowRun, every time.Duration, poll func()) (JobProgress, error) {
	type outcome struct {
		p   JobProgress
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		var p JobProgress
		err := run.Get(ctx, &p)
		done <- outcome{p, err}
	}()
	tick := time.NewTicker(max(every, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			if o.err != nil {
				if ctx.Err() != nil {
					return o.p, ctx.Err()
				}
				return o.p, fromWireKind(o.err)
			}
			return o.p, nil
		case <-tick.C:
			if poll != nil {
				poll()
			}
		}
	}
}
