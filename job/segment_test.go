package job

import (
	"context"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestBoundedRunsSegmentTheJob: runs bounded to two windows stop cleanly between windows (Bounded,
// not done, every assigned window published) and the next run continues; the job ends exact with
// each window committed once, and the runs together wrote every input row once.
func TestBoundedRunsSegmentTheJob(t *testing.T) {
	fx := loadtest.AggSum(31, matrixFiles, matrixRows)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	cfg := e.config(60) // about one window per input file
	cfg.Bound = Bound{MaxWindows: 2}
	var runs int
	var rows int64
	for {
		runs++
		if runs > 20 {
			t.Fatal("the bounded runs never finished the job")
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rows += res.RowsWritten
		if !res.Bounded {
			break
		}
		st := e.state(t)
		if _, done := st.Done(); done {
			t.Fatal("a bounded run marked the job done")
		}
		if res.WindowsCommitted != 2 {
			t.Fatalf("run %d stopped after %d windows, want 2", runs, res.WindowsCommitted)
		}
		for _, ws := range st.Windows() {
			if ws.Published == nil {
				t.Fatalf("run %d stopped with window %d unpublished", runs, ws.Window)
			}
		}
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	windows := len(e.state(t).Windows())
	if runs < 3 || runs != (windows+1)/2 { // the run that assigns the last window finishes the job

		t.Fatalf("%d runs for %d windows at 2 windows per run", runs, windows)
	}
	if rows != int64(fx.Rows()) {
		t.Fatalf("the runs wrote %d rows, the input has %d", rows, fx.Rows())
	}
}

// TestDurationBoundMakesProgress: a duration bound already spent when the run starts still lets the
// run finish one window (each segment progresses), and then stops it.
func TestDurationBoundMakesProgress(t *testing.T) {
	fx := loadtest.Append(32, 4, 40)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	cfg := e.config(40)
	clock := time.Unix(1_800_000_000, 0)
	cfg.Now = func() time.Time { clock = clock.Add(time.Minute); return clock } // every call: a minute later
	cfg.Bound = Bound{MaxDuration: time.Second}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Bounded || res.WindowsCommitted != 1 {
		t.Fatalf("result %+v: want bounded after exactly one window", res)
	}
}
