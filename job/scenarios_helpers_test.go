package job_test

// Helpers of scenarios_test.go (the 46 failure scenarios of shared/reference/exactly-once.md §3,
// docs/scenarios.md). Expected table states come from internal/loadtest's naive model of the input
// files, never from lakeload's own code.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// errScCrash is what a scenario hook returns: the process "dies" at that point.
var errScCrash = errors.New("scenario: simulated crash")

// scEnv is one fixture table, its input files and a checkpoint store.
type scEnv struct {
	t     *testing.T
	fx    loadtest.Fixture
	wh    string
	in    string
	glob  string
	store *checkpoint.Store
}

// newScEnv creates fx's table in a fresh warehouse and writes its input files.
func newScEnv(t *testing.T, fx loadtest.Fixture) *scEnv {
	t.Helper()
	e := &scEnv{t: t, fx: fx, wh: t.TempDir(), in: t.TempDir()}
	fx.Create(t, e.wh)
	e.glob = fx.WriteInputs(t, e.in)
	e.store = checkpoint.NewStore(local.New(), path.Join(e.wh, ".lakeload", "jobs", fx.Name, "job"))
	return e
}

// parquetFiles renames every input file of fx to Parquet, so each split carries its exact row
// count and windows / tasks are cut predictably (CommitRows = k·rows gives k files per window).
func parquetFiles(fx loadtest.Fixture) loadtest.Fixture {
	fx.Files = slices.Clone(fx.Files)
	for i := range fx.Files {
		fx.Files[i].Name = fmt.Sprintf("in-%02d.parquet", i)
	}
	return fx
}

// table opens the table afresh (latest schema) on the local file system.
func (e *scEnv) table() *table.Table { return e.fx.Open(e.t, e.wh, local.New()) }

// cfg is the job's Config: the same every run (resume = run again).
func (e *scEnv) cfg(commitRows int64, parallelism int, hook func(string, int64) error) job.Config {
	return job.Config{
		Spec:    job.Spec{Name: "sc-" + e.fx.Name, Input: job.Input{From: []string{e.glob}, OpColumn: e.fx.OpColumn}, CommitRows: commitRows, Parallelism: parallelism, SplitTasks: true},
		Table:   e.table(),
		InputFS: local.New(),
		Store:   e.store,
		Hook:    hook,
	} // the scenarios are phrased in terms of write tasks with results of their own
}

// mustCrash runs cfg and requires it to fail with errScCrash.
func (e *scEnv) mustCrash(cfg job.Config) {
	e.t.Helper()
	if _, err := job.Run(context.Background(), cfg); !errors.Is(err, errScCrash) {
		e.t.Fatalf("run: got %v, want the simulated crash", err)
	}
}

// mustRun runs cfg to the end.
func (e *scEnv) mustRun(cfg job.Config) job.Result {
	e.t.Helper()
	res, err := job.Run(context.Background(), cfg)
	if err != nil {
		e.t.Fatalf("run: %v", err)
	}
	return res
}

func (e *scEnv) state() checkpoint.State {
	e.t.Helper()
	st, err := e.store.Load(context.Background())
	if err != nil {
		e.t.Fatalf("load store: %v", err)
	}
	return st
}

func (e *scEnv) user() string {
	e.t.Helper()
	j, ok := e.state().Job()
	if !ok {
		e.t.Fatal("store has no job record")
	}
	return j.CommitUser
}

func (e *scEnv) window(w int64) checkpoint.WindowState {
	e.t.Helper()
	ws, ok := e.state().Window(w)
	if !ok {
		e.t.Fatalf("store has no window %d", w)
	}
	return ws
}

// markers returns the APPEND snapshots of (job user, w).
func (e *scEnv) markers(w int64) []*spec.Snapshot {
	e.t.Helper()
	return loadtest.WindowCommits(e.t, e.table(), e.user(), w)
}

