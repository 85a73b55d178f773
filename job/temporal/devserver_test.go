package temporal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/lakeload/lakeload/checkpoint"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// EnvRequireTemporal set to 1 makes a missing Temporal CLI fail the dev-server test instead of skipping it.
const EnvRequireTemporal = "LAKELOAD_REQUIRE_TEMPORAL"

// temporalCLI returns the `temporal` binary: $LAKELOAD_TEMPORAL, else $LAKELOAD_CACHE/bin/temporal, else
// ~/.cache/lakeload/bin/temporal (`make temporal` installs it there).
func temporalCLI(t *testing.T) string {
	cands := []string{os.Getenv("LAKELOAD_TEMPORAL")}
	if c := os.Getenv("LAKELOAD_CACHE"); c != "" {
		cands = append(cands, filepath.Join(c, "bin", "temporal"))
	}
	if h, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(h, ".cache", "lakeload", "bin", "temporal"))
	}
	for _, c := range cands {
		if c != "" {
			if st, err := os.Stat(c); err == nil && !st.IsDir() {
				return c
			}
		}
	}
	msg := "no Temporal CLI (run `make temporal`, or set LAKELOAD_TEMPORAL)"
	if os.Getenv(EnvRequireTemporal) == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// hangGuard bounds the waits of the dev-server tests: only a hang reaches it, never a slow or
// loaded machine (`make test-loaded`), so no assertion depends on the machine's speed.
const hangGuard = 5 * time.Minute

// paused reports whether the process printed that it was held at a LAKELOAD_HOLD_AT point.
func (p proc) paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Contains(p.out.Bytes(), []byte("lakeload: held at"))
}

// proc is a lakeload child process with its output kept for failure messages.
type proc struct {
	exited chan struct{} // closed when a worker process has ended
	cmd    *exec.Cmd
	out    *bytes.Buffer
	mu     *sync.Mutex
}

