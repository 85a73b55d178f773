package checkpoint

import (
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
