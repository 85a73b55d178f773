package temporal

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
)

// jobEnv drives a whole job through JobWorkflow in the SDK's test environment: driver segments are
// DriveSegment activities whose window tasks run through WindowWorkflow (env.executor).
type jobEnv struct {
	*env
	ref      JobRef
	segs     SegmentOptions
	hook     func(try int64) func(point string, w int64) error // the hook of the n-th segment try (nil: none)
	segTries atomic.Int64
}

func newJobEnv(t *testing.T, fx loadtest.Fixture) *jobEnv {
	e := &jobEnv{env: newEnv(t, fx)}
	e.ref = JobRef{Job: "tq-" + fx.Name, Warehouse: e.wh, Table: "db.t", Checkpoint: e.store.Root()}
	return e
}

func (e *jobEnv) activities(t *testing.T) *Activities {
	return &Activities{HeartbeatEvery: 50 * time.Millisecond,
		OpenDriver: func(context.Context, JobRef) (job.Config, error) {
			n := e.segTries.Add(1)
			cfg := e.config(t)
			cfg.Executor = nil // DriveSegment sets it
			if e.hook != nil {
				cfg.Hook = e.hook(n)
			}
			return cfg, nil
		},
		NewExecutor: func(SegmentInput, string) job.Executor { return e.executor(t) },
	}
}

// run executes the job workflow, following its continue-as-new runs, and returns its result, the
// number of runs that continued as new, and the workflow error.
func (e *jobEnv) run(t *testing.T) (JobProgress, int, error) {
	acts := e.activities(t)
	in := JobInput{Ref: e.ref, Timing: Timing{HeartbeatTimeout: 2 * time.Second}, Segments: e.segs}
	for cont := 0; ; cont++ {
		tenv := e.suite.NewTestWorkflowEnvironment()
		tenv.SetTestTimeout(time.Minute)
		tenv.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: JobWorkflowID(e.ref), TaskQueue: "q"})
		tenv.RegisterWorkflowWithOptions(JobWorkflow, workflow.RegisterOptions{Name: JobWorkflowName})
		RegisterDriver(tenv, acts)
		tenv.ExecuteWorkflow(JobWorkflowName, in)
		if !tenv.IsWorkflowCompleted() {
			t.Fatal("job workflow did not complete")
		}
		err := tenv.GetWorkflowError()
		var can *workflow.ContinueAsNewError
		if errors.As(err, &can) {
			if can.WorkflowType.Name != JobWorkflowName {
				t.Fatalf("continued as %s", can.WorkflowType.Name)
			}
			in = JobInput{}
			if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &in); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			return JobProgress{}, cont, fromWireKind(err)
		}
		var p JobProgress
		if err := tenv.GetWorkflowResult(&p); err != nil {
			t.Fatal(err)
		}
		return p, cont, nil
	}
}

// TestJobWorkflowSegmentsContinueAsNew: the job workflow runs one-window segments until the job is
// done, continuing as new every two segments with its counters carried; the table equals the model
// and every row was written exactly once over all segments.
func TestJobWorkflowSegmentsContinueAsNew(t *testing.T) {
	e := newJobEnv(t, loadtest.Dedup(81, 5, 30))
	e.segs = SegmentOptions{MaxWindows: 1, PerRun: 2}
	p, cont, err := e.run(t)
	if err != nil {
		t.Fatal(err)
	}
	e.checkExactlyOnce(t)
	st, err := e.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	windows := len(st.Windows())
	if cont < 1 || p.Runs != cont {
		t.Fatalf("%d continue-as-new, the result counts %d runs: want at least one, counted", cont, p.Runs)
	}
	if p.Segments != windows { // one window per segment; the last one finds nothing left and finishes the job
		if p.Segments != windows+1 {
			t.Fatalf("%d segments for %d windows", p.Segments, windows)
		}
	}
	if p.Result.RowsWritten != int64(e.fx.Rows()) || p.Result.Windows != int64(windows) || p.Result.Bounded {
		t.Fatalf("result %+v: want %d rows written once over all segments, %d windows, not bounded", p.Result, e.fx.Rows(), windows)
	}
}

