package job

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
)

// TestForeignCommitBetweenWindows (issue 4, item 6b): pypaimon commits to the table between two
// windows of a lakeload job (Config.Hook at after-publish of window 1: upserts of keys the job
// also writes, and new keys), then the job dies in window 2 — inside its commit, or after the
// commit and before `committed` — and a new run resumes it. The foreign snapshot lies between
// the job's markers: recovery must still find window 2's marker (or its absence) by commit user
// and identifier, publish or commit exactly once, and the table must equal the rows applied in
// the order window 1, pypaimon's commit, window 2, window 3 (window 2 was assigned after the
// foreign commit, so its sequence base is above pypaimon's rows). Java Paimon reads the same.
func TestForeignCommitBetweenWindows(t *testing.T) {
	py := oracle.Py(t)
	for _, crash := range []string{PointInsideCommit, PointAfterCommit} {
		t.Run(crash, func(t *testing.T) {
			dir := loadtest.TempDir(t)
			s := concStorage{name: "local", root: dir, localRoot: dir, newFS: concStoragesLocalFS}
			createConcTable(t, s)
			fa := concFiles("p", "a", 3, 30)
			var foreign []concRow
			for id := int64(10); id < 35; id++ { // 10..29 overwrite job rows, 30..34 are new keys
				foreign = append(foreign, concRow{"p", id, fmt.Sprintf("py-%d", id)})
			}
			cfg := concJob(t, s, "job-a", writeConcInput(t, fa))
			path := filepath.Join(dir, "wh", "db.db", "t")
			wrote, crashed := false, false
			cfg.Hook = func(p string, w int64) error {
				switch {
				case p == PointAfterPublish && w == 1 && !wrote:
					wrote = true
					py.Write(path, oracle.WriteOpts{Rows: pyLines(t, foreign)})
				case p == crash && w == 2 && !crashed:
					crashed = true
					return errCrash
				}
				return nil
			}
			if _, err := Run(context.Background(), cfg); !errors.Is(err, errCrash) {
				t.Fatalf("first run: %v, want the simulated crash at %s of window 2", err, crash)
			}
			cfg.Table = openConcTable(t, s) // a new process
			if _, err := Run(context.Background(), cfg); err != nil {
				t.Fatalf("resume: %v", err)
			}
			ids := checkJobMarkers(t, cfg, 3)
			if ids[0] != 1 || ids[1] != 3 || ids[2] != 4 {
				t.Errorf("window snapshots %v, want [1 3 4] (pypaimon's commit is snapshot 2)", ids)
			}
			checkConcTable(t, s, concModel(t, fa[0], foreign, fa[1], fa[2]))
		})
	}
}

// pyLines renders rows as canonical JSON lines for the pypaimon oracle.
func pyLines(t *testing.T, rows []concRow) []string {
	t.Helper()
	fields := concFields(t)
	var out []string
	for _, r := range rows {
		b, err := canon.Row(fields, []any{r.dt, r.id, r.v})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}
