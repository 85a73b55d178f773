package temporal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/job"
)

// TestDevServerAbortRunningSegment: `lakeload job abort --temporal` while one `lakeload worker`
// runs the job's driver segment mid-job (windows of one row committing one after another). The
// segment must notice the termination (its heartbeat refused, its context cancelled), job.Run must
// release the lease, and abort then records the abort. Asserted: abort exits 0 well within its
// one-minute wait, the job workflow is TERMINATED, the checkpoint store and `status` say aborted,
// no snapshot is created after the abort was recorded, the follower `load --temporal` exits 7, and
// later runs of the job (in process and through the workflow) refuse with exit 7.
//
// The heartbeat timeout is 45 s: the segment heartbeats every 15 s and learns of the termination at its
// next heartbeat, so abort waits several seconds for the lease — longer than the fixed 10 s the
// follower used to wait for the abort record (it then exited 1, not 7); abortRecordWait covers it.
func TestDevServerAbortRunningSegment(t *testing.T) {
	if testing.Short() {
		t.Skip("about 30 s: builds lakeload, starts a Temporal dev server and a worker")
	}
	bin := temporalCLI(t)
	ctx := context.Background()
	lakeload := buildLakeload(t)
	dev := startDevServer(t, bin)
	hostPort := dev.FrontendHostPort()

	dir := loadtest.TempDir(t)
	wh := filepath.Join(dir, "wh")
	env := os.Environ()
	if code, msg := runCLI(t, lakeload, env, "table", "create", "--warehouse", wh, "--table", "db.ab", "--column", "id BIGINT NOT NULL",
		"--column", "v STRING", "--primary-key", "id", "--option", "bucket=1"); code != 0 {
		t.Fatalf("table create: exit %d: %s", code, msg)
	}
	// One row per file and window: the driver commits window after window, each a round trip through
	// Temporal and a commit, so the job is surely still running when abort comes after window 3.
	const files = 80
	for i := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%03d.csv", i)), fmt.Appendf(nil, "id,v\n%d,a\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	queue := "abort-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	// Safety net: should the machine be fast enough to reach the last window before abort, the
	// worker pauses there (a task that never ends), so the job cannot finish before it is aborted.
	worker := startProc(t, lakeload, append(slices.Clone(env), "LAKELOAD_HOLD_AT="+job.PointTaskWritten+":"+strconv.Itoa(files)),
		"worker", "--temporal", hostPort, "--task-queue", queue, "--concurrency", "2")
	args := []string{"load", "--warehouse", wh, "--table", "db.ab", "--from", filepath.Join(dir, "*.csv"), "--job", "ab", "--commit-rows", "1"}
	follower := startProc(t, lakeload, env, append(slices.Clone(args), "--temporal", hostPort, "--task-queue", queue,
		"--heartbeat-timeout", "45s", "--task-timeout", "90s")...)

	snapDir := filepath.Join(wh, "db.db", "ab", "snapshot")
	for start := time.Now(); len(snapshotTimes(t, snapDir)) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > hangGuard {
			t.Fatalf("the worker committed fewer than 3 windows in %s\nworker:\n%s\nfollower:\n%s", hangGuard, worker.output(), follower.output())
		}
		select {
		case <-follower.exited:
			t.Fatalf("the follower ended before the abort:\n%s", follower.output())
		default:
		}
	}
	id := JobWorkflowID(job.Spec{Name: "ab", Warehouse: wh, TableName: "db.ab"})
	// The segment runs on the worker (it cannot finish: the last window's task is held), but a loaded
	// machine may have let a heartbeat lapse, its retry not yet started: wait for a started try.
	for start := time.Now(); driverWorker(ctx, dev.Client(), id, []proc{worker}) != 0; time.Sleep(100 * time.Millisecond) {
		if time.Since(start) > hangGuard {
			t.Fatalf("the job workflow %s has no driver segment running on the worker before abort", id)
		}
	}

	began := time.Now()
	abort := exec.Command(lakeload, "job", "abort", "--warehouse", wh, "--table", "db.ab", "--job", "ab", "--temporal", hostPort)
	abort.Env = env
	abortOut, err := runWithin(abort, hangGuard) // abort bounds its own wait for the lease (one minute here)
	took := time.Since(began)
	if err != nil {
		t.Fatalf("job abort --temporal after %s: %v\n%s\nworker:\n%s", took.Round(time.Millisecond), err, abortOut, worker.output())
	}
	committed := snapshotTimes(t, snapDir)
	t.Logf("abort took %s; %d snapshots (windows and compactions of a %d-window job) before it", took.Round(time.Millisecond), len(committed), files)
	if worker.paused() {
		t.Logf("note: the driver had reached the last window (paused) before abort: 'no commit after abort' was not exercised by a flowing driver")
	}
	// A segment keeping the lease would have made abort wait its minute and then refuse (exit 6,
	// failing above); how long the segment took to let go is the machine's business, not asserted.

	// The follower reports the abort, not a failure.
	select {
	case <-follower.exited:
	case <-time.After(hangGuard):
		t.Fatalf("the follower did not end within %s of the abort:\n%s", hangGuard, follower.output())
	}
	if code := follower.cmd.ProcessState.ExitCode(); code != 7 || !strings.Contains(follower.output(), "aborted") {
		t.Fatalf("the follower of the aborted job: exit %d, want 7 (job aborted):\n%s", code, follower.output())
	}
	desc, err := dev.Client().DescribeWorkflowExecution(ctx, id, "")
	if err != nil || desc.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED {
		t.Fatalf("job workflow %s after abort: %v, %v; want terminated", id, desc.GetWorkflowExecutionInfo().GetStatus(), err)
	}

	// The store records the abort, after every snapshot of the job.
	fs, root, err := fileio.Open(filepath.Join(wh, ".lakeload", "jobs", "db", "ab", "ab"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := checkpoint.NewStore(fs, root).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dr, done := st.Done()
	if !done || !dr.Aborted {
		t.Fatalf("the checkpoint store after abort: done=%v %+v; want an abort record", done, dr)
	}
	// The lease versions: ..., the segment's release, abort's acquisition, abort's release. The
	// segment released the lease itself (abort never displaces a live worker's segment).
	l, ok, err := checkpoint.NewStore(fs, root).CurrentLease(ctx)
	if err != nil || !ok || !l.Released || IsSegmentLease(l) || l.Version < 3 {
		t.Fatalf("the lease after abort: %+v (found %v, %v); want abort's own, released", l, ok, err)
	}
	var seg checkpoint.LeaseRecord
	b, err := os.ReadFile(filepath.Join(root, "lease", fmt.Sprintf("lease-%020d", l.Version-2)))
	_, body, _ := bytes.Cut(b, []byte("\n")) // a checkpoint record: one header line, then the JSON
	if err != nil || json.Unmarshal(body, &seg) != nil {
		t.Fatalf("the lease version before abort's: %v\n%s", err, b)
	}
	if wf, ok := segmentWorkflow(seg.Owner.Token); !ok || wf != id || !seg.Released {
		t.Fatalf("the lease version before abort's: %+v; want the driver segment of %s, released by it", seg, id)
	}
	t.Logf("the segment released the lease with: %s", seg.LastError)
	rep := statusJSON(t, lakeload, env, wh)
	if !rep.Aborted || rep.Done {
		t.Fatalf("status after abort: aborted=%v done=%v; want aborted", rep.Aborted, rep.Done)
	}

	// Later runs refuse: in process, and through a new job workflow run by the worker.
	if code, msg := runCLI(t, lakeload, env, args...); code != 7 || !strings.Contains(msg, "aborted") {
		t.Fatalf("load of the aborted job in process: exit %d %q; want 7 (job aborted)", code, msg)
	}
	if code, msg := runCLI(t, lakeload, env, append(slices.Clone(args), "--temporal", hostPort, "--task-queue", queue)...); code != 7 ||
		!strings.Contains(msg, "aborted") {
		t.Fatalf("load --temporal of the aborted job: exit %d %q; want 7 (job aborted)\nworker:\n%s", code, msg, worker.output())
	}

	// No window was committed after the abort: the same snapshots now, seconds later, all older than
	// the abort record.
	after := snapshotTimes(t, snapDir)
	if len(after) != len(committed) {
		t.Fatalf("%d snapshots when abort returned, %d now: a window was committed after the abort", len(committed), len(after))
	}
	for n, ms := range after {
		if ts := time.UnixMilli(ms); ts.After(dr.Time) {
			t.Fatalf("snapshot %d was created at %s, after the abort recorded at %s", n, ts.UTC().Format(time.RFC3339Nano), dr.Time.Format(time.RFC3339Nano))
		}
	}
	select {
	case <-worker.exited:
		t.Fatalf("the worker ended during the test:\n%s", worker.output())
	default:
	}
}

// buildLakeload builds cmd/lakeload into a test directory and returns the binary's path.
func buildLakeload(t *testing.T) string {
	t.Helper()
	root, err := oracle.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "lakeload")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "lakeload")).CombinedOutput(); err != nil {
		t.Fatalf("build lakeload: %v\n%s", err, out)
	}
	return bin
}