// TestSegmentCrashAfterCommit: the first segment try commits window 2 and dies before recording it
// (its lease left unreleased, as after SIGKILL); the retried segment takes over the lease at once
// (same workflow, silent holder), recovery finds the window's marker and publishes it: one APPEND
// snapshot for the window, the aggregation table exact (a second commit would double sums).
func TestSegmentCrashAfterCommit(t *testing.T) {
	e := newJobEnv(t, loadtest.AggSum(82, 5, 30))
	var crashed atomic.Bool
	e.hook = func(try int64) func(string, int64) error {
		return func(point string, w int64) error {
			if try != 1 || point != job.PointAfterCommit || w != 2 {
				return nil
			}
			crashed.Store(true)
			// Die holding the lease: a dead try of this workflow whose heartbeat stopped long ago.
			old := func() time.Time { return time.Now().Add(-time.Hour) }
			if _, err := e.store.AcquireLease(context.Background(), checkpoint.LeaseOptions{Takeover: true, Now: old,
				Owner: checkpoint.LeaseOwner{Host: "dead", PID: 1, Token: SegmentLeaseToken(JobWorkflowID(e.ref), 1, 1)}}); err != nil {
				return err
			}
			return errors.New("worker killed after the commit")
		}
	}
	start := time.Now()
	p, _, err := e.run(t)
	if err != nil {
		t.Fatal(err)
	}
	if !crashed.Load() || e.segTries.Load() < 2 {
		t.Fatalf("crashed %v, %d segment tries: the crash did not happen or was not retried", crashed.Load(), e.segTries.Load())
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Fatalf("the retried segment took %s: it waited for the dead try's lease", el)
	}
	e.checkExactlyOnce(t)
	jr, _ := mustState(t, e.store).Job()
	if n := len(loadtest.WindowCommits(t, e.fx.Open(t, e.wh, e.store.FS()), jr.CommitUser, 2)); n != 1 {
		t.Fatalf("window 2 has %d APPEND snapshots", n)
	}
	t.Logf("result %+v, segment tries %d", p.Result, e.segTries.Load())
	if p.Result.Recovered == 0 {
		t.Fatal("the retried segment ran no recovery action")
	}
}

