package checkpoint

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// This file checks Decide against what the store and the table *prove* about each window, over
// exhaustive and sampled state spaces that reach every boundary of the range checks (earliest =
// seen+1, seen+2; earliest = the committed snapshot, one above it).
//
// Facts a window's records and the table view can prove (docs/protocol.md, "Recovery"):
//   - A live marker snapshot naming attempt a proves a's rows are in the table.
//   - A committed record with snapshot 0 proves an empty commit: no rows to look for.
//   - A committed snapshot below the earliest snapshot expired: expiry removes snapshots from the
//     old end only and keeps their rows, so a published window is done. Unpublished, it may equally
//     have been rolled back before expiring: nothing can be proven.
//   - A committed snapshot at or above the earliest snapshot whose marker is not found was rolled
//     back (the id may be in the table again, reused by another commit): its rows are gone.
//   - No marker and no committed record prove "never committed" only if the lookup range after
//     snapshotSeen is complete (earliest ≤ seen+1), or if no attempt was ever committable (none is
//     an exact cover: commits are made from stored exact results only).
//
// The safety properties follow: commit only what was never committed (no duplicate), publish only
// an attempt whose rows the table holds (no loss), act on nothing whose outcome is unknown, and
// stop only where nothing is proven or the records contradict each other (corrupt).

// verdict is the one correct outcome for a window.
type verdict struct {
	kind    ActionKind // 0: nothing to do
	attempt int
	snap    int64 // Publish, WriteCommittedThenPublish
	empty   bool  // Commit
	corrupt bool  // Stop: the records contradict each other or the table
	why     string
}

func stopV(corrupt bool, why string) verdict { return verdict{kind: Stop, corrupt: corrupt, why: why} }

// wantWindow derives the verdict of ws from the facts above. pending: an earlier window still
// needs a commit (I2: no later window may be committed before it).
func wantWindow(job JobRecord, ws WindowState, tv TableView, pending bool, o DecideOptions) verdict {
	w := ws.Window
	exact := func(a int) bool {
		at, ok := ws.Attempt(a)
		return ok && CheckCover(ws.Assigned.Splits, at.Results).Status == CoverExact
	}
	hasFiles := func(a int) bool {
		at, _ := ws.Attempt(a)
		return slices.ContainsFunc(at.Results, func(r TaskResult) bool { return len(r.Messages) > 0 })
	}
	markers := tv.Markers[w]
	for _, m := range markers {
		a, err := strconv.Atoi(m.Properties[PropAttempt])
		wp, hasW := m.Properties[PropWindow]
		if m.Properties[PropJob] != job.JobID || (hasW && wp != strconv.FormatInt(w, 10)) || err != nil || a < 1 {
			return stopV(true, "a marker this job cannot account for")
		}
	}
	c, p := ws.Committed, ws.Published
	switch {
	case len(markers) > 1:
		return stopV(true, "committed twice")
	case len(markers) == 1:
		m := markers[0]
		a, _ := strconv.Atoi(m.Properties[PropAttempt])
		switch {
		case pending:
			return stopV(true, "committed before an earlier window (I2)")
		case c != nil && (c.SnapshotID != m.SnapshotID || c.Attempt != a):
			return stopV(true, "committed record disagrees with the table")
		case p != nil && p.Attempt != a:
			return stopV(true, "published another attempt than the table holds (I5)")
		case p != nil:
			return verdict{why: "done"}
		case !exact(a):
			return stopV(true, "the committed attempt's results do not cover the window")
		case c == nil:
			return verdict{kind: WriteCommittedThenPublish, attempt: a, snap: m.SnapshotID}
		}
		return verdict{kind: Publish, attempt: a, snap: m.SnapshotID}
	case c != nil:
		empty := c.SnapshotID == 0
		expired := !empty && c.SnapshotID < tv.EarliestSnapshot
		switch {
		case p != nil && p.Attempt != c.Attempt:
			return stopV(true, "published another attempt than committed (I5)")
		case pending:
			return stopV(true, "recorded committed before an earlier window (I2)")
		case empty && (!exact(c.Attempt) || hasFiles(c.Attempt)):
			return stopV(true, "recorded empty, but the attempt is not an empty exact cover")
		case empty && p != nil:
			return verdict{why: "empty, done"}
		case empty:
			return verdict{kind: Publish, attempt: c.Attempt}
		case expired && p == nil:
			return stopV(false, "expired before publish: expired or rolled back, unknown")
		case expired && !exact(c.Attempt):
			return stopV(true, "the committed attempt's results do not cover the window")
		case expired:
			return verdict{why: "expired after publish, done"}
		case slices.Contains(o.RecomputeWindows, w):
			return verdict{kind: Void}
		}
		return stopV(false, "rolled back")
	case p != nil:
		return stopV(true, "published, never committed (I1)")
	}
	var exacts []int
	for _, at := range ws.Attempts {
		if exact(at.Attempt) {
			exacts = append(exacts, at.Attempt)
		}
	}
	if len(exacts) > 0 && tv.EarliestSnapshot > ws.Assigned.SnapshotSeen+1 {
		return stopV(false, "may have been committed in the expired range")
	}
	for _, a := range slices.Backward(exacts) {
		if missing, checked := tv.MissingFiles[AttemptKey{w, a}]; checked && len(missing) == 0 {
			return verdict{kind: Commit, attempt: a, empty: !hasFiles(a)}
		}
	}
	return verdict{kind: Recompute, attempt: ws.LastAttempt() + 1}
}

