package job_test

import (
	"context"
	"errors"
	"os"
	"path"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
)

// TestJobRecordsTableIdentity: job.json records the identity of the table the job loads; a finished
// job run again over the table dropped and created again is refused (ErrTableReplaced) instead of
// reporting "already done", and writes nothing to the new table.
func TestJobRecordsTableIdentity(t *testing.T) {
	ctx := context.Background()
	e := newScEnv(t, parquetFiles(loadtest.Append(61, 3, 40)))
	e.mustRun(e.cfg(40, 1, nil))
	jr, _ := e.state().Job()
	id, err := e.table().Identity(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if jr.TableUUID == "" || jr.TableUUID != id {
		t.Fatalf("job.json records table uuid %q, the table's identity is %q", jr.TableUUID, id)
	}
	if res := e.mustRun(e.cfg(40, 1, nil)); !res.AlreadyDone {
		t.Fatalf("second run of the finished job: %+v", res)
	}
	if err := os.RemoveAll(e.fx.TablePath(e.wh)); err != nil {
		t.Fatal(err)
	}
	e.fx.Create(t, e.wh)
	res, err := job.Run(ctx, e.cfg(40, 1, nil))
	if !errors.Is(err, checkpoint.ErrTableReplaced) || res.AlreadyDone {
		t.Errorf("finished job over the recreated table: %+v, %v; want ErrTableReplaced", res, err)
	}
	if ids := e.snapshotIDs(); len(ids) != 0 {
		t.Errorf("the recreated table got snapshots %v", ids)
	}
}

// TestLegacyJobWithoutTableIdentityResumes: a job created before lakeload recorded the table's
// identity (no tableUuid in job.json) resumes and finishes as before.
func TestLegacyJobWithoutTableIdentityResumes(t *testing.T) {
	ctx := context.Background()
	e := newScEnv(t, parquetFiles(loadtest.Append(62, 4, 40)))
	e.mustCrash(e.cfg(40, 1, crashAt(job.PointBeforeCommit, 2, 1)))
	jr, _ := e.state().Job()
	jr.TableUUID = ""
	if err := os.Remove(path.Join(e.store.Root(), "job.json")); err != nil {
		t.Fatal(err)
	}
	if err := checkpoint.NewStore(local.New(), e.store.Root()).WriteJob(ctx, jr); err != nil {
		t.Fatal(err)
	}
	e.mustRun(e.cfg(40, 1, nil))
	if d := loadtest.Diff(e.fx.Expected(t), e.lines()); d != "" {
		t.Errorf("table after the legacy job resumed:%s", d)
	}
}

// TestFailedPlanningLeavesNoStore: a first run whose input cannot be planned fails before it takes
// the lease, so the store is never created.
func TestFailedPlanningLeavesNoStore(t *testing.T) {
	e := newScEnv(t, parquetFiles(loadtest.Append(63, 1, 10)))
	cfg := e.cfg(40, 1, nil)
	cfg.From = []string{path.Join(e.in, "nothing-*.parquet")}
	if _, err := job.Run(context.Background(), cfg); err == nil {
		t.Fatal("a glob matching nothing was loaded")
	}
	if _, err := os.Stat(e.store.Root()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the failed run left its store %s (%v)", e.store.Root(), err)
	}
}
