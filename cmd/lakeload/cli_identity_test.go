package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// TestRecreatedTableRefusesFinishedJob: a job is bound to the table it loaded. The job's store is
// outside the warehouse (--checkpoint), so `table drop` cannot see it; after `table drop` and
// `table create` of the same name, the same `load` and `status` refuse with exit 7 and say what to
// do, instead of "already finished; nothing to do" over an empty table (and status between the drop
// and the create, exit 4). After `job forget`, the same command loads the new table.
func TestRecreatedTableRefusesFinishedJob(t *testing.T) {
	wh, in, ck := loadtest.TempDir(t), loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(131, 4, 50)
	glob := fx.WriteInputs(t, in)
	name := loadtest.Database + "." + fx.Name
	create := cmdArgs([]string{"table", "create"}, tbl(wh, name, "--column", "id BIGINT", "--column", "name STRING", "--column", "amount BIGINT"))
	ok(t, create...)
	store := []string{"--checkpoint", filepath.Join(ck, "j")}
	ok(t, loadArgs(wh, fx, glob, "j", store...)...)

	ok(t, cmdArgs([]string{"table", "drop"}, tbl(wh, name))...)
	fails(t, exitTable, []string{"job j", "no longer exists", "lakeload job forget --job j"},
		cmdArgs([]string{"status"}, tbl(wh, name, append([]string{"--job", "j"}, store...)...))...)
	ok(t, create...)
	tb := fx.Open(t, wh, local.New())
	want := []string{"job j", "dropped and created again", "lakeload job forget --job j", "another --job"}
	r := fails(t, exitAttention, want, loadArgs(wh, fx, glob, "j", store...)...)
	if strings.Contains(r.stdout, "already finished") {
		t.Errorf("load of the recreated table printed %q", r.stdout)
	}
	if ids, _ := tb.Snapshots().IDs(context.Background()); len(ids) != 0 {
		t.Errorf("the refused load changed the recreated table: snapshots %v", ids)
	}
	fails(t, exitAttention, want, cmdArgs([]string{"status"}, tbl(wh, name, append([]string{"--job", "j"}, store...)...))...)
	fails(t, exitAttention, want, cmdArgs([]string{"status"}, tbl(wh, name, append([]string{"--job", "j", "--output", "json"}, store...)...))...)

	ok(t, cmdArgs([]string{"job", "forget"}, tbl(wh, name, append([]string{"--job", "j"}, store...)...))...)
	if out := ok(t, loadArgs(wh, fx, glob, "j", store...)...); !strings.HasPrefix(out, "job j finished: ") {
		t.Errorf("load after forget printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Errorf("recreated table after the new job:%s", d)
	}
}

// TestRecreatedTableRefusesInterruptedJob: a job killed half-way is refused the same way once its
// table was dropped behind lakeload's back (by another engine) and created again — not stopped at
// window 1 with advice to recompute that window into the new table — and `jobs list` says so.
func TestRecreatedTableRefusesInterruptedJob(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Dedup(132, 6, 60)
	glob := fx.WriteInputs(t, in)
	fx.Create(t, wh)
	if _, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=before-commit:2"}, loadArgs(wh, fx, glob, "j")...); code != -1 {
		t.Fatalf("crashing load: exit %d, stderr %s", code, errs)
	}
	if err := os.RemoveAll(fx.TablePath(wh)); err != nil {
		t.Fatal(err)
	}
	tb := fx.Create(t, wh)
	fails(t, exitAttention, []string{"dropped and created again", "lakeload job forget --job j"}, loadArgs(wh, fx, glob, "j")...)
	if ids, _ := tb.Snapshots().IDs(context.Background()); len(ids) != 0 {
		t.Errorf("the refused load changed the recreated table: snapshots %v", ids)
	}
	name := loadtest.Database + "." + fx.Name
	if list := ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, name))...); !hasLine(list, "j", "table dropped and created again") {
		t.Errorf("jobs list:\n%s", list)
	}
}

