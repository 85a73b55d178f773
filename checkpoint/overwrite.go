package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Snapshot properties of the final OVERWRITE snapshot of an overwrite job (docs/protocol.md,
// "Overwrite jobs"); PropJob, PropCoverage and PropInput are set too.
const (
	PropOverwrite = "lakeload.overwrite" // the mode: "partitions" or "table"
	PropWindows   = "lakeload.windows"   // the staged attempt of every window: "1:1,2:3,…"
)

// Overwrite modes (JobRecord option "overwrite").
const (
	OverwritePartitions = "partitions"
	OverwriteTable      = "table"
)

// OverwriteIdentifier is the commit identifier of an overwrite job's final snapshot: the number after
// its last window. Every split is assigned before the final commit, so it is fixed by then.
func OverwriteIdentifier(st State) int64 { return st.NextWindow() }

// OverwriteFloor is the snapshot id after which the final snapshot is looked up: the id seen when
// the last window was assigned, with that snapshot's delta manifest list (Assigned.SeenList). Every
// final commit attempt happens after every window was assigned.
func OverwriteFloor(st State) (seen int64, seenList string) {
	for _, ws := range st.windows {
		if ws.Voided == nil && ws.Assigned.SnapshotSeen >= seen {
			seen, seenList = ws.Assigned.SnapshotSeen, ws.Assigned.SeenList
		}
	}
	return seen, seenList
}

// FormatWindows renders window → attempt as the PropWindows value, windows ascending.
func FormatWindows(attempts map[int64]int) string {
	ws := make([]int64, 0, len(attempts))
	for w := range attempts {
		ws = append(ws, w)
	}
	slices.Sort(ws)
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%d:%d", w, attempts[w])
	}
	return strings.Join(parts, ",")
}

// ParseWindows parses a PropWindows value; an error names what is malformed.
func ParseWindows(s string) (map[int64]int, error) {
	out := map[int64]int{}
	if s == "" {
		return out, nil
	}
	for _, p := range strings.Split(s, ",") {
		ws, as, ok := strings.Cut(p, ":")
		w, err1 := strconv.ParseInt(ws, 10, 64)
		a, err2 := strconv.Atoi(as)
		if !ok || err1 != nil || err2 != nil || w < 1 || a < 1 {
			return nil, fmt.Errorf("bad window:attempt pair %q in %s=%q", p, PropWindows, s)
		}
		if _, dup := out[w]; dup {
			return nil, fmt.Errorf("window %d named twice in %s=%q", w, PropWindows, s)
		}
		out[w] = a
	}
	return out, nil
}

