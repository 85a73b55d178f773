package temporal

import (
	"context"
	"log/slog"

	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/source/file"
)

// WorkerHooks are what a worker process adds to the jobs it opens: its log and the hook it calls
// at the job's named points (the CLI wires LAKELOAD_CRASH_AT / LAKELOAD_PAUSE_AT / LAKELOAD_HOLD_AT).
type WorkerHooks struct {
	Logger *slog.Logger
	Hook   func(point string, window int64) error
	// Progress gives a driver segment's progress reporter, logging to log (nil: none).
	Progress func(log *slog.Logger) func(job.Progress)
}

// OpenTask returns the worker's Opener: for each task try it opens the table (at its current
// schema), the checkpoint store and the input of spec's job, from the Spec alone.
func OpenTask(h WorkerHooks) Opener {
	return func(ctx context.Context, spec job.Spec) (job.TaskEnv, error) {
		cat, id, err := spec.OpenCatalog()
		if err != nil {
			return job.TaskEnv{}, err
		}
		store, err := spec.OpenStore(cat, id)
		if err != nil {
			return job.TaskEnv{}, err
		}
		t, err := cat.LoadTable(ctx, id)
		if err != nil {
			return job.TaskEnv{}, err
		}
		mapping, err := spec.MappingOptions()
		if err != nil {
			return job.TaskEnv{}, err
		}
		inFS, err := spec.Input.OpenFS()
		if err != nil {
			return job.TaskEnv{}, err
		}
		return job.TaskEnv{Table: t, Store: store, Source: file.Source{FS: inFS}, Mapping: mapping, IDColumn: spec.IDColumn, Hook: h.Hook}, nil
	}
}

// OpenDriver returns the worker's DriverOpener: the job's Config as `lakeload load` builds it in
// process (job.Open of the Spec), logging to the worker's log under the job's name.
func OpenDriver(h WorkerHooks) DriverOpener {
	return func(ctx context.Context, spec job.Spec) (job.Config, error) {
		cfg, err := job.Open(ctx, spec, nil)
		if err != nil {
			return job.Config{}, err
		}
		if h.Logger != nil {
			cfg.Logger = h.Logger.With("job", spec.Name, "table", spec.TableName)
			if h.Progress != nil {
				cfg.Progress = h.Progress(cfg.Logger)
			}
		}
		cfg.Hook = h.Hook
		return cfg, nil
	}
}
