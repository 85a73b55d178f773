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

// Config describes a load job. The same Config run again resumes the job.
type Config struct {
	Name    string       // job name, unique per table; part of the store location and snapshot markers
	Table   *table.Table // the target table
	InputFS fileio.FileIO
	From    string         // input glob (ignored when Splits is set)
	Format  string         // parquet, csv, jsonl or "" (by extension)
	Splits  []source.Split // pre-planned input (library users); nil plans From
	// Source reads the splits; default: files on InputFS (source/file). A custom Source needs Splits;
	// its splits are not fingerprinted (the source must give the same rows for a split every time).
	Source  source.Source
	Store   *checkpoint.Store
	Mapping source.MappingOptions
	// IDColumn turns on row-id mode: the table column (integer or string type) holding a unique id
	// per input row. Ids are stored with each attempt's results and published with the committed
	// attempt; duplicates are refused when a window is assigned. "" = off.
	IDColumn string
	// Overwrite replaces data instead of appending: "partitions" replaces the partitions the input
	// touches, "table" the whole table; "" appends. Windows are staged (written, stored, not
	// committed) and one OVERWRITE snapshot replaces the data after the last (overwrite.go). A
	// result-changing option: a job keeps the mode it was created with.
	Overwrite string
	// Incremental lets a finished job load the files that appeared under From since its last
	// generation, as a new generation (incremental.go); files already loaded that changed or
	// vanished are reported, never reloaded. Without it a finished job does nothing.
	Incremental bool
	// BadRows says what happens to a row that fails row-level validation: BadRowsFail (default, "")
	// stops the load; BadRowsQuarantine leaves the row out and lists it in the attempt's quarantine
	// file (see QuarantinePath). File-level problems always stop the load.
	BadRows string

	// SeqReservations is a directory on Table.FS shared by every lakeload job of the table, outside
	// the table directory (the CLI uses <warehouse>/.lakeload/tables/<db>/<table>): each window
	// reserves its sequence range there before it is assigned, so of two jobs loading the table at
	// once the window assigned later gets the higher sequence numbers and wins on equal keys
	// (seqreserve.go). "" = off: a window's base is only above the table and the job's own windows.
	SeqReservations string

	CommitRows  int64         // rows per window (default 1,000,000)
	CommitEvery time.Duration // target duration of a window, sized from measured throughput (0: off)
	Parallelism int           // readers and flushes running at once (default: number of CPUs)
	// SplitTasks runs Parallelism write tasks per window, each over a contiguous group of splits with
	// writers of its own (the task model a distributed executor uses: every task stores its own
	// result). By default a window is one task whose splits are read in parallel and whose rows go to
	// one writer per (partition, bucket), flushed in parallel — fewer, larger files.
	SplitTasks bool
	// Executor runs each window attempt's tasks (executor.go); nil runs them in this process. The
	// task-level hook points (PointTaskWritten, PointResultStored) are called in process only.
	Executor Executor

	// Bound stops the run cleanly between windows (a driver segment, segment.go); zero: run to the end.
	Bound Bound
	// Lease replaces the lease identity and takeover rule (lease_policy.go); nil: this process.
	Lease *LeasePolicy

	Transform        Transform
	Takeover         bool    // take the lease from a live runner (it must be stopped)
	RecomputeWindows []int64 // windows rolled back by hand to recompute as new windows
	DryRun           bool    // plan and check, write nothing
	// EvolveSchema "add-columns" (EvolveAddColumns) adds input columns the table lacks as nullable
	// columns in a new schema before the window that first holds them is written (evolve.go).
	// "" = off: such columns are an error. Needs the file source.
	EvolveSchema string
	// Compaction is CompactionAuto ("" = auto: compact as the job goes; deletion-vector and
	// first-row tables before each window is published) or CompactionOff (compact.go).
	Compaction string
	// Metrics receives the job's counters and gauges (package metrics); nil = off.
	Metrics *metrics.Load

	Logger   *slog.Logger
	Progress func(Progress) // called after each window and at the end
	// Hook is called at named points (see Point*); an error returned aborts the run there, as a crash
	// would (tests). The CLI wires LAKELOAD_CRASH_AT / LAKELOAD_PAUSE_AT / LAKELOAD_HOLD_AT to it.
	Hook func(point string, window int64) error
	Now  func() time.Time
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
	RowsEstimated  int64 // rows of all input (exact for Parquet, estimated from size for text)
	RowsPerSecond  float64
	LastSnapshotID int64
}

func (c *Config) defaults() error {
	if c.Name == "" {
		return fmt.Errorf("job: a job name is required")
	}
	if err := CheckName(c.Name); err != nil {
		return fmt.Errorf("job: %w", err)
	}
	if c.Table == nil || c.Store == nil {
		return fmt.Errorf("job: table and checkpoint store are required")
	}
	if c.Source == nil {
		c.Source = file.Source{FS: c.InputFS}
	} else if c.Splits == nil {
		return fmt.Errorf("job: a custom Source needs Config.Splits")
	}
	if err := c.Mapping.CSV.Check(); err != nil {
		return fmt.Errorf("job: %w", err)
	}
	if err := c.checkBadRows(); err != nil {
		return err
	}
	if err := c.checkEvolveMode(); err != nil {
		return err
	}
	if err := c.checkCompaction(); err != nil {
		return err
	}
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
	return nil
}

func (c *Config) hook(ctx context.Context, point string, w int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.Hook(point, w)
}
