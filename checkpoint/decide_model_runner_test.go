package checkpoint

import (
	"fmt"
	"slices"
)

// Runners of the model (decide_model_test.go): each runs recovery plans as the job does, one
// durable step per tick.

type stepKind int

const (
	stAssign stepKind = iota + 1
	stBegin
	stTask
	stCommit      // look up, pin, commit if absent (one atomic step: paimon/commit's retry loop)
	stCommitPlan  // reuseIDs only: plan snapshot latest+1 on the current table
	stCommitWrite // reuseIDs only: create the planned snapshot if its id is free
	stVerify      // exactly one marker: write committed from it
	stEmpty       // an empty attempt: committed with snapshot 0
	stCommitted   // WriteCommittedThenPublish: committed from the plan
	stPublish
	stVoid
	stFinish
)

var stepNames = map[stepKind]string{stAssign: "assign", stBegin: "begin", stTask: "task", stCommit: "commit",
	stCommitPlan: "commit-plan", stCommitWrite: "commit-write", stVerify: "verify+committed", stEmpty: "committed-empty",
	stCommitted: "committed", stPublish: "publish", stVoid: "void", stFinish: "finish"}

type step struct {
	kind   stepKind
	w      int64
	a      int
	sn     int64
	splits []int
}

func (s step) String() string { return fmt.Sprintf("%s(w%d a%d)", stepNames[s.kind], s.w, s.a) }

type runner struct {
	name    string
	lease   int
	fenced  bool
	opts    DecideOptions
	steps   []step
	pinned  bool
	floor   map[int64]int64 // per window: the lookup floor of its commit (read before the lookup)
	planned snap            // reuseIDs: the snapshot planned by stCommitPlan
	base    map[int]int     // reuseIDs: the table's rows when it was planned
	ended   string          // why the runner ended ("" while it runs)
	stopErr error           // the Stop action that ended it
}

// takeOver starts a runner that takes the lease (a new version).
func (w *world) takeOver(name string, fenced bool, o DecideOptions) *runner {
	w.lease++
	w.logf("%s takes the lease (version %d)", name, w.lease)
	return &runner{name: name, lease: w.lease, fenced: fenced, opts: o, floor: map[int64]int64{}}
}

func (r *runner) end(why string) { r.ended = why }

// tick runs one step of r (or its next decision); false once r has ended.
func (w *world) tick(r *runner) bool {
	if r.ended != "" {
		return false
	}
	if r.fenced && w.lease != r.lease {
		w.logf("%s: lease lost, stops", r.name)
		r.end("lease lost")
		return false
	}
	if len(r.steps) == 0 {
		return w.decide(r)
	}
	s := r.steps[0]
	r.steps = r.steps[1:]
	ok := w.do(r, s)
	w.logf("%s: %v ok=%v", r.name, s, ok)
	if !ok {
		r.end("error at " + s.String())
	}
	return ok
}

// run ticks r until it ends; a runner that does not end within bound is a failure.
func (w *world) run(r *runner) {
	for i := 0; w.tick(r); i++ {
		if i > 200 {
			w.fatalf("%s does not end", r.name)
		}
	}
}

