package checkpoint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// checkPlan asserts the invariants every plan must keep, whatever the state.
func checkPlan(t testing.TB, name string, st State, tv TableView, p RecoveryPlan) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: plan %s: %s", name, summary(p), fmt.Sprintf(format, args...))
	}
	complete := func(ws WindowState) bool { return tv.EarliestSnapshot <= ws.Assigned.SnapshotSeen+1 }
	exact := func(ws WindowState, a int) bool {
		at, ok := ws.Attempt(a)
		return ok && CheckCover(ws.Assigned.Splits, at.Results).Status == CoverExact
	}
	acted := map[int64]bool{}
	var needsCommit int64 // first window with a Commit or Recompute action
	var last int64
	stopped := false
	for _, a := range p.Actions {
		if stopped {
			fail("action after a stop")
		}
		if a.Window <= last {
			fail("windows not strictly increasing")
		}
		last = a.Window
		ws, ok := st.Window(a.Window)
		if !ok || ws.Voided != nil {
			fail("action for unassigned or voided window %d", a.Window)
		}
		// Every earlier live window is committed or handled by an earlier action (commit order, I2).
		for v := int64(1); v < a.Window; v++ {
			vs, _ := st.Window(v)
			if vs.Voided == nil && !acted[v] && (vs.Published == nil) {
				fail("window %d acted on while earlier window %d is unresolved", a.Window, v)
			}
		}
		acted[a.Window] = true
		markers := tv.Markers[a.Window]
		if needsCommit != 0 && a.Kind != Commit && a.Kind != Recompute && a.Kind != Stop {
			fail("window %d is committed although earlier window %d still needs a commit (I2)", a.Window, needsCommit)
		}
		if needsCommit == 0 && (a.Kind == Commit || a.Kind == Recompute) {
			needsCommit = a.Window
		}
		switch a.Kind {
		case Commit:
			if len(markers) > 0 || ws.Committed != nil || ws.Published != nil {
				fail("commit of window %d that is already committed or published (never two commits)", a.Window)
			}
			missing, checked := tv.MissingFiles[AttemptKey{a.Window, a.Attempt}]
			if !exact(ws, a.Attempt) || !checked || len(missing) > 0 {
				fail("commit of attempt %d that is not exact with all files present", a.Attempt)
			}
			if !complete(ws) {
				fail("commit of window %d whose lookup range expired", a.Window)
			}
		case Recompute:
			if len(markers) > 0 || ws.Committed != nil || ws.Published != nil {
				fail("recompute of window %d that is committed or published", a.Window)
			}
			if a.Attempt <= ws.LastAttempt() {
				fail("new attempt %d not above %d", a.Attempt, ws.LastAttempt())
			}
			if !complete(ws) && slices.ContainsFunc(ws.Attempts, func(at AttemptState) bool { return exact(ws, at.Attempt) }) {
				fail("recompute of window %d whose commit outcome is unknown", a.Window)
			}
		case Publish, WriteCommittedThenPublish:
			if ws.Published != nil {
				fail("publishing window %d twice", a.Window)
			}
			if (a.Kind == WriteCommittedThenPublish) != (ws.Committed == nil) {
				fail("write-committed iff not yet recorded")
			}
			switch {
			case len(markers) == 1:
				m, _ := strconv.Atoi(markers[0].Properties[PropAttempt])
				if a.Attempt != m || a.SnapshotID != markers[0].SnapshotID {
					fail("publishes attempt %d, snapshot %d committed attempt %d (I5)", a.Attempt, markers[0].SnapshotID, m)
				}
			case len(markers) == 0 && ws.Committed != nil:
				if a.Attempt != ws.Committed.Attempt {
					fail("publishes attempt %d, committed attempt %d (I5)", a.Attempt, ws.Committed.Attempt)
				}
			default:
				fail("publish without a commit (I1)")
			}
			if !exact(ws, a.Attempt) {
				fail("publishes an attempt without exact cover")
			}
		case Void:
			if len(markers) > 0 || ws.Committed == nil {
				fail("void of a window that is not a committed-then-vanished one")
			}
		case Stop:
			stopped = true
			if !IsStop(a.Err) {
				fail("stop error does not wrap ErrStop: %v", a.Err)
			}
		default:
			fail("unknown action %v", a)
		}
	}
	// Windows reached without an action are finished: published after a commit (or voided).
	for _, ws := range st.Windows() {
		if stopped && ws.Window >= last {
			break
		}
		if acted[ws.Window] || ws.Voided != nil {
			continue
		}
		if needsCommit != 0 && ws.Window > needsCommit {
			fail("window %d is finished although earlier window %d still needs a commit (I2)", ws.Window, needsCommit)
		}
		if ws.Published == nil || (len(tv.Markers[ws.Window]) == 0 && ws.Committed == nil) {
			fail("window %d left unresolved", ws.Window)
		}
		if len(tv.Markers[ws.Window]) > 1 {
			fail("window %d with two snapshots passed silently", ws.Window)
		}
	}
	// Remaining = all − assigned(live).
	plan, _ := st.Plan()
	owned := map[int]bool{}
	for _, ws := range st.Windows() {
		if ws.Voided == nil {
			for _, x := range ws.Assigned.Splits {
				owned[x] = true
			}
		}
	}
	for _, x := range p.Remaining {
		if owned[x] {
			fail("remaining split %d is assigned", x)
		}
	}
	if len(p.Remaining)+len(owned) != len(plan.Splits) {
		fail("remaining %v and assigned %d do not partition %d splits", p.Remaining, len(owned), len(plan.Splits))
	}
}