// TestDevServerKillNine: one driver (`lakeload load --temporal`) and three `lakeload worker`s on a
// real Temporal dev server, warehouse and checkpoint store on the S3 test server. Random workers and
// the driver are killed with SIGKILL and restarted until the load finishes; pypaimon and lakeload
// then read the table equal to the model (nothing lost, nothing twice) and every window is one snapshot.
func TestDevServerKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("about 30 s: builds lakeload, starts a Temporal dev server, an S3 server and four processes")
	}
	bin := temporalCLI(t)
	srv := s3test.Start(t)
	py := oracle.Py(t)
	ctx := context.Background()
	root, err := oracle.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lakeload := filepath.Join(dir, "lakeload")
	if out, err := exec.Command("go", "build", "-o", lakeload, filepath.Join(root, "cmd", "lakeload")).CombinedOutput(); err != nil {
		t.Fatalf("build lakeload: %v\n%s", err, out)
	}
	var serverLog bytes.Buffer
	dev, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{ExistingPath: bin, LogLevel: "error",
		ClientOptions: &client.Options{Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))},
		Stdout:        &serverLog, Stderr: &serverLog})
	if err != nil {
		t.Fatalf("start temporal dev server: %v", err)
	}
	defer func() { _ = dev.Stop() }()
	hostPort := dev.FrontendHostPort()

	// LAKELOAD_TEMPORAL_SOAK=long (make soak-temporal): 20× the rows, 20 windows, 60 kills.
	files, rowsPerFile, windowRows, maxKills, budget := 10, 1500, 1500, 12, hangGuard
	if os.Getenv("LAKELOAD_TEMPORAL_SOAK") == "long" {
		files, rowsPerFile, windowRows, maxKills, budget = 60, 5000, 15000, 60, 25*time.Minute
	}
	fx := loadtest.Dedup(77, files, rowsPerFile)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	fs, err := s3fs.New(ctx, s3fs.Options{Endpoint: srv.Endpoint, PathStyle: true, Region: s3test.Region,
		Credentials: credentials.NewStaticCredentialsProvider(srv.AccessKey, srv.SecretKey, "")})
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(fs, srv.URI("wh"))
	if err := cat.CreateTable(ctx, fx.Ident(), fx.Schema(t), false); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), srv.Env()...)
	start := func(extraEnv []string, args ...string) proc {
		p := proc{cmd: exec.Command(lakeload, args...), out: &bytes.Buffer{}, mu: &sync.Mutex{}}
		p.cmd.Env = append(slices.Clone(env), extraEnv...)
		w := lockedWriter{p.out, p.mu}
		p.cmd.Stdout, p.cmd.Stderr = w, w
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	queue := "q-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	// Until one is seen and killed, workers pause when a task of window 2 has written its files
	// (LAKELOAD_HOLD_AT reaches a worker's tasks): that kill surely hits a running task, however
	// fast the machine finishes the load, so an activity retry is certain.
	// Until one has crashed, workers also crash (SIGKILL themselves) when a driver segment they run
	// has committed window 3 and not yet recorded it: the retried segment on another worker must
	// publish that commit, not commit the window again.
	pausedKilled := false
	crashes := 0
	startWorker := func() proc {
		var extra []string
		if !pausedKilled {
			extra = append(extra, "LAKELOAD_HOLD_AT="+job.PointTaskWritten+":2")
		}
		if crashes == 0 {
			extra = append(extra, "LAKELOAD_CRASH_AT="+job.PointAfterCommit+":3")
		}
		p := start(extra, "worker", "--temporal", hostPort, "--task-queue", queue, "--concurrency", "2")
		p.exited = make(chan struct{})
		go func() { _ = p.cmd.Wait(); close(p.exited) }()
		return p
	}
	workers := []proc{startWorker(), startWorker(), startWorker()}
	defer func() {
		for _, w := range workers {
			_ = w.cmd.Process.Kill()
			<-w.exited
		}
	}()
	load := []string{"load", "--warehouse", srv.URI("wh"), "--table", fx.Ident().Database + "." + fx.Ident().Table,
		"--from", glob, "--op-column", fx.OpColumn, "--job", "scale", "--checkpoint", srv.URI("ckpt", "scale"),
		"--commit-rows", strconv.Itoa(windowRows), "--parallelism", "3", "--temporal", hostPort, "--task-queue", queue,
		"--heartbeat-timeout", "2s", "--task-timeout", "30s", "--log-format", "json",
		"--segment-windows", "2", "--segments-per-run", "2"} // short segments: they move between workers and continue as new
	jobID := JobWorkflowID(job.Spec{Name: "scale", Warehouse: srv.URI("wh"), TableName: load[4], Checkpoint: srv.URI("ckpt", "scale")})

	rng := rand.New(rand.NewPCG(77, 7))
	driverKills, workerKills, segmentKills := 0, 0, 0
	statusSeen, ticks, busyKills := false, 0, 0
	deadline := time.Now().Add(budget)
	for run := 1; ; run++ {
		if time.Now().After(deadline) {
			t.Fatalf("the load did not finish in time after %d driver runs", run-1)
		}
		d := start(nil, load...)
		done := make(chan error, 1)
		go func() { done <- d.cmd.Wait() }()
		var err error
	chaos:
		for {
			select {
			case err = <-done:
				break chaos
			case <-time.After(time.Duration(300+rng.IntN(700)) * time.Millisecond):
				ticks++
				if !statusSeen && ticks >= 3 {
					// lakeload status --temporal lists the running windows' tasks per worker.
					args := []string{"status", "--warehouse", srv.URI("wh"), "--table", load[4], "--job", "scale",
						"--checkpoint", srv.URI("ckpt", "scale"), "--temporal", hostPort}
					st := exec.Command(lakeload, args...)
					st.Env = env
					out, err := st.CombinedOutput()
					if err != nil && bytes.Contains(out, []byte("no job scale")) {
						continue // the first segment has not created the job yet
					}
					if err != nil || !bytes.Contains(out, []byte("LAST HEARTBEAT")) || !bytes.Contains(out, []byte("Job workflow: "+jobID)) {
						t.Fatalf("lakeload status --temporal: %v\n%s", err, out)
					}
					statusSeen = true
					t.Logf("status while loading:\n%s", out)
					// --output json carries the same facts in its "temporal" section.
					js := exec.Command(lakeload, append(args, "--output", "json")...)
					js.Env = env
					jout, err := js.Output()
					var rep struct {
						Temporal *struct {
							JobWorkflow *struct {
								ID     string `json:"id"`
								Status string `json:"status"`
							} `json:"jobWorkflow"`
							Windows []struct {
								Workflow string `json:"workflow"`
							} `json:"windows"`
						} `json:"temporal"`
					}
					if err != nil || json.Unmarshal(jout, &rep) != nil || rep.Temporal == nil || rep.Temporal.JobWorkflow == nil ||
						rep.Temporal.JobWorkflow.ID != jobID || rep.Temporal.JobWorkflow.Status == "" {
						t.Fatalf("lakeload status --temporal --output json: %v\n%s", err, jout)
					}
				}
				for i := range workers {
					select {
					case <-workers[i].exited: // crashed at after-commit
						crashes++
						workers[i] = startWorker()
						continue
					default:
					}
					if workers[i].paused() {
						pausedKilled = true
						_ = workers[i].cmd.Process.Signal(syscall.SIGKILL)
						<-workers[i].exited
						workers[i] = startWorker()
						workerKills++
						busyKills++
					}
				}
				if workerKills+driverKills >= maxKills {
					continue // enough chaos: let the load finish
				}
				if rng.IntN(3) == 0 { // the `load` follower: the job goes on, a rerun re-attaches
					_ = d.cmd.Process.Signal(syscall.SIGKILL)
					driverKills++
					err = <-done
					break chaos
				}
				if i := driverWorker(ctx, dev.Client(), jobID, workers); i >= 0 && rng.IntN(2) == 0 {
					// The worker running the driver segment: the segment is retried on another worker.
					_ = workers[i].cmd.Process.Signal(syscall.SIGKILL)
					<-workers[i].exited
					workers[i] = startWorker()
					workerKills++
					segmentKills++
					continue
				}
				i := busyWorker(ctx, dev.Client(), workers)
				if i < 0 {
					i = rng.IntN(len(workers))
				} else {
					busyKills++
				}
				_ = workers[i].cmd.Process.Signal(syscall.SIGKILL)
				<-workers[i].exited
				workers[i] = startWorker()
				workerKills++
			}
		}
		if err == nil {
			break
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || (ee.ExitCode() != -1 && ee.ExitCode() != 1) {
			t.Fatalf("driver run %d: %v\n%s", run, err, d.output())
		}
		t.Logf("driver run %d ended: %v", run, err)
	}
	t.Logf("killed the load follower %d times and workers %d times (%d while running a task, %d while running the driver segment); %d crashed after committing window 3",
		driverKills, workerKills, busyKills, segmentKills, crashes)
	if driverKills+workerKills == 0 {
		t.Fatal("nothing was killed: the load finished before the chaos began")
	}

	// What the chaos did: activity tries after the first (killed or timed-out workers) and
	// recomputed window attempts (a killed driver).
	st, err := checkpoint.NewStore(fs, srv.URI("ckpt", "scale")).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, done := st.Done(); !done {
		t.Fatal("the load exited 0 but the job is not done")
	}
	jr, _ := st.Job()
	retries, recomputed := 0, 0
	for _, ws := range st.Windows() {
		recomputed += len(ws.Attempts) - 1
		for _, at := range ws.Attempts {
			it := dev.Client().GetWorkflowHistory(ctx, WorkflowID(jr.JobID, jr.CommitUser, ws.Window, at.Attempt), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				ev, err := it.Next()
				if err != nil {
					break // an attempt started in process or never reached Temporal
				}
				if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() > 1 {
					retries++
				}
			}
		}
	}
	segRetries, continued := jobWorkflowRuns(ctx, t, dev.Client(), jobID)
	t.Logf("%d windows, %d recomputed attempts, %d retried task tries, %d retried driver segments, %d continue-as-new",
		len(st.Windows()), recomputed, retries, segRetries, continued)
	defer func() {
		if !t.Failed() {
			inputRows := 0
			for _, f := range fx.Files {
				inputRows += len(f.Rows)
			}
			t.Logf("SOAK temporal input_rows=%d live_keys=%d windows=%d follower_kills=%d worker_kills=%d segment_kills=%d busy_kills=%d after_commit_crashes=%d recomputed=%d task_retries=%d segment_retries=%d continue_as_new=%d lost=0 dup=0",
				inputRows, len(fx.Expected(t)), len(st.Windows()), driverKills, workerKills, segmentKills, busyKills, crashes, recomputed, retries, segRetries, continued)
		}
	}()
	if continued == 0 {
		t.Fatal("the job workflow never continued as new")
	}
	if crashes == 0 || segRetries == 0 {
		t.Fatalf("%d workers crashed after committing window 3, %d driver segments retried: want both", crashes, segRetries)
	}
	if retries+recomputed == 0 {
		t.Fatal("no task was retried and no window recomputed: the kills hit no running task")
	}

	path := filepath.Join(srv.Dir, srv.Bucket, "wh", fx.Ident().Database+".db", fx.Ident().Table)
	want := fx.Expected(t)
	if d := loadtest.Diff(want, py.Read(path, oracle.ReadOpts{})); d != "" {
		t.Fatal("pypaimon reads a table different from the model:" + d)
	}
	tbl, err := cat.LoadTable(ctx, fx.Ident())
	if err != nil {
		t.Fatal(err)
	}
	if d := loadtest.Diff(want, loadtest.Lines(t, tbl)); d != "" {
		t.Fatal("lakeload reads a table different from the model:" + d)
	}
	perWindow := map[string]int{}
	for _, s := range py.Snapshots(path) {
		if s["commitKind"] == "APPEND" {
			perWindow[fmt.Sprint(s["commitUser"], "/", s["commitIdentifier"])]++
		}
	}
	for w, n := range perWindow {
		if n != 1 {
			t.Errorf("window %s has %d APPEND snapshots", w, n)
		}
	}
	if len(perWindow) < 5 {
		t.Fatalf("%d windows committed; the test needs several", len(perWindow))
	}
	checkBadInputKind(t, lakeload, env, hostPort, queue)
	checkAbort(t, lakeload, env, dev.Client(), hostPort)
}

// runCLI runs lakeload and returns its exit code and the error line ("lakeload: …") of its stderr.
func runCLI(t *testing.T, lakeload string, env []string, args ...string) (int, string) {
	t.Helper()
	c := exec.Command(lakeload, args...)
	c.Env = env
	var stderr bytes.Buffer
	c.Stderr = &stderr
	err := c.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	var msg string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "lakeload: ") {
			msg = l
		}
	}
	return c.ProcessState.ExitCode(), strings.ReplaceAll(msg, " (reported by a worker)", "")
}