// startDevServer starts a Temporal dev server (stopped at the test's end) from the CLI at bin.
func startDevServer(t *testing.T, bin string) *testsuite.DevServer {
	t.Helper()
	var log lockedBuffer
	dev, err := testsuite.StartDevServer(context.Background(), testsuite.DevServerOptions{ExistingPath: bin, LogLevel: "error",
		ClientOptions: &client.Options{Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))},
		Stdout:        &log, Stderr: &log})
	if err != nil {
		t.Fatalf("start temporal dev server: %v", err)
	}
	t.Cleanup(func() { _ = dev.Stop() })
	return dev
}

// startProc starts lakeload with args and env; the process is killed at the test's end.
func startProc(t *testing.T, lakeload string, env []string, args ...string) proc {
	t.Helper()
	p := proc{cmd: exec.Command(lakeload, args...), out: &bytes.Buffer{}, mu: &sync.Mutex{}, exited: make(chan struct{})}
	p.cmd.Env = env
	w := lockedWriter{p.out, p.mu}
	p.cmd.Stdout, p.cmd.Stderr = w, w
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-p.exited })
	return p
}

// runWithin runs c, killing it after limit; it returns c's combined output.
func runWithin(c *exec.Cmd, limit time.Duration) (string, error) {
	var out lockedBuffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		return "", err
	}
	timer := time.AfterFunc(limit, func() { _ = c.Process.Kill() })
	defer timer.Stop()
	err := c.Wait()
	return out.String(), err
}