// windowSpace is a per-window state space: attempts' covers × markers × committed × published × files × seen.
func windowSpace(full bool) []win {
	covers := [][]string{{cvNone}, {cvPartial}, {cvExact}, {cvDup}, {cvEmpty}, {cvPartial, cvExact}, {cvExact, cvPartial}, {cvExact, cvExact}}
	markers := [][]int{nil, {1}, {2}, {1, 2}}
	committed := []struct {
		a  int
		sn int64
	}{{0, 0}, {1, 0}, {2, 0}, {1, -1}}
	published := []int{0, 1, 2}
	missing := [][]int{nil, {1}}
	seen := []int64{0, 60}
	if !full {
		covers = [][]string{{cvPartial}, {cvExact}, {cvEmpty}, {cvPartial, cvExact}, {cvExact, cvExact}}
		markers = [][]int{nil, {1}, {2}}
		committed = committed[:3]
		published = published[:2]
		seen = seen[:1]
	}
	var out []win
	for _, cv := range covers {
		for _, mk := range markers {
			for _, c := range committed {
				for _, p := range published {
					for _, ms := range missing {
						for _, s := range seen {
							out = append(out, win{covers: cv, markers: mk, committed: c.a, committedSn: c.sn,
								published: p, missing: ms, seen: s})
						}
					}
				}
			}
		}
	}
	return out
}

func TestDecideInvariantsOneWindowExhaustive(t *testing.T) {
	n := 0
	for _, earliest := range []int64{1, 50} {
		for i, w := range windowSpace(true) {
			st, tv := sim(t, earliest, w)
			p, err := Decide(st, tv)
			must(t, err)
			checkPlan(t, fmt.Sprintf("earliest %d state %d %+v", earliest, i, w), st, tv, p)
			n++
		}
	}
	t.Logf("%d one-window states", n)
}

func TestDecideInvariantsTwoWindowsExhaustive(t *testing.T) {
	// Each window's state is built (and checked by BuildState) once per position, then composed:
	// windows are independent records, so the composition is the State BuildState would return.
	space := windowSpace(false)
	type part struct {
		ws      WindowState
		markers []Marker
		files   map[AttemptKey][]string
	}
	parts := [2][]part{}
	var job JobRecord
	var plan PlanRecord
	for pos := range 2 {
		for _, w := range space {
			ws := []win{{covers: []string{cvExact}}, {covers: []string{cvExact}}}
			ws[pos] = w
			st, tv := sim(t, 1, ws...)
			job, _ = st.Job()
			plan, _ = st.Plan()
			one, _ := st.Window(int64(pos + 1))
			files := map[AttemptKey][]string{}
			for k, v := range tv.MissingFiles {
				if k.Window == int64(pos+1) {
					files[k] = v
				}
			}
			parts[pos] = append(parts[pos], part{one, tv.Markers[int64(pos+1)], files})
		}
	}
	n := 0
	for i, p1 := range parts[0] {
		for j, p2 := range parts[1] {
			st := State{job: &job, plan: &plan, windows: []WindowState{p1.ws, p2.ws}}
			tv := TableView{EarliestSnapshot: 1, Markers: map[int64][]Marker{1: p1.markers, 2: p2.markers},
				MissingFiles: map[AttemptKey][]string{}}
			for _, f := range []map[AttemptKey][]string{p1.files, p2.files} {
				for k, v := range f {
					tv.MissingFiles[k] = v
				}
			}
			p, err := Decide(st, tv)
			must(t, err)
			checkPlan(t, fmt.Sprintf("states %d,%d", i, j), st, tv, p)
			n++
		}
	}
	t.Logf("%d two-window states", n)
}

func TestDecideInvariantsFourWindowsSampled(t *testing.T) {
	space := windowSpace(true)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 3000 {
		nw := 3 + rng.IntN(2)
		ws := make([]win, nw)
		for k := range ws {
			ws[k] = space[rng.IntN(len(space))]
		}
		// Bias toward runnable prefixes: finished windows first, like real jobs.
		for k := 0; k < rng.IntN(nw); k++ {
			ws[k] = win{covers: []string{cvExact}, markers: []int{1}, committed: 1, published: 1}
		}
		earliest := []int64{1, 50}[rng.IntN(2)]
		st, tv := sim(t, earliest, ws...)
		p, err := DecideWith(st, tv, DecideOptions{RecomputeWindows: []int64{int64(rng.IntN(nw + 1))}})
		must(t, err)
		checkPlan(t, fmt.Sprintf("sample %d", i), st, tv, p)
	}
}
