package checkpoint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The explorations of the recovery model (decide_model_test.go: the world and what is checked).

var (
	ex, part = cvExact, cvPartial
	// modelStarts are the start states: unresolved windows of every kind, and finished ones.
	modelStarts = [][]win{
		{{covers: []string{part}}, {covers: []string{cvNone}}},
		{{covers: []string{ex}}, {covers: []string{part}}, {covers: []string{ex}}},
		{{covers: []string{ex}, markers: []int{1}}, {covers: []string{part, part}}, {covers: []string{cvEmpty}}},
		{{covers: []string{part, ex}}, {covers: []string{ex, part}}},
		{{covers: []string{ex}, missing: []int{1}}, {covers: []string{part}}, {covers: []string{part}}, {covers: []string{ex}}},
		{{covers: []string{ex}, markers: []int{1}, committed: 1}, {covers: []string{ex, ex}, markers: []int{1}}, {covers: []string{part}}},
		{{covers: []string{ex}, markers: []int{1}, committed: 1, published: 1}, {covers: []string{ex}}},
	}
	// timeStarts are states a job reaches: windows before the last are finished (the job assigns a
	// window only after the previous one is published), the last is in any state, and splits are
	// left for a new window.
	fin        = win{covers: []string{ex}, markers: []int{1}, committed: 1, published: 1}
	timeStarts = [][]win{
		{{covers: []string{part}}},
		{fin, {covers: []string{part}}},
		{fin, {covers: []string{ex}}},
		{fin, {covers: []string{ex}, markers: []int{1}}},
		{fin, {covers: []string{ex}, markers: []int{1}, committed: 1}},
		{fin, {covers: []string{part, ex}}},
		{fin, {covers: []string{ex, part}, markers: []int{1}}},
		{fin, {covers: []string{ex, cvNone}}},
		{fin, {covers: []string{ex}, missing: []int{1}}},
		{fin, {covers: []string{cvEmpty}}},
		{fin, {covers: []string{part, cvEmpty}}},
		{fin, fin},
	}
)

// TestRecoveryModelCheck: crashes only. Every crash point of a first recovery run × a zombie
// commit or not × every crash point of a second run, then recovery to the end: it must finish.
func TestRecoveryModelCheck(t *testing.T) {
	runs := 0
	for si, start := range modelStarts {
		for k1 := 0; ; k1++ {
			probe := newWorld(t, start...)
			if ticks(probe, probe.takeOver("A", false, DecideOptions{}), k1) < k1 {
				break // A ends before step k1: later crashes are the same schedule
			}
			for k2 := 0; ; k2++ {
				if k2 > 0 {
					probe := newWorld(t, start...)
					ticks(probe, probe.takeOver("A", false, DecideOptions{}), k1)
					if ticks(probe, probe.takeOver("B", false, DecideOptions{}), k2) < k2 {
						break
					}
				}
				for _, z := range []bool{false, true} {
					w := newWorld(t, start...)
					w.logf("start %d: crash after %d steps, zombie %v, crash after %d steps", si, k1, z, k2)
					ticks(w, w.takeOver("A", false, DecideOptions{}), k1)
					if z {
						w.zombie()
					}
					ticks(w, w.takeOver("B", false, DecideOptions{}), k2)
					w.finish()
					if w.lost {
						w.fatalf("crashes alone lost information")
					}
					runs++
				}
			}
		}
	}
	t.Logf("%d crash/zombie interleavings explored", runs)
}

// ticks runs up to k steps of r and returns how many it ran before it ended.
func ticks(w *world, r *runner, k int) int {
	n := 0
	for range k {
		if !w.tick(r) {
			break
		}
		n++
	}
	return n
}