func mustState(t *testing.T, s *checkpoint.Store) checkpoint.State {
	t.Helper()
	st, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSegmentWaitsForLiveEarlierTry: a segment try started while an earlier try of the same workflow
// still runs (timed out, not dead: it keeps renewing the lease) neither displaces it nor writes
// anything; once the earlier try finishes and releases the lease the new try runs and finds the job
// done. Every window has one attempt and one snapshot.
func TestSegmentWaitsForLiveEarlierTry(t *testing.T) {
	e := newJobEnv(t, loadtest.AggSum(83, 4, 30))
	paused, resume := make(chan struct{}), make(chan struct{})
	var once sync.Once
	e.hook = func(try int64) func(string, int64) error {
		return func(point string, w int64) error {
			if try == 1 && point == job.PointAssigned && w == 2 {
				once.Do(func() { close(paused) })
				<-resume
			}
			return nil
		}
	}
	acts := e.activities(t)
	in := SegmentInput{Ref: e.ref, Timing: Timing{HeartbeatTimeout: 400 * time.Millisecond}, Segment: 1, TaskQueue: "q"}
	type out struct {
		res job.Result
		err error
	}
	drive := func() chan out {
		c := make(chan out, 1)
		aenv := e.suite.NewTestActivityEnvironment()
		RegisterDriver(aenv, acts)
		go func() {
			v, err := aenv.ExecuteActivity(SegmentActivity, in)
			var o out
			o.err = err
			if err == nil {
				o.err = v.Get(&o.res)
			}
			c <- o
		}()
		return c
	}
	first := drive()
	<-paused
	second := drive()
	select {
	case o := <-second:
		t.Fatalf("the second try ended while the first one ran: %+v", o)
	case <-time.After(1500 * time.Millisecond): // many renewal periods: the holder is alive, the second try waits
	}
	if l, ok, err := e.store.CurrentLease(context.Background()); err != nil || !ok || l.Released || !strings.Contains(l.Owner.Token, "attempt=1") {
		t.Fatalf("lease %+v (%v): want the first try's, unreleased", l, err)
	}
	for _, ws := range mustState(t, e.store).Windows() {
		if len(ws.Attempts) != 1 {
			t.Fatalf("window %d has %d attempts while the first try runs", ws.Window, len(ws.Attempts))
		}
	}
	close(resume)
	o1, o2 := <-first, <-second
	if o1.err != nil || o2.err != nil {
		t.Fatalf("first try: %v; second try: %v", o1.err, o2.err)
	}
	if !o2.res.AlreadyDone || o2.res.RowsWritten != 0 {
		t.Fatalf("second try %+v: want the job found done, nothing written", o2.res)
	}
	e.checkExactlyOnce(t)
	for _, ws := range mustState(t, e.store).Windows() {
		if len(ws.Attempts) != 1 {
			t.Fatalf("window %d has %d attempts: something ran twice", ws.Window, len(ws.Attempts))
		}
	}
}

// TestSegmentRefusesForeignHolder: a lease held by an in-process load, or by a segment of another
// job workflow (even a silent one), is not displaced: the segment fails with the non-retryable
// lakeload.LeaseHeld error, which the submitter sees as checkpoint.ErrLeaseHeld (exit code 6).
func TestSegmentRefusesForeignHolder(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	for name, owner := range map[string]checkpoint.LeaseOwner{
		"in-process load":    {Host: "elsewhere", PID: 4242, Token: "b2c9a7e0-uuid"},
		"other job workflow": {Host: "elsewhere", PID: 4243, Token: SegmentLeaseToken("lakeload.job/db.t/other/0123456789ab", 1, 1)},
	} {
		t.Run(name, func(t *testing.T) {
			e := newJobEnv(t, loadtest.Append(84, 2, 20))
			if _, err := e.store.AcquireLease(context.Background(), checkpoint.LeaseOptions{Owner: owner,
				Now: func() time.Time { return old }}); err != nil {
				t.Fatal(err)
			}
			_, _, err := e.run(t)
			if !errors.Is(err, checkpoint.ErrLeaseHeld) || !strings.Contains(err.Error(), "elsewhere") {
				t.Fatalf("run: %v; want the lease error naming the holder", err)
			}
			if n := e.segTries.Load(); n != 1 {
				t.Fatalf("%d segment tries: the lease error was retried", n)
			}
		})
	}
}

// TestSegmentLeaseToken: the workflow id is read back from a segment's token, job names with spaces
// included; other tokens are not segments.
func TestSegmentLeaseToken(t *testing.T) {
	for _, id := range []string{"lakeload.job/db.t/j/0123456789ab", "lakeload.job/db.t/a job name/0123456789ab"} {
		got, ok := segmentWorkflow(SegmentLeaseToken(id, 3, 2))
		if !ok || got != id {
			t.Fatalf("segmentWorkflow(token of %q) = %q, %v", id, got, ok)
		}
	}
	for _, tok := range []string{"", "3f1c-uuid", "temporal x", "temporal a b c d"} {
		if _, ok := segmentWorkflow(tok); ok {
			t.Fatalf("token %q taken for a segment's", tok)
		}
	}
	p := SegmentLeasePolicy("wf", 1, 2, 4*time.Second)
	now := time.Now()
	rec := func(tok string, age time.Duration) checkpoint.LeaseRecord {
		return checkpoint.LeaseRecord{Owner: checkpoint.LeaseOwner{Token: tok}, Heartbeat: now.Add(-age)}
	}
	for _, c := range []struct {
		rec  checkpoint.LeaseRecord
		want bool
	}{
		{rec(SegmentLeaseToken("wf", 1, 1), 3*time.Second), true}, // silent earlier try: displaced
		{rec(SegmentLeaseToken("wf", 1, 1), time.Second), false},  // still renewing: waited for
		{rec(SegmentLeaseToken("wf2", 1, 1), time.Hour), false},   // another workflow
		{rec("plain-process-token", time.Hour), false},            // an in-process load
		{rec(SegmentLeaseToken("wf/x", 1, 1), time.Hour), false},  // a longer id with the same prefix
	} {
		if got := p.Displace(c.rec, now); got != c.want {
			t.Errorf("Displace(%q, heartbeat %s ago) = %v, want %v", c.rec.Owner.Token, now.Sub(c.rec.Heartbeat), got, c.want)
		}
	}
}

// TestErrorKindsCrossTheWire: a driver error sent by a worker reaches the submitter matching the
// same sentinel (hence the same CLI exit code) and message as in process.
func TestErrorKindsCrossTheWire(t *testing.T) {
	for _, k := range errorKinds {
		orig := errorsJoinMsg(k.sentinel)
		got := fromWireKind(fmt.Errorf("activity error: %w", toWire(orig)))
		if !errors.Is(got, k.sentinel) || got.Error() != orig.Error() {
			t.Errorf("%s: got %v (%T), want an error matching %v with message %q", k.typ, got, got, k.sentinel, orig)
		}
		app := toWire(orig).(*temporal.ApplicationError)
		if app.NonRetryable() == k.retry {
			t.Errorf("%s: non-retryable %v", k.typ, app.NonRetryable())
		}
	}
	var ie *job.InputError
	if got := fromWireKind(toWire(&job.InputError{Err: errors.New("file a.csv row 3")})); !errors.As(got, &ie) || !strings.Contains(got.Error(), "a.csv") {
		t.Fatalf("input error came back as %v", got)
	}
	plain := errors.New("s3: connection reset")
	if toWire(plain) != plain {
		t.Fatal("an error of no kind must stay plain (retryable)")
	}
}

func errorsJoinMsg(sentinel error) error { return errors.Join(errors.New("job j:"), sentinel) }
