package killsoak

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The pause soak's runners: stopping them, resuming them one at a time, and what each must do when
// it wakes (its exit checked against the lease it held).

// runner is one `lakeload load` process of the pause soak.
type runner struct {
	*child
	role     string // "A": the round's runner; "B": a takeover
	pause    string // its LAKELOAD_PAUSE_AT ("" none)
	held     bool   // it held the job's lease at one of its stops (a process takes the lease once)
	pending  string // the kind of the stop whose outcome is not known yet ("" none)
	repauses int
	expired  bool // an expiry ran while it was stopped
	// isStopped: stopped since stoppedAt; stoppedFor sums its stops (time it did not run).
	isStopped  bool
	stoppedAt  time.Time
	stoppedFor time.Duration
}

// expectation is what a runner resumed alone must do.
type expectation int

const (
	mayRun    expectation = iota // it holds the lease or may take it: it goes on with the job
	overtaken                    // it held the lease and another runner took it meanwhile: it stops (exit 6), committing nothing
	busy                         // it never held the lease, a live (stopped) runner does, and it is no takeover: it stops (exit 6) at start
)

func (e expectation) String() string {
	return [...]string{"may go on", "overtaken", "lease held by a stopped runner"}[e]
}

// expect tells what r must do when resumed now, from the lease holder `status` shows.
func (p *pauseTable) expect(j *pauseJob, r *runner) expectation {
	st := p.status(j)
	switch h := st.Lease; {
	case h != nil && h.PID == r.pid():
		return mayRun // its own lease (released: it was stopped on its way out)
	case r.held:
		return overtaken
	case h != nil && !h.Released && p.isLive(h.PID) && r.role != "B":
		return busy // (a takeover displaces it)
	}
	return mayRun
}

// resume gives r SIGCONT, then waits for it to end, or stops it again at a random moment (the world
// then moves on quietly, without a takeover) or kills it; a runner that stops itself again at its
// hook point is a pause too.
func (p *pauseTable) resume(j *pauseJob, r *runner) {
	for {
		exp := p.expect(j, r)
		before := p.hist.maxID
		r.isStopped, r.stoppedFor = false, r.stoppedFor+time.Since(r.stoppedAt)
		r.cont()
		var timer <-chan time.Time
		follow := "wait"
		if exp == mayRun && r.repauses < 3 {
			follow = []string{"wait", "stop", "stop", "kill"}[p.rng.IntN(4)] // mostly keep the job unfinished
			if follow != "wait" {
				timer = time.After(p.st.randomDelay(p.rng))
			}
		}
		ev, kind := p.await(r, timer)
		if ev == "timer" {
			if follow == "kill" {
				p.logf(j, "  resumed %s (pid %d, %v) killed at a random moment", r.role, r.pid(), exp)
				p.kill(r)
				p.observe("a kill of " + r.role)
				return
			}
			if ev, kind = "stopped", "random"; !r.stop() {
				ev = "exited"
			} else if line, ok := drain(r.paused); ok {
				kind = pointOf(line)
			}
		}
		if ev == "exited" {
			p.ended(j, r, exp, before)
			return
		}
		if r.repauses >= 3 {
			p.logf(j, "  resumed %s (pid %d) stopped again at %s for the 4th time: killed", r.role, r.pid(), kind)
			p.outcome(r, "killed")
			p.kill(r)
			p.observe("a kill of " + r.role)
			return
		}
		r.repauses++
		p.logf(j, "  resumed %s (pid %d, %v) stopped again (%s); its last log line: %s", r.role, r.pid(), exp, kind, r.lastLine())
		p.outcome(r, "stopped-again")
		p.stopped(j, r, kind)
		for _, act := range p.quietPlan() {
			p.act(j, act)
		}
	}
}

// await waits until r exits, stops (by itself at its hook point: kind is the point) or timer fires.
func (p *pauseTable) await(r *runner, timer <-chan time.Time) (ev, kind string) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-r.exited:
			return "exited", ""
		case line := <-r.paused:
			if !r.waitStopped() {
				return "exited", ""
			}
			return "stopped", pointOf(line)
		case <-timer:
			return "timer", ""
		case <-tick.C:
			// Stopped without a new line: it printed its line before a SIGSTOP of the harness
			// and stopped itself right after SIGCONT.
			if procState(r.pid()) == 'T' {
				return "stopped", "random"
			}
		}
	}
}

// bringToStop stops r at its hook point (aimHangGuard is a hang guard only: a runner that has not
// paused reaches its point or exits; one that hangs fails the soak) or, without one, at
// a random moment within about a window after window want−1 is published. ok=false: r exited first.
func (p *pauseTable) bringToStop(j *pauseJob, r *runner, want int64) (kind string, ok bool) {
	var timer <-chan time.Time
	if r.pause != "" {
		timer = stalled(r.child, j.store)
	} else {
		waitPublished(r.child, j.store, want-1)
		timer = time.After(p.st.randomDelay(p.rng))
	}
	ev, kind := p.await(r, timer)
	switch ev {
	case "exited":
		return "", false
	case "stopped":
		return kind, true
	}
	if r.pause != "" {
		p.st.notReached++
		p.logf(j, "  %s (pid %d): no progress towards %s for %v (a hang); stopped there", r.role, r.pid(), r.pause, aimHangGuard)
		p.t.Errorf("table %s job %s: %s (pid %d) aimed at %s made no progress for %v (a hang)\n%s", p.ts.name, j.name, r.role, r.pid(), r.pause,
			aimHangGuard, r.child.output(30))
	}
	if !r.stop() {
		return "", false
	}
	if line, ok := drain(r.paused); ok {
		return pointOf(line), true
	}
	return "random", true
}

