package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
)

// pointLatest is a crash inside the commit after snapshot-N was created and before the LATEST hint
// was written: the table's file system panics (the process dies) on the write of snapshot/LATEST.
const pointLatest = "snapshot-before-LATEST"

// crashAt names one crash: the first time the run reaches point in window (0 for PointPlanned).
type crashAt struct {
	point  string
	window int64
}

func (c crashAt) String() string { return fmt.Sprintf("%s@%d", c.point, c.window) }

// crashHook returns a Hook that crashes once at c and reports through hit whether it did.
func (e *loadEnv) crashHook(c crashAt, hit *atomic.Bool) func(string, int64) error {
	return func(p string, w int64) error {
		if w != c.window {
			return nil
		}
		switch {
		case c.point == pointLatest && p == PointInsideCommit:
			if hit.CompareAndSwap(false, true) {
				e.fs.Arm()
			}
		case p == c.point:
			if hit.CompareAndSwap(false, true) {
				return errCrash
			}
		}
		return nil
	}
}

// crashOutcome is what crashThenResume saw.
type crashOutcome struct {
	happened int        // crashes that happened
	actions  [][]string // recovery action kinds logged by each run (crashed runs, then the resume)
}

// crashThenResume runs the job once per crash (each must die there, unless optional[i]), checking
// published ⊆ committed after each, then resumes to the end and checks the finished job; a further
// run must find the job done.
func (e *loadEnv) crashThenResume(t *testing.T, cfg Config, crashes []crashAt, optional []bool) crashOutcome {
	t.Helper()
	ctx := context.Background()
	log := &actionLog{}
	cfg.Logger = slog.New(log)
	var out crashOutcome
	for i, c := range crashes {
		var hit atomic.Bool
		cfg.Hook = e.crashHook(c, &hit)
		_, err := e.run(ctx, cfg)
		out.actions = append(out.actions, log.kinds())
		switch {
		case hit.Load() && errors.Is(err, errCrash):
			out.happened++
		case !hit.Load() && err == nil && optional[i]:
			continue // the point was not on this run's path; the job finished
		default:
			t.Fatalf("crash %d at %s: hit=%v err=%v", i+1, c, hit.Load(), err)
		}
		if p := e.checkPublishedCommitted(t); p != "" {
			t.Fatalf("after crash at %s: %s", c, p)
		}
	}
	cfg.Hook = nil
	if _, err := e.run(ctx, cfg); err != nil {
		t.Fatalf("resume after %v: %v", crashes, err)
	}
	out.actions = append(out.actions, log.kinds())
	if p := e.checkFinished(t); p != "" {
		t.Fatalf("after %v and resume: %s", crashes, p)
	}
	res, err := e.run(ctx, cfg)
	if err != nil || !res.AlreadyDone {
		t.Fatalf("run after the job finished: %+v, %v (want AlreadyDone)", res, err)
	}
	return out
}

// matrix collects outcomes of parallel subtests and prints them as a table.
type matrix struct {
	mu   sync.Mutex
	rows []string
	cols []string
	cell map[[2]string]string
}

// addCol appends a column (call from the parent test, in display order).
func (m *matrix) addCol(col string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.cols, col) {
		m.cols = append(m.cols, col)
	}
}

func (m *matrix) set(row, col, v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cell[[2]string{row, col}] = v
}

