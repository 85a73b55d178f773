package checkpoint

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/paimon/table"
)

// model is a job's store and table under simulated execution: it runs recovery plans step by step,
// crashes between any two steps, lets a zombie of an older attempt finish and commit, and checks
// that every window ends with exactly one commit, published from the committed attempt.
type model struct {
	t        testing.TB
	rs       Records
	tv       TableView
	nextSnap int64
}

func newModel(t testing.TB, earliest int64, ws ...win) *model {
	st, tv := sim(t, earliest, ws...)
	m := &model{t: t, tv: tv, nextSnap: 1000}
	// Rebuild the Records of st (sim keeps none).
	job, _ := st.Job()
	plan, _ := st.Plan()
	m.rs = Records{Job: &job, Plan: &plan}
	for _, w := range st.Windows() {
		m.rs.Assigned = append(m.rs.Assigned, w.Assigned)
		for _, at := range w.Attempts {
			if at.Attempt != w.Assigned.Attempt {
				m.rs.Starts = append(m.rs.Starts, AttemptStart{Window: w.Window, Attempt: at.Attempt})
			}
			m.rs.Results = append(m.rs.Results, at.Results...)
		}
		if w.Committed != nil {
			m.rs.Committed = append(m.rs.Committed, *w.Committed)
		}
		if w.Published != nil {
			m.rs.Published = append(m.rs.Published, *w.Published)
		}
	}
	return m
}

func (m *model) clone() *model {
	c := *m
	c.rs.Assigned = slices.Clone(m.rs.Assigned)
	c.rs.Starts = slices.Clone(m.rs.Starts)
	c.rs.Results = slices.Clone(m.rs.Results)
	c.rs.Committed = slices.Clone(m.rs.Committed)
	c.rs.Published = slices.Clone(m.rs.Published)
	c.tv.Markers = map[int64][]Marker{}
	for w, ms := range m.tv.Markers {
		c.tv.Markers[w] = slices.Clone(ms)
	}
	c.tv.MissingFiles = map[AttemptKey][]string{}
	for k, v := range m.tv.MissingFiles {
		c.tv.MissingFiles[k] = v
	}
	return &c
}

func (m *model) state() State {
	st, err := BuildState(m.rs)
	if err != nil {
		m.t.Fatalf("store became invalid (a record written twice?): %v", err)
	}
	return st
}

func (m *model) addMarker(w int64, a int) {
	if len(m.tv.Markers[w]) > 0 {
		m.t.Fatalf("window %d committed a second time", w)
	}
	m.nextSnap++
	m.tv.Markers[w] = []Marker{{SnapshotID: m.nextSnap, Properties: CommitProperties(*m.rs.Job, w, a, "c")}}
}

// commitSteps: the pre-commit lookup, then commit (a zombie may have won), verify + committed, publish.
func (m *model) commitSteps(w int64, a int, empty bool) []func() {
	return []func(){
		func() {
			if !empty && len(m.tv.Markers[w]) == 0 {
				m.addMarker(w, a)
			}
		},
		func() {
			c := Committed{Window: w, Attempt: a}
			if !empty {
				mk := m.tv.Markers[w][0]
				c.SnapshotID = mk.SnapshotID
				c.Attempt, _ = strconv.Atoi(mk.Properties[PropAttempt])
			}
			m.rs.Committed = append(m.rs.Committed, c)
		},
		func() { m.publish(w) },
	}
}

func (m *model) publish(w int64) {
	st := m.state()
	ws, _ := st.Window(w)
	m.rs.Published = append(m.rs.Published, Published{Window: w, Attempt: ws.Committed.Attempt, Splits: ws.Assigned.Splits})
}

// taskSteps writes one result per split of window w for attempt a (files present).
func (m *model) taskSteps(w int64, a int, splits []int, prefix string) []func() {
	var out []func()
	for i, x := range splits {
		out = append(out, func() {
			r := TaskResult{Window: w, Attempt: a, TaskID: fmt.Sprintf("%s%d", prefix, i), Splits: []int{x},
				Messages: []table.CommitMessage{msg(fmt.Sprintf("w%d-a%d-%s%d", w, a, prefix, i))}}
			r.Digest, _ = ResultDigest(r)
			m.rs.Results = append(m.rs.Results, r)
			m.tv.MissingFiles[AttemptKey{w, a}] = nil
		})
	}
	return out
}

// steps expands a plan into atomic durable steps, in order.
func (m *model) steps(p RecoveryPlan) []func() {
	var out []func()
	st := m.state()
	for _, a := range p.Actions {
		switch a.Kind {
		case Publish:
			out = append(out, func() { m.publish(a.Window) })
		case WriteCommittedThenPublish:
			out = append(out, func() {
				m.rs.Committed = append(m.rs.Committed, Committed{Window: a.Window, SnapshotID: a.SnapshotID, Attempt: a.Attempt})
			}, func() { m.publish(a.Window) })
		case Commit:
			out = append(out, m.commitSteps(a.Window, a.Attempt, a.Empty)...)
		case Recompute:
			ws, _ := st.Window(a.Window)
			out = append(out, func() { m.rs.Starts = append(m.rs.Starts, AttemptStart{Window: a.Window, Attempt: a.Attempt}) })
			out = append(out, m.taskSteps(a.Window, a.Attempt, ws.Assigned.Splits, "r")...)
			out = append(out, m.commitSteps(a.Window, a.Attempt, false)...)
		default:
			m.t.Fatalf("simulation cannot run %v", a)
		}
	}
	return out
}