// checkAbort: `lakeload job abort --temporal` terminates the job's workflow and aborts the job; the
// `load --temporal` following it exits 7 (job aborted), as an in-process run of an aborted job does.
// The job's first window was published in process, which then died (its lease left behind); the
// workflow runs on a task queue no worker polls, so it is surely still open when abort comes.
func checkAbort(t *testing.T, lakeload string, env []string, c client.Client, hostPort string) {
	dir := loadtest.TempDir(t)
	wh := filepath.Join(dir, "wh")
	if code, msg := runCLI(t, lakeload, env, "table", "create", "--warehouse", wh, "--table", "db.ab", "--column", "id BIGINT NOT NULL",
		"--column", "v STRING", "--primary-key", "id", "--option", "bucket=1"); code != 0 {
		t.Fatalf("table create: exit %d: %s", code, msg)
	}
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d.csv", i)), []byte(fmt.Sprintf("id,v\n%d,a\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"load", "--warehouse", wh, "--table", "db.ab", "--from", filepath.Join(dir, "*.csv"), "--job", "ab", "--commit-rows", "1"}
	if code, _ := runCLI(t, lakeload, append(slices.Clone(env), "LAKELOAD_CRASH_AT="+job.PointAssigned+":2"), args...); code != -1 {
		t.Fatalf("in-process load: exit %d, want it killed at window 2", code)
	}
	follow := exec.Command(lakeload, append(args, "--temporal", hostPort, "--task-queue", "nobody-polls-this")...)
	follow.Env = env
	var out bytes.Buffer
	follow.Stdout, follow.Stderr = &out, &out
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	id := JobWorkflowID(job.Spec{Name: "ab", Warehouse: wh, TableName: "db.ab"})
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		if _, err := c.DescribeWorkflowExecution(context.Background(), id, ""); err == nil {
			break
		} else if time.Since(start) > hangGuard {
			t.Fatalf("the job workflow %s was not started: %v\n%s", id, err, out.String())
		}
	}
	// A second submitter with other options attaches to the running workflow and says whose options apply.
	second := exec.Command(lakeload, append(args, "--temporal", hostPort, "--task-queue", "nobody-polls-this", "--parallelism", "3")...)
	second.Env = env
	var out2 lockedBuffer
	second.Stdout, second.Stderr = &out2, &out2
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = second.Process.Kill(); _ = second.Wait() }()
	for start := time.Now(); !strings.Contains(out2.String(), "attached to the running job workflow "+id); time.Sleep(100 * time.Millisecond) {
		if time.Since(start) > hangGuard {
			t.Fatalf("a second submitter with --parallelism 3 did not warn that it attached to %s:\n%s", id, out2.String())
		}
	}
	if w := out2.String(); !strings.Contains(w, "spec.parallelism") || strings.Contains(w, "spec.commitRows") {
		t.Fatalf("the attach warning names the wrong options:\n%s", w)
	}
	if code, msg := runCLI(t, lakeload, env, "job", "abort", "--warehouse", wh, "--table", "db.ab", "--job", "ab", "--temporal", hostPort); code != 0 {
		t.Fatalf("job abort --temporal: exit %d: %s", code, msg)
	}
	err := follow.Wait()
	if code := follow.ProcessState.ExitCode(); code != 7 || !strings.Contains(out.String(), "aborted") {
		t.Fatalf("the follower of the aborted job: %v (exit %d), want exit 7:\n%s", err, code, out.String())
	}
	desc, err := c.DescribeWorkflowExecution(context.Background(), id, "")
	if err != nil || desc.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED {
		t.Fatalf("job workflow after abort: %v, %v; want terminated", desc.GetWorkflowExecutionInfo().GetStatus(), err)
	}
}

