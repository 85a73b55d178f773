package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

// owWin is one window of a simulated overwrite job (two splits each).
type owWin struct {
	exact     []bool // attempt a+1 stored an exact cover (false: partial)
	missing   []int  // attempts whose files are missing
	committed int64  // snapshot id in committed (-1: none; 0: empty overwrite)
	attempt   int    // attempt in committed/published
	published bool
	seen      int64
	empty     bool // the attempts wrote no files
}

func owState(t *testing.T, ws ...owWin) State {
	t.Helper()
	rs := Records{Job: new(testJob()), Plan: new(testPlan(2 * len(ws)))}
	for i, w := range ws {
		n := int64(i + 1)
		rs.Assigned = append(rs.Assigned, Assigned{Window: n, Splits: []int{2 * i, 2*i + 1}, SnapshotSeen: w.seen, Attempt: 1})
		for ai, ex := range w.exact {
			a := ai + 1
			if a > 1 {
				rs.Starts = append(rs.Starts, AttemptStart{Window: n, Attempt: a})
			}
			msgs := func(tag string) []Opaque {
				if w.empty {
					return nil
				}
				return []Opaque{msg(tag)}
			}
			rs.Results = append(rs.Results, result(t, n, a, "t0", []int{2 * i}, msgs(fmt.Sprintf("w%da%d", n, a))...))
			if ex {
				rs.Results = append(rs.Results, result(t, n, a, "t1", []int{2*i + 1}, msgs(fmt.Sprintf("w%da%db", n, a))...))
			}
		}
		if w.committed >= 0 {
			rs.Committed = append(rs.Committed, Committed{Window: n, SnapshotID: w.committed, Attempt: w.attempt})
		}
		if w.published {
			rs.Published = append(rs.Published, Published{Window: n, Attempt: w.attempt, Splits: []int{2 * i, 2*i + 1}})
		}
	}
	st, err := BuildState(rs)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// owView checks every attempt's files; attempts listed in missing lack one.
func owView(st State, earliest int64, ws ...owWin) TableView {
	tv := TableView{EarliestSnapshot: earliest, MissingFiles: map[AttemptKey][]string{}}
	for i, w := range ws {
		for a := 1; a <= len(w.exact); a++ {
			var m []string
			if contains(w.missing, a) {
				m = []string{"data-x.parquet"}
			}
			tv.MissingFiles[AttemptKey{int64(i + 1), a}] = m
		}
	}
	return tv
}

func owSummary(p OverwritePlan) string {
	var out []string
	for _, a := range p.Actions {
		out = append(out, fmt.Sprintf("%s(%d,%d)", a.Kind, a.Window, a.Attempt))
	}
	if p.Staged != nil && p.Final == 0 && !p.Settled {
		out = append(out, "staged="+FormatWindows(p.Staged))
	}
	if p.Settled {
		out = append(out, "settled")
	}
	return strings.Join(out, " ")
}

// TestWindowsProperty round-trips the lakeload.windows property and rejects malformed values.
func TestWindowsProperty(t *testing.T) {
	m := map[int64]int{3: 1, 1: 2, 2: 1}
	s := FormatWindows(m)
	if s != "1:2,2:1,3:1" {
		t.Fatalf("FormatWindows = %q", s)
	}
	back, err := ParseWindows(s)
	if err != nil || fmt.Sprint(back) != fmt.Sprint(m) {
		t.Fatalf("ParseWindows(%q) = %v, %v", s, back, err)
	}
	for _, bad := range []string{"1", "1:0", "x:1", "1:1,1:2", "0:1", "1:1,"} {
		if _, err := ParseWindows(bad); err == nil {
			t.Errorf("ParseWindows(%q) accepted", bad)
		}
	}
}

// TestGenerationRecords: generations are stored and read back, the current generation's done record
// is Done, and impossible structures are refused as corrupt.
func TestGenerationRecords(t *testing.T) {
	base := func() Records {
		return Records{Job: new(testJob()), Plan: new(testPlan(2)), Done: &DoneRecord{JobID: "job"}}
	}
	gen := func(g int) Generation {
		return Generation{Generation: g, Revision: g - 1, Base: 2 * (g - 1), Splits: testPlan(2).Splits, FirstWindow: 1}
	}
	rs := base()
	g2 := gen(2)
	rs.Generations = []Generation{g2}
	rs.Revisions = []PlanRevision{g2.PlanRevision()}
	st, err := BuildState(rs)
	if err != nil {
		t.Fatal(err)
	}
	if _, done := st.Done(); done || st.Generation() != 2 || fmt.Sprint(st.Remaining()) != "[0 1 2 3]" {
		t.Fatalf("generation 2 started: done=%v generation %d remaining %v", done, st.Generation(), st.Remaining())
	}
	rs.GenerationsDone = []DoneRecord{{JobID: "job", Generation: 2}}
	if st, err = BuildState(rs); err != nil {
		t.Fatal(err)
	}
	if _, done := st.Done(); !done {
		t.Fatal("generation 2 done record not seen")
	}
	for name, mutate := range map[string]func(*Records){
		"gap":                func(r *Records) { r.Generations = []Generation{gen(3)} },
		"previous not done":  func(r *Records) { r.Done = nil },
		"previous aborted":   func(r *Records) { r.Done.Aborted = true },
		"done of no gen":     func(r *Records) { r.GenerationsDone = []DoneRecord{{JobID: "job", Generation: 3}} },
		"generation below 2": func(r *Records) { g := gen(2); g.Generation = 1; r.Generations = []Generation{g} },
		"without a job":      func(r *Records) { r.Job, r.Plan, r.Done, r.Revisions = nil, nil, nil, nil },
		"first window zero":  func(r *Records) { r.Generations[0].FirstWindow = 0 },
	} {
		r := base()
		r.Generations = []Generation{gen(2)}
		r.Revisions = []PlanRevision{gen(2).PlanRevision()}
		mutate(&r)
		if _, err := BuildState(r); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", name, err)
		}
	}
}

// TestGenerationStoreRoundTrip writes generation records on every backend and loads them back;
// the records are write-once.
func TestGenerationStoreRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, _ fileio.FileIO, s *Store) {
		ctx := context.Background()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.WriteJob(ctx, testJob()))
		must(s.WritePlan(ctx, testPlan(2)))
		must(s.WriteDone(ctx, DoneRecord{JobID: "job", Time: t0}))
		g := Generation{Generation: 2, Revision: 1, Base: 2, Splits: testPlan(1).Splits, FirstWindow: 1,
			Changed: []FileChange{{Path: "/in/a.csv", Change: "gone"}}, Created: t0}
		must(s.WriteGeneration(ctx, g))
		if err := s.WriteGeneration(ctx, g); !errors.Is(err, fileio.ErrExist) {
			t.Fatalf("second write of generation 2: %v", err)
		}
		must(s.WriteRevision(ctx, g.PlanRevision()))
		must(s.WriteDone(ctx, DoneRecord{JobID: "job", Generation: 2, Time: t0}))
		st, err := s.Load(ctx)
		must(err)
		gens := st.Generations()
		if _, done := st.Done(); !done || len(gens) != 1 || gens[0].Changed[0].Path != "/in/a.csv" || fmt.Sprint(st.Remaining()) != "[0 1 2]" {
			t.Fatalf("loaded generations %+v done=%v remaining %v", gens, done, st.Remaining())
		}
	})
}
