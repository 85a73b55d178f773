package checkpoint

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// mergedAwayState is an overwrite job of windows (two splits each, one exact attempt holding files)
// of which the first recorded are committed with snapshot 0, marked MergedAway or not.
func mergedAwayState(t *testing.T, windows, recorded int, mergedAway bool) (State, TableView) {
	t.Helper()
	rs := Records{Job: new(testJob()), Plan: new(testPlan(2 * windows))}
	tv := TableView{MissingFiles: map[AttemptKey][]string{}}
	for i := range windows {
		n := int64(i + 1)
		rs.Assigned = append(rs.Assigned, Assigned{Window: n, Splits: []int{2 * i, 2*i + 1}, Attempt: 1})
		rs.Results = append(rs.Results,
			result(t, n, 1, "t0", []int{2 * i}, msg(fmt.Sprintf("w%d", n))),
			result(t, n, 1, "t1", []int{2*i + 1}, msg(fmt.Sprintf("w%db", n))))
		if i < recorded {
			rs.Committed = append(rs.Committed, Committed{Window: n, SnapshotID: 0, Attempt: 1, MergedAway: mergedAway})
		} else {
			tv.MissingFiles[AttemptKey{n, 1}] = nil // the job's gather checks the files of unrecorded windows only
		}
	}
	st, err := BuildState(rs)
	if err != nil {
		t.Fatal(err)
	}
	return st, tv
}

// TestDecideOverwriteMergedAway: windows recorded with snapshot 0 whose attempts hold files are
// settled (published) when marked MergedAway — the staged files merged into no rows and nothing
// was replaced — and stop the job as corrupt when not. With only part of them recorded (a crash
// between the records), the recorded ones stay staged as recorded, the rest staged from their
// exact attempts, and nothing is recomputed: the job commits (records) the rest.
func TestDecideOverwriteMergedAway(t *testing.T) {
	st, tv := mergedAwayState(t, 3, 3, true)
	p := DecideOverwrite(st, tv, nil)
	if err := p.Stopped(); err != nil || !p.Settled || p.Final != 0 || owSummary(p) != "publish(1,1) publish(2,1) publish(3,1) settled" {
		t.Fatalf("all recorded MergedAway: %s settled=%v err=%v; want every window published", owSummary(p), p.Settled, err)
	}

	st, tv = mergedAwayState(t, 3, 3, false)
	p = DecideOverwrite(st, tv, nil)
	if err := p.Stopped(); !errors.Is(err, ErrCorrupt) || p.Settled {
		t.Fatalf("recorded without snapshot and not MergedAway, attempts hold files: %s err=%v; want a corrupt stop", owSummary(p), err)
	}

	for recorded := 1; recorded <= 2; recorded++ {
		st, tv = mergedAwayState(t, 3, recorded, true)
		p = DecideOverwrite(st, tv, nil)
		if err := p.Stopped(); err != nil || p.Settled || len(p.Actions) != 0 || len(p.Staged) != 3 {
			t.Fatalf("%d of 3 recorded MergedAway: %s staged %v settled=%v err=%v; want all 3 staged, no action", recorded, owSummary(p), p.Staged, p.Settled, err)
		}
		for w := int64(1); w <= 3; w++ {
			if p.Staged[w] != 1 {
				t.Fatalf("window %d staged attempt %d, want 1", w, p.Staged[w])
			}
		}
	}
}

// TestCommittedMergedAwayRecord: the MergedAway mark survives the store, and is refused with a
// snapshot id (it means none was made).
func TestCommittedMergedAwayRecord(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		must(t, s.WriteJob(bg, testJob()))
		must(t, s.WritePlan(bg, testPlan(2)))
		must(t, s.WriteAssigned(bg, Assigned{Window: 1, Splits: []int{0, 1}, Attempt: 1}))
		if err := s.WriteCommitted(bg, Committed{Window: 1, SnapshotID: 4, Attempt: 1, MergedAway: true, Time: t0}); err == nil {
			t.Fatal("a MergedAway record with snapshot 4 was written")
		}
		must(t, s.WriteCommitted(bg, Committed{Window: 1, SnapshotID: 0, Attempt: 1, MergedAway: true, Time: t0.Add(time.Second)}))
		st, err := s.Load(bg)
		must(t, err)
		ws, _ := st.Window(1)
		if ws.Committed == nil || !ws.Committed.MergedAway || ws.Committed.SnapshotID != 0 {
			t.Fatalf("loaded committed record %+v; want MergedAway with snapshot 0", ws.Committed)
		}
	})
}
