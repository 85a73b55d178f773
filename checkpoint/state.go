package checkpoint

import (
	"fmt"
	"slices"
	"strings"
)

// Records is everything a store holds, unchecked: Load fills it, BuildState checks it. Tests and
// tools may build one directly.
type Records struct {
	Job       *JobRecord
	Plan      *PlanRecord
	Done      *DoneRecord
	Assigned  []Assigned
	Starts    []AttemptStart
	Results   []TaskResult
	Committed []Committed
	Published []Published
	Voided    []Voided
	Revisions []PlanRevision
	// Generations are the started generations ≥ 2 of an incremental job, GenerationsDone their done
	// records (generation.go).
	Generations     []Generation
	GenerationsDone []DoneRecord
}

// State is the checked, in-memory content of a store. It is a value: nothing changes it after
// BuildState, and its accessors return copies of its slices (records inside are shared; treat them
// as read-only).
type State struct {
	job     *JobRecord
	plan    *PlanRecord
	done    *DoneRecord
	windows []WindowState // windows[i].Window == i+1
	// Plan revisions (revision.go): plan holds the original splits plus every added one; dropped[i]
	// marks a split never to be assigned; order is the input order of every index (dropped ones too).
	revisions []PlanRevision
	dropped   []bool
	order     []int
	// generations ≥ 2 (generation.go); done is then the current generation's done record.
	generations []Generation
}

// WindowState is one assigned window with everything recorded about it. Read-only.
type WindowState struct {
	Window    int64
	Assigned  Assigned
	Attempts  []AttemptState // ascending by attempt number; the first is Assigned.Attempt
	Committed *Committed
	Published *Published
	Voided    *Voided
}

// AttemptState is one begun attempt of a window and the results its tasks stored. Read-only.
type AttemptState struct {
	Attempt int
	Results []TaskResult // ascending by task id
}

// Job returns job.json, ok=false for a new store.
func (s State) Job() (JobRecord, bool) { return deref(s.job) }

// Plan returns plan.json with the splits of every plan revision appended (index i is split i), ok=false
// before planning. Dropped splits stay in the list (see Dropped).
func (s State) Plan() (PlanRecord, bool) { return deref(s.plan) }

// Done returns the done marker of the current generation, ok=false while it runs.
func (s State) Done() (DoneRecord, bool) { return deref(s.done) }

// Windows returns the assigned windows, ascending (window i+1 at index i).
func (s State) Windows() []WindowState { return slices.Clone(s.windows) }

// Window returns window w, ok=false when it was never assigned.
func (s State) Window(w int64) (WindowState, bool) {
	if w < 1 || w > int64(len(s.windows)) {
		return WindowState{}, false
	}
	return s.windows[w-1], true
}

// Attempt returns attempt a of the window, ok=false when it was never begun.
func (ws WindowState) Attempt(a int) (AttemptState, bool) {
	for _, at := range ws.Attempts {
		if at.Attempt == a {
			return at, true
		}
	}
	return AttemptState{}, false
}

// LastAttempt returns the highest begun attempt number.
func (ws WindowState) LastAttempt() int { return ws.Attempts[len(ws.Attempts)-1].Attempt }

func deref[T any](p *T) (T, bool) {
	if p == nil {
		var zero T
		return zero, false
	}
	return *p, true
}

// BuildState checks the structure of rs and returns its State. It refuses (with an error wrapping
// ErrCorrupt) what no crash can produce: records without job.json or plan.json, a gap in window
// numbers, split indexes outside the plan, a split in two live windows, records of an unassigned
// window or unbegun attempt, a result whose digest does not match its content. Semantic states
// (published without committed, …) are left to Decide.
func BuildState(rs Records) (State, error) { return buildState(rs, nil) }

