package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
)

// allParquet renames the fixture's files to Parquet, so that planned row counts are exact and
// windows and tasks have predictable sizes.
func allParquet(fx loadtest.Fixture) loadtest.Fixture {
	files := make([]loadtest.File, len(fx.Files))
	for i, f := range fx.Files {
		files[i] = loadtest.File{Name: fmt.Sprintf("in-%02d.parquet", i), Rows: f.Rows}
	}
	fx.Files = files
	return fx
}

// TestSeedScenario is the seed scenario, exactly: in window 2 (of three, three tasks each) two write
// tasks finish and store their results, the third dies after writing its data files but before
// storing its result, and the job dies before its commit. After the crash nothing of window 2 is in
// the table or published, and the stored results and their data files are kept. The resume
// recomputes window 2 as attempt 2 and every input row is in the table exactly once.
func TestSeedScenario(t *testing.T) {
	fx := allParquet(loadtest.Append(3, 9, 50))
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	cfg := e.config(150) // windows of 3 files; 3 tasks of one file each
	cfg.Parallelism = 3
	cfg.SplitTasks = true // the seed scenario needs several tasks with results of their own
	var written, stored atomic.Int32
	cfg.Hook = func(p string, w int64) error {
		if w != 2 {
			return nil
		}
		switch p {
		case PointResultStored:
			stored.Add(1)
		case PointTaskWritten:
			if written.Add(1) == 3 {
				// The last task to finish writing dies once the two others have stored their results.
				for deadline := time.Now().Add(hangGuard); stored.Load() < 2; time.Sleep(time.Millisecond) {
					if time.Now().After(deadline) {
						return errors.New("the other two tasks never stored their results")
					}
				}
				return errCrash
			}
		}
		return nil
	}
	if _, err := e.run(context.Background(), cfg); !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the simulated crash", err)
	}

	st := e.state(t)
	jr, _ := st.Job()
	ws, ok := st.Window(2)
	if !ok {
		t.Fatal("window 2 was not assigned")
	}
	at, _ := ws.Attempt(1)
	if len(ws.Assigned.Splits) != 3 || len(at.Results) != 2 || ws.Committed != nil || ws.Published != nil {
		t.Fatalf("after the crash window 2 has splits %v, %d stored results, committed %v, published %v; want 3 splits, 2 results, neither",
			ws.Assigned.Splits, len(at.Results), ws.Committed, ws.Published)
	}
	if n := len(loadtest.WindowCommits(t, e.tbl, jr.CommitUser, 2)); n != 0 {
		t.Fatalf("window 2 has %d snapshots before its commit", n)
	}
	// The table holds window 1 only: files 0–2, once.
	if d := loadtest.Diff(fx.ExpectedOf(t, fx.Files[:3]), loadtest.Lines(t, e.tbl)); d != "" {
		t.Fatalf("after the crash the table is not window 1 exactly:%s", d)
	}
	kept := e.resultDataFiles(t, 2, 1)

	log := &actionLog{}
	cfg.Hook, cfg.Logger = nil, slog.New(log)
	res, err := e.run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if got := strings.Join(log.kinds(), ","); got != "recompute" {
		t.Errorf("resume ran recovery actions [%s], want [recompute]", got)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	st = e.state(t)
	if ws, _ := st.Window(2); ws.Published == nil || ws.Published.Attempt != 2 || ws.Published.Rows != 150 {
		t.Errorf("window 2 published %+v, want attempt 2 with 150 rows", ws.Published)
	}
	if res.RowsWritten != 300 {
		t.Errorf("the resume wrote %d rows, want 300 (windows 2 and 3)", res.RowsWritten)
	}
	// Files of results that were never committed are never deleted (their outcome was unknown).
	for _, p := range kept {
		if ok, err := fileio.Exists(context.Background(), e.tbl.FS, p); err != nil || !ok {
			t.Errorf("data file %s of window 2 attempt 1 was deleted (exists=%v, %v)", p, ok, err)
		}
	}
}

// resultDataFiles returns the data file paths named by the stored results of window w attempt a.
func (e *loadEnv) resultDataFiles(t *testing.T, w int64, a int) []string {
	t.Helper()
	ws, _ := e.state(t).Window(w)
	at, _ := ws.Attempt(a)
	paths := e.tbl.NewPaths()
	var out []string
	for _, r := range at.Results {
		for _, m := range msgsOf(t, r) {
			for _, f := range m.NewFiles {
				p, err := paths.DataFile(m.Partition, m.Bucket, f.FileName, f.ExternalPath)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("window %d attempt %d has no data files", w, a)
	}
	return out
}
