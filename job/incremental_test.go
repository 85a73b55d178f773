package job

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// incEnv is a load env whose input directory grows: generation 1 sees the first files.
type incEnv struct {
	*loadEnv
	dir string
}

func newIncEnv(t *testing.T, fx loadtest.Fixture, first int) *incEnv {
	t.Helper()
	dir := loadtest.TempDir(t)
	gen1 := fx
	gen1.Files = fx.Files[:first]
	glob := gen1.WriteInputs(t, dir)
	return &incEnv{loadEnv: newLoadEnv(t, fx, glob), dir: dir}
}

// add writes files [from, to) of the fixture into the input directory.
func (e *incEnv) add(t *testing.T, from, to int) {
	t.Helper()
	for _, fl := range e.fx.Files[from:to] {
		e.fx.WriteFile(t, filepath.Join(e.dir, fl.Name), fl)
	}
}

func (e *incEnv) incConfig() Config {
	c := e.config(matrixCommitRows)
	c.Incremental = true
	return c
}

// TestIncrementalGenerationsCrashMatrix loads 4 files as generation 1, adds 4 more, and runs the job
// with --incremental, crashing the second generation at every named point of its first and last
// window (and between its start record and its plan revision). After the resume the table equals
// the model of all 8 files loaded once (aggregation sums and dedup upserts would show a file loaded
// twice), every window of both generations has exactly one APPEND snapshot of the job's one commit
// user, window numbers continue, and a further --incremental run finds nothing new. One case per
// table is read by Java Paimon and pypaimon.
func TestIncrementalGenerationsCrashMatrix(t *testing.T) {
	points := []string{PointGenerationStarted, PointAssigned, PointTaskWritten, PointResultStored, PointBeforeCommit,
		PointInsideCommit, pointLatest, PointAfterCommit, PointBeforePublish, PointAfterPublish, PointRecoveryAction}
	for _, fx := range loadtest.All(13, matrixFiles, matrixRows) {
		// Reference: generation 1's windows, and the windows of both.
		ref := newIncEnv(t, fx, 4)
		r1, err := Run(context.Background(), ref.incConfig())
		if err != nil {
			t.Fatal(err)
		}
		ref.add(t, 4, 8)
		r2, err := Run(context.Background(), ref.incConfig())
		if err != nil || r2.Generation != 2 || r2.NewFiles != 4 || r2.AlreadyDone {
			t.Fatalf("%s generation 2: %+v, %v", fx.Name, r2, err)
		}
		if p := ref.checkFinished(t); p != "" {
			t.Fatalf("%s without crash: %s", fx.Name, p)
		}
		first, last := r1.Windows+1, r2.Windows
		if last <= first {
			t.Fatalf("%s: generation 2 has windows %d..%d, want at least 2", fx.Name, first, last)
		}
		var oracleOnce sync.Once
		for _, p := range points {
			for _, w := range []int64{first, last} {
				if p == PointGenerationStarted && w != first {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/w%d", fx.Name, p, w), func(t *testing.T) {
					t.Parallel()
					e := newIncEnv(t, fx, 4)
					if res, err := Run(context.Background(), e.incConfig()); err != nil || res.Generation != 1 {
						t.Fatalf("generation 1: %+v, %v", res, err)
					}
					e.add(t, 4, 8)
					crashes := []crashAt{{p, w}}
					if p == PointRecoveryAction {
						crashes = []crashAt{{PointBeforeCommit, w}, {p, w}}
					}
					e.crashThenResume(t, e.incConfig(), crashes, make([]bool, len(crashes)))
					st := e.state(t)
					if st.Generation() != 2 || st.Windows()[len(st.Windows())-1].Window != last {
						t.Fatalf("generation %d with %d windows, want generation 2 ending at window %d", st.Generation(), len(st.Windows()), last)
					}
					if p == pointLatest {
						oracleOnce.Do(func() { (&owEnv{loadEnv: e.loadEnv, newLines: fx.Expected(t)}).checkOracles(t) })
					}
				})
			}
		}
	}
}