func (w *world) decide(r *runner) bool {
	st := w.state()
	tv := w.view()
	p, err := DecideWith(st, tv, r.opts)
	if err != nil {
		w.fatalf("decide: %v", err)
	}
	if _, done := st.Done(); done != p.JobDone || (done && len(p.Actions) > 0) {
		w.fatalf("done record %v, plan %+v", done, p)
	}
	if p.JobDone {
		r.end("done")
		return false
	}
	w.decided++
	w.logf("%s decides %s (earliest %d, latest %d, pin %d)", r.name, summary(p), w.earliest(), w.latest(), w.pin)
	checkPlan(&prefixT{TB: w.t, w: w}, "model", st, tv, r.opts, p)
	w.checkTruth(st, p)
	if err := p.Stopped(); err != nil {
		r.stopErr = err
		r.end("stop")
		return false
	}
	for _, a := range p.Actions {
		ws, _ := st.Window(a.Window)
		switch a.Kind {
		case Publish:
			r.steps = append(r.steps, step{kind: stPublish, w: a.Window, a: a.Attempt, sn: a.SnapshotID})
		case WriteCommittedThenPublish:
			r.steps = append(r.steps, step{kind: stCommitted, w: a.Window, a: a.Attempt, sn: a.SnapshotID},
				step{kind: stPublish, w: a.Window, a: a.Attempt, sn: a.SnapshotID})
		case Commit:
			r.steps = append(r.steps, w.commitSteps(a.Window, a.Attempt, a.Empty)...)
		case Recompute:
			r.steps = append(r.steps, step{kind: stBegin, w: a.Window, a: a.Attempt})
			for _, x := range ws.Assigned.Splits {
				r.steps = append(r.steps, step{kind: stTask, w: a.Window, a: a.Attempt, splits: []int{x}})
			}
			r.steps = append(r.steps, w.commitSteps(a.Window, a.Attempt, false)...)
		case Void:
			r.steps = append(r.steps, step{kind: stVoid, w: a.Window})
		default:
			w.fatalf("the model cannot run %v", a)
		}
	}
	if len(p.Actions) == 0 {
		if len(p.Remaining) > 0 {
			r.steps = append(r.steps, step{kind: stAssign, w: p.NextWindow, a: 1, splits: p.Remaining},
				step{kind: stTask, w: p.NextWindow, a: 1, splits: p.Remaining})
			r.steps = append(r.steps, w.commitSteps(p.NextWindow, 1, false)...)
		} else {
			r.steps = append(r.steps, step{kind: stFinish})
		}
	}
	return true
}

func (w *world) commitSteps(n int64, a int, empty bool) []step {
	pub := step{kind: stPublish, w: n} // a = 0: the attempt recorded committed
	if empty {
		return []step{{kind: stEmpty, w: n, a: a}, pub}
	}
	if w.reuseIDs {
		return []step{{kind: stCommitPlan, w: n, a: a}, {kind: stCommitWrite, w: n, a: a}, {kind: stVerify, w: n, a: a}, pub}
	}
	return []step{{kind: stCommit, w: n, a: a}, {kind: stVerify, w: n, a: a}, pub}
}