// buildState is BuildState; the digests of the results named in checked are not hashed again
// (Store.Load: they matched when the store first decoded these write-once records).
func buildState(rs Records, checked map[resultKey]bool) (State, error) {
	st := State{job: rs.Job, plan: rs.Plan, done: rs.Done}
	if rs.Job == nil {
		if rs.Plan != nil || rs.Done != nil || len(rs.Assigned)+len(rs.Starts)+len(rs.Results)+
			len(rs.Committed)+len(rs.Published)+len(rs.Voided)+len(rs.Revisions)+len(rs.Generations)+len(rs.GenerationsDone) > 0 {
			return State{}, corruptf(jobFile, "missing, but the store holds other records: not a lakeload store or a damaged one")
		}
		return st, nil
	}
	if err := rs.Job.validate(); err != nil {
		return State{}, corruptf(jobFile, "%v", err)
	}
	if rs.Plan == nil && len(rs.Assigned) > 0 {
		return State{}, corruptf(planFile, "missing, but windows are assigned")
	}
	if rs.Plan == nil && len(rs.Revisions) > 0 {
		return State{}, corruptf(planFile, "missing, but the plan has revisions")
	}
	nsplits := 0 // no plan yet: a crash between job.json and plan.json
	if err := applyGenerations(&st, rs.Generations, rs.GenerationsDone); err != nil {
		return State{}, err
	}
	if rs.Plan != nil {
		if err := applyRevisions(&st, rs.Revisions); err != nil {
			return State{}, err
		}
		nsplits = len(st.plan.Splits)
	}
	assigned := slices.Clone(rs.Assigned)
	slices.SortFunc(assigned, func(a, b Assigned) int { return cmpInt(a.Window, b.Window) })
	for i, a := range assigned {
		if a.Window != int64(i+1) {
			return State{}, corruptf(windowsDir, "windows must be numbered 1..n without gaps: found window %d at position %d", a.Window, i+1)
		}
		if err := a.validate(); err != nil {
			return State{}, corruptf(fmt.Sprintf("window %d assigned", a.Window), "%v", err)
		}
		for _, x := range a.Splits {
			if x >= nsplits {
				return State{}, corruptf(fmt.Sprintf("window %d assigned", a.Window), "split index %d outside the plan of %d splits", x, nsplits)
			}
		}
		st.windows = append(st.windows, WindowState{Window: a.Window, Assigned: a,
			Attempts: []AttemptState{{Attempt: a.Attempt}}})
	}
	win := func(what string, w int64) (*WindowState, error) {
		if w < 1 || w > int64(len(st.windows)) {
			return nil, corruptf(fmt.Sprintf("window %d %s", w, what), "record of a window that was never assigned")
		}
		return &st.windows[w-1], nil
	}
	if err := addStarts(rs.Starts, win); err != nil {
		return State{}, err
	}
	for i := range st.windows {
		slices.SortFunc(st.windows[i].Attempts, func(a, b AttemptState) int { return a.Attempt - b.Attempt })
	}
	if err := addResults(&st, rs.Results, checked, nsplits, win); err != nil {
		return State{}, err
	}
	if err := addOutcomes(rs, win); err != nil {
		return State{}, err
	}
	return st, checkSplitOwners(st)
}

// addStarts adds the attempts begun after each window's first one (unsorted).
func addStarts(starts []AttemptStart, win func(string, int64) (*WindowState, error)) error {
	for _, a := range starts {
		ws, err := win("attempt begin", a.Window)
		if err != nil {
			return err
		}
		if err := a.validate(); err != nil {
			return corruptf(fmt.Sprintf("window %d attempt %d begin", a.Window, a.Attempt), "%v", err)
		}
		if _, dup := ws.Attempt(a.Attempt); dup || a.Attempt < ws.Assigned.Attempt {
			return corruptf(fmt.Sprintf("window %d attempt %d begin", a.Window, a.Attempt),
				"attempt begun twice or below the first attempt %d", ws.Assigned.Attempt)
		}
		ws.Attempts = append(ws.Attempts, AttemptState{Attempt: a.Attempt})
	}
	return nil
}