// wantPlan walks the windows in order: one verdict per window that needs an action, up to the
// first stop.
func wantPlan(st State, tv TableView, o DecideOptions) (out []Action, whys []string) {
	job, _ := st.Job()
	pending := false
	for _, ws := range st.Windows() {
		if ws.Voided != nil {
			continue
		}
		v := wantWindow(job, ws, tv, pending, o)
		if v.kind == 0 {
			continue
		}
		if v.kind == Commit || v.kind == Recompute {
			pending = true
		}
		a := Action{Kind: v.kind, Window: ws.Window, Attempt: v.attempt, SnapshotID: v.snap, Empty: v.empty}
		if v.kind == Stop {
			a.Err = ErrStop
			if v.corrupt {
				a.Err = fmt.Errorf("%w (%w)", ErrStop, ErrCorrupt)
			}
		}
		out = append(out, a)
		whys = append(whys, v.why)
		if v.kind == Stop {
			break
		}
	}
	return out, whys
}

// sameAction compares what matters of an action: kind, window, attempt, snapshot (publish), empty
// (commit), corruption (stop).
func sameAction(got, want Action) bool {
	if got.Kind != want.Kind || got.Window != want.Window {
		return false
	}
	switch got.Kind {
	case Publish, WriteCommittedThenPublish:
		return got.Attempt == want.Attempt && got.SnapshotID == want.SnapshotID
	case Commit:
		return got.Attempt == want.Attempt && got.Empty == want.Empty
	case Recompute:
		return got.Attempt == want.Attempt
	case Stop:
		return errors.Is(got.Err, ErrCorrupt) == errors.Is(want.Err, ErrCorrupt)
	}
	return true
}

// checkPlan asserts that p is the plan the facts prove, then (independently of wantPlan) the
// safety properties every plan must keep.
func checkPlan(t testing.TB, name string, st State, tv TableView, o DecideOptions, p RecoveryPlan) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: plan %s: %s", name, summary(p), fmt.Sprintf(format, args...))
	}
	want, whys := wantPlan(st, tv, o)
	for i := range max(len(want), len(p.Actions)) {
		switch {
		case i >= len(p.Actions):
			fail("missing %v (%s)", want[i], whys[i])
		case i >= len(want):
			fail("unexpected %v", p.Actions[i])
		case !sameAction(p.Actions[i], want[i]):
			fail("%v, want %v (%s)", p.Actions[i], want[i], whys[i])
		}
	}
	checkSafety(t, name, st, tv, o, p)
}

