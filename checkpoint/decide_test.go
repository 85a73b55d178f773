package checkpoint

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestDecideProtocolTable crosses every per-window column of protocol.md's recovery table for a
// one-window job: marker in table × committed × published × cover of the only attempt × files.
func TestDecideProtocolTable(t *testing.T) {
	// expect is protocol.md's table, row by row (plus: a marker whose attempt's results are not an
	// exact cover in the store cannot be published, so it stops).
	expect := func(marker, committed, published bool, cover string, missing bool) (string, string) {
		exact := cover == cvExact
		switch {
		case marker && published:
			return "", ""
		case marker && !exact:
			return "stop(1)", "cannot publish what was committed"
		case marker && committed:
			return "pub(1,1)", ""
		case marker:
			return "wcp(1,1)", ""
		case committed:
			return "stop(1)", "--recompute-window 1"
		case published:
			return "stop(1)", "published but not committed"
		case exact && !missing:
			return "commit(1,1)", ""
		}
		return "recompute(1,2)", ""
	}
	n := 0
	for _, marker := range []bool{false, true} {
		for _, committed := range []bool{false, true} {
			for _, published := range []bool{false, true} {
				for _, cover := range []string{cvNone, cvPartial, cvExact, cvDup, cvForeign, cvDupIDs} {
					for _, missing := range []bool{false, true} {
						w := win{covers: []string{cover}}
						if marker {
							w.markers = []int{1}
						}
						if committed {
							w.committed = 1
						}
						if published {
							w.published = 1
						}
						if missing {
							w.missing = []int{1}
						}
						name := fmt.Sprintf("marker=%v/committed=%v/published=%v/cover=%s/missing=%v", marker, committed, published, cover, missing)
						st, tv := sim(t, 1, w)
						p, err := Decide(st, tv)
						must(t, err)
						want, msg := expect(marker, committed, published, cover, missing)
						if got := summary(p); got != want {
							t.Errorf("%s: plan %q, want %q", name, got, want)
						}
						if msg != "" && (p.Stopped() == nil || !strings.Contains(p.Stopped().Error(), msg)) {
							t.Errorf("%s: stop error %v, want %q", name, p.Stopped(), msg)
						}
						if p.Stopped() != nil && !IsStop(p.Stopped()) {
							t.Errorf("%s: stop error does not wrap ErrStop", name)
						}
						n++
					}
				}
			}
		}
	}
	if n != 2*2*2*6*2 {
		t.Fatalf("explored %d combinations", n)
	}
}