// snapshotIDs lists the table's snapshot ids.
func (e *scEnv) snapshotIDs() []int64 {
	e.t.Helper()
	ids, err := e.table().Snapshots().IDs(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return ids
}

// lines reads the table with lakeload's reader.
func (e *scEnv) lines() []string { e.t.Helper(); return loadtest.Lines(e.t, e.table()) }

// messages returns the stored commit messages of results (task.Messages).
func (e *scEnv) messages(results ...checkpoint.TaskResult) []table.CommitMessage {
	e.t.Helper()
	msgs, err := task.Messages(results...)
	if err != nil {
		e.t.Fatal(err)
	}
	return msgs
}

// filesOf maps plan split indexes to the fixture's files (every split here is a whole file).
func (e *scEnv) filesOf(splits []int) []loadtest.File {
	e.t.Helper()
	pr, err := plan.Stored(e.state())
	if err != nil || pr == nil {
		e.t.Fatalf("store has no plan (%v)", err)
	}
	var out []loadtest.File
	for _, i := range splits {
		s := pr[i]
		if s.RowStart != 0 {
			e.t.Fatalf("split %d is part of a file (%s): the scenarios use whole-file splits", i, s)
		}
		name := path.Base(s.Path)
		k := slices.IndexFunc(e.fx.Files, func(f loadtest.File) bool { return f.Name == name })
		if k < 0 {
			e.t.Fatalf("split %d names %s, not an input file", i, s.Path)
		}
		out = append(out, e.fx.Files[k])
	}
	return out
}

// checkConsistent asserts the exactly-once invariant at any moment, crashed or not: a published
// window has `committed` and exactly one marker naming the published attempt (I1, I5), the marked
// windows are a prefix of the windows (I2), and the table equals the input of exactly those
// windows, applied once in window order (no loss, no duplicate among committed rows).
func (e *scEnv) checkConsistent(extra ...[]loadtest.File) {
	e.t.Helper()
	st := e.state()
	j, ok := st.Job()
	if !ok {
		if ids := e.snapshotIDs(); len(ids) != 0 {
			e.t.Fatalf("no job record but the table has snapshots %v", ids)
		}
		return
	}
	tbl := e.table()
	earliest, _, err := tbl.Snapshots().EarliestID(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	var files []loadtest.File
	gap := int64(0)
	for _, ws := range st.Windows() {
		if ws.Voided != nil {
			continue
		}
		ms := loadtest.WindowCommits(e.t, tbl, j.CommitUser, ws.Window)
		if len(ms) > 1 {
			e.t.Fatalf("window %d committed %d times", ws.Window, len(ms))
		}
		// Marked: its snapshot is in the table, or it is empty, or its snapshot expired (legitimate
		// only after publication, checked below).
		marked := len(ms) == 1 || (ws.Committed != nil && (ws.Committed.SnapshotID == 0 || ws.Committed.SnapshotID < earliest))
		if len(ms) == 0 && ws.Committed != nil && ws.Committed.SnapshotID != 0 && ws.Committed.SnapshotID < earliest && ws.Published == nil {
			e.t.Fatalf("window %d: its snapshot %d expired before it was published", ws.Window, ws.Committed.SnapshotID)
		}
		if ws.Published != nil {
			if ws.Committed == nil || !marked {
				e.t.Fatalf("window %d published but not committed (I1)", ws.Window)
			}
			if len(ms) == 1 && ms[0].Properties[checkpoint.PropAttempt] != strconv.Itoa(ws.Published.Attempt) {
				e.t.Fatalf("window %d published attempt %d, its snapshot committed attempt %s (I5)",
					ws.Window, ws.Published.Attempt, ms[0].Properties[checkpoint.PropAttempt])
			}
		}
		if !marked {
			if gap == 0 {
				gap = ws.Window
			}
			continue
		}
		if gap != 0 {
			e.t.Fatalf("window %d committed while window %d is not (I2)", ws.Window, gap)
		}
		files = append(files, e.filesOf(ws.Assigned.Splits)...)
	}
	for _, x := range extra {
		files = append(files, x...)
	}
	if d := loadtest.Diff(e.fx.ExpectedOf(e.t, files), e.lines()); d != "" {
		e.t.Fatalf("table is not the input of its committed windows applied once:%s", d)
	}
}

// checkFinished asserts the end of a job: done, every window published with one marker (none for
// an empty window), no other snapshot of the job's user, the table equal to the whole input
// applied once (plus the foreign files, committed after the input, if given).
func (e *scEnv) checkFinished(extra ...[]loadtest.File) {
	e.t.Helper()
	st := e.state()
	if _, done := st.Done(); !done {
		e.t.Fatal("job not done")
	}
	n := 0
	earliest, _, err := e.table().Snapshots().EarliestID(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	pr, err := plan.Stored(st)
	if err != nil {
		e.t.Fatal(err)
	}
	owner := make([]int64, len(pr))
	for _, ws := range st.Windows() {
		if ws.Voided != nil {
			continue
		}
		if ws.Published == nil {
			e.t.Fatalf("window %d not published", ws.Window)
		}
		for _, x := range ws.Published.Splits {
			if owner[x] != 0 {
				e.t.Fatalf("split %d published by windows %d and %d", x, owner[x], ws.Window)
			}
			owner[x] = ws.Window
		}
		if ws.Committed.SnapshotID >= earliest && ws.Committed.SnapshotID != 0 {
			n++ // not expired
		}
	}
	for x, w := range owner {
		if w == 0 {
			e.t.Fatalf("split %d (%s) was never published", x, pr[x])
		}
	}
	e.checkConsistent(extra...)
	if all := loadtest.SnapshotsOf(e.t, e.table(), e.user()); len(all) != n {
		e.t.Fatalf("the job's user made %d snapshots for %d non-empty windows", len(all), n)
	}
	e.checkFilesExist()
}

// checkFilesExist asserts that every data file of the latest snapshot exists (nothing committed
// dangling, nothing committed deleted).
func (e *scEnv) checkFilesExist() {
	e.t.Helper()
	ctx := context.Background()
	tbl := e.table()
	s, err := tbl.Snapshots().Latest(ctx)
	if err != nil || s == nil {
		return
	}
	live, err := tbl.LiveFiles(ctx, s)
	if err != nil {
		e.t.Fatal(err)
	}
	paths := tbl.NewPaths()
	for _, f := range live {
		p, err := paths.DataFile(f.Partition, f.Bucket, f.File.FileName, f.File.ExternalPath)
		if err != nil {
			e.t.Fatal(err)
		}
		if ok, err := fileio.Exists(ctx, tbl.FS, p); err != nil || !ok {
			e.t.Fatalf("snapshot %d references %s, which does not exist (%v)", s.ID, p, err)
		}
	}
}

// resultFiles returns the data file paths named by the results of window w's attempt a.
func (e *scEnv) resultFiles(w int64, a int) []string {
	e.t.Helper()
	at, ok := e.window(w).Attempt(a)
	if !ok {
		e.t.Fatalf("window %d has no attempt %d", w, a)
	}
	paths := e.table().NewPaths()
	var out []string
	for _, r := range at.Results {
		for _, m := range e.messages(r) {
			for _, f := range m.NewFiles {
				p, err := paths.DataFile(m.Partition, m.Bucket, f.FileName, f.ExternalPath)
				if err != nil {
					e.t.Fatal(err)
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// addedFiles returns the names of the data files snapshot s adds (its delta manifest list).
func (e *scEnv) addedFiles(s *spec.Snapshot) []string {
	e.t.Helper()
	var out []string
	for en, err := range e.table().DeltaEntries(context.Background(), s) {
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, en.File.FileName)
	}
	slices.Sort(out)
	return out
}

// foreignCommit commits rows (inserts) as another writer (user) in one APPEND snapshot.
func (e *scEnv) foreignCommit(user string, ident int64, rows [][]any) {
	e.t.Helper()
	ctx := context.Background()
	tbl := e.table()
	w, err := write.New(ctx, tbl, write.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.WriteRow(ctx, r, spec.RowKindInsert); err != nil {
			e.t.Fatal(err)
		}
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: user, Identifier: ident, LookupAfter: -1}); err != nil {
		e.t.Fatal(err)
	}
}

// appendRows returns n rows of the Append fixture's shape with ids from first (outside its input).
func appendRows(first int64, n int) [][]any {
	var out [][]any
	for i := range n {
		out = append(out, []any{first + int64(i), "foreign", int64(i)})
	}
	return out
}

// asFile wraps rows as an input file of inserts, for the expected-state model.
func asFile(rows [][]any) []loadtest.File {
	f := loadtest.File{Name: "foreign"}
	for _, r := range rows {
		f.Rows = append(f.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: r})
	}
	return []loadtest.File{f}
}

// expireSnapshots deletes every snapshot file below keep and moves the EARLIEST hint, as Paimon's
// expiry does (data files of an append table stay live, so only snapshot files go).
func (e *scEnv) expireSnapshots(keep int64) {
	e.t.Helper()
	ctx := context.Background()
	tbl := e.table()
	for _, id := range e.snapshotIDs() {
		if id < keep {
			if err := tbl.FS.Delete(ctx, tbl.Snapshots().Path(id)); err != nil {
				e.t.Fatal(err)
			}
		}
	}
	if err := fileio.WriteFile(ctx, tbl.FS, path.Join(tbl.Path, "snapshot", "EARLIEST"), []byte(strconv.FormatInt(keep, 10))); err != nil {
		e.t.Fatal(err)
	}
}

// consumerNext returns the nextSnapshot of the job's consumer, 0 when there is none.
func (e *scEnv) consumerNext() int64 {
	e.t.Helper()
	b, err := os.ReadFile(path.Join(e.fx.TablePath(e.wh), "consumer", "consumer-lakeload-sc-"+e.fx.Name))
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		e.t.Fatal(err)
	}
	s := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(b)), `{"nextSnapshot":`), "}")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		e.t.Fatalf("consumer file %q: %v", b, err)
	}
	return n
}