// checkSafety asserts the safety properties of p directly.
func checkSafety(t testing.TB, name string, st State, tv TableView, o DecideOptions, p RecoveryPlan) {
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
	hasFiles := func(ws WindowState, a int) bool {
		at, _ := ws.Attempt(a)
		return slices.ContainsFunc(at.Results, func(r TaskResult) bool { return len(r.Messages) > 0 })
	}
	markerAttempt := func(m Marker) int { a, _ := strconv.Atoi(m.Properties[PropAttempt]); return a }
	// inTable: the facts prove attempt a's rows are in the table (or that it wrote none).
	inTable := func(ws WindowState, a int) bool {
		ms, c := tv.Markers[ws.Window], ws.Committed
		switch {
		case len(ms) == 1:
			return markerAttempt(ms[0]) == a && (c == nil || (c.Attempt == a && c.SnapshotID == ms[0].SnapshotID))
		case len(ms) == 0 && c != nil && c.SnapshotID == 0:
			return c.Attempt == a && exact(ws, a) && !hasFiles(ws, a)
		}
		return false
	}
	mayBeCommitted := func(ws WindowState) bool {
		return len(tv.Markers[ws.Window]) > 0 || ws.Committed != nil || ws.Published != nil ||
			(!complete(ws) && slices.ContainsFunc(ws.Attempts, func(at AttemptState) bool { return exact(ws, at.Attempt) }))
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
		acted[a.Window] = true
		markers := tv.Markers[a.Window]
		committedish := len(markers) > 0 || ws.Committed != nil
		if needsCommit != 0 && committedish && a.Kind != Stop {
			fail("window %d is committed although earlier window %d still needs a commit (I2)", a.Window, needsCommit)
		}
		if needsCommit == 0 && (a.Kind == Commit || a.Kind == Recompute) {
			needsCommit = a.Window
		}
		switch a.Kind {
		case Commit, Recompute:
			if mayBeCommitted(ws) {
				fail("%v of window %d that is or may be committed (never two commits, never act while unknown)", a.Kind, a.Window)
			}
			if a.Kind == Recompute {
				if a.Attempt <= ws.LastAttempt() {
					fail("new attempt %d not above %d", a.Attempt, ws.LastAttempt())
				}
				break
			}
			missing, checked := tv.MissingFiles[AttemptKey{a.Window, a.Attempt}]
			if !exact(ws, a.Attempt) || !checked || len(missing) > 0 {
				fail("commit of attempt %d that is not exact with all files present", a.Attempt)
			}
			if a.Empty == hasFiles(ws, a.Attempt) {
				fail("commit of attempt %d with Empty=%v: an empty commit of files publishes rows not in the table", a.Attempt, a.Empty)
			}
		case Publish, WriteCommittedThenPublish:
			if ws.Published != nil {
				fail("publishing window %d twice", a.Window)
			}
			if (a.Kind == WriteCommittedThenPublish) != (ws.Committed == nil) {
				fail("write-committed iff not yet recorded")
			}
			if !inTable(ws, a.Attempt) || !exact(ws, a.Attempt) {
				fail("publishes attempt %d of window %d whose rows the table is not proven to hold (no loss, I5)", a.Attempt, a.Window)
			}
			if len(markers) == 1 && a.SnapshotID != markers[0].SnapshotID {
				fail("records snapshot %d, the marker is %d", a.SnapshotID, markers[0].SnapshotID)
			}
		case Void:
			c := ws.Committed
			if !slices.Contains(o.RecomputeWindows, a.Window) || len(markers) > 0 || c == nil || c.SnapshotID == 0 || c.SnapshotID < tv.EarliestSnapshot {
				fail("void of window %d, which is not a requested, rolled-back one (voiding rows still in the table duplicates them)", a.Window)
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
	// Windows reached without an action are finished: published from the attempt the table holds.
	for _, ws := range st.Windows() {
		if stopped && ws.Window >= last {
			break
		}
		if acted[ws.Window] || ws.Voided != nil {
			continue
		}
		pub, c, ms := ws.Published, ws.Committed, tv.Markers[ws.Window]
		if pub == nil {
			fail("window %d left unpublished", ws.Window)
		}
		if needsCommit != 0 && ws.Window > needsCommit {
			fail("window %d is finished although earlier window %d still needs a commit (I2)", ws.Window, needsCommit)
		}
		expiredAfterPublish := len(ms) == 0 && c != nil && c.SnapshotID > 0 && c.SnapshotID < tv.EarliestSnapshot &&
			c.Attempt == pub.Attempt && exact(ws, pub.Attempt)
		if !inTable(ws, pub.Attempt) && !expiredAfterPublish {
			fail("window %d passes as done, but the table is not proven to hold its published attempt %d (loss)", ws.Window, pub.Attempt)
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

// windowSpace is a per-window state space: attempts' covers × markers × committed × published ×
// files × seen. Window w's markers are snapshots 100w, 100w+1; committed records name the first
// marker's snapshot, another one (101), snapshot 1 (the lowest id) or none (-1: empty). The full
// space's seen values and earliestSpace put earliest at seen+1 and seen+2, and at the committed
// snapshot and one above.
func windowSpace(full bool) []win {
	covers := [][]string{{cvNone}, {cvPartial}, {cvExact}, {cvDup}, {cvEmpty}, {cvPartial, cvExact}, {cvExact, cvPartial},
		{cvExact, cvExact}, {cvPartial, cvEmpty}}
	markers := [][]int{nil, {1}, {2}, {1, 2}}
	committed := []struct {
		a  int
		sn int64
	}{{0, 0}, {1, 0}, {2, 0}, {1, -1}, {2, -1}, {1, 101}, {1, 1}}
	published := []int{0, 1, 2}
	files := []struct{ missing, unchecked []int }{{}, {missing: []int{1}}, {unchecked: []int{1}}, {missing: []int{2}}}
	seen := []int64{0, 60}
	if !full {
		covers = [][]string{{cvPartial}, {cvExact}, {cvEmpty}, {cvPartial, cvExact}, {cvExact, cvExact}}
		markers = [][]int{nil, {1}, {2}}
		committed = committed[:4]
		published = published[:2]
		files = files[:2]
		seen = seen[:1]
	}
	var out []win
	for _, cv := range covers {
		for _, mk := range markers {
			for _, c := range committed {
				for _, p := range published {
					for _, f := range files {
						for _, s := range seen {
							out = append(out, win{covers: cv, markers: mk, committed: c.a, committedSn: c.sn,
								published: p, missing: f.missing, unchecked: f.unchecked, seen: s})
						}
					}
				}
			}
		}
	}
	return out
}

// earliestSpace: no expiry; seen+1 and seen+2 for seen 0 and 60; window 1's committed snapshot
// 100 and 101, the one above it.
var earliestSpace = []int64{1, 2, 61, 62, 100, 101, 102}

// consistent reports whether tv could come from the job's gather: every marker is at or above the earliest
// snapshot (the gather never returns an expired one).
func consistent(tv TableView) bool {
	for _, ms := range tv.Markers {
		for _, m := range ms {
			if m.SnapshotID < tv.EarliestSnapshot {
				return false
			}
		}
	}
	return true
}

func TestDecideInvariantsOneWindowExhaustive(t *testing.T) {
	n := 0
	opts := []DecideOptions{{}, {RecomputeWindows: []int64{1}}, {RecomputeWindows: []int64{2}}}
	for i, w := range windowSpace(true) {
		st, tv := sim(t, 1, w)
		for _, earliest := range earliestSpace {
			tv.EarliestSnapshot = earliest
			if !consistent(tv) {
				continue
			}
			for k, o := range opts {
				if k > 0 && (w.committed == 0 || len(w.markers) > 0) {
					break // the options concern committed windows without a marker only
				}
				p, err := DecideWith(st, tv, o)
				must(t, err)
				checkPlan(t, fmt.Sprintf("earliest %d %+v state %d %+v", earliest, o, i, w), st, tv, o, p)
				n++
			}
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
			checkPlan(t, fmt.Sprintf("states %d,%d", i, j), st, tv, DecideOptions{}, p)
			n++
		}
	}
	t.Logf("%d two-window states", n)
}

func TestDecideInvariantsFourWindowsSampled(t *testing.T) {
	space := windowSpace(true)
	rng := rand.New(rand.NewPCG(7, 11))
	n := 0
	for i := range 6000 {
		nw := 3 + rng.IntN(2)
		ws := make([]win, nw)
		for k := range ws {
			ws[k] = space[rng.IntN(len(space))]
			if rng.IntN(4) == 0 {
				ws[k].voided = true
			}
		}
		// Bias toward runnable prefixes: finished windows first, like real jobs.
		for k := 0; k < rng.IntN(nw); k++ {
			ws[k] = win{covers: []string{cvExact}, markers: []int{1}, committed: 1, published: 1}
		}
		st, tv := sim(t, 1, ws...)
		// Earliest somewhere around the windows' markers (100w) and seen values.
		tv.EarliestSnapshot = []int64{1, 2, 61, 62, 100, 101, 200, 201, 300, 301}[rng.IntN(10)]
		if !consistent(tv) {
			continue
		}
		o := DecideOptions{RecomputeWindows: []int64{int64(rng.IntN(nw + 1))}}
		p, err := DecideWith(st, tv, o)
		must(t, err)
		checkPlan(t, fmt.Sprintf("sample %d %+v", i, ws), st, tv, o, p)
		n++
	}
	t.Logf("%d sampled states", n)
}