// TestIncrementalReportsChangedFiles: a file of generation 1 is touched and another deleted before
// the next incremental run. Both are reported (result, log, generation record), neither is loaded
// again, the new files are loaded once; without --incremental a finished job does nothing.
func TestIncrementalReportsChangedFiles(t *testing.T) {
	fx := loadtest.AggSum(17, 6, 40) // sums: a file loaded twice changes values
	e := newIncEnv(t, fx, 4)
	if _, err := Run(context.Background(), e.incConfig()); err != nil {
		t.Fatal(err)
	}
	plain := e.config(matrixCommitRows)
	if res, err := Run(context.Background(), plain); err != nil || !res.AlreadyDone {
		t.Fatalf("finished job without --incremental: %+v, %v (want already done)", res, err)
	}
	if res, err := Run(context.Background(), e.incConfig()); err != nil || !res.AlreadyDone || res.NewFiles != 0 {
		t.Fatalf("incremental run without new files: %+v, %v (want already done)", res, err)
	}
	touched := filepath.Join(e.dir, fx.Files[1].Name)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(e.dir, fx.Files[2].Name)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	e.add(t, 4, 6)
	res, err := Run(context.Background(), e.incConfig())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range res.Changed {
		got[filepath.Base(c.Path)] = c.Change
	}
	want := map[string]string{fx.Files[1].Name: "changed", fx.Files[2].Name: "gone"}
	if fmt.Sprint(got) != fmt.Sprint(want) || res.NewFiles != 2 || res.Generation != 2 {
		t.Fatalf("result %+v: changes %v, want %v and 2 new files in generation 2", res, got, want)
	}
	gens := e.state(t).Generations()
	if len(gens) != 1 || len(gens[0].Changed) != 2 {
		t.Fatalf("generation records %+v: want one with 2 changed files", gens)
	}
	e.want = fx.ExpectedOf(t, fx.Files[:6])
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
}

// TestIncrementalGenerationRecords: the store keeps each generation's plan, a done record per
// generation, and windows that continue; the plan revision is written by a rerun when the run died
// between the start record and the revision (crash matrix covers the table).
func TestIncrementalGenerationRecords(t *testing.T) {
	fx := loadtest.Append(19, 6, 30)
	e := newIncEnv(t, fx, 2)
	for _, step := range []struct{ gen, to int }{{1, 2}, {2, 4}, {3, 6}} {
		if step.gen > 1 {
			e.add(t, step.to-2, step.to)
		}
		res, err := Run(context.Background(), e.incConfig())
		if err != nil || res.Generation != step.gen {
			t.Fatalf("generation %d: %+v, %v", step.gen, res, err)
		}
	}
	st := e.state(t)
	gens := st.Generations()
	if len(gens) != 2 || gens[0].Generation != 2 || gens[1].Generation != 3 {
		t.Fatalf("generations %+v", gens)
	}
	for _, g := range gens {
		var names []string
		for _, s := range storedSplits(t, g.Splits) {
			names = append(names, filepath.Base(s.Path))
		}
		wantNames := []string{fx.Files[2*g.Generation-2].Name, fx.Files[2*g.Generation-1].Name}
		if !slices.Equal(slices.Compact(names), wantNames) {
			t.Fatalf("generation %d planned %v, want %v", g.Generation, names, wantNames)
		}
		ws, ok := st.Window(g.FirstWindow)
		if !ok || ws.Assigned.Splits[0] != g.Base {
			t.Fatalf("generation %d: first window %d holds splits %v, want the generation's first split %d", g.Generation, g.FirstWindow, ws.Assigned.Splits, g.Base)
		}
	}
	if _, done := st.Done(); !done {
		t.Fatal("generation 3 not done")
	}
	for g := 2; g <= 3; g++ {
		if _, err := e.store.FS().Stat(context.Background(), e.store.GenerationDonePath(g)); err != nil {
			t.Fatalf("done record of generation %d: %v", g, err)
		}
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
}
