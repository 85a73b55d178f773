package job

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// rowIDEnv is an append table (unique BIGINT id per row) loaded in row-id mode: 6 files of 30 rows,
// CommitRows 60, so 3 windows of 2 files and 2 tasks each.
func rowIDEnv(t *testing.T, fx loadtest.Fixture) (*loadEnv, Config) {
	t.Helper()
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	cfg := e.config(60)
	cfg.IDColumn = "id"
	return e, cfg
}

// fixtureIDs returns the ids of the input rows of each file, by file name.
func fixtureIDs(fx loadtest.Fixture) map[string][]string {
	out := map[string][]string{}
	for _, f := range fx.Files {
		for _, r := range f.Rows {
			out[f.Name] = append(out[f.Name], fmt.Sprint(r.Values[0]))
		}
	}
	return out
}

// checkPublishedIDs asserts that every window published exactly the ids of its committed attempt's
// results, that these are the ids of the window's input rows, and that every input id is published
// by exactly one window.
func checkPublishedIDs(t *testing.T, e *loadEnv) {
	t.Helper()
	st := e.state(t)
	plan := planOf(t, st)
	want := fixtureIDs(e.fx)
	all := map[string]int64{}
	for _, ws := range st.Windows() {
		p, c := ws.Published, ws.Committed
		if p == nil || c == nil || p.Attempt != c.Attempt {
			t.Fatalf("window %d: published %+v, committed %+v", ws.Window, p, c)
		}
		at, _ := ws.Attempt(c.Attempt)
		var fromAttempt, fromInput []string
		for _, r := range at.Results {
			fromAttempt = append(fromAttempt, r.IDs...)
		}
		for _, i := range ws.Assigned.Splits {
			fromInput = append(fromInput, want[filepath.Base(plan[i].Path)]...)
		}
		slices.Sort(fromAttempt)
		slices.Sort(fromInput)
		if !slices.Equal(p.IDs, fromAttempt) || !slices.Equal(p.IDs, fromInput) {
			t.Fatalf("window %d attempt %d: published %d ids, the attempt's results hold %d, its input %d",
				ws.Window, p.Attempt, len(p.IDs), len(fromAttempt), len(fromInput))
		}
		for _, id := range p.IDs {
			if w, dup := all[id]; dup {
				t.Fatalf("id %s published by windows %d and %d", id, w, ws.Window)
			}
			all[id] = ws.Window
		}
	}
	if len(all) != e.fx.Rows() {
		t.Fatalf("%d ids published, the input has %d rows", len(all), e.fx.Rows())
	}
}