// OverwriteDigest names the content of the final commit: a hash over every window's staged attempt
// and its CoverageDigest, windows ascending.
func OverwriteDigest(st State, attempts map[int64]int) string {
	h := sha256.New()
	for _, ws := range st.windows {
		a, ok := attempts[ws.Window]
		if !ok {
			continue
		}
		at, _ := ws.Attempt(a)
		fmt.Fprintf(h, "%d:%d:%s\n", ws.Window, a, CoverageDigest(at.Results))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// OverwriteProperties returns the snapshot properties of the final OVERWRITE commit.
func OverwriteProperties(job JobRecord, mode string, st State, attempts map[int64]int) map[string]string {
	return map[string]string{
		PropJob:       job.JobID,
		PropOverwrite: mode,
		PropWindows:   FormatWindows(attempts),
		PropCoverage:  OverwriteDigest(st, attempts),
		PropInput:     job.InputFingerprint,
	}
}

// OverwritePlan is the recovery decision of an overwrite job.
type OverwritePlan struct {
	// Actions run in order: Recompute(w, a) stages a window again (its tasks, no commit);
	// WriteCommittedThenPublish / Publish record the final snapshot for one window; a Stop is last.
	Actions []Action
	// Final is the final snapshot found in the table (0: none).
	Final int64
	// Staged holds, when no final snapshot exists, the attempt of every window that can be committed
	// as it is (exact cover, files present); windows missing here get a Recompute action.
	Staged map[int64]int
	// Settled: every window is recorded committed with snapshot 0 (the staged attempts held no
	// files, or their files merged into no rows — Committed.MergedAway — and nothing was to be
	// replaced); after the Publish actions the job is finished.
	Settled bool
}

// Stopped returns the error of the plan's Stop action, or nil.
func (p OverwritePlan) Stopped() error { return RecoveryPlan{Actions: p.Actions}.Stopped() }

// DecideOverwrite is the pure recovery decision of an overwrite job (no window of it is ever
// committed on its own). final holds the job's OVERWRITE snapshots (commit user, identifier
// OverwriteIdentifier) newer than OverwriteFloor; tv is the job's TableView (file checks, earliest id; job/recovery_gather.go).
//
//   - two final snapshots, or one naming another job, other windows or attempts the store lacks: Stop;
//   - one final snapshot: every window records committed (its snapshot, the attempt it names) and
//     published, unless already recorded (records disagreeing with the snapshot: Stop);
//   - none, but a window is recorded committed: Stop (the final snapshot was rolled back or expired);
//   - none, every window has an exact attempt, and snapshots after the floor expired: Stop (whether
//     the final commit landed cannot be verified, I3);
//   - none: per window the newest exact attempt with its files present is staged; a window without
//     one is recomputed.
func DecideOverwrite(st State, tv TableView, final []Marker) OverwritePlan {
	p := OverwritePlan{Staged: map[int64]int{}}
	job, _ := st.Job()
	stop := func(w int64, corrupt bool, format string, args ...any) OverwritePlan {
		err := fmt.Errorf("%w: overwrite job %s: %s", ErrStop, job.JobID, fmt.Sprintf(format, args...))
		if corrupt {
			err = fmt.Errorf("%w (%w)", err, ErrCorrupt)
		}
		p.Actions = append(p.Actions, Action{Kind: Stop, Window: w, Err: err})
		p.Staged = nil
		return p
	}
	id := OverwriteIdentifier(st)
	if len(final) > 1 {
		return stop(id, true, "%d OVERWRITE snapshots carry commit user %s and identifier %d: the table was replaced twice; inspect it by hand",
			len(final), job.CommitUser, id)
	}
	if len(final) == 1 {
		return decideFinal(st, final[0], stop)
	}
	if settled, ok := decideEmpty(st, &p); ok {
		return settled
	} else if settled.Actions != nil {
		return stop(settled.Actions[0].Window, true, "%v", settled.Actions[0].Err)
	}
	all := true
	for _, ws := range st.windows {
		if ws.Voided != nil {
			continue
		}
		if c := ws.Committed; c != nil && c.SnapshotID == 0 {
			p.Staged[ws.Window] = c.Attempt // an empty final commit recorded for part of the windows
			continue
		}
		if ws.Committed != nil {
			return stop(ws.Window, false, "window %d is recorded as committed in snapshot %d, but no OVERWRITE snapshot of commit user %s "+
				"with identifier %d is in the table (rolled back, or expired before the job finished): check the table by hand, then "+
				"`lakeload job forget` and run the overwrite again as a new job", ws.Window, ws.Committed.SnapshotID, job.CommitUser, id)
		}
		if ws.Published != nil {
			return stop(ws.Window, true, "window %d is published but not committed, which lakeload never does (I1)", ws.Window)
		}
		if !slices.ContainsFunc(ws.Attempts, func(at AttemptState) bool { return CheckCover(ws.Assigned.Splits, at.Results).Status == CoverExact }) {
			all = false
		}
	}
	if seen, _ := OverwriteFloor(st); all && len(st.Remaining()) == 0 && len(st.windows) > 0 && tv.EarliestSnapshot > seen+1 {
		return stop(id, false, "every window is staged but snapshots after %d (seen when the last window was assigned) have expired, so "+
			"whether the final OVERWRITE commit landed cannot be verified; check the table by hand", seen)
	}
	for _, ws := range st.windows {
		if _, recorded := p.Staged[ws.Window]; ws.Voided != nil || recorded {
			continue // recorded with snapshot 0 above: staged as recorded, its files are not rechecked
		}
		var why []string
		staged := 0
		for i := len(ws.Attempts) - 1; i >= 0 && staged == 0; i-- {
			at := ws.Attempts[i]
			c := CheckCover(ws.Assigned.Splits, at.Results)
			missing, checked := tv.MissingFiles[AttemptKey{ws.Window, at.Attempt}]
			switch {
			case c.Status != CoverExact:
				why = append(why, fmt.Sprintf("attempt %d %s", at.Attempt, c.Status))
			case !checked:
				why = append(why, fmt.Sprintf("attempt %d files unchecked", at.Attempt))
			case len(missing) > 0:
				why = append(why, fmt.Sprintf("attempt %d misses %d data files (first %s)", at.Attempt, len(missing), missing[0]))
			default:
				staged = at.Attempt
			}
		}
		if staged > 0 {
			p.Staged[ws.Window] = staged
			continue
		}
		p.Actions = append(p.Actions, Action{Kind: Recompute, Window: ws.Window, Attempt: ws.LastAttempt() + 1, Reason: strings.Join(why, "; ")})
	}
	return p
}

// decideEmpty: every live window recorded committed with snapshot 0 — publish them (ok=true). A
// window recorded so whose attempt holds files, unless marked MergedAway, returns a Stop in the
// plan's first action, ok=false.
func decideEmpty(st State, p *OverwritePlan) (OverwritePlan, bool) {
	live, zero := 0, 0
	var actions []Action
	for _, ws := range st.windows {
		if ws.Voided != nil {
			continue
		}
		live++
		c := ws.Committed
		if c == nil || c.SnapshotID != 0 {
			continue
		}
		zero++
		if err := committedResults(ws, c.Attempt, !c.MergedAway); err != nil {
			return OverwritePlan{Actions: []Action{{Kind: Stop, Window: ws.Window, Err: fmt.Errorf("window %d committed attempt %d %v", ws.Window, c.Attempt, err)}}}, false
		}
		if ws.Published == nil {
			actions = append(actions, Action{Kind: Publish, Window: ws.Window, Attempt: c.Attempt, Reason: "empty overwrite"})
		}
	}
	if live == 0 || zero < live {
		return OverwritePlan{}, false
	}
	return OverwritePlan{Actions: actions, Settled: true, Staged: p.Staged}, true
}

// decideFinal: the final snapshot exists — record it for every window (I5: the attempts it names).
func decideFinal(st State, m Marker, stop func(int64, bool, string, ...any) OverwritePlan) OverwritePlan {
	job, _ := st.Job()
	id := OverwriteIdentifier(st)
	if j := m.Properties[PropJob]; j != job.JobID {
		return stop(id, true, "snapshot %d has this job's commit user and identifier %d but names job %q", m.SnapshotID, id, j)
	}
	attempts, err := ParseWindows(m.Properties[PropWindows])
	if err != nil {
		return stop(id, true, "snapshot %d: %v", m.SnapshotID, err)
	}
	if len(st.Remaining()) > 0 {
		return stop(id, true, "snapshot %d committed the overwrite, but %d splits are not assigned to any window", m.SnapshotID, len(st.Remaining()))
	}
	p := OverwritePlan{Final: m.SnapshotID}
	live := 0
	for _, ws := range st.windows {
		if ws.Voided != nil {
			continue
		}
		live++
		w := ws.Window
		a, ok := attempts[w]
		if !ok {
			return stop(w, true, "snapshot %d does not name window %d", m.SnapshotID, w)
		}
		if c := ws.Committed; c != nil && (c.SnapshotID != m.SnapshotID || c.Attempt != a) {
			return stop(w, true, "window %d records snapshot %d attempt %d, the table holds snapshot %d attempt %d", w, c.SnapshotID, c.Attempt, m.SnapshotID, a)
		}
		if pub := ws.Published; pub != nil {
			if pub.Attempt != a {
				return stop(w, true, "window %d published attempt %d but snapshot %d committed attempt %d (I5)", w, pub.Attempt, m.SnapshotID, a)
			}
			continue
		}
		if err := committedResults(ws, a, false); err != nil {
			return stop(w, true, "snapshot %d committed window %d attempt %d, %v", m.SnapshotID, w, a, err)
		}
		kind := Publish
		if ws.Committed == nil {
			kind = WriteCommittedThenPublish
		}
		p.Actions = append(p.Actions, Action{Kind: kind, Window: w, Attempt: a, SnapshotID: m.SnapshotID, Reason: "final overwrite snapshot found"})
	}
	if live != len(attempts) {
		return stop(id, true, "snapshot %d names %d windows, the job has %d", m.SnapshotID, len(attempts), live)
	}
	return p
}