// hooks counts calls per point and lets a test decide per call; safe for concurrent tasks.
type hooks struct {
	mu    sync.Mutex
	calls map[string]int
	on    func(point string, w int64, n int) error // n: 1-based count of this point so far
}

func newHooks(on func(point string, w int64, n int) error) *hooks {
	return &hooks{calls: map[string]int{}, on: on}
}

func (h *hooks) hook(point string, w int64) error {
	h.mu.Lock()
	h.calls[point]++
	n := h.calls[point]
	h.mu.Unlock()
	if h.on == nil {
		return nil
	}
	return h.on(point, w, n)
}

func (h *hooks) count(point string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[point]
}

// crashAfterResults returns hooks that let exactly k tasks of the first window that runs store
// their results and then kill the driver (the other tasks die before storing theirs).
func crashAfterResults(k int) *hooks {
	stored := make(chan struct{})
	return newHooks(func(p string, _ int64, n int) error {
		switch {
		case p == job.PointTaskWritten && n > k:
			<-stored
			return errScCrash
		case p == job.PointResultStored && n == k:
			close(stored)
			return errScCrash
		}
		return nil
	})
}

// crashAt returns a hook that crashes at the n-th call of point in window w.
func crashAt(point string, w int64, n int) func(string, int64) error {
	seen := 0
	var mu sync.Mutex
	return func(p string, win int64) error {
		if p != point || win != w {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if seen++; seen == n {
			return errScCrash
		}
		return nil
	}
}

// faultFS wraps a FileIO and lets a test intercept writes of paths.
type faultFS struct {
	fileio.FileIO
	mu sync.Mutex
	// writeIfAbsent, if set, replaces WriteIfAbsent; it may call next to do the real write.
	writeIfAbsent func(ctx context.Context, p string, data []byte, next func() error) error
	// create, if set, is asked before each Create; a non-nil error fails it.
	create func(p string) error
	// closeErr, if set, is asked when a created file is closed; a non-nil error aborts the file
	// and is returned from Close.
	closeErr func(p string) error
	// read, if set, is asked before each read or listing; a non-nil error fails it.
	read func(p string) error
}

func (f *faultFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	f.mu.Lock()
	fn := f.writeIfAbsent
	f.mu.Unlock()
	if fn == nil {
		return f.FileIO.WriteIfAbsent(ctx, p, data)
	}
	return fn(ctx, p, data, func() error { return f.FileIO.WriteIfAbsent(ctx, p, data) })
}

func (f *faultFS) Create(ctx context.Context, p string) (fileio.Writer, error) {
	if f.create != nil {
		if err := f.create(p); err != nil {
			return nil, err
		}
	}
	w, err := f.FileIO.Create(ctx, p)
	if err != nil || f.closeErr == nil {
		return w, err
	}
	return &faultWriter{Writer: w, err: func() error { return f.closeErr(p) }}, nil
}

func (f *faultFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if f.read != nil {
		if err := f.read(p); err != nil {
			return nil, err
		}
	}
	return f.FileIO.ReadFile(ctx, p)
}

func (f *faultFS) Open(ctx context.Context, p string) (fileio.File, error) {
	if f.read != nil {
		if err := f.read(p); err != nil {
			return nil, err
		}
	}
	return f.FileIO.Open(ctx, p)
}

func (f *faultFS) List(ctx context.Context, p string) ([]fileio.FileInfo, error) {
	if f.read != nil {
		if err := f.read(p); err != nil {
			return nil, err
		}
	}
	return f.FileIO.List(ctx, p)
}

func (f *faultFS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	if f.read != nil {
		if err := f.read(p); err != nil {
			return fileio.FileInfo{}, err
		}
	}
	return f.FileIO.Stat(ctx, p)
}

type faultWriter struct {
	fileio.Writer
	err func() error
}

func (w *faultWriter) Close() error {
	if err := w.err(); err != nil {
		_ = w.Writer.Abort()
		return err
	}
	return w.Writer.Close()
}

// isSnapshotFile tells whether p is a table's snapshot-N file.
func isSnapshotFile(p string) bool {
	return strings.Contains(p, "/snapshot/snapshot-")
}

// isDataFile tells whether p is a data file of a table.
func isDataFile(p string) bool {
	return strings.Contains(path.Base(p), "data-") && strings.Contains(p, "/bucket-")
}

// dataFilesOnDisk counts the data files under the table directory (committed or not).
func (e *scEnv) dataFilesOnDisk() int {
	e.t.Helper()
	n := 0
	root := e.fx.TablePath(e.wh)
	err := walk(root, func(p string) {
		if isDataFile(p) {
			n++
		}
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func walk(dir string, fn func(string)) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, en := range ents {
		p := dir + "/" + en.Name()
		if en.IsDir() {
			if err := walk(p, fn); err != nil {
				return err
			}
			continue
		}
		fn(p)
	}
	return nil
}
