package checkpoint

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func addedSplit(name string) Opaque {
	return testSplit{Path: "/in/" + name, Format: "csv", Size: 9, ModTimeUnixNano: 9, RowCount: -1}.stored()
}

// revisedRecords: plan of 4 splits, window 1 holds split 0; revision 1 replaces split 2 by splits 4
// and 5; revision 2 replaces split 4 by split 6 and appends split 7 at the end.
func revisedRecords() Records {
	return Records{Job: new(testJob()), Plan: new(testPlan(4)),
		Assigned: []Assigned{{Window: 1, Splits: []int{0}, Attempt: 1}},
		Revisions: []PlanRevision{
			{Revision: 2, Base: 6, Dropped: []int{4}, Added: []Opaque{addedSplit("c"), addedSplit("d")}, At: []int{4, -1}},
			{Revision: 1, Base: 4, Dropped: []int{2}, Added: []Opaque{addedSplit("a"), addedSplit("b")}, At: []int{2, 2}},
		}}
}

func TestRemainingFollowsRevisedInputOrder(t *testing.T) {
	st, err := BuildState(revisedRecords())
	must(t, err)
	// Input order: 0 1 [6 (4) 5 (2)] 3 7 — replacements sit where the replaced file was.
	if got := st.Remaining(); !reflect.DeepEqual(got, []int{1, 6, 5, 3, 7}) {
		t.Fatalf("remaining = %v", got)
	}
	if got := st.InInputOrder([]int{7, 3, 5, 6, 1, 0}); !reflect.DeepEqual(got, []int{0, 1, 6, 5, 3, 7}) {
		t.Fatalf("input order = %v", got)
	}
	plan, _ := st.Plan()
	if len(plan.Splits) != 8 || !sameOpaque(plan.Splits[6], addedSplit("c")) || !sameOpaque(plan.Splits[4], addedSplit("a")) {
		t.Fatalf("merged plan = %v", plan.Splits)
	}
	if got := st.Dropped(); !reflect.DeepEqual(got, []int{2, 4}) {
		t.Fatalf("dropped = %v", got)
	}
	if revs := st.Revisions(); len(revs) != 2 || revs[0].Revision != 1 {
		t.Fatalf("revisions not sorted: %+v", revs)
	}
	// Decide hands the same order to the job.
	p, err := Decide(st, TableView{})
	must(t, err)
	if !reflect.DeepEqual(p.Remaining, []int{1, 6, 5, 3, 7}) {
		t.Fatalf("decide remaining = %v", p.Remaining)
	}
	// A window may hold added splits; a voided window may hold a dropped one, which stays out of Remaining.
	rs := revisedRecords()
	rs.Assigned = append(rs.Assigned, Assigned{Window: 2, Splits: []int{1, 6}, Attempt: 1})
	st, err = BuildState(rs)
	must(t, err)
	if got := st.Remaining(); !reflect.DeepEqual(got, []int{5, 3, 7}) {
		t.Fatalf("remaining after window 2 = %v", got)
	}
	rs = revisedRecords()
	rs.Assigned = []Assigned{{Window: 1, Splits: []int{0, 2}, Attempt: 1}}
	rs.Voided = []Voided{{Window: 1, Reason: "rolled back"}}
	st, err = BuildState(rs)
	must(t, err)
	if got := st.Remaining(); !reflect.DeepEqual(got, []int{0, 1, 6, 5, 3, 7}) {
		t.Fatalf("remaining with a voided window = %v", got)
	}
}

func TestBuildStateRefusesImpossibleRevisions(t *testing.T) {
	cases := map[string]struct {
		edit func(*Records)
		want string
	}{
		"gap":                 {func(r *Records) { r.Revisions = r.Revisions[:1] }, "without gaps"},
		"wrong base":          {func(r *Records) { r.Revisions[0].Base = 7 }, "base 7"},
		"dropped twice":       {func(r *Records) { r.Revisions[0].Dropped = []int{2, 4} }, "dropped twice"},
		"place not dropped":   {func(r *Records) { r.Revisions[1].At = []int{3, 3} }, "not dropped"},
		"dropped but live":    {func(r *Records) { r.Assigned[0].Splits = []int{0, 2} }, "dropped by a plan revision"},
		"added beyond plan":   {func(r *Records) { r.Assigned[0].Splits = []int{8} }, "outside the plan of 8"},
		"revision, no plan":   {func(r *Records) { r.Plan, r.Assigned = nil, nil }, "revisions"},
		"places per addition": {func(r *Records) { r.Revisions[1].At = []int{2} }, "places"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rs := revisedRecords()
			c.edit(&rs)
			if _, err := BuildState(rs); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("BuildState: %v; want ErrCorrupt with %q", err, c.want)
			}
		})
	}
}