// do runs one durable step; false: the runner fails there (an error of the job: it stops).
func (w *world) do(r *runner, s step) bool {
	defer w.changed()
	st := w.state()
	ws, _ := st.Window(s.w)
	switch s.kind {
	case stAssign:
		if _, ok := st.Window(s.w); ok {
			return false // assigned by another runner: ErrExist
		}
		seen := w.latest()
		w.rs.Assigned = append(w.rs.Assigned, Assigned{Window: s.w, Splits: s.splits, SequenceBase: 1 + 20*s.w, SnapshotSeen: seen, Attempt: 1})
		if !r.pinned {
			w.pin, r.pinned = seen+1, true
		}
	case stBegin:
		if _, ok := ws.Attempt(s.a); ok {
			return false
		}
		w.rs.Starts = append(w.rs.Starts, AttemptStart{Window: s.w, Attempt: s.a})
	case stTask:
		w.storeResult(s.w, s.a, s.splits, r.name)
	case stCommit, stCommitPlan:
		at, _ := ws.Attempt(s.a)
		if CheckCover(ws.Assigned.Splits, at.Results).Status != CoverExact {
			return false
		}
		r.floor[s.w] = w.floor(ws)
		if len(w.markers(s.w, r.floor[s.w])) > 0 {
			if s.kind == stCommitPlan {
				r.planned = snap{}
			}
			return true // committed already (by another runner, or a zombie): adopt it
		}
		if w.missing[AttemptKey{s.w, s.a}] {
			return false // the data files are gone
		}
		w.pin, r.pinned = r.floor[s.w]+1, true
		sn := snap{window: s.w, attempt: s.a, splits: ws.Assigned.Splits}
		if s.kind == stCommit {
			w.addSnap(sn)
			break
		}
		sn.id = w.latest() + 1
		r.planned, r.base = sn, cloneRows(w.rows)
	case stCommitWrite:
		p := r.planned
		if p.window == 0 {
			return true // nothing planned: adopted an existing marker
		}
		if slices.ContainsFunc(w.snaps, func(s snap) bool { return s.id == p.id }) {
			// Taken: paimon/commit retries on the new latest snapshot.
			w.addSnap(snap{window: p.window, attempt: p.attempt, splits: p.splits})
			break
		}
		// Hole 2: the planned id is free because it expired; the snapshot is created on the old
		// base and LATEST moves back to it: everything committed after the base is gone.
		var keep []snap
		for _, x := range w.snaps {
			if x.id < p.id {
				keep = append(keep, x)
			}
		}
		w.snaps = append(keep, p)
		w.rows = r.base
		for _, x := range p.splits {
			w.rows[x]++
			if w.rows[x] > 1 {
				w.fatalf("duplicate: split %d's rows are in the table %d times", x, w.rows[x])
			}
		}
	case stVerify:
		found := w.markers(s.w, r.floor[s.w])
		if len(found) != 1 || ws.Committed != nil {
			return false
		}
		w.rs.Committed = append(w.rs.Committed, Committed{Window: s.w, SnapshotID: found[0].id, Attempt: found[0].attempt})
	case stEmpty:
		if ws.Committed != nil {
			return false
		}
		w.rs.Committed = append(w.rs.Committed, Committed{Window: s.w, Attempt: s.a})
	case stCommitted:
		if ws.Committed != nil || !slices.ContainsFunc(w.snaps, func(x snap) bool { return x.id == s.sn && x.window == s.w && x.attempt == s.a }) {
			return false // raced, or job/marker.go: the marker does not hold the attempt
		}
		w.rs.Committed = append(w.rs.Committed, Committed{Window: s.w, SnapshotID: s.sn, Attempt: s.a})
	case stPublish:
		c := ws.Committed
		if c == nil || ws.Published != nil {
			return false
		}
		// A recovery Publish publishes the plan's attempt after checking the plan's snapshot holds
		// it (job/marker.go); the commit path publishes the attempt it recorded committed.
		a, sn := s.a, s.sn
		if s.a == 0 {
			a, sn = c.Attempt, c.SnapshotID
		}
		if sn > 0 && !slices.ContainsFunc(w.snaps, func(x snap) bool { return x.id == sn && x.window == s.w && x.attempt == a }) {
			return false // job/marker.go: the marker does not hold the attempt
		}
		at, _ := ws.Attempt(a)
		var splits []int
		for _, r := range at.Results {
			splits = append(splits, r.Splits...)
		}
		slices.Sort(splits)
		w.rs.Published = append(w.rs.Published, Published{Window: s.w, Attempt: a, Splits: splits})
		if c.SnapshotID > 0 {
			w.pin = c.SnapshotID + 1
		}
	case stVoid:
		if ws.Voided != nil {
			return false
		}
		w.rs.Voided = append(w.rs.Voided, Voided{Window: s.w, Reason: "recompute requested"})
	case stFinish:
		if _, done := st.Done(); done {
			return false
		}
		w.checkFinished(st)
		w.rs.Done = &DoneRecord{JobID: w.rs.Job.JobID, Windows: int64(len(st.Windows()))}
		w.pin = 0
	}
	return true
}

func cloneRows(m map[int]int) map[int]int {
	c := make(map[int]int, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// storeResult stores one task's result of attempt a of window n (files present); a result of
// the same task stored earlier stands (ErrExist).
func (w *world) storeResult(n int64, a int, splits []int, task string) {
	id := fmt.Sprintf("%s-%d", task, splits[0])
	for _, r := range w.rs.Results {
		if r.Window == n && r.Attempt == a && slices.Equal(r.Splits, splits) {
			return
		}
	}
	r := TaskResult{Window: n, Attempt: a, TaskID: id, Splits: splits,
		Messages: []Opaque{msg(fmt.Sprintf("w%d-a%d-%s", n, a, id))}}
	r.Digest = digest(r)
	w.rs.Results = append(w.rs.Results, r)
	w.checked[keyOf(r)] = true
	w.changed()
}