func TestDecideScenarios(t *testing.T) {
	ex, part := cvExact, cvPartial
	cases := []struct {
		name     string
		earliest int64
		opts     DecideOptions
		wins     []win
		want     string
		stopMsg  string
		corrupt  bool
	}{
		{name: "nothing assigned yet", earliest: 1, want: ""},
		{name: "seed scenario: some tasks finished, died before commit", earliest: 1,
			wins: []win{{covers: []string{part}}}, want: "recompute(1,2)"},
		{name: "all tasks finished, died before commit (scenario 4)", earliest: 1,
			wins: []win{{covers: []string{ex}}}, want: "commit(1,1)"},
		{name: "died after commit, before committed (scenario 3)", earliest: 1,
			wins: []win{{covers: []string{ex}, markers: []int{1}}}, want: "wcp(1,1)"},
		{name: "died after committed, before published", earliest: 1,
			wins: []win{{covers: []string{ex}, markers: []int{1}, committed: 1}}, want: "pub(1,1)"},
		{name: "finished windows then a mix, in order", earliest: 1,
			wins: []win{
				{covers: []string{ex}, markers: []int{1}, committed: 1, published: 1},
				{covers: []string{ex}, markers: []int{1}},
				{covers: []string{ex}},
				{covers: []string{part}},
			}, want: "wcp(2,1) commit(3,1) recompute(4,2)"},
		{name: "later complete window waits behind an earlier recompute (commit order)", earliest: 1,
			wins: []win{{covers: []string{part}}, {covers: []string{ex}}, {covers: []string{ex, part}}},
			want: "recompute(1,2) commit(2,1) commit(3,1)"},
		{name: "zombie: older attempt completes late, newer partial → commit the exact one", earliest: 1,
			wins: []win{{covers: []string{ex, part}}}, want: "commit(1,1)"},
		{name: "two exact attempts → the newest", earliest: 1,
			wins: []win{{covers: []string{ex, part, ex}}}, want: "commit(1,3)"},
		{name: "attempts never mixed: two partials that together cover → recompute", earliest: 1,
			wins: []win{{covers: []string{part, cvNone}}}, want: "recompute(1,3)"},
		{name: "I5: older attempt committed while a newer exists → publish the older", earliest: 1,
			wins: []win{{covers: []string{ex, ex}, markers: []int{1}}}, want: "wcp(1,1)"},
		{name: "I5: newer attempt committed, zombie older results complete", earliest: 1,
			wins: []win{{covers: []string{ex, ex, part}, markers: []int{2}, committed: 2}}, want: "pub(1,2)"},
		{name: "I5: marker names an attempt with partial results → stop", earliest: 1,
			wins: []win{{covers: []string{part, ex}, markers: []int{1}}}, want: "stop(1)",
			stopMsg: "attempt 1", corrupt: true},
		{name: "marker names an attempt the store never began", earliest: 1,
			wins: []win{{covers: []string{ex}, markers: []int{3}}}, want: "stop(1)", stopMsg: "no attempt 3", corrupt: true},
		{name: "published attempt differs from the committed one", earliest: 1,
			wins: []win{{covers: []string{ex, ex}, markers: []int{2}, committed: 2, published: 1}}, want: "stop(1)",
			stopMsg: "I5", corrupt: true},
		{name: "committed record disagrees with the marker", earliest: 1,
			wins: []win{{covers: []string{ex, ex}, markers: []int{2}, committed: 1}}, want: "stop(1)", corrupt: true},
		{name: "two snapshots for one window", earliest: 1,
			wins: []win{{covers: []string{ex, ex}, markers: []int{1, 2}}}, want: "stop(1)", stopMsg: "committed twice", corrupt: true},
		{name: "marker of another job with the same commit user", earliest: 1,
			wins: []win{{covers: []string{ex}, markers: []int{1}, foreignJob: true}}, want: "stop(1)", stopMsg: "other-job", corrupt: true},
		{name: "marker without attempt property", earliest: 1,
			wins: []win{{covers: []string{ex}, markers: []int{1}, badAttempt: true}}, want: "stop(1)", corrupt: true},
		{name: "stop halts the walk: later windows get no action", earliest: 1,
			wins: []win{{covers: []string{ex}, published: 1}, {covers: []string{ex}}}, want: "stop(1)", corrupt: true},
		{name: "marker gone after publish (rolled back, scenario 25)", earliest: 1,
			wins: []win{{covers: []string{ex}, committed: 1, published: 1}, {covers: []string{ex}}},
			want: "stop(1)", stopMsg: "--recompute-window 1"},
		{name: "marker gone, recompute requested → void, later windows go on", earliest: 1,
			opts: DecideOptions{RecomputeWindows: []int64{1}},
			wins: []win{{covers: []string{ex}, committed: 1, published: 1}, {covers: []string{ex}}},
			want: "void(1) commit(2,1)"},
		{name: "voided window is skipped", earliest: 1,
			wins: []win{{covers: []string{ex}, committed: 1, published: 1, voided: true}, {covers: []string{ex}}},
			want: "commit(2,1)"},
		{name: "later window committed while an earlier one is not (I2)", earliest: 1,
			wins: []win{{covers: []string{ex}}, {covers: []string{ex}, markers: []int{1}}},
			want: "commit(1,1) stop(2)", stopMsg: "earlier window 1", corrupt: true},
		{name: "later window recorded committed while an earlier one is not (I2)", earliest: 1,
			wins: []win{{covers: []string{part}}, {covers: []string{ex}, committed: 1, committedSn: -1}},
			want: "recompute(1,2) stop(2)", corrupt: true},
		{name: "marker expired after publish: done (long jobs)", earliest: 500,
			wins: []win{{covers: []string{ex}, committed: 1, published: 1}, {covers: []string{ex}, seen: 499}},
			want: "commit(2,1)"},
		{name: "marker expired before publish: pin was missing → stop", earliest: 500,
			wins: []win{{covers: []string{ex}, committed: 1}}, want: "stop(1)", stopMsg: "expired before the window was published"},
		{name: "outcome unknown: exact attempt, lookup range expired (scenario 22) → stop, never recommit", earliest: 50,
			wins: []win{{covers: []string{ex}, seen: 10}}, want: "stop(1)", stopMsg: "cannot be verified"},
		{name: "lookup range expired but no attempt could have committed → recompute", earliest: 50,
			wins: []win{{covers: []string{part}, seen: 10}}, want: "recompute(1,2)"},
		{name: "lookup range complete (earliest = seen+1)", earliest: 11,
			wins: []win{{covers: []string{ex}, seen: 10}}, want: "commit(1,1)"},
		{name: "files deleted by orphan cleanup (scenarios 23, 24) → recompute", earliest: 1,
			wins: []win{{covers: []string{ex}, missing: []int{1}}}, want: "recompute(1,2)"},
		{name: "newest exact attempt lost files, older exact is intact → commit the older", earliest: 1,
			wins: []win{{covers: []string{ex, ex}, missing: []int{2}}}, want: "commit(1,1)"},
		{name: "files not checked → never committed", earliest: 1,
			wins: []win{{covers: []string{ex}, unchecked: []int{1}}}, want: "recompute(1,2)"},
		{name: "duplicate task results (scenario 34) → recompute", earliest: 1,
			wins: []win{{covers: []string{cvDup}}}, want: "recompute(1,2)"},
		{name: "row-id mode: an id written twice → recompute", earliest: 1,
			wins: []win{{covers: []string{cvDupIDs}}}, want: "recompute(1,2)"},
		{name: "empty window (scenario 39) commits without a snapshot", earliest: 1,
			wins: []win{{covers: []string{cvEmpty}}}, want: "empty(1,1)"},
		{name: "empty window recorded, not published", earliest: 1,
			wins: []win{{covers: []string{cvEmpty}, committed: 1, committedSn: -1}, {covers: []string{ex}}},
			want: "pub(1,1) commit(2,1)"},
		{name: "empty window done", earliest: 1,
			wins: []win{{covers: []string{cvEmpty}, committed: 1, committedSn: -1, published: 1}}, want: ""},
		{name: "recorded empty but results hold files", earliest: 1,
			wins: []win{{covers: []string{ex}, committed: 1, committedSn: -1}}, want: "stop(1)", corrupt: true},
		{name: "four windows, several attempts", earliest: 3,
			wins: []win{
				{covers: []string{part, ex}, markers: []int{2}, committed: 2, published: 2, seen: 2},
				{covers: []string{ex, cvNone, part}, markers: []int{1}, seen: 2},
				{covers: []string{cvDup, ex}, seen: 3},
				{covers: []string{part, part}, seen: 4},
			}, want: "wcp(2,1) commit(3,2) recompute(4,3)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, tv := sim(t, c.earliest, c.wins...)
			p, err := DecideWith(st, tv, c.opts)
			must(t, err)
			if got := summary(p); got != c.want {
				t.Fatalf("plan %q, want %q (%v)", got, c.want, p.Actions)
			}
			stopErr := p.Stopped()
			if c.stopMsg != "" && (stopErr == nil || !strings.Contains(stopErr.Error(), c.stopMsg)) {
				t.Fatalf("stop error %v, want %q", stopErr, c.stopMsg)
			}
			if stopErr != nil && errors.Is(stopErr, ErrCorrupt) != c.corrupt {
				t.Fatalf("stop error %v: corrupt = %v, want %v", stopErr, !c.corrupt, c.corrupt)
			}
			if stopErr != nil && !strings.Contains(stopErr.Error(), fmt.Sprintf("window %d", p.Actions[len(p.Actions)-1].Window)) {
				t.Fatalf("stop error does not name its window: %v", stopErr)
			}
		})
	}
}

