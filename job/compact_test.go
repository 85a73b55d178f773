package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/write"
)

// withOptions returns fx under another name with extra table options.
func withOptions(fx loadtest.Fixture, name string, opts map[string]string) loadtest.Fixture {
	o := maps.Clone(fx.Options)
	if o == nil {
		o = map[string]string{}
	}
	maps.Copy(o, opts)
	fx.Name, fx.Options = name, o
	return fx
}

// firstRowFixture is a first-row table keyed by k (insert-only input, keys repeat across files).
func firstRowFixture(seed uint64, files, rows int) loadtest.Fixture {
	r := rand.New(rand.NewPCG(seed, 9))
	f := loadtest.Fixture{Name: "firsts", Columns: [][2]string{{"k", "BIGINT NOT NULL"}, {"v", "STRING"}, {"n", "BIGINT"}},
		PK: []string{"k"}, Options: map[string]string{"bucket": "2", "merge-engine": "first-row"}}
	for i := range files {
		fl := loadtest.File{Name: fmt.Sprintf("in-%02d.%s", i, []string{"parquet", "csv", "parquet", "jsonl"}[i%4])}
		for j := range rows {
			fl.Rows = append(fl.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: []any{int64(r.IntN(150)), fmt.Sprintf("f%d-%d", i, j), int64(r.IntN(1000))}})
		}
		f.Files = append(f.Files, fl)
	}
	return f
}

// expectedOf is the table state after loading files in order: the fixture's model, or for a
// first-row table the first row of every key.
func expectedOf(t testing.TB, fx loadtest.Fixture, files []loadtest.File) []string {
	if fx.Options["merge-engine"] != "first-row" {
		return fx.ExpectedOf(t, files)
	}
	seen := map[int64]bool{}
	var rows [][]any
	for _, f := range files {
		for _, r := range f.Rows {
			if k := r.Values[0].(int64); !seen[k] {
				seen[k] = true
				rows = append(rows, r.Values)
			}
		}
	}
	return fx.Canon(t, rows)
}

