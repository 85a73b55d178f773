package job

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestOverwriteFinalFenceLayers checks the final OVERWRITE commit's own fence (checkFinal) on its
// own, as TestFenceLayers does for a window's: runner A is at before-commit or inside-commit of its
// final commit when the world changes in one way only checkFinal sees — the job's done record, or a
// window recorded as committed, written as another runner would, with A's lease untouched and no
// expiry. A must stop as overtaken without committing and, before the commit, without merging its
// staged files (new files a woken runner would leave behind). TestPausedOverwriteRunnerAfterTakeover-
// AndExpiry is also stopped by the lease (checked after every pin) and by the lookup range its expiry
// cuts, so without this test a dropped checkFinal went unnoticed (make mutate).
func TestOverwriteFinalFenceLayers(t *testing.T) {
	now := time.Now().UTC()
	cases := []struct {
		name   string
		change func(t *testing.T, e *owEnv)
	}{
		{"job done", func(t *testing.T, e *owEnv) {
			mustWrite(t, e.store.WriteDone(context.Background(), checkpoint.DoneRecord{JobID: "ow-" + e.fx.Name, Windows: 1, Time: now, Aborted: true}))
		}},
		{"window committed by another runner", func(t *testing.T, e *owEnv) {
			mustWrite(t, e.store.WriteCommitted(context.Background(), checkpoint.Committed{Window: 1, SnapshotID: 0, Attempt: 1, Time: now}))
		}},
	}
	for _, point := range []string{PointBeforeCommit, PointInsideCommit} {
		for _, c := range cases {
			t.Run(point+"/"+c.name, func(t *testing.T) {
				e := newHiddenOwEnv(t, firstRowPartitioned(42, matrixFiles, 100), checkpoint.OverwritePartitions)
				a := e.owConfig()
				hit, filesAtChange := false, 0
				a.Hook = func(p string, _ int64) error {
					if p == point && !hit {
						hit = true
						filesAtChange = bucketFiles(t, e.tbl.Path)
						c.change(t, e)
					}
					return nil
				}
				if _, err := Run(context.Background(), a); !errors.Is(err, ErrOvertaken) {
					t.Fatalf("runner A after the change at %s: %v, want it to stop as overtaken", point, err)
				}
				j, _ := e.state(t).Job()
				snaps, err := e.tbl.Snapshots().CommitsOfUser(context.Background(), j.CommitUser, 0)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range snaps {
					if s.CommitKind == spec.CommitKindOverwrite {
						t.Fatalf("runner A committed the final OVERWRITE (snapshot %d) after the change", s.ID)
					}
				}
				if n := bucketFiles(t, e.tbl.Path); n != filesAtChange {
					t.Fatalf("runner A wrote %d data files after the change (merged its staged files)", n-filesAtChange)
				}
			})
		}
	}
}

// bucketFiles counts the data files of the table at path (files under its bucket directories).
func bucketFiles(t *testing.T, path string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.Contains(p, string(filepath.Separator)+"bucket-") {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
