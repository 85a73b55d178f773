package checkpoint

import (
	"fmt"
	"strings"
	"testing"
)

// Cover kinds of a simulated attempt's stored results.
const (
	cvNone    = "none"    // begun, no result yet
	cvPartial = "partial" // first split only
	cvExact   = "exact"   // both splits, two tasks
	cvEmpty   = "empty"   // both splits, no files written
	cvDup     = "dup"     // both splits plus the first again
	cvForeign = "foreign" // both splits plus a split of another window
	cvDupIDs  = "dupids"  // both splits, one row id written by both tasks
)

// win describes one window of a simulated job: every window owns two splits (2w-2, 2w-1).
type win struct {
	covers      []string // attempt a+1 has covers[a]
	markers     []int    // attempts named by marker snapshots; snapshot ids 100w+i
	committed   int      // attempt in committed (0: none)
	committedSn int64    // snapshot id in committed (default: the first marker's, else 100w)
	published   int      // attempt in published (0: none)
	missing     []int    // attempts whose data files are missing
	unchecked   []int    // attempts whose files were not checked
	seen        int64    // Assigned.SnapshotSeen
	voided      bool
	foreignJob  bool // markers name another job
	badAttempt  bool // markers carry no valid attempt property
}

// sim builds the State and TableView of a job with the given windows.
func sim(t testing.TB, earliest int64, ws ...win) (State, TableView) {
	t.Helper()
	rs := Records{Job: new(testJob()), Plan: new(testPlan(2*len(ws) + 2))}
	tv := TableView{Markers: map[int64][]Marker{}, EarliestSnapshot: earliest, MissingFiles: map[AttemptKey][]string{}}
	for i, w := range ws {
		n := int64(i + 1)
		s0, s1 := 2*i, 2*i+1
		rs.Assigned = append(rs.Assigned, Assigned{Window: n, Splits: []int{s0, s1}, SequenceBase: 1 + 20*n, SnapshotSeen: w.seen, Attempt: 1})
		for ai, cv := range w.covers {
			a := ai + 1
			if a > 1 {
				rs.Starts = append(rs.Starts, AttemptStart{Window: n, Attempt: a})
			}
			tag := func(task string) string { return fmt.Sprintf("w%d-a%d-%s", n, a, task) }
			add := func(task string, splits []int, ids ...string) {
				r := TaskResult{Window: n, Attempt: a, TaskID: task, Splits: splits, IDs: ids}
				if cv != cvEmpty {
					r.Messages = append(r.Messages, msg(tag(task)))
				}
				r.Digest, _ = ResultDigest(r)
				rs.Results = append(rs.Results, r)
			}
			switch cv {
			case cvNone:
			case cvPartial:
				add("t0", []int{s0})
			case cvExact, cvEmpty:
				add("t0", []int{s0})
				add("t1", []int{s1})
			case cvDup:
				add("t0", []int{s0})
				add("t1", []int{s1})
				add("t2", []int{s0})
			case cvForeign:
				add("t0", []int{s0})
				add("t1", []int{s1, 2*len(ws) + 1})
			case cvDupIDs:
				add("t0", []int{s0}, "id-1", "id-2")
				add("t1", []int{s1}, "id-2")
			default:
				t.Fatalf("unknown cover %q", cv)
			}
			if !contains(w.unchecked, a) {
				var missing []string
				if contains(w.missing, a) {
					missing = []string{"/wh/db.db/t/bucket-0/data-" + tag("t0") + ".parquet"}
				}
				tv.MissingFiles[AttemptKey{n, a}] = missing
			}
		}
		for mi, a := range w.markers {
			props := CommitProperties(*rs.Job, n, a, "cov")
			if w.foreignJob {
				props[PropJob] = "other-job"
			}
			if w.badAttempt {
				delete(props, PropAttempt)
			}
			tv.Markers[n] = append(tv.Markers[n], Marker{SnapshotID: 100*n + int64(mi), Properties: props})
		}
		if w.committed > 0 {
			sn := w.committedSn
			if sn == 0 {
				sn = 100 * n
			}
			if sn < 0 {
				sn = 0 // empty commit
			}
			rs.Committed = append(rs.Committed, Committed{Window: n, SnapshotID: sn, Attempt: w.committed})
		}
		if w.published > 0 {
			rs.Published = append(rs.Published, Published{Window: n, Attempt: w.published, Splits: []int{s0, s1}})
		}
		if w.voided {
			rs.Voided = append(rs.Voided, Voided{Window: n, Reason: "test"})
		}
	}
	st, err := BuildState(rs)
	if err != nil {
		t.Fatalf("BuildState: %v", err)
	}
	return st, tv
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// summary renders a plan compactly: "pub(1,1) wcp(2,1) commit(3,2) empty(4,1) recompute(5,2) void(6) stop(7)".
func summary(p RecoveryPlan) string {
	var out []string
	for _, a := range p.Actions {
		switch a.Kind {
		case Publish:
			out = append(out, fmt.Sprintf("pub(%d,%d)", a.Window, a.Attempt))
		case WriteCommittedThenPublish:
			out = append(out, fmt.Sprintf("wcp(%d,%d)", a.Window, a.Attempt))
		case Commit:
			if a.Empty {
				out = append(out, fmt.Sprintf("empty(%d,%d)", a.Window, a.Attempt))
			} else {
				out = append(out, fmt.Sprintf("commit(%d,%d)", a.Window, a.Attempt))
			}
		case Recompute:
			out = append(out, fmt.Sprintf("recompute(%d,%d)", a.Window, a.Attempt))
		case Void:
			out = append(out, fmt.Sprintf("void(%d)", a.Window))
		case Stop:
			out = append(out, fmt.Sprintf("stop(%d)", a.Window))
		default:
			out = append(out, a.String())
		}
	}
	return strings.Join(out, " ")
}
