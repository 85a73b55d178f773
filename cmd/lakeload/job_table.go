package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/table"
)

// errTableHasJobs is wrapped by `table drop`'s refusal to drop a table that still has load jobs.
var errTableHasJobs = errors.New("it has load jobs")

// checkJobTable refuses a job whose table (the one at the path job.json records, on fs) no longer
// exists, or was dropped and created again since the job was created (checkpoint.ErrTableReplaced):
// what the store says was loaded is then not in the table.
func checkJobTable(ctx context.Context, fs fileio.FileIO, jr checkpoint.JobRecord) error {
	t := &table.Table{FS: fs, Path: jr.TablePath}
	id, err := t.Identity(ctx)
	if errors.Is(err, fileio.ErrNotExist) {
		return fmt.Errorf("%w: job %s loaded the table at %s, which no longer exists (dropped), and its windows with it: "+
			"run 'lakeload job forget --job %s' to remove the job", catalog.ErrTableNotExist, jr.JobID, jr.TablePath, jr.JobID)
	}
	if err != nil {
		return err
	}
	return jr.CheckTable(id)
}

// tableJobs lists the job stores of a table in the default checkpoint location (job.JobsDir), sorted by name.
func tableJobs(ctx context.Context, cat *catalog.Catalog, id catalog.Identifier) ([]fileio.FileInfo, error) {
	infos, err := cat.FS.List(ctx, job.JobsDir(cat, id))
	if err != nil {
		return nil, err
	}
	var out []fileio.FileInfo
	for _, fi := range infos {
		if fi.IsDir {
			out = append(out, fi)
		}
	}
	return out, nil
}

// listedJobName is how `jobs list` prints the store directory name: as is when it is a valid job
// name, else quoted (a store left by an older lakeload or made by hand cannot forge or hide lines).
func listedJobName(name string) string {
	if job.CheckName(name) != nil {
		return strconv.Quote(name)
	}
	return name
}

// jobState is the state `jobs list` shows for the store at path.
func jobState(ctx context.Context, fs fileio.FileIO, path string) (state string, windows int) {
	store := checkpoint.NewStore(fs, path)
	st, err := store.Load(ctx)
	if err != nil {
		return "unreadable: " + err.Error(), 0
	}
	jr, ok := st.Job()
	if !ok {
		return "no job record (a run stopped before it created the job; 'lakeload job forget' removes it)", 0
	}
	switch err := checkJobTable(ctx, fs, jr); {
	case errors.Is(err, checkpoint.ErrTableReplaced):
		return "table dropped and created again since ('lakeload job forget' it)", len(st.Windows())
	case errors.Is(err, catalog.ErrTableNotExist):
		return "table dropped since ('lakeload job forget' it)", len(st.Windows())
	}
	if dr, done := st.Done(); done {
		if dr.Aborted {
			return "aborted", len(st.Windows())
		}
		return "finished", len(st.Windows())
	}
	return runnerState(ctx, store), len(st.Windows())
}