// TestTableDropWithJobs: `table drop` refuses while the table has jobs, naming them and --with-jobs;
// `table drop --with-jobs` removes the table's job stores and its sequence reservations with it, and
// refuses (removing nothing) while one of the jobs is running. The same load command then starts a
// new job on the recreated table.
func TestTableDropWithJobs(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(133, 4, 50)
	glob := fx.WriteInputs(t, in)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	cat := catalog.New(local.New(), wh)
	ok(t, loadArgs(wh, fx, glob, "a")...)
	if _, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=before-commit:2"}, loadArgs(wh, fx, glob, "b")...); code != -1 {
		t.Fatalf("crashing load: exit %d, stderr %s", code, errs)
	}
	fails(t, exitTable, []string{"load jobs a, b", "--with-jobs", "job forget"}, cmdArgs([]string{"table", "drop"}, tbl(wh, name))...)
	if ok, _ := cat.TableExists(context.Background(), fx.Ident()); !ok {
		t.Fatal("a refused drop removed the table")
	}
	seq := job.SeqReservationsDir(cat, fx.Ident())
	if _, err := os.Stat(seq); err != nil {
		t.Fatalf("no sequence reservations after a load: %v", err)
	}

	// A job whose lease a live process holds stops the drop before anything is removed.
	holdLease(t, job.StorePath(cat, fx.Ident(), "c"))
	fails(t, exitFailure, []string{"job c is running", "stop it first"}, cmdArgs([]string{"table", "drop"}, tbl(wh, name, "--with-jobs"))...)
	for _, p := range []string{fx.TablePath(wh), job.StorePath(cat, fx.Ident(), "a"), job.StorePath(cat, fx.Ident(), "b")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("a refused drop removed %s: %v", p, err)
		}
	}
	if err := os.RemoveAll(job.StorePath(cat, fx.Ident(), "c")); err != nil {
		t.Fatal(err)
	}

	out := ok(t, cmdArgs([]string{"table", "drop"}, tbl(wh, name, "--with-jobs"))...)
	if !strings.Contains(out, "dropped table "+name) || !strings.Contains(out, "a, b") {
		t.Errorf("drop --with-jobs printed %q", out)
	}
	for _, p := range []string{fx.TablePath(wh), job.JobsDir(cat, fx.Ident()), seq} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after drop --with-jobs (%v)", p, err)
		}
	}
	tb := fx.Create(t, wh)
	if out := ok(t, loadArgs(wh, fx, glob, "a")...); !strings.HasPrefix(out, "job a finished: ") {
		t.Errorf("load after drop --with-jobs printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Errorf("recreated table after the new job:%s", d)
	}
	// Without jobs, a plain drop works as before.
	ok(t, cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "a"))...)
	ok(t, cmdArgs([]string{"table", "drop"}, tbl(wh, name))...)
}

// TestNoPhantomJobs: a load that fails before planning (its glob matches nothing) and an abort of a
// job that does not exist leave no job directory behind, so `jobs list` shows nothing.
func TestNoPhantomJobs(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(134, 2, 20)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	cat := catalog.New(local.New(), wh)

	fails(t, exitInput, []string{"matches no files"}, loadArgs(wh, fx, filepath.Join(in, "nothing-*.csv"), "empty")...)
	fails(t, exitTable, []string{"no job nope"}, cmdArgs([]string{"job", "abort"}, tbl(wh, name, "--job", "nope"))...)
	for _, name := range []string{"empty", "nope"} {
		if _, err := os.Stat(job.StorePath(cat, fx.Ident(), name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("job %s left a store behind (%v)", name, err)
		}
	}
	if list := ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, name))...); len(lines(list)) != 1 {
		t.Errorf("jobs list shows phantom jobs:\n%s", list)
	}
	// status of a job that does not exist says so and creates nothing either.
	fails(t, exitTable, []string{"no job empty"}, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "empty"))...)
	if _, err := os.Stat(job.JobsDir(cat, fx.Ident())); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the failed commands left %s (%v)", job.JobsDir(cat, fx.Ident()), err)
	}
}

// TestJobsListShowsStoreWithoutJob: a store holding only a lease (a run killed between taking the
// lease and writing job.json) is listed as such, not as a job running for ever, and `job forget`
// removes it.
func TestJobsListShowsStoreWithoutJob(t *testing.T) {
	wh := loadtest.TempDir(t)
	fx := loadtest.Append(135, 1, 10)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	cat := catalog.New(local.New(), wh)
	store := job.StorePath(cat, fx.Ident(), "half")
	if err := os.MkdirAll(filepath.Join(store, "lease"), 0o755); err != nil {
		t.Fatal(err)
	}
	list := ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, name))...)
	if !hasLine(list, "half", "no job record", "job forget") || strings.Contains(list, "running") {
		t.Errorf("jobs list:\n%s", list)
	}
	var st jobStatus
	if r := lakeload(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "half", "--output", "json"))...); r.code == 0 {
		_ = json.Unmarshal([]byte(r.stdout), &st)
		t.Errorf("status of a store without a job succeeded: %+v", st)
	}
	ok(t, cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "half"))...)
	if _, err := os.Stat(store); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("forget left %s (%v)", store, err)
	}
}

// holdLease makes the job store at root look run by a live process on this host (the test's parent).
func holdLease(t *testing.T, root string) {
	t.Helper()
	host, _ := os.Hostname()
	if _, err := checkpoint.NewStore(local.New(), root).AcquireLease(context.Background(), checkpoint.LeaseOptions{
		Owner: checkpoint.LeaseOwner{Host: host, PID: os.Getppid(), Token: "live"}}); err != nil {
		t.Fatal(err)
	}
}
