package temporal

import (
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// DriverSlots is how many driver segments one worker process runs at once. Segments poll a queue
// of their own (DriverQueue), so a driver never takes a slot its window's tasks need.
const DriverSlots = 2

// DriverQueue is the task queue of the driver segments of jobs whose workflows run on taskQueue.
func DriverQueue(taskQueue string) string { return taskQueue + ".driver" }

// Worker is a lakeload worker: workflows and task activities on the task queue, driver segments on
// its driver queue.
type Worker struct {
	tasks, drivers worker.Worker
}

// NewWorker returns a worker on taskQueue that runs the job and window workflows and at most
// concurrency task activities at once (0: the SDK default), and, on DriverQueue(taskQueue), up to
// DriverSlots driver segments when acts.OpenDriver is set.
func NewWorker(c client.Client, taskQueue string, concurrency int, acts *Activities) *Worker {
	w := &Worker{tasks: worker.New(c, taskQueue, worker.Options{MaxConcurrentActivityExecutionSize: concurrency})}
	Register(w.tasks, acts)
	if acts.OpenDriver != nil {
		w.drivers = worker.New(c, DriverQueue(taskQueue), worker.Options{MaxConcurrentActivityExecutionSize: DriverSlots,
			DisableWorkflowWorker: true})
		RegisterDriver(w.drivers, acts)
	}
	return w
}

// Start starts polling; Stop stops it.
func (w *Worker) Start() error {
	if err := w.tasks.Start(); err != nil {
		return err
	}
	if w.drivers != nil {
		if err := w.drivers.Start(); err != nil {
			w.tasks.Stop()
			return fmt.Errorf("driver queue: %w", err)
		}
	}
	return nil
}

// Stop stops the worker; its running activities are retried elsewhere.
func (w *Worker) Stop() {
	if w.drivers != nil {
		w.drivers.Stop()
	}
	w.tasks.Stop()
}

// Register registers the workflows and the task activity under their wire names.
func Register(r worker.Registry, acts *Activities) {
	r.RegisterWorkflowWithOptions(WindowWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterWorkflowWithOptions(JobWorkflow, workflow.RegisterOptions{Name: JobWorkflowName})
	r.RegisterActivityWithOptions(acts.RunTask, activity.RegisterOptions{Name: ActivityName})
}

// RegisterDriver registers the driver-segment activity.
func RegisterDriver(r worker.ActivityRegistry, acts *Activities) {
	r.RegisterActivityWithOptions(acts.DriveSegment, activity.RegisterOptions{Name: SegmentActivity})
}
