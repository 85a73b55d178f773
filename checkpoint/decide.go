package checkpoint

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DecideOptions carries what a person decided.
type DecideOptions struct {
	// RecomputeWindows are windows whose marker vanished from the table (rolled back by hand) that
	// are to be voided and recomputed as new windows (--recompute-window).
	RecomputeWindows []int64
}

// Decide returns the recovery plan for st given the table's view (protocol.md, "Recovery").
func Decide(st State, tv TableView) (RecoveryPlan, error) { return DecideWith(st, tv, DecideOptions{}) }

// DecideWith is Decide with a person's options. It is a pure function. It walks windows in order
// and emits at most one action per window; it stops at the first window it cannot resolve (I3).
// The returned error is reserved for an unusable State (windows but no job); every problem of the
// job itself is a Stop action.
func DecideWith(st State, tv TableView, o DecideOptions) (RecoveryPlan, error) {
	p := RecoveryPlan{NextWindow: st.NextWindow(), Remaining: st.Remaining()}
	job, ok := st.Job()
	if !ok {
		if len(st.windows) > 0 {
			return p, fmt.Errorf("checkpoint: decide: windows without a job record")
		}
		return p, nil
	}
	if _, done := st.Done(); done {
		p.JobDone = true
		return p, nil
	}
	d := decider{job: job, tv: tv, opts: o}
	for _, ws := range st.windows {
		a, ok := d.window(ws)
		if !ok {
			continue
		}
		p.Actions = append(p.Actions, a)
		if a.Kind == Stop {
			break
		}
	}
	return p, nil
}

type decider struct {
	job     JobRecord
	tv      TableView
	opts    DecideOptions
	pending int64 // first window that still needs a commit (Commit/Recompute emitted), 0 if none
}

func (d *decider) stop(w int64, corrupt bool, format string, args ...any) (Action, bool) {
	err := fmt.Errorf("%w: window %d: %s", ErrStop, w, fmt.Sprintf(format, args...))
	if corrupt {
		err = fmt.Errorf("%w (%w)", err, ErrCorrupt)
	}
	return Action{Kind: Stop, Window: w, Err: err}, true
}

// window decides one window; ok=false means nothing to do.
func (d *decider) window(ws WindowState) (Action, bool) {
	w := ws.Window
	if ws.Voided != nil {
		return Action{}, false
	}
	markers := d.tv.Markers[w]
	attempts := make([]int, len(markers))
	for i, m := range markers {
		a, err := d.markerAttempt(w, m)
		if err != nil {
			return d.stop(w, true, "%v", err)
		}
		attempts[i] = a
	}
	if len(markers) > 1 {
		ids := make([]string, len(markers))
		for i, m := range markers {
			ids[i] = strconv.FormatInt(m.SnapshotID, 10)
		}
		return d.stop(w, true, "committed twice (snapshots %s carry commit user %s and identifier %d): the table holds "+
			"the window's rows twice; roll the table back to before snapshot %s by hand, then rerun with --recompute-window %d",
			strings.Join(ids, ", "), d.job.CommitUser, w, ids[0], w)
	}
	if len(markers) == 1 {
		return d.marked(ws, markers[0], attempts[0])
	}
	if ws.Committed != nil {
		return d.markerGone(ws)
	}
	if ws.Published != nil {
		return d.stop(w, true, "published but not committed, which lakeload never does (I1): the store was edited or damaged")
	}
	return d.uncommitted(ws)
}

// markerAttempt reads the attempt a marker snapshot names and checks it belongs to this job and window.
func (d *decider) markerAttempt(w int64, m Marker) (int, error) {
	if j := m.Properties[PropJob]; j != d.job.JobID {
		return 0, fmt.Errorf("snapshot %d has this job's commit user %s and identifier %d but names job %q, not %q: "+
			"another writer uses the commit user", m.SnapshotID, d.job.CommitUser, w, j, d.job.JobID)
	}
	if s, ok := m.Properties[PropWindow]; ok && s != strconv.FormatInt(w, 10) {
		return 0, fmt.Errorf("snapshot %d has identifier %d but property %s=%q", m.SnapshotID, w, PropWindow, s)
	}
	a, err := strconv.Atoi(m.Properties[PropAttempt])
	if err != nil || a < 1 {
		return 0, fmt.Errorf("snapshot %d does not name a valid attempt (%s=%q)", m.SnapshotID, PropAttempt, m.Properties[PropAttempt])
	}
	return a, nil
}

// marked: exactly one marker snapshot — publish what it committed (I5).
func (d *decider) marked(ws WindowState, m Marker, a int) (Action, bool) {
	w := ws.Window
	if d.pending != 0 {
		return d.stop(w, true, "committed as snapshot %d although earlier window %d is not committed (I2 requires increasing "+
			"window order): snapshots were removed by hand; restore them or rerun with --recompute-window %d", m.SnapshotID, d.pending, d.pending)
	}
	if c := ws.Committed; c != nil && (c.SnapshotID != m.SnapshotID || c.Attempt != a) {
		return d.stop(w, true, "the store records snapshot %d attempt %d, the table holds snapshot %d attempt %d",
			c.SnapshotID, c.Attempt, m.SnapshotID, a)
	}
	if pub := ws.Published; pub != nil {
		if pub.Attempt != a {
			return d.stop(w, true, "published attempt %d but snapshot %d committed attempt %d (I5)", pub.Attempt, m.SnapshotID, a)
		}
		return Action{}, false
	}
	if err := committedResults(ws, a, false); err != nil {
		return d.stop(w, true, "snapshot %d committed attempt %d, %v: cannot publish what was committed", m.SnapshotID, a, err)
	}
	kind := Publish
	if ws.Committed == nil {
		kind = WriteCommittedThenPublish
	}
	return Action{Kind: kind, Window: w, Attempt: a, SnapshotID: m.SnapshotID, Reason: "marker snapshot found"}, true
}