func (m *matrix) String() string {
	w := 6
	for _, c := range m.cols {
		w = max(w, len(c))
	}
	for _, v := range m.cell {
		w = max(w, len(v))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-24s", "")
	for _, c := range m.cols {
		fmt.Fprintf(&b, " %-*s", w, c)
	}
	for _, r := range m.rows {
		fmt.Fprintf(&b, "\n%-24s", r)
		for _, c := range m.cols {
			v := m.cell[[2]string{r, c}]
			if v == "" {
				v = "-"
			}
			fmt.Fprintf(&b, " %-*s", w, v)
		}
	}
	return b.String()
}

// matrixInput is the input of the crash tests: 8 files (Parquet, CSV, Parquet, JSONL, ...) of 60
// rows, loaded with CommitRows 100 into 3 windows of 2–3 files, 2 tasks each.
const (
	matrixFiles      = 8
	matrixRows       = 60
	matrixCommitRows = 100
)

// TestCrashPointMatrix crashes the job at every named point in the first, middle and last window
// of three tables (append; aggregation with sums, where a double commit changes values; partitioned
// deduplicate with upserts and deletes), resumes it with the same Config, and requires the table
// to equal the independently computed state, exactly one APPEND snapshot of the job's user per
// window, and published ⊆ committed after every crash. recovery-action crashes a resumed run (the
// first run died before the commit of that window). The tables of the snapshot-before-LATEST crash
// in the middle window are read by Java Paimon too ("+java"). TestCrashPointMatrixS3 runs the same
// matrix (or a subset) with the warehouse and the checkpoint store on S3.
func TestCrashPointMatrix(t *testing.T) {
	crashPointMatrix(t, newLoadEnv, nil)
}

// crashPointMatrix runs the matrix on the envs newEnv makes; keep (nil: all) selects the cases by
// fixture, point and which window.
func crashPointMatrix(t *testing.T, newEnv func(testing.TB, loadtest.Fixture, string) *loadEnv, keep func(fx, point, which string) bool) {
	points := []string{PointPlanned, PointAssigned, PointTaskWritten, PointResultStored, PointBeforeCommit,
		PointInsideCommit, pointLatest, PointAfterCommit, PointBeforePublish, PointAfterPublish, PointRecoveryAction}
	m := &matrix{rows: points, cell: map[[2]string]string{}}
	start := time.Now()
	var cases atomic.Int32
	t.Cleanup(func() {
		t.Logf("crash-point matrix (%d cases, %v):%s", cases.Load(), time.Since(start).Round(time.Millisecond), m)
	})
	for _, fx := range loadtest.All(7, matrixFiles, matrixRows) {
		if keep != nil && !slices.ContainsFunc(points, func(p string) bool {
			return keep(fx.Name, p, "first") || keep(fx.Name, p, "middle") || keep(fx.Name, p, "last")
		}) {
			continue
		}
		glob := fx.WriteInputs(t, loadtest.TempDir(t))
		windows := referenceWindowsOf(t, newEnv(t, fx, glob))
		picks := map[string]int64{"first": 1, "middle": (windows + 1) / 2, "last": windows}
		var oracleOnce sync.Once
		for _, which := range []string{"first", "middle", "last"} {
			m.addCol(fmt.Sprintf("%s/w%d", fx.Name, picks[which]))
		}
		for _, p := range points {
			for _, which := range []string{"first", "middle", "last"} {
				w := picks[which]
				if p == PointPlanned && which != "first" {
					continue // planning happens once, before any window
				}
				if keep != nil && !keep(fx.Name, p, which) {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%s", fx.Name, p, which), func(t *testing.T) {
					t.Parallel()
					e := newEnv(t, fx, glob)
					var crashes []crashAt
					switch p {
					case PointPlanned:
						crashes = []crashAt{{p, 0}}
					case PointRecoveryAction:
						crashes = []crashAt{{PointBeforeCommit, w}, {p, w}}
					default:
						crashes = []crashAt{{p, w}}
					}
					col := fmt.Sprintf("%s/w%d", fx.Name, w)
					if p == PointPlanned {
						col = fmt.Sprintf("%s/w%d", fx.Name, 1)
					}
					m.set(p, col, "FAIL")
					out := e.crashThenResume(t, e.config(matrixCommitRows), crashes, make([]bool, len(crashes)))
					cases.Add(1)
					got := strings.Join(out.actions[len(out.actions)-1], ",")
					if want := resumeActions[p]; !slices.Contains(want, got) {
						t.Fatalf("resume after %v ran recovery actions [%s], want one of %q", crashes, got, want)
					}
					m.set(p, col, "pass "+abbrev(got))
					if p == pointLatest && which == "middle" {
						oracleOnce.Do(func() {
							e.checkJava(t)
							m.set(p, col, "pass "+abbrev(got)+" +java")
						})
					}
				})
			}
		}
	}
}

// resumeActions are the recovery actions a resume must run after a crash at each point (the crashed
// window only: every earlier window was published, every later one never assigned).
var resumeActions = map[string][]string{
	PointPlanned:     {""},
	PointAssigned:    {"recompute"},
	PointTaskWritten: {"recompute"},
	// The other task of the window may or may not have stored its result before the crash.
	PointResultStored:   {"recompute", "commit"},
	PointBeforeCommit:   {"commit"},
	PointInsideCommit:   {"commit"},
	pointLatest:         {"write-committed-then-publish"},
	PointAfterCommit:    {"write-committed-then-publish"},
	PointBeforePublish:  {"publish"},
	PointAfterPublish:   {""},
	PointRecoveryAction: {"commit"},
}

// abbrev shortens action kinds for the matrix.
func abbrev(actions string) string {
	if actions == "" {
		return "(none)"
	}
	return strings.NewReplacer("write-committed-then-publish", "wc+pub", "recompute", "recomp").Replace(actions)
}

// referenceWindows runs the job without a crash and returns its number of windows (at least 3).
func referenceWindows(t *testing.T, fx loadtest.Fixture, glob string) int64 {
	t.Helper()
	return referenceWindowsOf(t, newLoadEnv(t, fx, glob))
}

// referenceWindowsOf is referenceWindows on a given env (e.g. on S3).
func referenceWindowsOf(t *testing.T, e *loadEnv) int64 {
	t.Helper()
	fx := e.fx
	res, err := Run(context.Background(), e.config(matrixCommitRows))
	if err != nil {
		t.Fatal(err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatalf("%s without crash: %s", fx.Name, p)
	}
	if res.Windows < 3 {
		t.Fatalf("%s: %d windows, the matrix needs at least 3", fx.Name, res.Windows)
	}
	return res.Windows
}

// checkJava reads the table with Java Paimon and compares it with the expected state.
func (e *loadEnv) checkJava(t *testing.T) {
	t.Helper()
	path := e.fx.TablePath(e.wh)
	if e.oracleWH != "" {
		path = e.fx.TablePath(e.oracleWH)
	}
	got := oracle.Java(t).Read(path, oracle.ReadOpts{})
	if d := loadtest.Diff(e.fx.Expected(t), got); d != "" {
		t.Errorf("Java Paimon reads %s differently from the expected state:%s", e.fx.Name, d)
	}
}