func TestDecideNextWindowAndRemaining(t *testing.T) {
	st, tv := sim(t, 1, win{covers: []string{cvExact}, markers: []int{1}, committed: 1, published: 1},
		win{covers: []string{cvPartial}})
	p, err := Decide(st, tv)
	must(t, err)
	// sim plans 2·2+2 = 6 splits; windows 1, 2 hold 0..3.
	if p.NextWindow != 3 || !reflect.DeepEqual(p.Remaining, []int{4, 5}) {
		t.Fatalf("next %d remaining %v", p.NextWindow, p.Remaining)
	}
	// Remaining is all − assigned, not all − published: window 2's splits are not remaining.
	p, err = DecideWith(st, tv, DecideOptions{})
	must(t, err)
	if summary(p) != "recompute(2,2)" {
		t.Fatalf("plan %s", summary(p))
	}
}

func TestDecideDoneAndNewJob(t *testing.T) {
	p, err := Decide(State{}, TableView{})
	must(t, err)
	if len(p.Actions) != 0 || p.NextWindow != 1 || p.JobDone {
		t.Fatalf("new job: %+v", p)
	}
	rs := Records{Job: new(testJob()), Plan: new(testPlan(1)), Done: &DoneRecord{JobID: "job-1"}}
	st, err := BuildState(rs)
	must(t, err)
	p, err = Decide(st, TableView{})
	must(t, err)
	if !p.JobDone || len(p.Actions) != 0 {
		t.Fatalf("done job: %+v", p)
	}
}