// windowFiles returns, in load order, the input files of the windows of e's job that pass keep.
func (e *loadEnv) windowFiles(t testing.TB, keep func(w int64, published bool) bool) []loadtest.File {
	st := e.state(t)
	plan := planOf(t, st)
	names := map[string]bool{}
	for _, ws := range st.Windows() {
		if ws.Voided == nil && keep(ws.Window, ws.Published != nil) {
			for _, i := range ws.Assigned.Splits {
				names[path.Base(plan[i].Path)] = true
			}
		}
	}
	var out []loadtest.File
	for _, f := range e.fx.Files {
		if names[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// hiddenFixtures are the tables whose level-0 files Java's batch reads skip.
func hiddenFixtures() []loadtest.Fixture {
	return []loadtest.Fixture{
		withOptions(loadtest.Dedup(31, matrixFiles, matrixRows), "current_dv", map[string]string{"deletion-vectors.enabled": "true"}),
		firstRowFixture(32, 12, matrixRows), // narrower rows: text files are estimated to hold more
	}
}

// TestHiddenLevel0CrashMatrix loads a deletion-vector table (deduplicate, upserts and deletes) and a
// first-row table, crashing at every point between a window's commit and its publication (the
// compaction in between included) in the first, middle and last window. After each crash Java
// Paimon must see exactly the published windows' rows — plus the crashed window's once its
// compaction landed (after-compact, before-publish); a crash before that is the in-job negative
// control: the committed window is invisible to Java. The resume must compact and publish
// (recovery action publish, or write-committed-then-publish), finish with the expected table, and
// Java must then read every row. (internal/compat TestCompactHiddenLevel0OraclesRead is the negative
// control at the table level: without compaction Java and pypaimon see no level-0 row.)
func TestHiddenLevel0CrashMatrix(t *testing.T) {
	java := oracle.Java(t)
	points := []string{PointAfterCommit, PointBeforeCompact, PointInsideCompact, PointAfterCompact, PointBeforePublish}
	visibleAfterCrash := map[string]bool{PointAfterCompact: true, PointBeforePublish: true}
	wantActions := map[string]string{PointAfterCommit: "write-committed-then-publish", PointBeforeCompact: "publish",
		PointInsideCompact: "publish", PointAfterCompact: "publish", PointBeforePublish: "publish"}
	m := &matrix{rows: points, cell: map[[2]string]string{}}
	t.Cleanup(func() { t.Logf("hidden-level-0 crash matrix:%s", m) })
	var javaMu sync.Mutex // one Java read at a time keeps the log readable; the oracle serialises anyway
	for _, fx := range hiddenFixtures() {
		glob := fx.WriteInputs(t, loadtest.TempDir(t))
		ref := newLoadEnv(t, fx, glob)
		ref.want = expectedOf(t, fx, fx.Files)
		res, err := Run(context.Background(), ref.config(matrixCommitRows))
		if err != nil {
			t.Fatal(err)
		}
		if p := ref.checkFinished(t); p != "" {
			t.Fatalf("%s without crash: %s", fx.Name, p)
		}
		if res.Compactions != int(res.Windows) || res.Windows < 3 {
			t.Fatalf("%s: %d windows, %d compactions: want one compaction per window and at least 3 windows", fx.Name, res.Windows, res.Compactions)
		}
		if d := loadtest.Diff(ref.want, java.Read(ref.tbl.Path, oracle.ReadOpts{})); d != "" {
			t.Fatalf("%s: Java reads the loaded table differently:%s", fx.Name, d)
		}
		picks := []int64{1, (res.Windows + 1) / 2, res.Windows}
		for _, w := range picks {
			m.addCol(fmt.Sprintf("%s/w%d", fx.Name, w))
		}
		for _, p := range points {
			for _, w := range picks {
				t.Run(fmt.Sprintf("%s/%s/w%d", fx.Name, p, w), func(t *testing.T) {
					t.Parallel()
					col := fmt.Sprintf("%s/w%d", fx.Name, w)
					m.set(p, col, "FAIL")
					ctx := context.Background()
					e := newLoadEnv(t, fx, glob)
					e.want = ref.want
					cfg := e.config(matrixCommitRows)
					log := &actionLog{}
					cfg.Logger = slog.New(log)
					var hit atomic.Bool
					cfg.Hook = e.crashHook(crashAt{p, w}, &hit)
					if _, err := e.run(ctx, cfg); !hit.Load() || !errors.Is(err, errCrash) {
						t.Fatalf("crash at %s@%d: hit=%v err=%v", p, w, hit.Load(), err)
					}
					if pc := e.checkPublishedCommitted(t); pc != "" {
						t.Fatal(pc)
					}
					visible := e.windowFiles(t, func(x int64, published bool) bool { return published || x == w && visibleAfterCrash[p] })
					javaMu.Lock()
					got := java.Read(e.tbl.Path, oracle.ReadOpts{})
					javaMu.Unlock()
					if d := loadtest.Diff(expectedOf(t, fx, visible), got); d != "" {
						t.Fatalf("after the crash Java must see the published windows%s only:%s",
							map[bool]string{true: " and the compacted window", false: ""}[visibleAfterCrash[p]], d)
					}
					log.kinds()
					cfg.Hook = nil
					res, err := e.run(ctx, cfg)
					if err != nil {
						t.Fatalf("resume: %v", err)
					}
					if acts := strings.Join(log.kinds(), ","); acts != wantActions[p] {
						t.Fatalf("resume ran recovery actions [%s], want [%s]", acts, wantActions[p])
					}
					if !visibleAfterCrash[p] && res.Compactions == 0 {
						t.Fatal("the resume published the crashed window without compacting it")
					}
					if pc := e.checkFinished(t); pc != "" {
						t.Fatal(pc)
					}
					javaMu.Lock()
					got = java.Read(e.tbl.Path, oracle.ReadOpts{})
					javaMu.Unlock()
					if d := loadtest.Diff(e.want, got); d != "" {
						t.Fatalf("after the resume Java reads:%s", d)
					}
					m.set(p, col, "pass "+abbrev(wantActions[p])+" +java")
				})
			}
		}
	}
}

// TestCompactionRefusals: unknown modes and compaction off on tables hiding level 0 are refused
// before anything is written, naming the option at fault; overwrite jobs into them are accepted.
func TestCompactionRefusals(t *testing.T) {
	dv := withOptions(loadtest.Dedup(1, 1, 5), "current_dv", map[string]string{"deletion-vectors.enabled": "true"})
	cases := []struct {
		fx      loadtest.Fixture
		mod     func(*Config)
		wantErr string // "" = accepted
	}{
		{loadtest.Dedup(1, 1, 5), func(c *Config) { c.Compaction = "sometimes" }, `compaction "sometimes" is not supported`},
		{dv, func(c *Config) { c.Compaction = CompactionOff }, "deletion-vectors.enabled=true"},
		{firstRowFixture(1, 1, 5), func(c *Config) { c.Compaction = CompactionOff }, "merge-engine=first-row"},
		{dv, func(c *Config) { c.Overwrite = "table" }, ""}, // overwrite_compact.go merges the staged files before the commit
		{withOptions(dv, "current_dv_orc", map[string]string{"file.format": "orc"}), func(*Config) {}, "file.format=orc"},
		{loadtest.Dedup(1, 1, 5), func(c *Config) { c.Compaction = CompactionOff }, ""},
		{dv, func(*Config) {}, ""},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			e := newLoadEnv(t, c.fx, c.fx.WriteInputs(t, loadtest.TempDir(t)))
			cfg := e.config(100)
			c.mod(&cfg)
			_, err := e.run(context.Background(), cfg)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("err = %v, want one naming %q", err, c.wantErr)
			}
			if table := i > 0; table != (errors.Is(err, write.ErrUnsupportedTable) || errors.Is(err, compact.ErrUnsupported)) {
				t.Fatalf("err = %v: a refusal because of the table must wrap write.ErrUnsupportedTable or compact.ErrUnsupported (CLI exit 4)", err)
			}
			if _, ok := e.state(t).Job(); ok {
				t.Fatal("a refused job wrote its job record")
			}
		})
	}
}

