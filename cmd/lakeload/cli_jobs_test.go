package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// runChild runs the test binary as the lakeload binary with extra environment variables and returns
// its stdout, stderr and exit code (-1 when killed by a signal).
func runChild(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), mainEnv+"=1"), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// loadArgs is the `lakeload load` command line of job name over fx's input glob.
func loadArgs(wh string, fx loadtest.Fixture, glob, name string, more ...string) []string {
	args := cmdArgs([]string{"load"}, tbl(wh, loadtest.Database+"."+fx.Name, "--from", glob, "--job", name,
		"--commit-rows", "100", "--parallelism", "2"))
	if fx.OpColumn != "" {
		args = append(args, "--op-column", fx.OpColumn)
	}
	return append(args, more...)
}

// TestLoadStatusJobsForget: a finished load reports itself in `status --output json` (every window
// published with the snapshot the table holds for it, all splits and rows done, lease released) and
// in `jobs list`; running it again does nothing. A load killed (SIGKILL) before its second commit is
// listed as interrupted; `job forget` removes its store and its snapshot pin (its committed window
// stays), refuses a job whose lease a live process holds, and the same command then loads anew.
func TestLoadStatusJobsForget(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Dedup(21, 6, 60)
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name

	out := ok(t, loadArgs(wh, fx, glob, "first")...)
	if !strings.HasPrefix(out, "job first finished: ") {
		t.Fatalf("load printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after load:%s", d)
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "first", "--output", "json"))...)), &st); err != nil {
		t.Fatal(err)
	}
	if st.Job != "first" || st.Table != name || !st.Done || st.SplitsTotal != len(fx.Files) || st.SplitsDone != st.SplitsTotal ||
		st.RowsPublished != int64(fx.Rows()) || len(st.Windows) < 2 || st.Lease == nil || !st.Lease.Released ||
		!strings.HasPrefix(st.CommitUser, "lakeload-") {
		t.Fatalf("status: %+v (lease %+v)", st, st.Lease)
	}
	var rows int64
	for _, w := range st.Windows {
		markers := loadtest.WindowCommits(t, tb, st.CommitUser, w.Window)
		if w.State != "published" || len(markers) != 1 || markers[0].ID != w.SnapshotID || w.Attempts != 1 {
			t.Errorf("status window %+v; the table has %d markers for it", w, len(markers))
		}
		rows += w.Rows
	}
	if rows != int64(fx.Rows()) {
		t.Errorf("window rows add up to %d, want %d", rows, fx.Rows())
	}
	if out := ok(t, loadArgs(wh, fx, glob, "first")...); !strings.Contains(out, "already finished") {
		t.Errorf("second load printed %q", out)
	}

	// A second job killed with SIGKILL before the commit of window 2.
	_, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=before-commit:2"}, loadArgs(wh, fx, glob, "second")...)
	if code != -1 {
		t.Fatalf("crashing load: exit %d, stderr %s", code, errs)
	}
	list := ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, name))...)
	if !hasLine(list, "first", "finished") || !hasLine(list, "second", "interrupted: its runner, pid", "is gone; run the load command again") {
		t.Fatalf("jobs list:\n%s", list)
	}
	cat := catalog.New(local.New(), wh)
	store := job.StorePath(cat, fx.Ident(), "second")
	pin := filepath.Join(tb.Path, "consumer", "consumer-lakeload-second")
	if _, err := os.Stat(pin); err != nil {
		t.Fatalf("the interrupted job has no snapshot pin: %v", err)
	}
	snapsBefore, _ := tb.Snapshots().IDs(context.Background())

	ok(t, cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "second"))...)
	for _, p := range []string{store, pin} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after forget (%v)", p, err)
		}
	}
	if snaps, _ := tb.Snapshots().IDs(context.Background()); len(snaps) != len(snapsBefore) {
		t.Errorf("forget changed the snapshots: %v → %v", snapsBefore, snaps)
	}
	if list := ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, name))...); strings.Contains(list, "second") || !hasLine(list, "first", "finished") {
		t.Errorf("jobs list after forget:\n%s", list)
	}
	// Loading the same input again into a deduplicate table is a new job with the same result.
	if out := ok(t, loadArgs(wh, fx, glob, "second")...); !strings.HasPrefix(out, "job second finished: ") {
		t.Errorf("load after forget printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after the new job:%s", d)
	}

	// A job whose lease a live process holds is not forgotten.
	host, _ := os.Hostname()
	live := checkpoint.NewStore(local.New(), job.StorePath(cat, fx.Ident(), "third"))
	if _, err := live.AcquireLease(context.Background(), checkpoint.LeaseOptions{
		Owner: checkpoint.LeaseOwner{Host: host, PID: os.Getppid(), Token: "live"}}); err != nil {
		t.Fatal(err)
	}
	fails(t, exitFailure, []string{"job third is running", "stop it first"}, cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "third"))...)
	if ok, _ := fileio.Exists(context.Background(), local.New(), live.Root()); !ok {
		t.Error("forget of a running job removed its store")
	}
}

