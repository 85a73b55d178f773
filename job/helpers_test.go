package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/table"
)

// errCrash is what a test Hook returns to simulate the death of the process at a point.
var errCrash = errors.New("simulated crash")

// loadEnv is one table with its input and a checkpoint store, ready for job.Run.
type loadEnv struct {
	fx    loadtest.Fixture
	wh    string
	glob  string
	tbl   *table.Table
	store *checkpoint.Store
	fs    *loadtest.CrashFS // the table's file system: crashes the process on a chosen write
	want  []string          // expected final table (sorted canonical lines); nil: fx.Expected
	// oracleWH is the warehouse as a local directory for the oracles when wh is not one (S3).
	oracleWH string
}

// newLoadEnv creates fx's table in a fresh warehouse; glob names its input (already written).
func newLoadEnv(t testing.TB, fx loadtest.Fixture, glob string) *loadEnv {
	t.Helper()
	wh := loadtest.TempDir(t)
	fx.Create(t, wh)
	fs := &loadtest.CrashFS{FileIO: local.New(), Match: func(p string) bool { return strings.HasSuffix(p, "/snapshot/LATEST") }}
	return &loadEnv{fx: fx, wh: wh, glob: glob, tbl: fx.Open(t, wh, fs), fs: fs,
		store: checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/store")}
}

// config is the job's Config; every run of one env uses the same (resume = run again).
func (e *loadEnv) config(commitRows int64) Config {
	return Config{
		Spec:    Spec{Name: "load-" + e.fx.Name, Input: Input{From: patterns(e.glob), OpColumn: e.fx.OpColumn}, CommitRows: commitRows, Parallelism: 2},
		Table:   e.tbl,
		InputFS: local.New(),
		Store:   e.store,
	}
}

// patterns is the From of a job reading glob: none for "" (pre-planned splits).
func patterns(glob string) []string {
	if glob == "" {
		return nil
	}
	return []string{glob}
}

// state loads the store.
func (e *loadEnv) state(t testing.TB) checkpoint.State {
	t.Helper()
	st, err := e.store.Load(context.Background())
	if err != nil {
		t.Fatalf("load store: %v", err)
	}
	return st
}

// checkPublishedCommitted asserts I1 in the store and the table: every published window has a
// committed record, and a committed window with a snapshot has exactly one marker snapshot
// (user, window, APPEND) naming the published attempt. It returns a problem description or "".
func (e *loadEnv) checkPublishedCommitted(t testing.TB) string {
	t.Helper()
	st := e.state(t)
	jr, ok := st.Job()
	if !ok {
		return ""
	}
	for _, ws := range st.Windows() {
		if ws.Published != nil && ws.Committed == nil {
			return fmt.Sprintf("window %d published without committed", ws.Window)
		}
		if ws.Committed == nil || ws.Committed.SnapshotID == 0 {
			continue
		}
		markers := loadtest.WindowCommits(t, e.tbl, jr.CommitUser, ws.Window)
		if len(markers) != 1 || markers[0].ID != ws.Committed.SnapshotID {
			return fmt.Sprintf("window %d committed as snapshot %d but the table has %d markers", ws.Window, ws.Committed.SnapshotID, len(markers))
		}
		if ws.Published != nil && markers[0].Properties[checkpoint.PropAttempt] != strconv.Itoa(ws.Published.Attempt) {
			return fmt.Sprintf("window %d published attempt %d, marker names attempt %s", ws.Window, ws.Published.Attempt, markers[0].Properties[checkpoint.PropAttempt])
		}
	}
	return ""
}

// checkFinished asserts the end state of a finished job: done, every window published, exactly one
// APPEND marker per non-empty window and no other snapshot of the job's user, the table equal to
// the expected state. It returns a problem description or "".
func (e *loadEnv) checkFinished(t testing.TB) string {
	t.Helper()
	st := e.state(t)
	if _, done := st.Done(); !done {
		return "job not done"
	}
	jr, _ := st.Job()
	nonEmpty := 0
	for _, ws := range st.Windows() {
		if ws.Published == nil || ws.Committed == nil {
			return fmt.Sprintf("window %d not published", ws.Window)
		}
		markers := loadtest.WindowCommits(t, e.tbl, jr.CommitUser, ws.Window)
		want := 1
		if ws.Committed.SnapshotID == 0 {
			want = 0
		}
		if len(markers) != want {
			return fmt.Sprintf("window %d has %d APPEND snapshots of the job's user, want %d", ws.Window, len(markers), want)
		}
		nonEmpty += want
	}
	if all := loadtest.SnapshotsOf(t, e.tbl, jr.CommitUser); len(all) != nonEmpty {
		return fmt.Sprintf("the job's user made %d snapshots for %d non-empty windows", len(all), nonEmpty)
	}
	want := e.want
	if want == nil {
		want = e.fx.Expected(t)
	}
	if d := loadtest.Diff(want, loadtest.Lines(t, e.tbl)); d != "" {
		return "table differs from the expected state:" + d
	}
	return ""
}

// run runs the job like a process would: a loadtest.Crash panic (the process died inside a file
// write) is returned as an error wrapping errCrash.
func (e *loadEnv) run(ctx context.Context, cfg Config) (res Result, err error) {
	defer func() {
		e.fs.Disarm()
		if r := recover(); r != nil {
			c, ok := r.(loadtest.Crash)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%w: %v", errCrash, c)
		}
	}()
	return Run(ctx, cfg)
}

// actionLog is a slog.Handler that records the recovery actions a run logs ("recovery", action=…).
type actionLog struct {
	mu      sync.Mutex
	actions []string
}

func (l *actionLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *actionLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *actionLog) WithGroup(string) slog.Handler            { return l }
func (l *actionLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "recovery" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "action" {
			l.mu.Lock()
			l.actions = append(l.actions, a.Value.String())
			l.mu.Unlock()
		}
		return true
	})
	return nil
}

// kinds returns the recorded actions' kinds ("recompute", "commit", ...) and resets the log.
func (l *actionLog) kinds() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, a := range l.actions {
		k, _, _ := strings.Cut(a, "(")
		out = append(out, k)
	}
	l.actions = nil
	return out
}