func addResults(st *State, results []TaskResult, checked map[resultKey]bool, nsplits int, win func(string, int64) (*WindowState, error)) error {
	for _, r := range results {
		where := fmt.Sprintf("window %d attempt %d task %s", r.Window, r.Attempt, r.TaskID)
		ws, err := win("result", r.Window)
		if err != nil {
			return err
		}
		if err := r.validate(); err != nil {
			return corruptf(where, "%v", err)
		}
		// A digest the store checked when it first decoded this (write-once, unchanged) record is not hashed again.
		if !checked[keyOf(r)] {
			if d, err := ResultDigest(r); err != nil || d != r.Digest {
				return corruptf(where, "result digest mismatch (stored %s, content %s)", r.Digest, d)
			}
		}
		for _, x := range r.Splits {
			if x >= nsplits {
				return corruptf(where, "split index %d outside the plan of %d splits", x, nsplits)
			}
		}
		i := slices.IndexFunc(ws.Attempts, func(a AttemptState) bool { return a.Attempt == r.Attempt })
		if i < 0 {
			return corruptf(where, "result of an attempt that was never begun")
		}
		at := &ws.Attempts[i]
		if slices.ContainsFunc(at.Results, func(o TaskResult) bool { return o.TaskID == r.TaskID }) {
			return corruptf(where, "two results for one task")
		}
		at.Results = append(at.Results, r)
		slices.SortFunc(at.Results, func(a, b TaskResult) int { return strings.Compare(a.TaskID, b.TaskID) })
	}
	return nil
}

func addOutcomes(rs Records, win func(string, int64) (*WindowState, error)) error {
	for _, c := range rs.Committed {
		ws, err := win("committed", c.Window)
		if err != nil {
			return err
		}
		if err := c.validate(); err != nil {
			return corruptf(fmt.Sprintf("window %d committed", c.Window), "%v", err)
		}
		if ws.Committed != nil {
			return corruptf(fmt.Sprintf("window %d committed", c.Window), "recorded twice")
		}
		ws.Committed = &c
	}
	for _, p := range rs.Published {
		ws, err := win("published", p.Window)
		if err != nil {
			return err
		}
		if err := p.validate(); err != nil {
			return corruptf(fmt.Sprintf("window %d published", p.Window), "%v", err)
		}
		if ws.Published != nil {
			return corruptf(fmt.Sprintf("window %d published", p.Window), "recorded twice")
		}
		ws.Published = &p
	}
	for _, v := range rs.Voided {
		ws, err := win("voided", v.Window)
		if err != nil {
			return err
		}
		if err := v.validate(); err != nil {
			return corruptf(fmt.Sprintf("window %d voided", v.Window), "%v", err)
		}
		if ws.Voided != nil {
			return corruptf(fmt.Sprintf("window %d voided", v.Window), "recorded twice")
		}
		ws.Voided = &v
	}
	return nil
}

// checkSplitOwners refuses a split assigned to two live (not voided) windows, or a split that a plan
// revision dropped assigned to a live window.
func checkSplitOwners(st State) error {
	owner := map[int]int64{}
	for _, ws := range st.windows {
		if ws.Voided != nil {
			continue
		}
		for _, x := range ws.Assigned.Splits {
			if x < len(st.dropped) && st.dropped[x] {
				return corruptf(fmt.Sprintf("window %d assigned", ws.Window), "split %d was dropped by a plan revision", x)
			}
			if o, dup := owner[x]; dup {
				return corruptf(fmt.Sprintf("window %d assigned", ws.Window), "split %d is already assigned to window %d", x, o)
			}
			owner[x] = ws.Window
		}
	}
	return nil
}

// Remaining returns the plan indexes not assigned to any live window nor dropped, in input order
// (ascending without plan revisions; see PlanRevision): all − assigned − dropped, never
// all − published. Splits of voided windows are remaining again.
func (s State) Remaining() []int {
	if s.plan == nil {
		return nil
	}
	taken := make([]bool, len(s.plan.Splits))
	copy(taken, s.dropped)
	for _, ws := range s.windows {
		if ws.Voided == nil {
			for _, x := range ws.Assigned.Splits {
				taken[x] = true
			}
		}
	}
	var out []int
	for r := range taken {
		i := r
		if s.order != nil {
			i = s.order[r] // with plan revisions: the recorded input order
		}
		if !taken[i] {
			out = append(out, i)
		}
	}
	return out
}

// NextWindow returns the number the next assigned window gets.
func (s State) NextWindow() int64 { return int64(len(s.windows)) + 1 }

func cmpInt[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
