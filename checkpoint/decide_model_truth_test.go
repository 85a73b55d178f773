package checkpoint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The model's ground truth (decide_model_test.go): the checks of every plan and of a finished job,
// and the events that happen to the table and the tasks besides runners' steps.

// holds reports whether the table holds the rows of every split exactly once (all) or of none.
func (w *world) holds(splits []int) (all, none bool) {
	all, none = true, true
	for _, x := range splits {
		all = all && w.rows[x] == 1
		none = none && w.rows[x] == 0
	}
	return all, none
}

// checkTruth checks plan p of state st against what the world knows.
func (w *world) checkTruth(st State, p RecoveryPlan) {
	w.t.Helper()
	acted := map[int64]bool{}
	for _, a := range p.Actions {
		acted[a.Window] = true
		ws, _ := st.Window(a.Window)
		_, none := w.holds(ws.Assigned.Splits)
		switch a.Kind {
		case Commit, Recompute, Void:
			if !none {
				w.fatalf("%v of window %d, whose rows the table holds: a duplicate", a, a.Window)
			}
		case Publish, WriteCommittedThenPublish:
			at, _ := ws.Attempt(a.Attempt)
			if a.SnapshotID == 0 {
				if slices.ContainsFunc(at.Results, func(r TaskResult) bool { return len(r.Messages) > 0 }) {
					w.fatalf("%v publishes files as an empty window: loss", a)
				}
				break
			}
			if !slices.ContainsFunc(w.snaps, func(s snap) bool { return s.id == a.SnapshotID && s.window == a.Window && s.attempt == a.Attempt }) {
				w.fatalf("%v: snapshot %d is not this window's commit of that attempt: loss", a, a.SnapshotID)
			}
		case Stop:
			if !w.lost {
				w.fatalf("recovery stopped (%v) although no commit was rolled back and no expiry passed the pin", a.Err)
			}
		}
	}
	for _, ws := range st.Windows() {
		if acted[ws.Window] || ws.Voided != nil {
			continue
		}
		if len(p.Actions) > 0 && p.Actions[len(p.Actions)-1].Kind == Stop && ws.Window > p.Actions[len(p.Actions)-1].Window {
			break
		}
		c := ws.Committed
		if ws.Published == nil || c == nil {
			w.fatalf("window %d passes as done without committed and published", ws.Window)
		}
		all, _ := w.holds(ws.Assigned.Splits)
		unknowable := w.lost && c.SnapshotID < w.earliest() // rolled back, then the evidence expired
		if c.SnapshotID > 0 && !all && !unknowable {
			w.fatalf("window %d passes as done, but the table does not hold its rows: loss", ws.Window)
		}
	}
}

// checkFinished: the job is about to be marked done — every split published exactly once by a live
// window, with its rows in the table (unless the window was empty, or the loss was a person's
// rollback whose evidence expired).
func (w *world) checkFinished(st State) {
	w.t.Helper()
	plan, _ := st.Plan()
	owner := map[int]int64{}
	for _, ws := range st.Windows() {
		if ws.Voided != nil {
			continue
		}
		if ws.Published == nil || ws.Committed == nil {
			w.fatalf("finishing with window %d unpublished", ws.Window)
		}
		for _, x := range ws.Published.Splits {
			if o, dup := owner[x]; dup {
				w.fatalf("split %d published by windows %d and %d", x, o, ws.Window)
			}
			owner[x] = ws.Window
			if ws.Committed.SnapshotID > 0 && w.rows[x] != 1 && !w.lost {
				w.fatalf("finishing, but split %d (window %d) is in the table %d times: loss", x, ws.Window, w.rows[x])
			}
		}
	}
	if len(owner) != len(plan.Splits) {
		w.fatalf("finishing with %d of %d splits published", len(owner), len(plan.Splits))
	}
}

type event struct {
	name string
	do   func(w *world)
}