// asyncFixture is an aggregation table whose buckets need compaction after 3 windows.
func asyncFixture(files int) loadtest.Fixture {
	return withOptions(loadtest.AggSum(21, files, 40), "totals_c", map[string]string{"num-sorted-run.compaction-trigger": "2"})
}

// maxRuns is the largest number of sorted runs of any bucket of e's table.
func (e *loadEnv) maxRuns(t testing.TB) int {
	runs, err := runsPerBucket(context.Background(), e.tbl, 0)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Max(slices.Collect(maps.Values(runs)))
}

// compactSnapshots returns the table's COMPACT snapshots (all by lakeload-compact-* users).
func (e *loadEnv) compactSnapshots(t testing.TB) []*spec.Snapshot {
	ctx := context.Background()
	ids, err := e.tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*spec.Snapshot
	for _, id := range ids {
		s, err := e.tbl.Snapshots().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if s.CommitKind == spec.CommitKindCompact {
			if !strings.HasPrefix(s.CommitUser, compact.CommitUserPrefix) {
				t.Fatalf("COMPACT snapshot %d by %q", id, s.CommitUser)
			}
			out = append(out, s)
		}
	}
	return out
}

// TestAsyncCompactionDuringLoad loads 12 files in windows of ~40 rows into a table with compaction trigger 2: the job
// compacts in the background (COMPACT snapshots by their own user), keeps its bucket runs well
// below the uncompacted load's, publishes every window exactly once, keeps its consumer pin at the
// last published window's marker after every publish, and Java reads the expected rows. With
// compaction off the same load leaves one run per window in each bucket and no COMPACT snapshot.
func TestAsyncCompactionDuringLoad(t *testing.T) {
	const stop = 3 // num-sorted-run.stop-trigger: the trigger (2) + 1
	fx := withOptions(asyncFixture(12), "totals_c", map[string]string{"num-sorted-run.stop-trigger": strconv.Itoa(stop)})
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	ctx := context.Background()
	runs := map[string]int{}
	var windows int64
	for _, mode := range []string{CompactionAuto, CompactionOff} {
		e := newLoadEnv(t, fx, glob)
		cfg := e.config(40)
		cfg.Compaction = mode
		var logBuf bytes.Buffer
		cfg.Logger = slog.New(slog.NewTextHandler(&logBuf, nil))
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s log:\n%s", mode, logBuf.String())
			}
		})
		var pinErr error
		cfg.Hook = func(p string, w int64) error {
			if p != PointAfterPublish || pinErr != nil {
				return nil
			}
			ws, _ := e.state(t).Window(w)
			b, err := e.tbl.FS.ReadFile(ctx, fileio.Join(e.tbl.Path, "consumer", "consumer-"+consumerID(cfg.Name)))
			var c struct{ NextSnapshot int64 }
			if err == nil {
				err = json.Unmarshal(b, &c)
			}
			if err != nil || c.NextSnapshot != ws.Committed.SnapshotID {
				pinErr = fmt.Errorf("after publishing window %d (snapshot %d) the pin is %+v (%v)", w, ws.Committed.SnapshotID, c, err)
			}
			return nil
		}
		res, err := e.run(ctx, cfg)
		if err != nil || pinErr != nil {
			t.Fatalf("%s: %v %v", mode, err, pinErr)
		}
		if p := e.checkFinished(t); p != "" {
			t.Fatalf("%s: %s", mode, p)
		}
		cs := e.compactSnapshots(t)
		if len(cs) != res.Compactions || (mode == CompactionAuto) != (len(cs) > 0) {
			t.Fatalf("%s: %d COMPACT snapshots, result says %d compactions", mode, len(cs), res.Compactions)
		}
		if ok, _ := fileio.Exists(ctx, e.tbl.FS, fileio.Join(e.tbl.Path, "consumer", "consumer-"+consumerID(cfg.Name))); ok {
			t.Fatalf("%s: the finished job left its consumer pin", mode)
		}
		runs[mode], windows = e.maxRuns(t), res.Windows
		t.Logf("%s: %d windows, %d compactions, max sorted runs per bucket %d", mode, res.Windows, res.Compactions, runs[mode])
		if d := loadtest.Diff(fx.Expected(t), oracle.Java(t).Read(e.tbl.Path, oracle.ReadOpts{})); d != "" {
			t.Fatalf("%s: Java reads:%s", mode, d)
		}
	}
	if int64(runs[CompactionOff]) != windows || windows < 6 || runs[CompactionAuto] > stop+1 {
		t.Fatalf("max sorted runs per bucket: %v over %d windows; want one per window without compaction and at most stop-trigger+1 with it", runs, windows)
	}
}

