package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/spec"
)

// logLines is a slog.Handler keeping every record as "message key=value …".
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	line := r.Message
	r.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
	return nil
}

// crashInWindow1 runs the job of fx over 6 files (3 files a window) until it dies before
// committing window 1: files 0–2 are assigned, files 3–5 are not.
func crashInWindow1(t *testing.T, fx loadtest.Fixture) (*loadEnv, string, Config) {
	t.Helper()
	dir := loadtest.TempDir(t)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, dir))
	cfg := e.config(150)
	if _, err := e.run(context.Background(), withHook(cfg, crashAt{PointBeforeCommit, 1})); !errors.Is(err, errCrash) {
		t.Fatalf("crash: %v", err)
	}
	if rem := e.state(t).Remaining(); !slices.Equal(rem, []int{3, 4, 5}) {
		t.Fatalf("remaining after the crash = %v, want files 3–5", rem)
	}
	return e, dir, cfg
}

// TestReplacedUnassignedFileIsReplanned: a file none of whose splits was assigned is replaced between
// a crash and the resume. The resume re-plans it (plan-rev/1), loads its new content, not the old,
// and loads it at its place in the input order: on a deduplicate table the result equals applying
// the files in order with the new content in place of the old — which differs from loading the
// replacement last, so the order is really checked.
func TestReplacedUnassignedFileIsReplanned(t *testing.T) {
	fx := allParquet(loadtest.Dedup(31, 6, 50))
	e, dir, cfg := crashInWindow1(t, fx)
	repl := loadtest.File{Name: fx.Files[4].Name}
	for i, r := range fx.Files[4].Rows {
		v := slices.Clone(r.Values)
		if r.Kind != spec.RowKindDelete && r.Kind != spec.RowKindUpdateBefore {
			v[2] = fmt.Sprintf("replaced-%d", i)
		}
		repl.Rows = append(repl.Rows, loadtest.Row{Kind: r.Kind, Values: v})
	}
	// Rows no later file touches: missing if the new content were skipped.
	repl.Rows = append(repl.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: []any{"2030-01-01", int64(1), "only-new", int64(7)}})
	path := filepath.Join(dir, repl.Name)
	fx.WriteFile(t, path, repl)
	inOrder := slices.Clone(fx.Files)
	inOrder[4] = repl
	e.want = fx.ExpectedOf(t, inOrder)
	atEnd := append(slices.Delete(slices.Clone(inOrder), 4, 5), repl)
	if loadtest.Diff(e.want, fx.ExpectedOf(t, atEnd)) == "" {
		t.Fatal("fixture too weak: loading the replacement last gives the same table")
	}
	var logs logLines
	cfg.Logger = slog.New(&logs)
	if _, err := e.run(context.Background(), cfg); err != nil {
		t.Fatalf("resume: %v", err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	st := e.state(t)
	revs := st.Revisions()
	if len(revs) != 1 || !slices.Equal(revs[0].Dropped, []int{4}) || len(revs[0].Added) != 1 || storedSplits(t, revs[0].Added)[0].Path != path ||
		!slices.Equal(revs[0].At, []int{4}) {
		t.Fatalf("plan revisions = %+v", revs)
	}
	if !slices.ContainsFunc(logs.lines, func(l string) bool { return strings.Contains(l, "re-planned") && strings.Contains(l, path) }) {
		t.Errorf("no log line names the re-planned file: %v", logs.lines)
	}
	for _, ws := range st.Windows() {
		if slices.Contains(ws.Assigned.Splits, 4) {
			t.Fatalf("window %d was assigned the dropped split 4", ws.Window)
		}
	}
	// A run after the end does nothing, and the store still loads.
	if res, err := e.run(context.Background(), cfg); err != nil || !res.AlreadyDone {
		t.Fatalf("run after done: %+v %v", res, err)
	}
}

// TestVanishedUnassignedFileIsSkipped: a file none of whose splits was assigned is removed between a
// crash and the resume: its splits are dropped (plan-rev/1), a log line names it, and the job loads
// everything else exactly once.
func TestVanishedUnassignedFileIsSkipped(t *testing.T) {
	fx := allParquet(loadtest.Append(32, 6, 50))
	e, dir, cfg := crashInWindow1(t, fx)
	path := filepath.Join(dir, fx.Files[3].Name)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	e.want = fx.ExpectedOf(t, slices.Delete(slices.Clone(fx.Files), 3, 4))
	var logs logLines
	cfg.Logger = slog.New(&logs)
	var last Progress
	cfg.Progress = func(p Progress) { last = p }
	if _, err := e.run(context.Background(), cfg); err != nil {
		t.Fatalf("resume: %v", err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	revs := e.state(t).Revisions()
	if len(revs) != 1 || !slices.Equal(revs[0].Dropped, []int{3}) || len(revs[0].Added) != 0 {
		t.Fatalf("plan revisions = %+v", revs)
	}
	if !slices.ContainsFunc(logs.lines, func(l string) bool { return strings.Contains(l, "vanished") && strings.Contains(l, path) }) {
		t.Errorf("no log line names the vanished file: %v", logs.lines)
	}
	if last.SplitsTotal != 5 || last.SplitsDone != 5 {
		t.Errorf("final progress counts %d of %d splits, want 5 of 5", last.SplitsDone, last.SplitsTotal)
	}
}

// TestChangedAssignedFileStillStops: with a replaced assigned file (window 1) and a replaced
// unassigned one, the resume fails with an input error naming the assigned file and writes no plan
// revision; re-planning never applies to a file whose rows may be committed.
func TestChangedAssignedFileStillStops(t *testing.T) {
	fx := allParquet(loadtest.Append(33, 6, 50))
	e, dir, cfg := crashInWindow1(t, fx)
	assigned := filepath.Join(dir, fx.Files[1].Name)
	fx.WriteFile(t, assigned, loadtest.File{Name: fx.Files[1].Name, Rows: fx.Files[1].Rows[:10]})
	fx.WriteFile(t, filepath.Join(dir, fx.Files[4].Name), loadtest.File{Name: fx.Files[4].Name, Rows: fx.Files[4].Rows[:10]})
	_, err := e.run(context.Background(), cfg)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), assigned) || !strings.Contains(err.Error(), "changed since it was planned") {
		t.Fatalf("resume: %v; want an input error naming %s", err, assigned)
	}
	if revs := e.state(t).Revisions(); len(revs) != 0 {
		t.Fatalf("a refused resume revised the plan: %+v", revs)
	}
}