// stopped records that r is stopped (a pause) and observes the table.
func (p *pauseTable) stopped(j *pauseJob, r *runner, kind string) {
	p.pauses++
	r.isStopped, r.stoppedAt = true, time.Now()
	p.st.pause(p.ts.name, kind, r.role, r.repauses > 0)
	r.pending = kind
	if st := p.status(j); st.holder() == r.pid() {
		r.held = true
	}
	p.observe("a stop of " + r.role)
}

// ended checks the exit of r against what it had to do (exp; before: the latest snapshot id seen
// when it was resumed, -1 when it was never stopped) and observes the table.
func (p *pauseTable) ended(j *pauseJob, r *runner, exp expectation, before int64) {
	t := p.t
	t.Helper()
	p.reap(r)
	code := r.exitCode()
	if code != 1 {
		p.outcome(r, fmt.Sprintf("exit-%d", code))
	}
	stale := p.st.stalePins
	p.observe("the exit of " + r.role)
	if p.st.stalePins > stale {
		p.t.Logf("the runner that just exited:\n%s", r.output(40))
	}
	var own []snapRec // job snapshots created since r was resumed (r ran alone)
	if user := p.status(j).CommitUser; before >= 0 && user != "" {
		for id, s := range p.hist.byID {
			if id > before && s.User == user {
				own = append(own, s)
			}
		}
	}
	if before >= 0 {
		p.logf(j, "  resumed %s (pid %d, %v): exit %d, %d job snapshots; %s", r.role, r.pid(), exp, code, len(own), r.lastLine())
	}
	switch {
	case code == 0:
		if exp != mayRun && len(own) > 0 {
			p.finding(j, "runner %s (pid %d, %v) committed %v after it was resumed\n%s", r.role, r.pid(), exp, own, r.output(20))
		}
	case code == 6:
		if before < 0 {
			p.finding(j, "runner %s (pid %d) exited 6 although it was never stopped\n%s", r.role, r.pid(), r.output(20))
		} else if exp == mayRun {
			p.finding(j, "runner %s (pid %d) stopped as overtaken (exit 6) although no runner took the lease while it was stopped\n%s",
				r.role, r.pid(), r.output(20))
		}
		if len(own) > 0 {
			p.finding(j, "runner %s (pid %d) exited 6 after committing %v\n%s", r.role, r.pid(), own, r.output(20))
		}
	case code == 1 && r.expired && vanishedTableFile(r, p.path):
		// A known limitation, not a protocol hole (docs/testing.md, the pause soak): a runner
		// stopped while it read a snapshot that the expiry then removed fails on the missing file;
		// nothing was committed from the vanished state and the next run goes on.
		p.st.vanished++
		p.outcome(r, "exit-1-vanished")
	case code == 7:
		// Expiry here honours consumers, and a live job's pin covers every lookup it makes
		// (docs/protocol.md, "Paused runners and expiry", 2): no schedule of this soak may make
		// a window unverifiable.
		p.finding(j, "runner %s (pid %d, %v) stopped with exit 7 (needs a person)\n%s", r.role, r.pid(), exp, r.output(20))
	default:
		p.finding(j, "runner %s (pid %d, %v) exited %d\n%s", r.role, r.pid(), exp, code, r.output(20))
	}
}

// vanishedTableFile reports whether r failed on a file of the table at path that no longer exists.
func vanishedTableFile(r *runner, path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.stderr {
		if strings.HasPrefix(l, "lakeload: ") && strings.Contains(l, path+"/") && strings.Contains(l, "no such file or directory") {
			return true
		}
	}
	return false
}

func (p *pauseTable) start(args []string, role, pause string) *runner {
	var env []string
	if pause != "" {
		env = append(env, "LAKELOAD_PAUSE_AT="+pause)
	}
	c, err := startChild(args, env...)
	if err != nil {
		p.t.Fatal(err)
	}
	p.st.runs++
	r := &runner{child: c, role: role, pause: pause}
	p.live = append(p.live, r)
	return r
}

// kill ends r with SIGKILL (stopped or not).
func (p *pauseTable) kill(r *runner) {
	if err := r.kill(); err != nil {
		p.t.Fatalf("kill: %v", err)
	}
	p.outcome(r, "killed")
	p.reap(r)
}

// reap forgets r once it has exited; its running time feeds the random delays.
func (p *pauseTable) reap(r *runner) {
	<-r.exited
	p.live = slices.DeleteFunc(p.live, func(x *runner) bool { return x == r })
	if r.isStopped {
		r.stoppedFor += time.Since(r.stoppedAt) // killed while stopped
	}
	p.st.childTime += time.Since(r.started) - r.stoppedFor
	p.st.committed += r.windowsCommitted()
}

func (p *pauseTable) isLive(pid int) bool {
	return slices.ContainsFunc(p.live, func(r *runner) bool { return r.pid() == pid && !r.hasExited() })
}

// outcome records what r did after its last stop.
func (p *pauseTable) outcome(r *runner, what string) {
	if r.pending != "" {
		p.st.outcomes[what]++
		p.outcomes[what]++
		r.pending = ""
	}
}

// pointOf is the point of a "lakeload: paused at POINT window W" line.
func pointOf(line string) string {
	f := strings.Fields(strings.TrimPrefix(line, "lakeload: paused at "))
	if len(f) == 0 {
		return "random"
	}
	return f[0]
}

// drain returns a line waiting in ch, if any.
func drain(ch chan string) (string, bool) {
	select {
	case l := <-ch:
		return l, true
	default:
		return "", false
	}
}

func describeStop(kind, spec string) string {
	if kind == "random" {
		if spec != "" {
			return "stopped at a random moment (" + spec + " not reached)"
		}
		return "stopped at a random moment"
	}
	return "paused at " + spec
}