// zombie lets an older, partial attempt of the first unresolved window finish its tasks and commit
// it the way a stale driver would: only after a lookup, and only in window order.
func (m *model) zombie() {
	st := m.state()
	for _, ws := range st.Windows() {
		if ws.Published != nil || ws.Committed != nil || len(m.tv.Markers[ws.Window]) > 0 {
			continue
		}
		for _, at := range ws.Attempts {
			c := CheckCover(ws.Assigned.Splits, at.Results)
			if c.Status != CoverPartial && c.Status != CoverNone {
				continue
			}
			for _, f := range m.taskSteps(ws.Window, at.Attempt, c.Missing, "z") {
				f()
			}
			m.addMarker(ws.Window, at.Attempt)
			return
		}
		return // an earlier window is unresolved: the zombie may not commit later ones
	}
}

// run decides and executes until the plan is empty, crashing after crashAt[i] steps of run i.
func (m *model) run(crashAt []int, zombieAfterCrash bool) {
	for round := 0; round < 20; round++ {
		st := m.state()
		p, err := Decide(st, m.tv)
		if err != nil {
			m.t.Fatal(err)
		}
		checkPlan(m.t, fmt.Sprintf("round %d", round), st, m.tv, DecideOptions{}, p)
		if p.Stopped() != nil {
			m.t.Fatalf("round %d stopped: %v", round, p.Stopped())
		}
		if len(p.Actions) == 0 {
			m.final()
			return
		}
		steps := m.steps(p)
		n := len(steps)
		if round < len(crashAt) && crashAt[round] < n {
			n = crashAt[round]
		}
		for _, f := range steps[:n] {
			f()
		}
		if n < len(steps) && zombieAfterCrash && round == 0 {
			m.zombie()
		}
	}
	m.t.Fatal("recovery does not converge")
}

// final: every window committed once (or recorded empty) and published from the committed attempt.
func (m *model) final() {
	for _, ws := range m.state().Windows() {
		mk := m.tv.Markers[ws.Window]
		if ws.Committed == nil || ws.Published == nil {
			m.t.Fatalf("window %d not finished", ws.Window)
		}
		if ws.Committed.SnapshotID == 0 {
			if len(mk) != 0 {
				m.t.Fatalf("empty window %d has a snapshot", ws.Window)
			}
			continue
		}
		if len(mk) != 1 {
			m.t.Fatalf("window %d has %d commits", ws.Window, len(mk))
		}
		a, _ := strconv.Atoi(mk[0].Properties[PropAttempt])
		if ws.Committed.Attempt != a || ws.Published.Attempt != a || ws.Committed.SnapshotID != mk[0].SnapshotID {
			m.t.Fatalf("window %d: snapshot attempt %d, committed %+v, published attempt %d", ws.Window, a, *ws.Committed, ws.Published.Attempt)
		}
	}
}

// TestRecoveryModelCheck enumerates, for several starting states, every crash point of the first
// recovery run × every crash point of the second × a zombie or not, and runs each to completion.
func TestRecoveryModelCheck(t *testing.T) {
	ex, part := cvExact, cvPartial
	starts := [][]win{
		{{covers: []string{part}}, {covers: []string{cvNone}}},
		{{covers: []string{ex}}, {covers: []string{part}}, {covers: []string{ex}}},
		{{covers: []string{ex}, markers: []int{1}}, {covers: []string{part, part}}, {covers: []string{cvEmpty}}},
		{{covers: []string{part, ex}}, {covers: []string{ex, part}}},
		{{covers: []string{ex}, missing: []int{1}}, {covers: []string{part}}, {covers: []string{part}}, {covers: []string{ex}}},
		{{covers: []string{ex}, markers: []int{1}, committed: 1}, {covers: []string{ex, ex}, markers: []int{1}}, {covers: []string{part}}},
	}
	runs := 0
	for si, ws := range starts {
		base := newModel(t, 1, ws...)
		p, _ := Decide(base.state(), base.tv)
		first := len(base.clone().steps(p))
		for k1 := 0; k1 <= first; k1++ {
			for k2 := 0; k2 <= 12; k2++ {
				for _, z := range []bool{false, true} {
					m := base.clone()
					m.t = &prefixT{TB: t, prefix: fmt.Sprintf("start %d crash %d,%d zombie %v: ", si, k1, k2, z)}
					m.run([]int{k1, k2}, z)
					runs++
				}
			}
		}
	}
	t.Logf("%d crash/zombie interleavings explored", runs)
}

// prefixT prefixes fatal messages with the interleaving.
type prefixT struct {
	testing.TB
	prefix string
}

func (p *prefixT) Fatalf(format string, args ...any) {
	p.TB.Helper()
	p.TB.Fatalf(p.prefix+format, args...)
}
func (p *prefixT) Fatal(args ...any) { p.TB.Helper(); p.TB.Fatal(append([]any{p.prefix}, args...)...) }
