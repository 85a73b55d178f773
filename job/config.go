package job

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/metrics"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// Config is one run of a load job: its Spec (embedded: c.From, c.CommitRows, … are the Spec's) and
// what the run opened and is given — the table, the file systems, the store, the executor and the
// run's logger, hooks, metrics and progress. The same Spec run again resumes the job. Open builds a
// Config from a Spec.
type Config struct {
	Spec

	Table   *table.Table // the target table
	InputFS fileio.FileIO
	Splits  []source.Split // pre-planned input (library users); nil plans From
	// Source reads the splits; default: files on InputFS (source/file). A custom Source needs Splits;
	// its splits are not fingerprinted (the source must give the same rows for a split every time).
	Source source.Source
	Store  *checkpoint.Store

	// SeqReservations is a directory on Table.FS shared by every lakeload job of the table, outside
	// the table directory (Open uses SeqReservationsDir: <warehouse>/.lakeload/tables/<db>/<table>):
	// each window reserves its sequence range there before it is assigned, so of two jobs loading the
	// table at once the window assigned later gets the higher sequence numbers and wins on equal keys
	// (package job/seqreserve). "" = off: a window's base is only above the table and the job's own windows.
	SeqReservations string

	// Executor runs each window attempt's tasks (executor.go); nil runs them in this process. The
	// task-level hook points (PointTaskWritten, PointResultStored) are called in process only.
	Executor Executor

	// Bound stops the run cleanly between windows (a driver segment, segment.go); zero: run to the end.
	Bound Bound
	// Lease replaces the lease identity and takeover rule (lease_policy.go); nil: this process.
	Lease *LeasePolicy

	Transform Transform
	// Metrics receives the job's counters and gauges (package metrics); nil = off.
	Metrics *metrics.Load

	Logger   *slog.Logger
	Progress func(Progress) // called after each window and at the end
	// Hook is called at named points (see Point*); an error returned aborts the run there, as a crash
	// would (tests). The CLI wires LAKELOAD_CRASH_AT / LAKELOAD_PAUSE_AT / LAKELOAD_HOLD_AT to it.
	Hook func(point string, window int64) error
	Now  func() time.Time

	mapping source.MappingOptions // the Spec's column mapping, resolved by defaults
}

// Named points where Hook is called.
const (
	PointPlanned        = "planned"              // job and plan records written
	PointAssigned       = "assigned"             // window assigned, before its tasks
	PointTaskWritten    = task.PointTaskWritten  // a task wrote its data files, before its result is stored
	PointResultStored   = task.PointResultStored // a task's result is stored
	PointBeforeCommit   = "before-commit"        // all results stored, before the commit
	PointInsideCommit   = "inside-commit"        // manifests written, before snapshot-N is created
	PointAfterCommit    = "after-commit"         // snapshot created, before verification and `committed`
	PointBeforePublish  = "before-publish"       // `committed` written, before `published`
	PointAfterPublish   = "after-publish"        // window published
	PointRecoveryAction = "recovery-action"      // before each recovery action
	PointSchemaEvolved  = "schema-evolved"       // the window's new schema file written, before its tasks
)

// Progress reports a job's state.
type Progress struct {
	Window         int64
	WindowsDone    int64
	RowsPublished  int64
	SplitsDone     int
	SplitsTotal    int
	RowsEstimated  int64 // rows of all input (exact for Parquet, ORC and cut text; sampled for compressed and small text files)
	RowsPerSecond  float64
	LastSnapshotID int64
}

// defaults validates the Spec (Spec.Validate: once, for every caller) and what the run was given,
// and fills in the defaults.
func (c *Config) defaults() error {
	if err := c.Spec.validate(c.Splits == nil); err != nil {
		return err
	}
	if c.Table == nil || c.Store == nil {
		return fmt.Errorf("job: table and checkpoint store are required")
	}
	if c.Source == nil {
		c.Source = file.Source{FS: c.InputFS}
	} else if c.Splits == nil {
		return fmt.Errorf("job: a custom Source needs Config.Splits")
	}
	var err error
	if c.mapping, err = c.Spec.MappingOptions(); err != nil {
		return err
	}
	if c.BadRows == "" {
		c.BadRows = BadRowsFail
	}
	if err := c.checkEvolveMode(); err != nil {
		return err
	}
	if err := c.checkCompaction(); err != nil {
		return err
	}
	c.fill()
	return nil
}

// fill fills in the defaults of the options left zero and of the run's hooks.
func (c *Config) fill() {
	if c.CommitRows <= 0 {
		c.CommitRows = 1_000_000
	}
	if c.Parallelism <= 0 {
		c.Parallelism = runtime.NumCPU()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Hook == nil {
		c.Hook = func(string, int64) error { return nil }
	}
}

func (c *Config) hook(ctx context.Context, point string, w int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.Hook(point, w)
}