func TestCheckCover(t *testing.T) {
	r := func(splits ...int) TaskResult { return TaskResult{Splits: splits} }
	for _, c := range []struct {
		window  []int
		results []TaskResult
		want    CoverStatus
	}{
		{[]int{1, 2}, nil, CoverNone},
		{nil, nil, CoverExact},
		{[]int{1, 2}, []TaskResult{r(1)}, CoverPartial},
		{[]int{1, 2}, []TaskResult{r(2), r(1)}, CoverExact},
		{[]int{1, 2}, []TaskResult{r(1, 2)}, CoverExact},
		{[]int{1, 2}, []TaskResult{r(1, 2), r(2)}, CoverDuplicate},
		{[]int{1, 2}, []TaskResult{r(1), r(1)}, CoverDuplicate}, // duplicate wins over missing
		{[]int{1, 2}, []TaskResult{r(1, 2, 3)}, CoverForeign},
		{[]int{1, 2}, []TaskResult{{Splits: []int{1}, IDs: []string{"a"}}, {Splits: []int{2}, IDs: []string{"a"}}}, CoverDuplicate},
	} {
		if got := CheckCover(c.window, c.results); got.Status != c.want {
			t.Errorf("CheckCover(%v, %v) = %v, want %v", c.window, c.results, got.Status, c.want)
		}
	}
}

func TestJobCompatible(t *testing.T) {
	j := testJob()
	must(t, j.Compatible(j))
	for field, edit := range map[string]func(*JobRecord){
		"table uuid":        func(r *JobRecord) { r.TableUUID = "u-2" },         // table dropped and recreated (scenario 18)
		"input fingerprint": func(r *JobRecord) { r.InputFingerprint = "fp-2" }, // same key, other input (scenario 15)
		"option op-column":  func(r *JobRecord) { r.Options = nil },
		"option id-column":  func(r *JobRecord) { r.Options = map[string]string{"op-column": "op", "id-column": "id"} },
		"table path":        func(r *JobRecord) { r.TablePath = "/x" },
	} {
		run := testJob()
		edit(&run)
		if err := j.Compatible(run); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: %v", field, err)
		}
	}
	run := testJob()
	run.Created, run.LakeloadVersion = t0.AddDate(0, 0, 1), "0.2" // not result-changing
	must(t, j.Compatible(run))
}
