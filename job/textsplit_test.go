package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// bigTextFixture is the Dedup fixture (upserts, -U/+U pairs and deletes of a small key space, so
// that any change to the order of the sequence numbers changes the result) as one text file of
// rows values whose val holds newlines, quotes and commas: a CSV file with quoted newlines, or a
// JSON Lines file.
func bigTextFixture(rows int, format string) loadtest.Fixture {
	fx := loadtest.Dedup(15, 1, rows)
	fx.Files[0].Name = "in-00." + format
	for i, r := range fx.Files[0].Rows {
		if v, ok := r.Values[2].(string); ok && i%3 != 0 {
			r.Values[2] = fmt.Sprintf("%s\nsecond \"line\", with a comma\r\nthird", v)
		}
	}
	return fx
}

// TestTextFileLoadsInWindows: one CSV file with quoted newlines (and one JSON Lines file) of 20k
// rows at --commit-rows 4000 is cut into splits of about 1024 rows and loaded in several windows
// (it was one split, hence one window: issue 15 finding 1); crashed inside a window and at a
// window boundary, the resumed job ends exactly at the model's rows: the upsert order (sequence
// numbers) is the file's row order across splits and windows. Scenario: crash-and-resume.
func TestTextFileLoadsInWindows(t *testing.T) {
	for _, format := range []string{"csv", "jsonl"} {
		fx := bigTextFixture(20000, format)
		glob := fx.WriteInputs(t, loadtest.TempDir(t))
		for _, crash := range []crashAt{{PointTaskWritten, 3}, {PointAfterPublish, 2}, {PointBeforeCommit, 4}} {
			t.Run(format+"/"+crash.String(), func(t *testing.T) {
				t.Parallel()
				e := newLoadEnv(t, fx, glob)
				cfg := e.config(4000)
				out := e.crashThenResume(t, cfg, []crashAt{crash}, []bool{false})
				if out.happened != 1 {
					t.Fatalf("the crash at %s did not happen", crash)
				}
				plan := planOf(t, e.state(t))
				if len(plan) < 15 {
					t.Fatalf("the file was planned as %d splits, want about 20 of 1024 rows", len(plan))
				}
				var rows int64
				for i, s := range plan {
					if !s.IsRange() || s.RowStart != rows || s.RowCount <= 0 {
						t.Fatalf("split %d %+v: want a byte range from row %d", i, s, rows)
					}
					rows += s.RowCount
				}
				if rows != 20000 {
					t.Fatalf("the splits hold %d rows, want 20000", rows)
				}
				if w := len(e.state(t).Windows()); w < 4 {
					t.Fatalf("%d windows, want at least 4 of about 4000 rows", w)
				}
			})
		}
	}
}

// TestOldTextPlanStillResumes: a job planned by a lakeload that kept every text file one split
// (the plan record as it wrote it: no byte range, row count -1) resumes after a crash with that
// plan — one window over the file — and ends at the model's rows.
func TestOldTextPlanStillResumes(t *testing.T) {
	fx := bigTextFixture(3000, "csv")
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	e := newLoadEnv(t, fx, glob)
	old, err := file.PlanWith(context.Background(), local.New(), glob, "", source.Limits{})
	if err != nil || len(old) != 1 || old[0].IsRange() {
		t.Fatalf("whole-file plan: %+v, %v", old, err)
	}
	cfg := e.config(1000)
	cfg.Splits = old // the old planner's output, stored as the plan record
	var hit atomic.Bool
	cfg.Hook = e.crashHook(crashAt{PointTaskWritten, 1}, &hit)
	if _, err := e.run(context.Background(), cfg); !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the crash", err)
	}
	cfg.Hook, cfg.Splits = nil, nil // the new lakeload resumes the stored plan; it does not plan again
	if _, err := e.run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
	plan := planOf(t, e.state(t))
	if len(plan) != 1 || plan[0] != old[0] || len(e.state(t).Windows()) != 1 {
		t.Fatalf("the stored plan changed: %+v, %d windows", plan, len(e.state(t).Windows()))
	}
}

// TestBadRowInLaterSplitKeepsItsRowNumber: a bad value far into a CSV file with quoted newlines
// (so lines and rows differ) stops the load with the same file, row, line and value as reading
// the file as one split reports.
func TestBadRowInLaterSplitKeepsItsRowNumber(t *testing.T) {
	fx := bigTextFixture(6000, "csv")
	dir := loadtest.TempDir(t)
	glob := fx.WriteInputs(t, dir)
	path := filepath.Join(dir, "in-00.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Row 4999's amount (the first column after the op column in the input's reverse order) is not a number.
	lines := strings.SplitAfter(string(data), "\n")
	var row, at int
	for i, l := range lines[1:] {
		if strings.HasPrefix(l, "+I,") || strings.HasPrefix(l, "-D,") || strings.HasPrefix(l, "+U,") || strings.HasPrefix(l, "-U,") {
			if row == 4999 {
				at = i + 1
				break
			}
			row++
		}
	}
	op, rest, _ := strings.Cut(lines[at], ",")
	_, rest, _ = strings.Cut(rest, ",")
	lines[at] = op + ",not-a-number," + rest
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := file.PlanWith(context.Background(), local.New(), path, "", source.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := firstReadError(t, whole[0], fx)
	if !strings.Contains(want, "row 5000") || !strings.Contains(want, "not-a-number") {
		t.Fatalf("the whole-file read reports %q; want row 5000 (the test's own row count is off)", want)
	}
	e := newLoadEnv(t, fx, glob)
	_, err = e.run(context.Background(), e.config(2000))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("load error %v; want it to contain the whole-file read's %q", err, want)
	}
	plan := planOf(t, e.state(t))
	if len(plan) < 4 {
		t.Fatalf("%d splits; the bad row must be in a later split", len(plan))
	}
}

// firstReadError reads a split and returns its first error.
func firstReadError(t *testing.T, sp source.Split, fx loadtest.Fixture) string {
	t.Helper()
	ctx := context.Background()
	r, err := file.Open(ctx, local.New(), sp, fx.Schema(t), source.MappingOptions{OpColumn: fx.OpColumn})
	if err != nil {
		return err.Error()
	}
	defer r.Close()
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			t.Fatal("no error reading the whole file")
		}
		if err != nil {
			return err.Error()
		}
		b.Record.Release()
	}
}
