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
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
)

// jobEnv drives a whole job through JobWorkflow in the SDK's test environment: driver segments are
// DriveSegment activities whose window tasks run through WindowWorkflow (env.executor).
type jobEnv struct {
	*env
	spec     job.Spec
	segs     SegmentOptions
	hook     func(try int64) func(point string, w int64) error // the hook of the n-th segment try (nil: none)
	storeOf  func(try int64) *checkpoint.Store                 // the store the n-th segment try uses (nil: e.store)
	segTries atomic.Int64
}

func newJobEnv(t *testing.T, fx loadtest.Fixture) *jobEnv {
	e := &jobEnv{env: newEnv(t, fx)}
	e.spec = job.Spec{Name: "tq-" + fx.Name, Warehouse: e.wh, TableName: "db.t", Checkpoint: e.store.Root()}
	return e
}

func (e *jobEnv) activities(t *testing.T) *Activities {
	return &Activities{HeartbeatEvery: 50 * time.Millisecond,
		OpenDriver: func(context.Context, job.Spec) (job.Config, error) {
			n := e.segTries.Add(1)
			cfg := e.config(t)
			cfg.Executor = nil // DriveSegment sets it
			if e.hook != nil {
				cfg.Hook = e.hook(n)
			}
			if e.storeOf != nil {
				cfg.Store = e.storeOf(n)
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
	in := JobInput{Spec: e.spec, Timing: Timing{HeartbeatTimeout: 2 * time.Second}, Segments: e.segs}
	for cont := 0; ; cont++ {
		tenv := newTestWorkflowEnv(&e.suite)
		tenv.SetTestTimeout(time.Minute)
		tenv.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: JobWorkflowID(e.spec), TaskQueue: "q"})
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
// once it has seen the lease unchanged for the heartbeat timeout (same workflow, silent holder; the
// hour-old heartbeat stamp plays no part), recovery finds the window's marker and publishes it: one
// APPEND snapshot for the window, the aggregation table exact (a second commit would double sums).
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
				Owner: checkpoint.LeaseOwner{Host: "dead", PID: 1, Token: SegmentLeaseToken(JobWorkflowID(e.spec), 1, 1)}}); err != nil {
				return err
			}
			return errors.New("worker killed after the commit")
		}
	}
	p, _, err := e.run(t) // a retried segment that never took the lease over would wait until the test env's timeout
	if err != nil {
		t.Fatal(err)
	}
	if !crashed.Load() || e.segTries.Load() < 2 {
		t.Fatalf("crashed %v, %d segment tries: the crash did not happen or was not retried", crashed.Load(), e.segTries.Load())
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

// segmentTry runs DriveSegment activities of one segment in the SDK's activity test environment.
type segmentTry struct {
	e    *jobEnv
	acts *Activities
	in   SegmentInput
}

type segmentOut struct {
	res job.Result
	err error
}

func (s segmentTry) start() chan segmentOut {
	c := make(chan segmentOut, 1)
	aenv := s.e.suite.NewTestActivityEnvironment()
	RegisterDriver(aenv, s.acts)
	go func() {
		v, err := aenv.ExecuteActivity(SegmentActivity, s.in)
		o := segmentOut{err: err}
		if err == nil {
			o.err = v.Get(&o.res)
		}
		c <- o
	}()
	return c
}

// leaseWaits collects the lease records a waiting segment try saw (Activities.leaseWait).
func leaseWaits(acts *Activities) chan checkpoint.LeaseRecord {
	c := make(chan checkpoint.LeaseRecord, 1<<16)
	acts.leaseWait = func(rec checkpoint.LeaseRecord) { c <- rec }
	return c
}

// TestSegmentWaitsForLiveEarlierTry: a segment try started while an earlier try of the same workflow
// still runs (timed out, not dead: it keeps renewing the lease) neither displaces it nor writes
// anything, however long it waits — here until it has seen several renewals and waited twice the
// silence that would let it take over; once the earlier try finishes and releases the lease the new
// try runs and finds the job done. Every window has one attempt and one snapshot.
//
// The tries' silence is measured on a fake clock (LeaseWatch.Clock) that advances by half the
// silence each time a try reads a lease version new to it: a holder that keeps renewing is seen
// unchanged for at most half the silence, however the machine schedules the two tries (on the real
// clock, a process starved for longer than the silence would rightly let the second try take over).
// The test goes on until twice the silence has passed on that clock (five versions seen). A watch that did not restart its
// count at each new version (or a rule displacing a holder that is not silent) fails this test.
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
	hb := time.Second // renewals every 250 ms
	silence := segmentSilence(hb, SegmentLeasePolicy("", 1, 1, hb).Renew)
	step := silence / 2
	try := segmentTry{e: e, acts: e.activities(t), in: SegmentInput{Spec: e.spec, Timing: Timing{HeartbeatTimeout: hb}, Segment: 1, TaskQueue: "q"}}
	var fakeMu sync.Mutex
	fakeElapsed := map[*checkpoint.LeaseWatch]*time.Duration{} // per try: its fake clock's reading
	try.acts.leasePolicy = func(p *job.LeasePolicy) {
		var elapsed time.Duration
		last := int64(-1)
		base := time.Unix(1e9, 0)
		fakeMu.Lock()
		fakeElapsed[p.Watch] = &elapsed
		fakeMu.Unlock()
		p.Watch.Clock = func() time.Time { fakeMu.Lock(); defer fakeMu.Unlock(); return base.Add(elapsed) }
		displace := p.Displace
		p.Displace = func(cur checkpoint.LeaseRecord, silent time.Duration) bool {
			fakeMu.Lock()
			if cur.Version != last { // Observe read the clock before this: the new version's count starts there
				last, elapsed = cur.Version, elapsed+step
			}
			fakeMu.Unlock()
			return displace(cur, silent)
		}
	}
	waits := leaseWaits(try.acts)
	first := try.start()
	<-paused
	holder, ok, err := e.store.CurrentLease(context.Background())
	if err != nil || !ok || holder.Released {
		t.Fatalf("lease while the first try runs: %+v (%v)", holder, err)
	}
	second := try.start()
	versions := map[int64]bool{}
	waited := func() time.Duration { // the longest wait on a try's clock (the first try never waited)
		fakeMu.Lock()
		defer fakeMu.Unlock()
		var w time.Duration
		for _, e := range fakeElapsed {
			w = max(w, *e)
		}
		return w
	}
	for len(versions) < 4 || waited() < 2*silence {
		select {
		case o := <-second:
			t.Fatalf("the second try ended while the first one ran: %+v", o)
		case rec := <-waits:
			if rec.Owner.Token != holder.Owner.Token {
				t.Fatalf("the second try waited for %q, want the first try %q", rec.Owner.Token, holder.Owner.Token)
			}
			versions[rec.Version] = true
		case <-time.After(hangGuard):
			t.Fatalf("the second try stopped waiting without ending (saw versions %v)", versions)
		}
	}
	t.Logf("the second try saw %d versions of the first try's lease and waited %s on its clock (silence %s)", len(versions), waited(), silence)
	if l, ok, err := e.store.CurrentLease(context.Background()); err != nil || !ok || l.Released || l.Owner.Token != holder.Owner.Token {
		t.Fatalf("lease %+v (%v): want the first try's (%s), unreleased", l, err, holder.Owner.Token)
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

// pausableFS stands for the storage of a process stopped with SIGSTOP: while paused, its writes
// (the lease renewals of a try whose driver is blocked in a hook) block until it resumes.
type pausableFS struct {
	fileio.FileIO
	mu   sync.Mutex
	gate chan struct{}
}

func (p *pausableFS) pause()  { p.mu.Lock(); p.gate = make(chan struct{}); p.mu.Unlock() }
func (p *pausableFS) resume() { p.mu.Lock(); close(p.gate); p.gate = nil; p.mu.Unlock() }

func (p *pausableFS) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	p.mu.Lock()
	g := p.gate
	p.mu.Unlock()
	if g != nil {
		<-g
	}
	return p.FileIO.WriteIfAbsent(ctx, path, data)
}

// TestSegmentDisplacesPausedEarlierTry: an earlier try paused as by SIGSTOP in window 2 (its driver
// and its lease renewals stopped) is displaced by the next try once that try has seen the lease
// unchanged for the silence of the rule — never before — and the next try finishes the job. The
// takeover wrote a new lease version, so when the paused try wakes its renewals and its release are
// refused (checkpoint.ErrLeaseLost: the lease keeps the next try's last version), and it ends with
// an error without a second commit of window 2.
func TestSegmentDisplacesPausedEarlierTry(t *testing.T) {
	e := newJobEnv(t, loadtest.AggSum(85, 4, 30))
	pfs := &pausableFS{FileIO: local.New()}
	paused := checkpoint.NewStore(pfs, e.store.Root())
	e.storeOf = func(try int64) *checkpoint.Store {
		if try == 1 {
			return paused
		}
		return e.store
	}
	stopped, resume := make(chan struct{}), make(chan struct{})
	var once sync.Once
	e.hook = func(try int64) func(string, int64) error {
		return func(point string, w int64) error {
			if try == 1 && point == job.PointAssigned && w == 2 {
				once.Do(func() {
					pfs.pause()
					close(stopped)
					<-resume
				})
			}
			return nil
		}
	}
	hb := 400 * time.Millisecond
	try := segmentTry{e: e, acts: e.activities(t), in: SegmentInput{Spec: e.spec, Timing: Timing{HeartbeatTimeout: hb}, Segment: 1, TaskQueue: "q"}}
	waits := leaseWaits(try.acts)
	first := try.start()
	<-stopped
	frozen, _, err := e.store.CurrentLease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	second := try.start()
	var o2 segmentOut
	select {
	case o2 = <-second:
	case <-time.After(3 * time.Minute):
		t.Fatal("the next try did not take over from the paused one")
	}
	if o2.err != nil || o2.res.AlreadyDone {
		t.Fatalf("next try: %+v; want it to finish the job", o2)
	}
	// It displaced the paused try only after waiting for it (a first read never shows silence).
	if len(waits) == 0 {
		t.Fatal("the next try displaced the paused one without waiting")
	}
	for len(waits) > 0 {
		if rec := <-waits; rec.Owner.Token != frozen.Owner.Token {
			t.Fatalf("the next try waited for %q, want the paused try %q", rec.Owner.Token, frozen.Owner.Token)
		}
	}
	e.checkExactlyOnce(t)
	cur, _, err := e.store.CurrentLease(context.Background())
	if err != nil || cur.Owner.Token == frozen.Owner.Token || cur.Version <= frozen.Version {
		t.Fatalf("lease after the takeover %+v (%v): want a newer version of the next try", cur, err)
	}
	close(resume)
	pfs.resume()
	o1 := <-first
	t.Logf("the paused try ended with: %v", o1.err)
	if o1.err == nil {
		t.Fatal("the displaced try ended without an error")
	}
	e.checkExactlyOnce(t)
	// Every renewal and the release of the woken try were refused: no version after the takeover's.
	if after, _, err := e.store.CurrentLease(context.Background()); err != nil || after != cur {
		t.Fatalf("lease after the displaced try woke: %+v (%v), want %+v", after, err, cur)
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
}

// TestSegmentTakeoverRule: a holder of the same workflow is displaced only once the waiting try has
// seen it unchanged for longer than the heartbeat timeout; other holders never. The silence is the
// waiting try's own measure, so the holder's clock does not matter: a holder whose clock is an hour
// behind (its heartbeat stamps look an hour old) but renews is waited for — the rule before this
// one, heartbeat age > timeout/2 by the waiting try's clock, displaced it at once — and one whose
// clock is ahead is displaced as soon as it falls silent.
func TestSegmentTakeoverRule(t *testing.T) {
	hb := 4 * time.Second
	p := SegmentLeasePolicy("wf", 1, 2, hb)
	for _, c := range []struct {
		tok    string
		silent time.Duration
		want   bool
	}{
		{SegmentLeaseToken("wf", 1, 1), hb + time.Millisecond, true}, // silent earlier try: displaced
		{SegmentLeaseToken("wf", 1, 1), hb, false},                   // not silent for longer than the timeout
		{SegmentLeaseToken("wf", 1, 1), 0, false},                    // just seen renewing
		{SegmentLeaseToken("wf2", 1, 1), time.Hour, false},           // another workflow
		{"plain-process-token", time.Hour, false},                    // an in-process load
		{SegmentLeaseToken("wf/x", 1, 1), time.Hour, false},          // a longer id with the same prefix
	} {
		if got := p.Displace(checkpoint.LeaseRecord{Owner: checkpoint.LeaseOwner{Token: c.tok}}, c.silent); got != c.want {
			t.Errorf("Displace(%q, silent %s) = %v, want %v", c.tok, c.silent, got, c.want)
		}
	}

	for name, skew := range map[string]time.Duration{"holder clock behind": -time.Hour, "holder clock ahead": time.Hour} {
		t.Run(name, func(t *testing.T) {
			store := checkpoint.NewStore(local.New(), loadtest.TempDir(t))
			ctx := context.Background()
			holderNow := func() time.Time { return time.Now().Add(skew) }
			h, err := store.AcquireLease(ctx, checkpoint.LeaseOptions{Now: holderNow,
				Owner: checkpoint.LeaseOwner{Host: "elsewhere", PID: 7, Token: SegmentLeaseToken("wf", 1, 1)}})
			if err != nil {
				t.Fatal(err)
			}
			waiter := time.Unix(0, 0) // the waiting try's clock, driven by the test
			p := SegmentLeasePolicy("wf", 1, 2, hb)
			p.Watch.Clock = func() time.Time { return waiter }
			o := checkpoint.LeaseOptions{Owner: p.Owner, TTL: p.TTL, Displace: p.Displace, Watch: p.Watch}
			for range 5 { // the holder renews between the waiting try's reads, however far apart they are
				if _, err := store.AcquireLease(ctx, o); !errors.Is(err, checkpoint.ErrLeaseHeld) {
					t.Fatalf("a renewing holder was displaced: %v", err)
				}
				waiter = waiter.Add(3 * hb)
				if err := h.Renew(ctx); err != nil {
					t.Fatal(err)
				}
			}
			// Silent from now on: refused until the waiting try has seen it unchanged for longer than hb.
			for _, step := range []time.Duration{0, hb / 2, hb / 2} {
				waiter = waiter.Add(step)
				if _, err := store.AcquireLease(ctx, o); !errors.Is(err, checkpoint.ErrLeaseHeld) {
					t.Fatalf("displaced after %s of silence: %v", step, err)
				}
			}
			waiter = waiter.Add(time.Millisecond)
			l, err := store.AcquireLease(ctx, o)
			if err != nil {
				t.Fatalf("a holder silent for longer than %s: %v", hb, err)
			}
			if l.Record().Owner.Token != p.Owner.Token || l.Record().Version != h.Record().Version+1 {
				t.Fatalf("takeover wrote %+v", l.Record())
			}
			if err := h.Renew(ctx); !errors.Is(err, checkpoint.ErrLeaseLost) {
				t.Fatalf("the displaced holder renewed: %v", err)
			}
		})
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
