package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job/task"
)

// badRowsFixture is an append table whose id is NOT NULL; rows 6 and 18 (1-based) of every file have a
// null id, which fails row-level validation in Parquet, CSV and JSON Lines alike. It returns the
// fixture, the same files without the bad rows, and the "file:row" of every bad row.
func badRowsFixture(t *testing.T, dir string) (loadtest.Fixture, []loadtest.File, []string) {
	fx := loadtest.Append(7, 4, 25)
	fx.Name = "quarantined"
	fx.Columns = slices.Clone(fx.Columns)
	fx.Columns[0][1] = "BIGINT NOT NULL"
	var clean []loadtest.File
	var bad []string
	for i := range fx.Files {
		fl := &fx.Files[i]
		c := loadtest.File{Name: fl.Name}
		for r := range fl.Rows {
			if r == 5 || r == 17 {
				fl.Rows[r].Values = slices.Clone(fl.Rows[r].Values)
				fl.Rows[r].Values[0] = nil
				bad = append(bad, fmt.Sprintf("%s:%d", filepath.Join(dir, fl.Name), r+1))
				continue
			}
			c.Rows = append(c.Rows, fl.Rows[r])
		}
		clean = append(clean, c)
	}
	slices.Sort(bad)
	return fx, clean, bad
}

// quarantined reads the quarantine files of the committed attempts of every published window and
// returns their entries as sorted "file:row", checking each names the id column; and the sum of the
// published counts.
func (e *loadEnv) quarantined(t *testing.T) ([]string, int64) {
	t.Helper()
	var got []string
	var count int64
	for _, ws := range e.state(t).Windows() {
		if ws.Published == nil {
			continue
		}
		count += ws.Published.Quarantined
		at, _ := ws.Attempt(ws.Published.Attempt)
		for _, r := range at.Results {
			if r.Quarantined == 0 {
				continue
			}
			b, err := e.store.FS().ReadFile(context.Background(), task.QuarantinePath(e.store, ws.Window, at.Attempt, r.TaskID))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				var rej struct {
					File, Column, Reason, Raw string
					Row                       int64
					Values                    map[string]any
				}
				if err := json.Unmarshal([]byte(l), &rej); err != nil {
					t.Fatalf("quarantine line %q: %v", l, err)
				}
				if rej.Column != "id" || !strings.Contains(rej.Reason, "NOT NULL") || (rej.Raw == "" && rej.Values == nil) {
					t.Errorf("quarantine entry %q lacks the column, reason or row content", l)
				}
				got = append(got, fmt.Sprintf("%s:%d", rej.File, rej.Row))
				n++
			}
			if int64(n) != r.Quarantined {
				t.Errorf("window %d task %s counts %d quarantined rows, its file lists %d", ws.Window, r.TaskID, r.Quarantined, n)
			}
		}
	}
	slices.Sort(got)
	return got, count
}

// TestQuarantineCrashResume: with BadRows=quarantine, bad rows of Parquet, CSV and JSON Lines files
// are left out and listed once each, whatever crash happens in the window holding them: after the
// resume the table holds exactly the good rows, and the published counts and the committed attempts'
// quarantine files list every bad row exactly once.
func TestQuarantineCrashResume(t *testing.T) {
	points := []string{PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit, pointLatest,
		PointAfterCommit, PointBeforePublish, PointAfterPublish}
	for _, p := range points {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			dir := loadtest.TempDir(t)
			fx, clean, bad := badRowsFixture(t, dir)
			glob := fx.WriteInputs(t, dir)
			e := newLoadEnv(t, fx, glob)
			e.want = fx.ExpectedOf(t, clean)
			cfg := e.config(25) // one file per window
			cfg.BadRows = BadRowsQuarantine
			e.crashThenResume(t, cfg, []crashAt{{p, 2}}, []bool{false})
			got, count := e.quarantined(t)
			if strings.Join(got, " ") != strings.Join(bad, " ") {
				t.Errorf("quarantined rows\n got %v\nwant %v", got, bad)
			}
			if count != int64(len(bad)) {
				t.Errorf("published quarantine count %d, want %d", count, len(bad))
			}
		})
	}
}

// TestBadRowFailVoidsWindow: with the default BadRows (fail), the first bad row stops the load with an
// InputError naming the file, row and column; its window commits nothing and is voided so that a fixed
// file loads in a new window when the job runs again (the CLI test TestBadInput covers the fix).
func TestBadRowFailVoidsWindow(t *testing.T) {
	dir := loadtest.TempDir(t)
	fx, _, bad := badRowsFixture(t, dir)
	glob := fx.WriteInputs(t, dir)
	e := newLoadEnv(t, fx, glob)
	_, err := e.run(context.Background(), e.config(25))
	var ie *InputError
	first := filepath.Join(dir, fx.Files[0].Name) // in-00.parquet: its row 6 is the first bad row
	_ = bad
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "file "+first+", row 6") || !strings.Contains(err.Error(), `column "id"`) {
		t.Fatalf("err = %v, want an InputError naming %s row 6, column id", err, first)
	}
	st := e.state(t)
	ws, ok := st.Window(1)
	if !ok || ws.Voided == nil || ws.Committed != nil || !strings.Contains(ws.Voided.Reason, "input error") {
		t.Fatalf("window 1 after the input error: %+v", ws)
	}
	jr, _ := st.Job()
	if s := loadtest.SnapshotsOf(t, e.tbl, jr.CommitUser); len(s) != 0 {
		t.Errorf("the failing window made %d snapshots", len(s))
	}
	if !slices.Contains(st.Remaining(), 0) {
		t.Errorf("the voided window's split is not remaining: %v", st.Remaining())
	}
	if err := e.store.WriteVoided(context.Background(), checkpoint.Voided{Window: 1, Reason: "again"}); err == nil {
		t.Error("voided record written twice")
	}
}
