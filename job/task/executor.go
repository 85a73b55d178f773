package task

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/metrics"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// Executor runs the write tasks of one window attempt somewhere: in this process (the default,
// job.Config.Executor nil) or on other machines (job/temporal). The driver — recovery, assignment,
// commit and publish — stays in job.Run; an executor only makes each task run Run, which stores the
// task's result in the checkpoint store. The driver then reloads the store and commits only from
// stored results, so an executor that runs a task twice, or reports a task done that another try
// finished, cannot change what is committed: a result stored for a task id stands (S1).
type Executor interface {
	// RunTasks returns nil once every task of b has a stored result, or the first task error. The
	// row count is informational (rows written by the tries this call ran).
	RunTasks(ctx context.Context, b Batch) (rows int64, err error)
}

// Batch is the plain-data description of one window attempt's tasks, all a remote executor
// sends: the large outputs (commit messages, ids) go to the checkpoint store, not back.
type Batch struct {
	Job        string  `json:"job"`
	CommitUser string  `json:"commitUser"` // the job's commit user (job.json): unique per job instance
	Window     int64   `json:"window"`
	Attempt    int     `json:"attempt"`
	SchemaID   int64   `json:"schemaId"` // the table schema the tasks must write with
	Tasks      []Input `json:"tasks"`
	// PerTask is how many splits one task reads at once (the in-process Parallelism); SplitTasks
	// says each task has writers of its own (runTask) rather than one writer per bucket shared by
	// its readers (runWindowTask).
	PerTask    int  `json:"perTask"`
	SplitTasks bool `json:"splitTasks"`
}

// Env is what a task needs where it runs: the table (at Batch.SchemaID), the job's
// checkpoint store, the input source and the job's result-changing options.
type Env struct {
	Table     *table.Table
	Store     *checkpoint.Store
	Source    source.Source
	Mapping   source.MappingOptions
	Transform Transform // library users only; must be the driver's (deterministic)
	IDColumn  string    // row-id mode, as job.Config.IDColumn
	// Metrics, if set, counts the rows the task reads, rejects and writes.
	Metrics *metrics.Load
	// Hook, if set, is called at PointTaskWritten and PointResultStored as job.Config.Hook is in process
	// (a worker wires LAKELOAD_CRASH_AT / LAKELOAD_PAUSE_AT / LAKELOAD_HOLD_AT to it); an error fails the try.
	Hook func(point string, window int64) error
}

// Hook points of a task (job.Config.Hook, Env.Hook), named as job names its others.
const (
	PointTaskWritten  = "task-written"  // a task wrote its data files, before its result is stored
	PointResultStored = "result-stored" // a task's result is stored
)

// ID is the result name of task n of a window attempt.
func ID(n int) string { return fmt.Sprintf("t%04d", n) }

// Write runs task in: it writes the rows of its splits into data files and returns their commit
// messages and what they cover. It stores nothing: a result counts once it is stored (Run).
func Write(ctx context.Context, wr Writing, in Input) (Output, error) {
	if wr.SplitTasks {
		return runTask(ctx, wr, in)
	}
	return runWindowTask(ctx, wr, in, max(wr.PerTask, 1))
}

// Run runs task in of batch b and stores its result in env.Store. It is at-least-once safe: if
// a result is already stored for the task (an earlier or concurrent try), that result stands and
// Run returns (0, nil) without writing; a try that loses the race leaves its files unreferenced
// (never committed; `lakeload clean-orphans` removes them). A table whose schema is not b.SchemaID is an
// error: the driver evolved or the table moved on, and a retry after reloading the table may pass.
func Run(ctx context.Context, env Env, b Batch, in Input) (int64, error) {
	if env.Table.Schema.ID != b.SchemaID {
		return 0, fmt.Errorf("window %d task %d: table %s is at schema %d, the driver wrote with schema %d; reload the table and retry",
			in.Window, in.Task, env.Table.Path, env.Table.Schema.ID, b.SchemaID)
	}
	taskID := ID(in.Task)
	done, err := fileio.Exists(ctx, env.Store.FS(), env.Store.ResultPath(in.Window, in.Attempt, taskID))
	if err != nil || done {
		return 0, err
	}
	var filter *IDFilter
	if env.IDColumn != "" {
		if filter, err = storedIDFilter(ctx, env, in.Window); err != nil {
			return 0, err
		}
	}
	src := env.Source
	if src == nil {
		return 0, errors.New("job: task.Env.Source is required")
	}
	out, err := Write(ctx, Writing{Source: src, Table: env.Table, Mapping: env.Mapping, Transform: env.Transform, IDs: filter,
		Metrics: env.Metrics, PerTask: b.PerTask, SplitTasks: b.SplitTasks}, in)
	if err != nil {
		return 0, err
	}
	if err := env.hook(PointTaskWritten, in.Window); err != nil {
		return 0, err
	}
	if err := WriteQuarantine(ctx, env.Store, in.Window, in.Attempt, taskID, out.Rejected); err != nil && !errors.Is(err, fileio.ErrExist) {
		return 0, err
	}
	r, err := StoredResult(in, taskID, out)
	if err != nil {
		return 0, err
	}
	_, err = env.Store.WriteResult(ctx, r)
	if errors.Is(err, fileio.ErrExist) {
		return 0, nil // another try stored the task's result first; it stands
	}
	if err != nil {
		return 0, fmt.Errorf("store result of window %d task %d: %w", in.Window, in.Task, err)
	}
	return out.Rows, env.hook(PointResultStored, in.Window)
}

func (env Env) hook(point string, w int64) error {
	if env.Hook == nil {
		return nil
	}
	return env.Hook(point, w)
}

// storedIDFilter builds the row-id filter of window w from the store: ids published by live
// windows before w are skipped, as the in-process driver does (job/rowid.go).
func storedIDFilter(ctx context.Context, env Env, w int64) (*IDFilter, error) {
	col, err := IDColumnIndex(env.Table.Schema, env.IDColumn)
	if err != nil {
		return nil, err
	}
	st, err := env.Store.Load(ctx)
	if err != nil {
		return nil, err
	}
	pub := map[string]int64{}
	for _, ws := range st.Windows() {
		if ws.Published == nil || ws.Voided != nil || ws.Window >= w {
			continue
		}
		for _, id := range ws.Published.IDs {
			pub[id] = ws.Window
		}
	}
	if len(pub) == 0 {
		pub = nil
	}
	return NewIDFilter(col, pub), nil
}