// checkBadInputKind: a job failing on bad input inside the job workflow exits as the same job run in
// process does: exit code 3 and the same message (naming file, row and column) under the job's name.
func checkBadInputKind(t *testing.T, lakeload string, env []string, hostPort, queue string) {
	dir := loadtest.TempDir(t)
	run := func(args ...string) (int, string) { return runCLI(t, lakeload, env, args...) }
	wh := filepath.Join(dir, "wh")
	if code, msg := run("table", "create", "--warehouse", wh, "--table", "db.bad", "--column", "id BIGINT NOT NULL", "--column", "v STRING",
		"--primary-key", "id", "--option", "bucket=1"); code != 0 {
		t.Fatalf("table create: exit %d: %s", code, msg)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("id,v\n1,a\nx,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"load", "--warehouse", wh, "--table", "db.bad", "--from", filepath.Join(dir, "*.csv"), "--job", "bad"}
	codeIn, msgIn := run(append(args, "--checkpoint", filepath.Join(dir, "c1"))...)
	codeWf, msgWf := run(append(args, "--checkpoint", filepath.Join(dir, "c2"), "--temporal", hostPort, "--task-queue", queue)...)
	if codeIn != 3 || codeWf != codeIn || msgWf != msgIn || !strings.Contains(msgIn, "bad.csv") {
		t.Fatalf("in process: exit %d %q; in the job workflow: exit %d %q; want exit 3 and the same message", codeIn, msgIn, codeWf, msgWf)
	}
}

// driverWorker returns the index of the worker running the job workflow's driver segment now, or -1.
func driverWorker(ctx context.Context, c client.Client, jobID string, workers []proc) int {
	return activeWorker(ctx, c, jobID, "", workers)
}

// activeWorker returns the index of the worker running a started activity of workflow id/runID, or -1.
func activeWorker(ctx context.Context, c client.Client, id, runID string, workers []proc) int {
	desc, err := c.DescribeWorkflowExecution(ctx, id, runID)
	if err != nil {
		return -1
	}
	for _, p := range desc.GetPendingActivities() {
		if p.GetState() != enumspb.PENDING_ACTIVITY_STATE_STARTED {
			continue
		}
		pid, _, _ := strings.Cut(p.GetLastWorkerIdentity(), "@")
		for i, w := range workers {
			if strconv.Itoa(w.cmd.Process.Pid) == pid {
				return i
			}
		}
	}
	return -1
}

// jobWorkflowRuns counts, over all runs of the job workflow, the driver-segment tries after the
// first and the runs that continued as new.
func jobWorkflowRuns(ctx context.Context, t *testing.T, c client.Client, jobID string) (segRetries, continued int) {
	list, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: fmt.Sprintf("WorkflowId = '%s'", jobID)})
	if err != nil {
		t.Fatalf("list the runs of %s: %v", jobID, err)
	}
	for _, ex := range list.GetExecutions() {
		if ex.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW {
			continued++
		}
		it := c.GetWorkflowHistory(ctx, jobID, ex.GetExecution().GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				break
			}
			if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() > 1 {
				segRetries++
			}
		}
	}
	return segRetries, continued
}

// busyWorker returns the index of a worker running a task now (from the pending activities of the
// running workflows: the SDK's worker identity starts with the process id), or -1.
func busyWorker(ctx context.Context, c client.Client, workers []proc) int {
	list, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: "ExecutionStatus='Running'"})
	if err != nil {
		return -1
	}
	for _, ex := range list.GetExecutions() {
		if i := activeWorker(ctx, c, ex.GetExecution().GetWorkflowId(), ex.GetExecution().GetRunId(), workers); i >= 0 {
			return i
		}
	}
	return -1
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (p proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.out.String()
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return s
}

// lockedBuffer is a bytes.Buffer that a child process writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
