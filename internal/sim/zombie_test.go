package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// zombieStats counts how the two drivers of zombie histories ended, by error message shape.
type zombieStats map[string]int

var digits = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f-]{27}|\d+`)

func (s zombieStats) add(who string, out runOutcome) {
	msg := "ok"
	switch {
	case out.crashed:
		msg = "died as planned"
	case out.err != nil:
		msg = out.err.Error()
		if i := strings.Index(msg, "\n"); i > 0 {
			msg = msg[:i]
		}
		msg = digits.ReplaceAllString(msg, "N")
		if len(msg) > 110 {
			msg = msg[:110] + "…"
		}
	}
	s[who+": "+msg]++
}

func (s zombieStats) log(t *testing.T) {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %5d × %s", s[k], k)
	}
}

// moment is a point in a process's run: just before its n-th hook call (hook) or n-th storage
// mutation; n = 0 means after the run ended.
type moment struct {
	hook bool
	n    int
}

func (m moment) String() string {
	switch {
	case m.n == 0:
		return "after run 2 ended"
	case m.hook:
		return fmt.Sprintf("before run 2's hook#%d", m.n)
	}
	return fmt.Sprintf("before run 2's op#%d", m.n)
}

// zombie runs one zombie history from world base: process 1 runs with fault zf until it pauses;
// process 2 (a new driver taking the job over) runs to its end, and process 1 resumes at moment at
// of process 2 and runs to its own end (or lands its paused write and dies, per zf.onResume) while
// process 2 waits; then a clean run must finish the job. It returns the hook calls and storage
// mutations of process 2, and false when process 1 ended before reaching its pause point.
//
// ev, when set, happens right before process 1 resumes (after process 2's moment): other writers
// commit and snapshot expiry runs. When ev's expiry ignores pins, a job may rightly stop with "cannot
// be verified" instead of finishing; the history is then checked as stopped (checkStopped).
func (e *explorer) zombie(base *world, zf fault, at moment, ev *worldEvent, stats zombieStats) (hooks, ops int, ok bool) {
	e.t.Helper()
	w := base.clone()
	e.last = w
	pz := newProc(w.fs, zf)
	zch := w.start(pz)
	var zout runOutcome
	select {
	case <-pz.paused:
	case zout = <-zch:
		return 0, 0, false
	}
	e.runs++
	pz.mu.Lock()
	pausedAt := pz.trace[len(pz.trace)-1]
	pz.mu.Unlock()
	w.note("run 1 %s: paused at %s", zf, pausedAt)
	resumed := false
	resume := func() {
		resumed = true
		if ev != nil {
			if err := w.apply(*ev); err != nil {
				e.fail(w, "world event %s: %v", ev, err)
			}
		}
		close(pz.resume)
		zout = <-zch
		w.note("run 1 resumed %s: err=%v, died at %q", at, zout.err, zout.diedAt)
		w.note("run 1 trace: %s", zout.trace)
	}
	p2 := newProc(w.fs, fault{})
	if at.n > 0 {
		p2.before = func(hook bool, n int) {
			if hook == at.hook && n == at.n && !resumed {
				resume()
			}
		}
	}
	out2 := <-w.start(p2)
	e.runs++
	w.note("run 2 trace: %s", out2.trace)
	w.note("run 2 (takeover): err=%v (%d hooks, %d storage mutations)", out2.err, out2.hooks, out2.ops)
	if !resumed {
		resume()
	}
	stats.add("zombie", zout)
	stats.add("new driver", out2)
	if strings.Contains(fmt.Sprint(zout.err, out2.err), "panicked") {
		e.fail(w, "a process panicked")
		return out2.hooks, out2.ops, true
	}
	ctx := context.Background()
	if err := w.checkInvariants(ctx); err != nil {
		e.fail(w, "after the zombie: %v", err)
		return out2.hooks, out2.ops, true
	}
	last := w.run(fault{})
	e.runs++
	w.note("run 3 clean: err=%v", last.err)
	if ev != nil && ev.ignorePins && unverifiable(last.err) {
		stats.add("clean run", last)
		e.leaves++
		if err := w.checkStopped(ctx); err != nil {
			e.fail(w, "%v", err)
		}
		return out2.hooks, out2.ops, true
	}
	if last.err != nil {
		e.fail(w, "the clean run after the zombie failed: %v", last.err)
		return out2.hooks, out2.ops, true
	}
	e.finish(w)
	return out2.hooks, out2.ops, true
}

// zombiePlan says which zombie histories to run.
type zombiePlan struct {
	onResume resumeMode
	// pauseAtOps pauses at storage mutations (else at hook calls); skip, if set, leaves out
	// mutations by their trace line.
	pauseAtOps bool
	skip       func(trace string) bool
	// The moments of the new driver to resume at: before each hook call, before each storage
	// mutation; sample > 0 keeps that many of them per pause point. After its end is always tried.
	atHooks, atOps bool
	sample         int
	event          *worldEvent // what happens to the table before the zombie resumes (nil: nothing)
}

// exploreZombies runs the zombie histories of plan from a fresh world.
func (e *explorer) exploreZombies(plan zombiePlan) zombieStats {
	stats := zombieStats{}
	w := e.sc.newWorld(e.t)
	probe := newProc(w.clone().fs, fault{})
	w.clone().startOn(probe)
	e.runs++
	var pauses []int
	nh, no := 0, 0
	for _, line := range probe.trace {
		isHook := strings.HasPrefix(line, "hook#")
		if isHook {
			nh++
		} else {
			no++
		}
		switch {
		case isHook && !plan.pauseAtOps:
			pauses = append(pauses, nh)
		case !isHook && plan.pauseAtOps && (plan.skip == nil || !plan.skip(line)):
			pauses = append(pauses, no)
		}
	}
	for _, k := range pauses {
		zf := fault{pauseAt: k, pauseOp: plan.pauseAtOps, onResume: plan.onResume}
		h2, o2, ok := e.zombie(w, zf, moment{}, plan.event, stats)
		if !ok {
			e.fail(w, "run 1 never reached its pause point %s: the job is not deterministic", zf)
			continue
		}
		var moments []moment
		if plan.atHooks {
			for j := 1; j <= h2; j++ {
				moments = append(moments, moment{hook: true, n: j})
			}
		}
		if plan.atOps {
			for j := 1; j <= o2; j++ {
				moments = append(moments, moment{n: j})
			}
		}
		if plan.sample > 0 && len(moments) > plan.sample {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(len(moments))))
			rng.Shuffle(len(moments), func(i, j int) { moments[i], moments[j] = moments[j], moments[i] })
			moments = moments[:plan.sample]
		}
		for _, m := range moments {
			e.zombie(w, zf, m, plan.event, stats)
		}
	}
	return stats
}

// startOn runs process p to its end on w.
func (w *world) startOn(p *proc) runOutcome { return <-w.start(p) }

// dataOrManifest tells a trace line that writes a data file or a manifest: such a write landing
// late is an orphan file no snapshot names (the full enumeration tries them anyway).
func dataOrManifest(line string) bool {
	return strings.Contains(line, "/bucket-") || strings.Contains(line, "/manifest/")
}

// TestZombieDriver stops the first driver at each named point (as SIGSTOP would), lets a new driver
// take the job over, and resumes the old one (SIGCONT) at a moment of the new driver's run (before
// one of its hook calls, or after it ended; with LAKELOAD_SIM=full also before each storage
// mutation) with its stale in-memory state; the new driver waits meanwhile. The old driver may fail
// (write-once records and the snapshot lookup fence it) but nothing may be committed twice and a
// final run must finish the job exactly.
func TestZombieDriver(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			e := &explorer{t: t, sc: newScene(t, k, windows()), level: atHooks}
			plan := zombiePlan{onResume: resumeContinue, atHooks: true}
			switch {
			case full():
				plan.atOps = true
			case k.name != aggKind().name:
				plan.sample = 2 // the aggregation table shows a double commit in its rows; keep the default run short
			}
			start := time.Now()
			stats := e.exploreZombies(plan)
			t.Logf("%s, %d windows, zombie driver paused at every named point: %d interleavings (%d job runs) in %v; outcomes:",
				k.name, len(e.sc.splits), e.leaves, e.runs, time.Since(start).Round(time.Millisecond))
			stats.log(t)
		})
	}
}

// TestZombieLateWrite holds back a storage mutation of the first run while a new driver takes over,
// then lets that one write land late (at a moment of the new driver, as in TestZombieDriver) and
// the old process die: a worker's saved task result, the old driver's `assigned`, `committed` or
// `published`, its snapshot file or hint arriving after the takeover. Write-once storage means the
// late write either fills a still-empty slot (the new driver must then find it) or fails. By
// default every store record, snapshot, hint and consumer write is held back; LAKELOAD_SIM=full
// adds data files and manifests and every storage mutation of the new driver as a moment.
func TestZombieLateWrite(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			e := &explorer{t: t, sc: newScene(t, k, windows()), level: atStorage}
			plan := zombiePlan{onResume: resumeLandDie, pauseAtOps: true, skip: dataOrManifest, atHooks: true}
			switch {
			case full():
				plan.skip, plan.atOps = nil, true
			case k.name != aggKind().name:
				plan.sample = 2
			}
			start := time.Now()
			stats := e.exploreZombies(plan)
			t.Logf("%s, %d windows, writes of run 1 landing late: %d interleavings (%d job runs) in %v; outcomes:",
				k.name, len(e.sc.splits), e.leaves, e.runs, time.Since(start).Round(time.Millisecond))
			stats.log(t)
		})
	}
}

// TestZombieAfterExpiry is TestZombieDriver in a table that moves on: while the first driver is
// paused at a named point, the new driver takes the job over, and before the old one resumes (at a
// named point of the new driver's run, or after the new driver finished the job and dropped its pin)
// another writer commits and snapshot expiry removes every snapshot it may, honouring the job's pin
// or ignoring it. The resumed driver's lookup then misses markers that expired. Nothing may be
// committed twice, no snapshot id reused, nothing of the other writer lost; with pins honoured the
// clean run finishes the job, with pins ignored it finishes or stops because the lookup range
// expired ("cannot be verified"), never guessing.
func TestZombieAfterExpiry(t *testing.T) {
	for _, k := range kinds() {
		for _, ev := range worldEvents() {
			t.Run(k.name+"/"+ev.name, func(t *testing.T) {
				t.Parallel()
				e := &explorer{t: t, sc: newScene(t, k, windows()), level: atHooks}
				plan := zombiePlan{onResume: resumeContinue, atHooks: true, event: &ev, sample: 3}
				if full() {
					plan.sample = 0
				}
				start := time.Now()
				stats := e.exploreZombies(plan)
				t.Logf("%s, %d windows, zombie paused at every named point, %s before it resumes: %d interleavings (%d job runs) in %v; outcomes:",
					k.name, len(e.sc.splits), ev, e.leaves, e.runs, time.Since(start).Round(time.Millisecond))
				stats.log(t)
			})
		}
	}
}