// committedResults checks that attempt a of ws covers the window exactly (and, for an empty commit, wrote no files).
func committedResults(ws WindowState, a int, empty bool) error {
	at, ok := ws.Attempt(a)
	if !ok {
		return fmt.Errorf("but the store has no attempt %d", a)
	}
	if c := CheckCover(ws.Assigned.Splits, at.Results); c.Status != CoverExact {
		return fmt.Errorf("but its stored results are %s (missing %v, duplicate %v, foreign %v)", c.Status, c.Missing, c.Duplicate, c.Foreign)
	}
	if empty && slices.ContainsFunc(at.Results, func(r TaskResult) bool { return len(r.Messages) > 0 }) {
		return fmt.Errorf("recorded without a snapshot, but its results hold files")
	}
	return nil
}

// markerGone: the store says committed, the table shows no marker.
func (d *decider) markerGone(ws WindowState) (Action, bool) {
	w, c := ws.Window, ws.Committed
	if pub := ws.Published; pub != nil && pub.Attempt != c.Attempt {
		return d.stop(w, true, "published attempt %d but committed attempt %d (I5)", pub.Attempt, c.Attempt)
	}
	if d.pending != 0 {
		return d.stop(w, true, "recorded as committed although earlier window %d is not (I2)", d.pending)
	}
	empty := c.SnapshotID == 0
	expired := !empty && d.tv.EarliestSnapshot > c.SnapshotID
	switch {
	case empty || (expired && ws.Published != nil):
		if err := committedResults(ws, c.Attempt, empty); err != nil {
			return d.stop(w, true, "committed attempt %d %v", c.Attempt, err)
		}
		if ws.Published != nil {
			return Action{}, false
		}
		return Action{Kind: Publish, Window: w, Attempt: c.Attempt, SnapshotID: c.SnapshotID, Reason: "empty window"}, true
	case expired:
		return d.stop(w, false, "committed as snapshot %d, which expired before the window was published (the consumer pin "+
			"was missing): check by hand that its rows are in the table, then run `lakeload job forget` and load the rest as a new job", c.SnapshotID)
	case slices.Contains(d.opts.RecomputeWindows, w):
		return Action{Kind: Void, Window: w, SnapshotID: c.SnapshotID, Reason: fmt.Sprintf("snapshot %d was rolled back; recompute requested", c.SnapshotID)}, true
	}
	return d.stop(w, false, "committed as snapshot %d, but no snapshot of commit user %s with identifier %d is in the table: "+
		"the table was rolled back or snapshots were removed by hand; rerun with --recompute-window %d to load the window again",
		c.SnapshotID, d.job.CommitUser, w, w)
}

// uncommitted: no marker, nothing recorded — commit an exact attempt, else recompute.
func (d *decider) uncommitted(ws WindowState) (Action, bool) {
	w := ws.Window
	var exact []int
	var why []string
	for _, at := range ws.Attempts {
		c := CheckCover(ws.Assigned.Splits, at.Results)
		if c.Status != CoverExact {
			why = append(why, fmt.Sprintf("attempt %d %s", at.Attempt, c.Status))
			continue
		}
		exact = append(exact, at.Attempt)
	}
	if len(exact) > 0 && d.tv.EarliestSnapshot > ws.Assigned.SnapshotSeen+1 {
		return d.stop(w, false, "attempt %d is complete but snapshots after %d (seen when the window was assigned) have "+
			"expired, so whether it was committed cannot be verified; check the table by hand", exact[len(exact)-1], ws.Assigned.SnapshotSeen)
	}
	if d.pending == 0 {
		d.pending = w
	}
	for i := len(exact) - 1; i >= 0; i-- {
		a := exact[i]
		missing, checked := d.tv.MissingFiles[AttemptKey{w, a}]
		switch {
		case !checked:
			why = append(why, fmt.Sprintf("attempt %d files unchecked", a))
		case len(missing) > 0:
			why = append(why, fmt.Sprintf("attempt %d misses %d data files (first %s)", a, len(missing), missing[0]))
		default:
			at, _ := ws.Attempt(a)
			empty := !slices.ContainsFunc(at.Results, func(r TaskResult) bool { return len(r.Messages) > 0 })
			return Action{Kind: Commit, Window: w, Attempt: a, Empty: empty, Reason: "exact cover, files present"}, true
		}
	}
	next := ws.LastAttempt() + 1
	return Action{Kind: Recompute, Window: w, Attempt: next, Reason: strings.Join(why, "; ")}, true
}

// IsStop reports whether err came from a Stop action.
func IsStop(err error) bool { return errors.Is(err, ErrStop) }
