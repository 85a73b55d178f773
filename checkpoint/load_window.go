package checkpoint

import (
	"context"
	"fmt"
	"slices"
)

// LoadWindow returns st with window w read again from the store. It lists only window w's directory
// and its attempts', so a driver that refreshes its state after each step of a window pays a cost
// that does not grow with the number of windows (Load lists every window). w must be assigned in st
// or be st.NextWindow() (assigned since st was loaded); st must hold a plan.
//
// Window w's records get Load's checks: each decodes and belongs to its path; the window is assigned,
// with the same splits and sequence base as in st, and split indexes inside st's plan; attempts are
// begun once, results belong to begun attempts, one per task, and match their digests; no outcome is
// recorded twice; w's splits were not dropped and are in no other live window of st. Everything else
// (job, plan, revisions, generations, done, the other windows) is st's: records written there since
// st was loaded are seen by the next Load, which recovery and every decision across windows use.
func (s *Store) LoadWindow(ctx context.Context, st State, w int64) (State, error) {
	if st.plan == nil || w < 1 || w > st.NextWindow() {
		return State{}, fmt.Errorf("checkpoint: cannot load window %d alone into a state of %d windows (plan loaded: %t); load the whole store",
			w, len(st.windows), st.plan != nil)
	}
	checked := make(map[resultKey]bool)
	var rs Records
	if err := s.readWindow(ctx, w, &rs, checked); err != nil {
		return State{}, err
	}
	ws, err := buildWindow(w, rs, checked, len(st.plan.Splits))
	if err != nil {
		return State{}, err
	}
	out := st
	out.windows = slices.Clone(st.windows)
	if w == st.NextWindow() {
		out.windows = append(out.windows, ws)
	} else {
		old := st.windows[w-1]
		if !slices.Equal(old.Assigned.Splits, ws.Assigned.Splits) || old.Assigned.SequenceBase != ws.Assigned.SequenceBase ||
			old.Assigned.Attempt != ws.Assigned.Attempt {
			return State{}, corruptf(s.AssignedPath(w), "changed since the store was loaded (write-once record rewritten)")
		}
		out.windows[w-1] = ws
	}
	return out, checkWindowOwner(out, ws)
}

// buildWindow checks the records of window w (all of rs) like BuildState and returns its state.
func buildWindow(w int64, rs Records, checked map[resultKey]bool, nsplits int) (WindowState, error) {
	where := fmt.Sprintf("window %d assigned", w)
	if len(rs.Assigned) != 1 {
		return WindowState{}, corruptf(where, "missing: the window has no assigned record in the store")
	}
	a := rs.Assigned[0]
	if err := a.validate(); err != nil {
		return WindowState{}, corruptf(where, "%v", err)
	}
	for _, x := range a.Splits {
		if x >= nsplits {
			return WindowState{}, corruptf(where, "split index %d outside the plan of %d splits", x, nsplits)
		}
	}
	ws := WindowState{Window: w, Assigned: a, Attempts: []AttemptState{{Attempt: a.Attempt}}}
	win := func(what string, x int64) (*WindowState, error) {
		if x != w {
			return nil, corruptf(fmt.Sprintf("window %d %s", x, what), "record found among the records of window %d", w)
		}
		return &ws, nil
	}
	if err := addStarts(rs.Starts, win); err != nil {
		return WindowState{}, err
	}
	slices.SortFunc(ws.Attempts, func(a, b AttemptState) int { return a.Attempt - b.Attempt })
	if err := addResults(nil, rs.Results, checked, nsplits, win); err != nil {
		return WindowState{}, err
	}
	if err := addOutcomes(rs, win); err != nil {
		return WindowState{}, err
	}
	return ws, nil
}

// checkWindowOwner is checkSplitOwners for the splits of one window ws of st.
func checkWindowOwner(st State, ws WindowState) error {
	if ws.Voided != nil {
		return nil
	}
	where := fmt.Sprintf("window %d assigned", ws.Window)
	mine := make(map[int]bool, len(ws.Assigned.Splits))
	for _, x := range ws.Assigned.Splits {
		if x < len(st.dropped) && st.dropped[x] {
			return corruptf(where, "split %d was dropped by a plan revision", x)
		}
		mine[x] = true
	}
	for _, o := range st.windows {
		if o.Window == ws.Window || o.Voided != nil {
			continue
		}
		for _, x := range o.Assigned.Splits {
			if mine[x] {
				return corruptf(where, "split %d is also assigned to window %d", x, o.Window)
			}
		}
	}
	return nil
}
