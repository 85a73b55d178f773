package sim

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// full reports whether LAKELOAD_SIM=full asks for the large enumeration.
func full() bool { return os.Getenv("LAKELOAD_SIM") == "full" }

// level is where a process may die.
type level int

const (
	atHooks   level = iota // at the job's named points (Config.Hook)
	atStorage              // at storage mutations, lost or landed
)

func (l level) String() string {
	if l == atStorage {
		return "storage mutations"
	}
	return "named points"
}

// explorer enumerates crash histories: a run dies at its k-th crash point, the next run resumes,
// up to maxCrashes deaths, then a clean run finishes the job. Every history is a leaf.
type explorer struct {
	t          *testing.T
	sc         *scene
	level      level
	maxCrashes int
	// sampleSecond, when > 0, limits the crash points tried in the second run after each first
	// crash to this many, chosen by a seeded generator (the first run is always enumerated fully).
	sampleSecond int

	last     *world // the last history run (for messages)
	leaves   int    // histories run to completion and checked
	runs     int    // job.Run calls
	failures int
}

// fail reports a broken history with how to reproduce it and stops after a few.
func (e *explorer) fail(w *world, format string, args ...any) {
	e.t.Helper()
	e.failures++
	e.t.Errorf("%s, %s: %s\n  history:\n  %s", e.sc.k.name, e.level, fmt.Sprintf(format, args...), w.history())
	if e.failures >= 5 {
		e.t.FailNow()
	}
}

// faults lists the ways a run can die at its k-th crash point.
func (e *explorer) faults(k int) []fault {
	if e.level == atHooks {
		return []fault{{hook: k}}
	}
	return []fault{{op: k, opMode: lost}, {op: k, opMode: landed}}
}

// points chooses the crash points 1..n to try after `crashes` deaths in history w.
func (e *explorer) points(n, crashes int, w *world) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i + 1
	}
	if crashes == 0 || e.sampleSecond <= 0 || n <= e.sampleSecond {
		return all
	}
	h := fnv.New64a()
	h.Write([]byte(strings.Join(w.plan, ";")))
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	picked := all[:e.sampleSecond]
	slices.Sort(picked)
	return picked
}

// explore checks the history w (after `crashes` deaths): first its clean continuation (a leaf), then,
// below maxCrashes, every crash point of the next run followed by the rest of the exploration.
func (e *explorer) explore(w *world, crashes int) {
	e.t.Helper()
	leaf := w.clone()
	out := leaf.run(fault{})
	e.runs++
	leaf.note("run %d clean: err=%v (%d hooks, %d storage mutations)", crashes+1, out.err, out.hooks, out.ops)
	leaf.note("run %d trace: %s", crashes+1, out.trace)
	if out.err != nil || out.crashed {
		e.fail(leaf, "the clean run after %d crashes failed: %v", crashes, out.err)
		return
	}
	e.finish(leaf)
	if crashes == e.maxCrashes {
		return
	}
	n := out.hooks
	if e.level == atStorage {
		n = out.ops
	}
	for _, k := range e.points(n, crashes, w) {
		for _, f := range e.faults(k) {
			next := w.clone()
			o := next.run(f)
			e.runs++
			next.plan = append(next.plan, f.String())
			next.note("run %d %s: died at %s (err=%v)", crashes+1, f, shorten(o.diedAt), o.err)
			next.note("run %d trace: %s", crashes+1, o.trace)
			if !o.crashed {
				e.fail(next, "the run did not reach its crash point %s (only %d hooks, %d mutations): the job is not deterministic", f, o.hooks, o.ops)
				continue
			}
			if err := next.checkInvariants(context.Background()); err != nil {
				e.fail(next, "after the crash: %v", err)
				continue
			}
			e.explore(next, crashes+1)
		}
	}
}

// finish checks a history whose last run finished the job: the end state, then that one more run
// finds the job done and writes nothing but its lease.
func (e *explorer) finish(w *world) {
	e.t.Helper()
	e.leaves++
	ctx := context.Background()
	if err := w.checkFinal(ctx); err != nil {
		e.fail(w, "%v", err)
		return
	}
	again := w.run(fault{})
	e.runs++
	if again.err != nil || !again.res.AlreadyDone || again.ops > 2 {
		e.fail(w, "a run after the job finished: err=%v alreadyDone=%v, %d storage mutations (want only the lease's 2)", again.err, again.res.AlreadyDone, again.ops)
	}
}

func (e *explorer) report(start time.Time) {
	e.t.Logf("%s, %d windows, crashes at %s (up to %d per history): %d interleavings explored (%d job runs) in %v",
		e.sc.k.name, len(e.sc.splits), e.level, e.maxCrashes, e.leaves, e.runs, time.Since(start).Round(time.Millisecond))
}

// kinds are the tables every enumeration runs on.
func kinds() []kind { return []kind{aggKind(), dedupKind()} }

func windows() int {
	if full() {
		return 4
	}
	return 3
}

// TestCrashAtNamedPoints enumerates every history of up to two deaths at the job's named points
// (the k1-th hook call of the first run, the k2-th of the resumed run, for every k1 and k2), each
// finished by a clean run, on both tables.
func TestCrashAtNamedPoints(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			e := &explorer{t: t, sc: newScene(t, k, windows()), level: atHooks, maxCrashes: 2}
			start := time.Now()
			e.explore(e.sc.newWorld(t), 0)
			e.report(start)
		})
	}
}

// TestCrashAtStorageMutations enumerates deaths between any two storage operations: every mutation
// of the first run, lost or landed; after each, a sample of the resumed run's mutations (all of them
// with LAKELOAD_SIM=full); then a clean run.
func TestCrashAtStorageMutations(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			e := &explorer{t: t, sc: newScene(t, k, windows()), level: atStorage, maxCrashes: 2, sampleSecond: 3}
			if full() {
				e.sampleSecond = 0
			}
			start := time.Now()
			e.explore(e.sc.newWorld(t), 0)
			e.report(start)
		})
	}
}
