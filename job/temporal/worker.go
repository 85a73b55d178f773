package temporal

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// NewWorker returns a worker on taskQueue that runs window workflows and at most concurrency task
// activities at once (0: the SDK default). Start it with Run or Start.
func NewWorker(c client.Client, taskQueue string, concurrency int, acts *Activities) worker.Worker {
	w := worker.New(c, taskQueue, worker.Options{MaxConcurrentActivityExecutionSize: concurrency})
	Register(w, acts)
	return w
}

// Register registers the window workflow and the task activity under their wire names.
func Register(r worker.Registry, acts *Activities) {
	r.RegisterWorkflowWithOptions(WindowWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterActivityWithOptions(acts.RunTask, activity.RegisterOptions{Name: ActivityName})
}
