package temporal

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
)

// TestDevServerPausedDriverSegment: the worker running a job's driver segment is stopped with
// SIGSTOP mid-job (alive, holding the lease, silent) on a real dev server. Temporal times its try out
// and retries the segment on the other worker, which waits until it has seen the lease unchanged for
// the heartbeat timeout — the stopped worker is on this host and alive, so only the silence rule can
// let it in — takes over and finishes the job. Then the stopped worker is resumed (SIGCONT): its
// segment try ends with an error, its renewals and release are refused (the lease keeps the other
// try's last version), it commits nothing, a try of the segment delivered to it while it was stopped
// stands down (givenUp), and the aggregation table (a second commit of a window would change sums)
// equals the model with one APPEND snapshot per window.
func TestDevServerPausedDriverSegment(t *testing.T) {
	if testing.Short() {
		t.Skip("about 20 s: builds lakeload, starts a Temporal dev server and two workers")
	}
	bin := temporalCLI(t)
	ctx := context.Background()
	lakeload := buildLakeload(t)
	dev := startDevServer(t, bin)
	hostPort := dev.FrontendHostPort()

	// One small file per window: the driver commits window after window, each a round trip through
	// Temporal, so the job is surely still running when its driver's worker is stopped after window 3.
	const files = 40
	fx := loadtest.AggSum(86, files, 5)
	wh := loadtest.TempDir(t)
	fx.Create(t, wh)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	env := os.Environ()
	queue := "pause-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	workers := []proc{
		startProc(t, lakeload, env, "worker", "--temporal", hostPort, "--task-queue", queue, "--concurrency", "2"),
		startProc(t, lakeload, env, "worker", "--temporal", hostPort, "--task-queue", queue, "--concurrency", "2"),
	}
	tableName := fx.Ident().Database + "." + fx.Ident().Table
	follower := startProc(t, lakeload, env, "load", "--warehouse", wh, "--table", tableName, "--from", glob, "--job", "pz",
		"--commit-rows", "5", "--temporal", hostPort, "--task-queue", queue, "--heartbeat-timeout", "2s", "--task-timeout", "30s")
	id := JobWorkflowID(job.Spec{Name: "pz", Warehouse: wh, TableName: tableName})
	snapDir := filepath.Join(fx.TablePath(wh), "snapshot")

	stopped := -1
	for start := time.Now(); stopped < 0; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > hangGuard {
			t.Fatalf("no driver segment running after 3 windows within %s\nfollower:\n%s", hangGuard, follower.output())
		}
		select {
		case <-follower.exited:
			t.Fatalf("the job ended before its driver's worker was stopped:\n%s", follower.output())
		default:
		}
		if len(snapshotTimes(t, snapDir)) < 3 {
			continue
		}
		if i := driverWorker(ctx, dev.Client(), id, workers); i >= 0 {
			if err := workers[i].cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			stopped = i
		}
	}
	defer func() { _ = workers[stopped].cmd.Process.Signal(syscall.SIGCONT) }()
	store := checkpoint.NewStore(local.New(), filepath.Join(wh, ".lakeload", "jobs", "db", fx.Ident().Table, "pz"))
	frozen, ok, err := store.CurrentLease(ctx)
	if err != nil || !ok {
		t.Fatalf("the lease when the driver's worker was stopped: %+v (%v)", frozen, err)
	}

	select {
	case <-follower.exited:
	case <-time.After(hangGuard):
		t.Fatalf("the job did not finish within %s of its driver's worker being stopped\nfollower:\n%s\nother worker:\n%s",
			hangGuard, follower.output(), workers[1-stopped].output())
	}
	if code := follower.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("load --temporal: exit %d\n%s\nother worker:\n%s", code, follower.output(), workers[1-stopped].output())
	}
	if segRetries, _ := jobWorkflowRuns(ctx, t, dev.Client(), id); segRetries == 0 {
		t.Fatal("the driver segment was not retried")
	}
	if wf, ok := segmentWorkflow(frozen.Owner.Token); !ok || wf != id || frozen.Released ||
		frozen.Owner.PID != workers[stopped].cmd.Process.Pid {
		t.Fatalf("the lease when the worker was stopped: %+v; want its driver segment's, unreleased", frozen)
	}
	snaps := len(snapshotTimes(t, snapDir))

	// Wake the stopped worker and wait until its segment try has ended (the SDK logs the try's
	// error): the takeover made its lease renewal, its release and its next steps fail.
	if err := workers[stopped].cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	ended := "ActivityType=" + SegmentActivity + " Attempt=" + tokenField(frozen.Owner.Token, "attempt=") + " "
	for start := time.Now(); !loggedLine(workers[stopped].output(), ended, "Activity error.", "Activity complete after timeout."); time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > hangGuard {
			t.Fatalf("the resumed worker's segment try did not end within %s:\n%s", hangGuard, workers[stopped].output())
		}
	}
	if out := workers[stopped].output(); strings.Contains(out, "lease renewal failed") && !strings.Contains(out, checkpoint.ErrLeaseLost.Error()) {
		t.Fatalf("the resumed worker's renewal failed otherwise than by losing the lease:\n%s", out)
	}
	// Stop it (graceful: in-flight activities end) so that whatever it would still do has been done.
	if err := workers[stopped].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-workers[stopped].exited:
	case <-time.After(hangGuard):
		t.Fatalf("the resumed worker did not stop:\n%s", workers[stopped].output())
	}
	t.Logf("resumed worker:\n%s", workers[stopped].output())

	if n := len(snapshotTimes(t, snapDir)); n != snaps {
		t.Fatalf("%d snapshots when the job finished, %d after the stopped worker woke", snaps, n)
	}
	cur, _, err := store.CurrentLease(ctx)
	if err != nil || cur.Owner.PID == frozen.Owner.PID || !cur.Released {
		t.Fatalf("the lease at the end: %+v (%v); want the other try's, released", cur, err)
	}
	tbl := fx.Open(t, wh, local.New())
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tbl)); d != "" {
		t.Fatal("the table differs from the model:" + d)
	}
	st, err := store.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	jr, _ := st.Job()
	for _, ws := range st.Windows() {
		if n := len(loadtest.WindowCommits(t, tbl, jr.CommitUser, ws.Window)); n != 1 {
			t.Errorf("window %d has %d APPEND snapshots", ws.Window, n)
		}
	}
	if len(st.Windows()) < files/2 {
		t.Fatalf("%d windows: the test needs many", len(st.Windows()))
	}
}

// tokenField returns the value of the field with the given prefix ("attempt=") of a lease token.
func tokenField(token, prefix string) string {
	for _, f := range strings.Fields(token) {
		if v, ok := strings.CutPrefix(f, prefix); ok {
			return v
		}
	}
	return ""
}

// loggedLine reports whether out has a line containing must and one of oneOf.
func loggedLine(out, must string, oneOf ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, must) {
			continue
		}
		for _, a := range oneOf {
			if strings.Contains(l, a) {
				return true
			}
		}
	}
	return false
}