// TestCompactionOverlapsWindowCommits pins down both orders of a background compaction and the
// next window's APPEND commit: the COMPACT lands after the window wrote its manifests and before it
// created its snapshot (the window's commit must retry on top of it and succeed), or the APPEND
// lands after the compaction scanned the table and before it committed (the COMPACT re-plans on top
// of it). Either way the load finishes with one marker per window and the expected rows.
func TestCompactionOverlapsWindowCommits(t *testing.T) {
	fx := asyncFixture(8)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for _, order := range []string{"compact-inside-window-commit", "window-commit-inside-compaction"} {
		t.Run(order, func(t *testing.T) {
			e := newLoadEnv(t, fx, glob)
			cfg := e.config(40)
			started, reached, release, landed := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
			var compW, overlapW atomic.Int64
			var startOnce, releaseOnce, landOnce sync.Once
			wait := func(ch chan struct{}, what string) error {
				select {
				case <-ch:
					return nil
				case <-time.After(hangGuard):
					return fmt.Errorf("timed out waiting for %s", what)
				}
			}
			isClosed := func(ch chan struct{}) bool {
				select {
				case <-ch:
					return true
				default:
					return false
				}
			}
			cfg.Hook = func(p string, w int64) error {
				switch p {
				case PointBeforeCompact:
					startOnce.Do(func() { compW.Store(w); close(started) })
				case PointInsideCompact:
					if w == compW.Load() && !isClosed(reached) {
						close(reached)
						return wait(release, "the next window's commit")
					}
				case PointAfterCompact:
					if w == compW.Load() {
						landOnce.Do(func() { close(landed) })
					}
				case PointBeforeCommit:
					if isClosed(started) && w > compW.Load() && overlapW.Load() == 0 {
						overlapW.Store(w)
						return wait(reached, "the compaction's outputs")
					}
				case PointInsideCommit:
					if order == "compact-inside-window-commit" && w == overlapW.Load() {
						releaseOnce.Do(func() { close(release) })
						return wait(landed, "the COMPACT snapshot")
					}
				case PointAfterCommit:
					if order == "window-commit-inside-compaction" && w == overlapW.Load() {
						releaseOnce.Do(func() { close(release) })
					}
				}
				return nil
			}
			res, err := e.run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("load with an overlapping compaction: %v", err)
			}
			if overlapW.Load() == 0 || !isClosed(landed) {
				t.Fatalf("no overlap happened (compaction after window %d, overlapping window %d)", compW.Load(), overlapW.Load())
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
			jr, _ := e.state(t).Job()
			marker := loadtest.WindowCommits(t, e.tbl, jr.CommitUser, overlapW.Load())[0]
			first := e.compactSnapshots(t)[0]
			if before := first.ID < marker.ID; before != (order == "compact-inside-window-commit") {
				t.Fatalf("COMPACT snapshot %d vs window %d's snapshot %d: wrong order for %s", first.ID, overlapW.Load(), marker.ID, order)
			}
			if res.Compactions == 0 {
				t.Fatal("no compaction counted")
			}
			if d := loadtest.Diff(fx.Expected(t), oracle.Java(t).Read(e.tbl.Path, oracle.ReadOpts{})); d != "" {
				t.Fatalf("Java reads:%s", d)
			}
		})
	}
}
