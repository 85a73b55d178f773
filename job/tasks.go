package job

import (
	"context"

	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/source"
)

// The task side of a load lives in package job/task: what a task is (plain data, so it can run
// anywhere), how it writes its rows and stores its result. These names keep job's API whole for
// library users: Config.Executor and Config.Transform are of these types, a remote executor
// receives a TaskBatch, and its worker runs RunTask in a TaskEnv.
type (
	// Executor runs the write tasks of one window attempt somewhere (task.Executor).
	Executor = task.Executor
	// TaskBatch is the plain-data description of one window attempt's tasks (task.Batch).
	TaskBatch = task.Batch
	// TaskInput fully describes one write task (task.Input).
	TaskInput = task.Input
	// TaskEnv is what a task needs where it runs (task.Env).
	TaskEnv = task.Env
	// Transform optionally rewrites each input batch before it is written (task.Transform).
	Transform = task.Transform
	// InputError marks an error caused by the input data (source.InputError).
	InputError = source.InputError
)

// RunTask runs task in of batch b and stores its result in env.Store (task.Run).
func RunTask(ctx context.Context, env TaskEnv, b TaskBatch, in TaskInput) (int64, error) {
	return task.Run(ctx, env, b, in)
}

// runTasks runs a window attempt's tasks with Config.Executor, or in this process: at most
// Parallelism at once, the first error cancelling the rest.
func (d *driver) runTasks(ctx context.Context, tasks []task.Input) (int64, error) {
	if err := d.mode.prepareTasks(tasks); err != nil {
		return 0, err
	}
	if ex := d.cfg.Executor; ex != nil && len(tasks) > 0 {
		return ex.RunTasks(ctx, task.Batch{Job: d.cfg.Name, CommitUser: d.job.CommitUser, Window: tasks[0].Window, Attempt: tasks[0].Attempt,
			SchemaID: d.t.Schema.ID, Tasks: tasks, PerTask: d.cfg.Parallelism, SplitTasks: d.cfg.SplitTasks})
	}
	rows := make([]int64, len(tasks))
	fns := make([]func(context.Context) error, len(tasks))
	for i, in := range tasks {
		fns[i] = func(ctx context.Context) (err error) {
			rows[i], err = d.runAndStore(ctx, in)
			return err
		}
	}
	err := task.RunAll(ctx, d.cfg.Parallelism, fns)
	var n int64
	for _, r := range rows {
		n += r
	}
	return n, err
}