// TestRowIDPublishesTheCommittedAttempt: window 2's first attempt dies before all its results are
// stored and a stray result with an id no input row has is added to it; the resumed run recomputes
// the window as attempt 2, and only attempt 2's ids are published.
func TestRowIDPublishesTheCommittedAttempt(t *testing.T) {
	e, cfg := rowIDEnv(t, loadtest.Append(11, 6, 30))
	ctx := context.Background()
	var hit atomic.Bool
	cfg.Hook = e.crashHook(crashAt{PointTaskWritten, 2}, &hit)
	if _, err := e.run(ctx, cfg); !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the simulated crash", err)
	}
	stray, err := e.store.WriteResult(ctx, checkpoint.TaskResult{Window: 2, Attempt: 1, TaskID: "t0009", IDs: checkpoint.IDList{"stray-id"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Hook = nil
	if _, err := e.run(ctx, cfg); err != nil {
		t.Fatalf("resume: %v", err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	checkPublishedIDs(t, e)
	ws, _ := e.state(t).Window(2)
	if len(ws.Attempts) != 2 || ws.Published.Attempt != 2 {
		t.Fatalf("window 2: %d attempts, published attempt %d; want attempt 2 of 2", len(ws.Attempts), ws.Published.Attempt)
	}
	if slices.Contains(ws.Published.IDs, stray.IDs[0]) {
		t.Fatalf("an id of the uncommitted attempt 1 was published")
	}
}

// TestRowIDCrashAtEveryPointOfAWindow crashes a row-id job at each named point of its middle window,
// resumes it, and requires every row once: the table equals the model, one marker per window, and
// every input id published by exactly one window, from its committed attempt.
func TestRowIDCrashAtEveryPointOfAWindow(t *testing.T) {
	fx := loadtest.Append(13, 6, 30)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	points := []string{PointAssigned, PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit,
		pointLatest, PointAfterCommit, PointBeforePublish, PointAfterPublish}
	for _, p := range points {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			e := newLoadEnv(t, fx, glob)
			cfg := e.config(60)
			cfg.IDColumn = "id"
			e.crashThenResume(t, cfg, []crashAt{{p, 2}}, []bool{false})
			checkPublishedIDs(t, e)
		})
	}
}

// dataFiles lists the data files under a table directory.
func dataFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "data-") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// committedFiles counts the data files of the committed attempts of published windows.
func committedFiles(t testing.TB, st checkpoint.State) int {
	n := 0
	for _, ws := range st.Windows() {
		if ws.Published == nil {
			continue
		}
		at, _ := ws.Attempt(ws.Published.Attempt)
		for _, r := range at.Results {
			for _, m := range msgsOf(t, r) {
				n += len(m.NewFiles)
			}
		}
	}
	return n
}

// TestRowIDDuplicatesFailAtAssignment puts a duplicate id into the input — within one file, across
// two files of one window, and against a window published earlier — and requires an input error
// naming file, row and id when the window is assigned: that window gets no `assigned` record and
// no data file, while earlier windows stay published.
func TestRowIDDuplicatesFailAtAssignment(t *testing.T) {
	cases := []struct {
		name       string
		commitRows int64
		file, row  int // the row given the id of (srcFile, srcRow)
		srcFile    int
		srcRow     int
		windowsOK  int // windows published before the failure, at least
		want       []string
	}{
		{"within a file", 1000, 1, 5, 1, 2, 0, []string{`"22"`, "in-01.csv data row 6", "also at", "in-01.csv data row 3"}},
		{"across files of a window", 1000, 2, 0, 0, 5, 0, []string{`"5"`, "in-02.parquet data row 1", "also at", "in-00.parquet data row 6"}},
		{"against an earlier window", 20, 3, 7, 0, 3, 1, []string{`"3"`, "in-03.jsonl data row 8", "already loaded by window 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := loadtest.Append(17, 5, 20)
			fx.Files[c.file].Rows[c.row].Values[0] = fx.Files[c.srcFile].Rows[c.srcRow].Values[0]
			e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
			cfg := e.config(c.commitRows)
			cfg.IDColumn = "id"
			_, err := e.run(context.Background(), cfg)
			var ie *InputError
			if !errors.Is(err, ErrDuplicateID) || !errors.As(err, &ie) {
				t.Fatalf("run: %v; want an input error wrapping ErrDuplicateID", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			t.Logf("error: %v", err)
			st := e.state(t)
			plan := planOf(t, st)
			if n := len(st.Windows()); n < c.windowsOK {
				t.Fatalf("%d windows assigned, want at least %d", n, c.windowsOK)
			}
			for _, ws := range st.Windows() {
				if ws.Published == nil {
					t.Fatalf("window %d is assigned but not published: the failing window must not be assigned", ws.Window)
				}
				for _, i := range ws.Assigned.Splits {
					if filepath.Base(plan[i].Path) == fx.Files[c.file].Name {
						t.Fatalf("window %d holding the duplicate was assigned", ws.Window)
					}
				}
			}
			if got, want := len(dataFiles(t, e.tbl.Path)), committedFiles(t, st); got != want {
				t.Fatalf("%d data files in the table, the published windows committed %d", got, want)
			}
			if p := e.checkPublishedCommitted(t); p != "" {
				t.Fatal(p)
			}
		})
	}
}

// TestRowIDOptionIsFixedForTheJob: a resume with another id column, or without one, is refused.
func TestRowIDOptionIsFixedForTheJob(t *testing.T) {
	e, cfg := rowIDEnv(t, loadtest.Append(19, 6, 30))
	ctx := context.Background()
	var hit atomic.Bool
	cfg.Hook = e.crashHook(crashAt{PointAfterPublish, 1}, &hit)
	if _, err := e.run(ctx, cfg); !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v", err)
	}
	cfg.Hook = nil
	for _, col := range []string{"amount", ""} {
		other := cfg
		other.IDColumn = col
		_, err := e.run(ctx, other)
		if err == nil || !strings.Contains(err.Error(), "option id-column") {
			t.Fatalf("resume with --id-column %q: %v; want a refusal naming the option", col, err)
		}
	}
	if _, err := e.run(ctx, cfg); err != nil {
		t.Fatalf("resume with the original id column: %v", err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	checkPublishedIDs(t, e)
}

// TestRowIDColumnMustBeAnIntegerOrStringColumn checks the id column before anything is written.
func TestRowIDColumnMustBeAnIntegerOrStringColumn(t *testing.T) {
	fx := loadtest.Fixture{Name: "m", Columns: [][2]string{{"id", "BIGINT"}, {"score", "DOUBLE"}, {"tag", "STRING"}}}
	wh := loadtest.TempDir(t)
	fx.Create(t, wh)
	tbl := fx.Open(t, wh, local.New())
	for col, want := range map[string]string{"score": "has type DOUBLE", "nope": "not a column of the table", "tag": "", "id": ""} {
		_, err := task.IDColumnIndex(tbl.Schema, col)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("id column %q: %v, want %q", col, err, want)
		}
	}
	store := checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/store")
	_, err := Run(context.Background(), Config{Spec: Spec{Name: "j", Input: Input{From: []string{wh + "/none-*"}}, IDColumn: "score"}, Table: tbl, Store: store, InputFS: local.New()})
	if err == nil || !strings.Contains(err.Error(), `id column "score"`) {
		t.Fatalf("run with a DOUBLE id column: %v", err)
	}
	if _, err := store.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st, _ := store.Load(context.Background()); func() bool { _, ok := st.Job(); return ok }() {
		t.Fatal("a job was created despite the bad id column")
	}
}

// TestRowIDTaskSkipsPublishedIDs runs one task whose input holds ids an earlier window published:
// those rows are not written, the others keep the sequence numbers of their positions, and only
// the ids written are recorded.
func TestRowIDTaskSkipsPublishedIDs(t *testing.T) {
	fx := loadtest.Append(23, 2, 10)
	dir := loadtest.TempDir(t)
	glob := fx.WriteInputs(t, dir)
	e := newLoadEnv(t, fx, glob)
	splits, err := plan.Input(context.Background(), local.New(), []string{glob}, "", 1024, source.MappingOptions{})
	if err != nil || len(splits) != 2 {
		t.Fatalf("plan: %d splits, %v", len(splits), err)
	}
	in := task.Input{Window: 2, Attempt: 1, Splits: []task.SplitInWindow{{Index: 0, Split: splits[0], FirstSeq: 100}, {Index: 1, Split: splits[1], FirstSeq: 200}}}
	skip := map[string]int64{"0": 1, "3": 1, "4": 1, "19": 1}
	out, err := task.Write(context.Background(), task.Writing{Source: file.Source{FS: local.New()}, Table: e.tbl, IDs: task.NewIDFilter(0, skip), SplitTasks: true}, in)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 20 {
		if _, s := skip[fmt.Sprint(i)]; !s {
			want = append(want, fmt.Sprint(i))
		}
	}
	slices.Sort(want)
	if !slices.Equal(out.IDs, want) || out.Rows != 16 || out.Skipped != 4 {
		t.Fatalf("ids %v rows %d skipped %d; want %v, 16, 4", out.IDs, out.Rows, out.Skipped, want)
	}
	var files, rows int64
	minSeq, maxSeq := int64(1<<62), int64(-1)
	for _, m := range out.Messages {
		for _, f := range m.NewFiles {
			files++
			rows += f.RowCount
			minSeq, maxSeq = min(minSeq, f.MinSequenceNumber), max(maxSeq, f.MaxSequenceNumber)
		}
	}
	// Rows 1..9 of file 0 (minus 3, 4) and rows 0..8 of file 1: sequence numbers 101…208.
	if rows != 16 || minSeq != 101 || maxSeq != 208 {
		t.Fatalf("%d files with %d rows, sequence numbers %d…%d; want 16 rows, 101…208", files, rows, minSeq, maxSeq)
	}
}