// hasLine reports whether some line of text contains every part.
func hasLine(text string, parts ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestJobAbort: a load killed after its first window is aborted: its pin is released, the committed
// window stays in the table, status and jobs list say "aborted", and running the load again refuses
// with exit code 7 instead of continuing (and changes nothing).
func TestJobAbort(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Dedup(22, 6, 60)
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	if _, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=before-commit:2"}, loadArgs(wh, fx, glob, "j")...); code != -1 {
		t.Fatalf("crashing load: exit %d, stderr %s", code, errs)
	}
	pin := filepath.Join(tb.Path, "consumer", "consumer-lakeload-j")
	if _, err := os.Stat(pin); err != nil {
		t.Fatalf("the interrupted job has no snapshot pin: %v", err)
	}
	snaps, _ := tb.Snapshots().IDs(context.Background())
	if len(snaps) != 1 {
		t.Fatalf("want the first window's snapshot only, got %v", snaps)
	}
	out := ok(t, cmdArgs([]string{"job", "abort"}, tbl(wh, name, "--job", "j"))...)
	if !strings.Contains(out, "aborted job j") {
		t.Errorf("abort printed %q", out)
	}
	if _, err := os.Stat(pin); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pin still there after abort (%v)", err)
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "j", "--output", "json"))...)), &st); err != nil {
		t.Fatal(err)
	}
	if !st.Aborted || st.Done || len(st.Windows) < 2 || st.Windows[0].State != "published" {
		t.Errorf("status after abort: %+v", st)
	}
	if list := ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, name))...); !hasLine(list, "j", "aborted") {
		t.Errorf("jobs list:\n%s", list)
	}
	fails(t, exitAttention, []string{"job j was aborted", "job forget"}, loadArgs(wh, fx, glob, "j")...)
	if after, _ := tb.Snapshots().IDs(context.Background()); len(after) != 1 {
		t.Errorf("a load of the aborted job changed the table: %v", after)
	}
	// Aborting twice is harmless.
	ok(t, cmdArgs([]string{"job", "abort"}, tbl(wh, name, "--job", "j"))...)
}

// TestStatusShowsLastErrorAndRowsLeft: a load that stops on a bad input value records the error with
// the lease, and status shows it (json and text) together with the rows still to load.
func TestStatusShowsLastErrorAndRowsLeft(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(23, 4, 50)
	glob := fx.WriteInputs(t, in)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	bad := filepath.Join(in, "in-zz-bad.csv")
	if err := os.WriteFile(bad, []byte("id,name\nnot-a-number,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runChild(t, nil, loadArgs(wh, fx, glob, "j")...)
	if code != exitInput {
		t.Fatalf("load with a bad file: exit %d, stderr %s", code, errs)
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "j", "--output", "json"))...)), &st); err != nil {
		t.Fatal(err)
	}
	if st.Lease == nil || !strings.Contains(st.Lease.LastError, "zz-bad.csv") || st.RowsLeft <= 0 || st.Done {
		t.Fatalf("status after a failed run: %+v lease %+v", st, st.Lease)
	}
	text := ok(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "j"))...)
	if !strings.Contains(text, "Last error: ") || !strings.Contains(text, "zz-bad.csv") || !strings.Contains(text, "rows left") {
		t.Errorf("status text:\n%s", text)
	}
}
