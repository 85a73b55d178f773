package temporal

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// env is one fixture table, its input and checkpoint store, driven by job.Run whose executor runs
// every window attempt through WindowWorkflow in the SDK's test environment.
type env struct {
	fx    loadtest.Fixture
	wh    string
	glob  string
	store *checkpoint.Store
	suite testsuite.WorkflowTestSuite
	// fault wraps the real activity; nil runs it as is.
	fault  func(ctx context.Context, in TaskActivityInput, real func(context.Context) (int64, error)) (int64, error)
	timing Timing
	tries  atomic.Int64 // activity tries started
}

func newEnv(t *testing.T, fx loadtest.Fixture) *env {
	e := &env{fx: fx, wh: loadtest.TempDir(t), store: checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/store")}
	e.suite.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	fx.Create(t, e.wh)
	e.glob = fx.WriteInputs(t, loadtest.TempDir(t))
	return e
}

func (e *env) open(t *testing.T) Opener {
	return func(context.Context, job.Spec) (job.TaskEnv, error) {
		return job.TaskEnv{Table: e.fx.Open(t, e.wh, local.New()), Store: e.store, Source: file.Source{FS: local.New()},
			Mapping: source.MappingOptions{OpColumn: e.fx.OpColumn}}, nil
	}
}

// RunTasks runs b's workflow to completion in a fresh test environment.
func (e *env) executor(t *testing.T) job.Executor {
	acts := &Activities{Open: e.open(t), HeartbeatEvery: 50 * time.Millisecond}
	return executorFunc(func(ctx context.Context, b job.TaskBatch) (int64, error) {
		tenv := newTestWorkflowEnv(&e.suite)
		tenv.RegisterWorkflowWithOptions(WindowWorkflow, workflow.RegisterOptions{Name: WorkflowName})
		tenv.RegisterActivityWithOptions(func(ctx context.Context, in TaskActivityInput) (int64, error) {
			e.tries.Add(1)
			real := func(ctx context.Context) (int64, error) { return acts.RunTask(ctx, in) }
			if e.fault == nil {
				return real(ctx)
			}
			return e.fault(ctx, in, real)
		}, activity.RegisterOptions{Name: ActivityName})
		tenv.ExecuteWorkflow(WorkflowName, WindowInput{Spec: job.Spec{Name: b.Job}, Batch: b, Timing: e.timing})
		if !tenv.IsWorkflowCompleted() {
			return 0, errors.New("workflow did not complete")
		}
		if err := tenv.GetWorkflowError(); err != nil {
			return 0, fromWire(err)
		}
		var rows int64
		err := tenv.GetWorkflowResult(&rows)
		return rows, err
	})
}

// newTestWorkflowEnv is the SDK's workflow test environment with a deadlock detector a loaded machine
// cannot trip: by default the SDK fails workflow code that has not yielded for 1 s, which a starved
// CPU reaches by itself (make test-loaded); a real deadlock still fails, after a minute.
func newTestWorkflowEnv(s *testsuite.WorkflowTestSuite) *testsuite.TestWorkflowEnvironment {
	tenv := s.NewTestWorkflowEnvironment()
	tenv.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	return tenv
}

type executorFunc func(context.Context, job.TaskBatch) (int64, error)

func (f executorFunc) RunTasks(ctx context.Context, b job.TaskBatch) (int64, error) { return f(ctx, b) }

func (e *env) config(t *testing.T) job.Config {
	return job.Config{
		Spec:     job.Spec{Name: "tq-" + e.fx.Name, Input: job.Input{From: []string{e.glob}, OpColumn: e.fx.OpColumn}, CommitRows: 40, Parallelism: 3, SplitTasks: true},
		Table:    e.fx.Open(t, e.wh, local.New()),
		InputFS:  local.New(),
		Store:    e.store,
		Executor: e.executor(t),
	}
}

// checkExactlyOnce asserts the job finished with exactly one APPEND snapshot per non-empty window
// and the table equal to the fixture's model.
func (e *env) checkExactlyOnce(t *testing.T) {
	t.Helper()
	st, err := e.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, done := st.Done(); !done {
		t.Fatal("job not done")
	}
	jr, _ := st.Job()
	tbl := e.fx.Open(t, e.wh, local.New())
	markers := 0
	for _, ws := range st.Windows() {
		if ws.Published == nil {
			t.Fatalf("window %d not published", ws.Window)
		}
		n := len(loadtest.WindowCommits(t, tbl, jr.CommitUser, ws.Window))
		if want := min(ws.Committed.SnapshotID, 1); int64(n) != want {
			t.Fatalf("window %d has %d snapshots, want %d", ws.Window, n, want)
		}
		markers += n
	}
	if markers < 2 {
		t.Fatalf("only %d windows committed: the test needs several", markers)
	}
	if all := loadtest.SnapshotsOf(t, tbl, jr.CommitUser); len(all) != markers {
		t.Fatalf("the job's user made %d snapshots for %d windows", len(all), markers)
	}
	if d := loadtest.Diff(e.fx.Expected(t), loadtest.Lines(t, tbl)); d != "" {
		t.Fatal("table differs from the model:" + d)
	}
}

// TestWorkflowLoadsExactlyOnce: a job whose tasks all run as activities equals the model.
func TestWorkflowLoadsExactlyOnce(t *testing.T) {
	e := newEnv(t, loadtest.Dedup(71, 5, 30))
	if _, err := job.Run(context.Background(), e.config(t)); err != nil {
		t.Fatal(err)
	}
	e.checkExactlyOnce(t)
	if e.tries.Load() < 4 {
		t.Fatalf("%d activity tries: tasks did not run as activities", e.tries.Load())
	}
}

// TestDuplicateActivityRuns: every task runs twice at the same time (two workers picked up the same
// task); one result per task is stored, the window is committed once.
func TestDuplicateActivityRuns(t *testing.T) {
	e := newEnv(t, loadtest.Dedup(72, 5, 30))
	var doubled atomic.Int64
	e.fault = func(ctx context.Context, _ TaskActivityInput, real func(context.Context) (int64, error)) (int64, error) {
		var wg sync.WaitGroup
		var n [2]int64
		var errs [2]error
		for i := range 2 {
			wg.Add(1)
			go func() { defer wg.Done(); n[i], errs[i] = real(ctx) }()
		}
		wg.Wait()
		doubled.Add(1)
		if err := errors.Join(errs[0], errs[1]); err != nil {
			return 0, err
		}
		return n[0] + n[1], nil
	}
	res, err := job.Run(context.Background(), e.config(t))
	if err != nil {
		t.Fatal(err)
	}
	e.checkExactlyOnce(t)
	if doubled.Load() == 0 {
		t.Fatal("no task was run twice")
	}
	if res.RowsWritten > int64(e.fx.Rows()) {
		t.Fatalf("rows reported %d > input %d: a losing try was counted", res.RowsWritten, e.fx.Rows())
	}
}

// TestRetryAfterStoredResult: the first try of every task stores its result, then fails (the worker
// died before reporting); the retry finds the result and stands down without writing again.
func TestRetryAfterStoredResult(t *testing.T) {
	e := newEnv(t, loadtest.AggSum(73, 5, 30))
	var retried atomic.Int64
	e.fault = func(ctx context.Context, _ TaskActivityInput, real func(context.Context) (int64, error)) (int64, error) {
		n, err := real(ctx)
		if activity.GetInfo(ctx).Attempt == 1 {
			return 0, errors.New("worker lost after storing the result")
		}
		retried.Add(1)
		if err == nil && n != 0 {
			return 0, errors.New("the retry wrote the task again")
		}
		return n, err
	}
	e.timing.MaxTries = 3
	if _, err := job.Run(context.Background(), e.config(t)); err != nil {
		t.Fatal(err)
	}
	e.checkExactlyOnce(t) // aggregation sums: a twice-written task would double values
	if retried.Load() == 0 {
		t.Fatal("no activity was retried")
	}
}

// TestTimedOutTryIsAnotherTry: the first try of a window's tasks outlives its start-to-close timeout.
// (The SDK's test environment does not retry timed-out activities as the server does, so the window's
// workflow fails and the driver stops; the dev-server test covers the server's retry.) The driver is
// run again while the stragglers are still running and store their results late: whether attempt 1
// or a recomputed attempt is committed, every window is committed once and the table is exact.
func TestTimedOutTryIsAnotherTry(t *testing.T) {
	e := newEnv(t, loadtest.AggSum(74, 4, 30))
	var late sync.WaitGroup
	var timedOut atomic.Int64
	e.timing = Timing{TaskTimeout: 300 * time.Millisecond, HeartbeatTimeout: 10 * time.Second, MaxTries: 4}
	e.fault = func(ctx context.Context, _ TaskActivityInput, real func(context.Context) (int64, error)) (int64, error) {
		<-ctx.Done() // the try is too slow: the SDK times it out
		timedOut.Add(1)
		late.Add(1)
		go func() { // the straggler keeps running and stores its result late
			defer late.Done()
			time.Sleep(100 * time.Millisecond)
			_, _ = real(context.WithoutCancel(ctx))
		}()
		return 0, ctx.Err()
	}
	if _, err := job.Run(context.Background(), e.config(t)); err == nil || !strings.Contains(err.Error(), "StartToClose") {
		t.Fatalf("first run: %v; want the start-to-close timeout", err)
	}
	e.fault, e.timing = nil, Timing{} // the rerun's tries may take their time (race detector)
	if _, err := job.Run(context.Background(), e.config(t)); err != nil {
		t.Fatal(err)
	}
	late.Wait()
	e.checkExactlyOnce(t)
	if timedOut.Load() == 0 {
		t.Fatal("no try timed out")
	}
}

// TestInputErrorIsNotRetried: a task failing on bad input fails its window at once (no retries) and
// reaches the driver as a *job.InputError naming the file; the fresh window is voided as in process.
func TestInputErrorIsNotRetried(t *testing.T) {
	fx := loadtest.Append(75, 3, 20)
	e := newEnv(t, fx)
	bad := ""
	for _, f := range fx.Files {
		if f.Format() == "csv" {
			bad = filepath.Join(filepath.Dir(e.glob), f.Name)
			break
		}
	}
	if bad == "" {
		t.Fatal("the fixture has no CSV file")
	}
	cfg := e.config(t)
	// Make the split's rows unreadable after planning: the task, not the planner, meets the error.
	cfg.Hook = func(point string, _ int64) error {
		if point == job.PointAssigned {
			return os.WriteFile(bad, []byte("garbage\x00\n\"unterminated"), 0o644)
		}
		return nil
	}
	_, err := job.Run(context.Background(), cfg)
	var ie *job.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("run: %v; want a job.InputError", err)
	}
	if e.tries.Load() > int64(cfg.Parallelism) {
		t.Fatalf("%d tries for at most %d tasks: the input error was retried", e.tries.Load(), cfg.Parallelism)
	}
	if !strings.Contains(err.Error(), filepath.Base(bad)) {
		t.Fatalf("input error %q does not name %s", err, bad)
	}
	st, lerr := e.store.Load(context.Background())
	if lerr != nil {
		t.Fatal(lerr)
	}
	if ws := st.Windows(); len(ws) != 1 || ws[0].Voided == nil {
		t.Fatalf("windows %+v: want the one fresh window voided", ws)
	}
}

// TestWorkflowIDsAreDistinct: ids differ per job, commit user, window and attempt.
func TestWorkflowIDsAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, j := range []string{"a", "b"} {
		for _, u := range []string{"", "lakeload-1"} {
			for w := int64(1); w <= 2; w++ {
				for a := 1; a <= 2; a++ {
					id := WorkflowID(j, u, w, a)
					if seen[id] {
						t.Fatalf("duplicate workflow id %s", id)
					}
					seen[id] = true
				}
			}
		}
	}
}