// events lists what can happen to the table and the tasks now, besides runners' steps.
func (w *world) events() []event {
	out := []event{{"foreign commit", func(w *world) { w.addSnap(snap{}) }}}
	for e := w.earliest() + 1; e <= w.latest(); e++ {
		honours := w.pin == 0 || e <= w.pin
		name := fmt.Sprintf("expire below %d (pin %d honoured)", e, w.pin)
		if !honours {
			name = fmt.Sprintf("expire below %d ignoring pin %d", e, w.pin)
		}
		out = append(out, event{name, func(w *world) {
			if !honours || (w.pin == 0 && w.rs.Done == nil) {
				w.lost = true
			}
			i := slices.IndexFunc(w.snaps, func(s snap) bool { return s.id >= e })
			w.snaps = slices.Clone(w.snaps[i:])
		}})
	}
	lowest := w.earliest()
	if !w.rollbackBelowSeen {
		for _, ws := range w.state().Windows() {
			if ws.Published == nil && ws.Voided == nil {
				lowest = max(lowest, ws.Assigned.SnapshotSeen)
			}
		}
	}
	for x := lowest; x < w.latest(); x++ {
		out = append(out, event{fmt.Sprintf("roll back to %d", x), func(w *world) {
			i := slices.IndexFunc(w.snaps, func(s snap) bool { return s.id > x })
			for _, s := range w.snaps[i:] {
				if s.window > 0 {
					w.lost = true
				}
				for _, y := range s.splits {
					w.rows[y]--
				}
			}
			w.snaps = slices.Clone(w.snaps[:i])
		}})
	}
	if n, a, missing, ok := w.straggler(); ok {
		out = append(out, event{fmt.Sprintf("straggler stores window %d attempt %d", n, a), func(w *world) {
			for _, x := range missing {
				w.storeResult(n, a, []int{x}, "z")
			}
		}})
	}
	return out
}

// straggler finds an attempt of the first unresolved window whose tasks have not all stored results.
func (w *world) straggler() (int64, int, []int, bool) {
	for _, ws := range w.state().Windows() {
		if ws.Voided != nil || ws.Committed != nil || ws.Published != nil || len(w.markers(ws.Window, w.floor(ws))) > 0 {
			continue
		}
		for _, at := range ws.Attempts {
			if c := CheckCover(ws.Assigned.Splits, at.Results); c.Status == CoverPartial || c.Status == CoverNone {
				return ws.Window, at.Attempt, c.Missing, true
			}
		}
		break
	}
	return 0, 0, nil, false
}

// zombie lets an older, partial attempt of the first unresolved window finish its tasks and commit
// the way a stale driver with an advisory lease does: after a lookup (of live snapshots), in
// window order, without checking the lease.
func (w *world) zombie() {
	n, a, missing, ok := w.straggler()
	if !ok {
		return
	}
	for _, x := range missing {
		w.storeResult(n, a, []int{x}, "z")
	}
	ws, _ := w.state().Window(n)
	w.logf("zombie commits window %d attempt %d", n, a)
	if len(w.markers(n, w.floor(ws))) == 0 {
		w.addSnap(snap{window: n, attempt: a, splits: ws.Assigned.Splits})
	}
}

// finish runs fresh fenced runners until the job is done or recovery stops. A stop that asks for
// --recompute-window gets it, as a person would give it; other stops end the run (checkTruth
// has checked that information was lost).
func (w *world) finish() {
	var o DecideOptions
	for i := range 8 {
		r := w.takeOver(fmt.Sprintf("R%d", i), true, o)
		w.run(r)
		switch {
		case r.ended == "done":
			w.checkFinished(w.state())
			return
		case r.stopErr != nil && strings.Contains(r.stopErr.Error(), "--recompute-window"):
			v := w.stoppedWindow(r.stopErr)
			o.RecomputeWindows = append(o.RecomputeWindows, v)
		case r.stopErr != nil:
			return
		}
	}
	w.fatalf("recovery does not converge")
}

func (w *world) stoppedWindow(err error) int64 {
	s := err.Error()
	i := strings.Index(s, "--recompute-window ")
	v, _ := strconv.ParseInt(strings.Fields(s[i+len("--recompute-window "):])[0], 10, 64)
	return v
}

// prefixT reports a checkPlan failure with the world's schedule.
type prefixT struct {
	testing.TB
	w *world
}

func (p *prefixT) Fatalf(format string, args ...any) {
	p.TB.Helper()
	p.w.fatalf(format, args...)
}