// snapshotTimes returns the commit time (timeMillis) of each snapshot file in dir, by snapshot id.
func snapshotTimes(t *testing.T, dir string) map[int]int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	times := map[int]int64{}
	for _, e := range ents {
		n, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "snapshot-"))
		if err != nil || !strings.HasPrefix(e.Name(), "snapshot-") {
			continue // EARLIEST, LATEST, temporary files
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			TimeMillis int64 `json:"timeMillis"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.TimeMillis == 0 {
			t.Fatalf("snapshot %s: %v (timeMillis %d)", e.Name(), err, s.TimeMillis)
		}
		times[n] = s.TimeMillis
	}
	return times
}

// statusJSON runs `lakeload status --output json` for job ab of db.ab in warehouse wh.
func statusJSON(t *testing.T, lakeload string, env []string, wh string) (rep struct {
	Done    bool `json:"done"`
	Aborted bool `json:"aborted"`
}) {
	t.Helper()
	c := exec.Command(lakeload, "status", "--warehouse", wh, "--table", "db.ab", "--job", "ab", "--output", "json")
	c.Env = env
	out, err := c.Output()
	if err != nil || json.Unmarshal(out, &rep) != nil {
		t.Fatalf("lakeload status --output json: %v\n%s", err, out)
	}
	return rep
}