// explore runs every schedule "runner A pauses after k steps (or decisions); one event (or none);
// runner B takes over and runs to its end, or does not; A wakes and continues", then calls each
// (which runs recovery to the end, or not). With found set, a failing schedule is passed to it
// instead of failing the test, and exploration ends when it returns true.
func explore(t *testing.T, fenced bool, setup func(w *world), each func(w *world), found func(w *world, msg string) bool) (runs int) {
	catch, enough := found != nil, false
	for si, start := range timeStarts {
		for k := 0; ; k++ {
			probe := newWorld(t, start...)
			setup(probe)
			probe.catch = catch
			if ticks(probe, probe.takeOver("A", fenced, DecideOptions{}), k) < k {
				break // A ended before step k: every later pause is the same schedule
			}
			nev := len(probe.events()) + 1
			for ei := range nev {
				for _, takeover := range []bool{false, true} {
					w := newWorld(t, start...)
					setup(w)
					w.catch = catch
					w.logf("start %d, A pauses after %d steps, event %d, takeover %v", si, k, ei, takeover)
					func() {
						if catch {
							defer func() {
								switch f := recover().(type) {
								case nil:
								case modelFailure:
									enough = found(w, f.msg)
								default:
									panic(f)
								}
							}()
						}
						a := w.takeOver("A", fenced, DecideOptions{})
						for range k {
							w.tick(a)
						}
						if evs := w.events(); ei < len(evs) {
							w.logf("event: %s", evs[ei].name)
							evs[ei].do(w)
						}
						if takeover {
							w.run(w.takeOver("B", fenced, DecideOptions{}))
							// Done: the job dropped its pin, so expiry may take every old snapshot.
							if w.rs.Done != nil && w.latest() > w.earliest() {
								w.logf("event: expire below %d (no pin: the job is done)", w.latest())
								w.snaps = slices.Clone(w.snaps[len(w.snaps)-1:])
							}
						}
						w.logf("A wakes")
						w.run(a)
						each(w)
					}()
					runs++
					if enough {
						return runs
					}
				}
			}
		}
	}
	return runs
}

// TestRecoveryModelCheckTime: pauses of a fenced runner at every step, foreign commits, expiry
// honouring and ignoring the pin, rollback to every snapshot, straggler results, takeover.
func TestRecoveryModelCheckTime(t *testing.T) {
	runs := explore(t, true, func(*world) {}, func(w *world) { w.finish() }, nil)
	t.Logf("%d pause/event/takeover schedules explored", runs)
}

// TestRecoveryModelCheckRandom: longer random schedules of two or three runners pausing, crashing
// and waking in any order among events.
func TestRecoveryModelCheckRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	decisions := 0
	for i := range 1500 {
		start := timeStarts[rng.IntN(len(timeStarts))]
		w := newWorld(t, start...)
		w.logf("random schedule %d", i)
		var live []*runner
		for move := 0; move < 40; move++ {
			switch k := rng.IntN(10); {
			case k < 5 && len(live) > 0:
				w.tick(live[rng.IntN(len(live))])
			case k < 7:
				evs := w.events()
				e := evs[rng.IntN(len(evs))]
				w.logf("event: %s", e.name)
				e.do(w)
			case k < 8 && len(live) > 0:
				j := rng.IntN(len(live))
				w.logf("%s crashes", live[j].name)
				live = slices.Delete(live, j, j+1)
			default:
				live = append(live, w.takeOver(fmt.Sprintf("P%d", move), true, DecideOptions{}))
			}
		}
		for _, r := range live {
			w.run(r)
		}
		w.finish()
		decisions += w.decided
	}
	t.Logf("%d decisions checked", decisions)
}

// TestRecoveryModelFindsTodaysHoles is the model's negative control: with today's advisory lease
// (a paused runner that lost the lease goes on) it finds issue 13's hole 1 — the runner's
// pre-commit lookup misses the window's expired marker and commits it again — and with today's
// paimon/commit, which creates a planned snapshot id that expired meanwhile, hole 2 — the table
// goes back to an old base and loses rows.
func TestRecoveryModelFindsTodaysHoles(t *testing.T) {
	for _, c := range []struct {
		name   string
		fenced bool
		setup  func(w *world)
		want   string
	}{
		{"hole 1 duplicate after expiry", false, func(*world) {}, "duplicate"},
		{"hole 2 snapshot id reuse", false, func(w *world) { w.reuseIDs = true }, "loss"},
		{"rollback below snapshotSeen", true, func(w *world) { w.rollbackBelowSeen = true }, "duplicate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			example := ""
			runs := explore(t, c.fenced, c.setup, func(w *world) { w.finish() }, func(w *world, msg string) bool {
				if strings.Contains(msg, c.want) {
					example = msg + "\n  " + strings.Join(w.log, "\n  ")
				}
				return example != ""
			})
			if example == "" {
				t.Fatalf("%d schedules: no %s found; the model lost its power", runs, c.want)
			}
			t.Logf("schedule %d finds a %s:\n%s", runs, c.want, example)
		})
	}
}
