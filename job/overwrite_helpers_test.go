package job

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// overwriteCrashes returns the named cases of an overwrite crash matrix (names given) whose load has
// w windows and whose final commit is window final: per-window points in window 2 (result-stored in
// the last window), commit points at the final commit, publish points in the first and last window.
// The three matrices draw their cases from this one table, so a scenario name means the same crash
// in each of them.
func overwriteCrashes(w, final int64, names ...string) map[string][]crashAt {
	all := map[string][]crashAt{
		"planned":             {{PointPlanned, 0}},
		"assigned":            {{PointAssigned, 2}},
		"task-written":        {{PointTaskWritten, 2}},
		"result-stored":       {{PointResultStored, w}},
		"before-commit":       {{PointBeforeCommit, final}},
		"before-compact":      {{PointBeforeCompact, final}},
		"inside-compact":      {{PointInsideCompact, final}},
		"inside-commit":       {{PointInsideCommit, final}},
		"snapshot-latest":     {{pointLatest, final}},
		"after-commit":        {{PointAfterCommit, final}},
		"before-publish-1":    {{PointBeforePublish, 1}},
		"after-publish-1":     {{PointAfterPublish, 1}},
		"before-publish-last": {{PointBeforePublish, w}},
		"recovery-action":     {{PointAfterCommit, final}, {PointRecoveryAction, 2}},
		"twice":               {{PointTaskWritten, 1}, {PointInsideCommit, final}, {PointAfterPublish, 2}},
	}
	out := make(map[string][]crashAt, len(names))
	for _, n := range names {
		c, ok := all[n]
		if !ok {
			panic("overwriteCrashes: no crash case " + n)
		}
		out[n] = c
	}
	return out
}

// runCrashCases runs one parallel subtest per case, named prefix+name, in name order.
func runCrashCases(t *testing.T, prefix string, cases map[string][]crashAt, run func(t *testing.T, name string, crashes []crashAt)) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		t.Run(prefix+name, func(t *testing.T) {
			t.Parallel()
			run(t, name, cases[name])
		})
	}
}

// runUncrashed runs e's overwrite job to the end without a crash (what names the case in failures),
// requires ≥ 3 windows and an overwrite snapshot, and returns the result.
func (e *owEnv) runUncrashed(t *testing.T, what string) Result {
	t.Helper()
	res, err := Run(context.Background(), e.owConfig())
	if err != nil {
		t.Fatalf("%s without crash: %v", what, err)
	}
	if res.Windows < 3 || res.OverwriteSnapshot == 0 {
		t.Fatalf("%s: %+v: want ≥ 3 windows and an overwrite snapshot", what, res)
	}
	return res
}

// crashAndResume runs e's overwrite job crashing at each of crashes in turn — each crash must hit
// and stop the run with errCrash; after it the staged windows and every visible state are checked,
// then afterCrash runs (when not nil) — and then resumes the job, which must finish. It returns the
// job's config (without hook) for reruns.
func (e *owEnv) crashAndResume(t *testing.T, crashes []crashAt, afterCrash func()) Config {
	t.Helper()
	cfg := e.owConfig()
	cfg.Logger = slog.New(slog.DiscardHandler)
	for _, c := range crashes {
		var hit atomic.Bool
		cfg.Hook = e.crashHook(c, &hit)
		if _, err := e.run(context.Background(), cfg); !hit.Load() || !errors.Is(err, errCrash) {
			t.Fatalf("crash at %s: hit=%v err=%v", c, hit.Load(), err)
		}
		e.checkStaged(t)
		e.checkVisibleStates(t)
		if afterCrash != nil {
			afterCrash()
		}
	}
	cfg.Hook = nil
	if _, err := e.run(context.Background(), cfg); err != nil {
		t.Fatalf("resume: %v", err)
	}
	return cfg
}

// checkAlreadyDone requires a rerun of the finished job to report it done.
func (e *owEnv) checkAlreadyDone(t *testing.T, cfg Config) {
	t.Helper()
	if res, err := e.run(context.Background(), cfg); err != nil || !res.AlreadyDone {
		t.Fatalf("run after the job finished: %+v, %v", res, err)
	}
}

// crashBeforeCommit runs e's overwrite job until it crashes before the final commit and returns
// the job's config (with that hook still set).
func (e *owEnv) crashBeforeCommit(t *testing.T) Config {
	t.Helper()
	cfg := e.owConfig()
	cfg.Hook = func(p string, _ int64) error {
		if p == PointBeforeCommit {
			return errCrash
		}
		return nil
	}
	if _, err := Run(context.Background(), cfg); !errors.Is(err, errCrash) {
		t.Fatalf("want the crash before the final commit, got %v", err)
	}
	return cfg
}

// deleteNewFiles deletes the data files that msgs add to tbl (as an orphan cleanup would).
func deleteNewFiles(t *testing.T, tbl *table.Table, msgs []table.CommitMessage) {
	t.Helper()
	paths := tbl.NewPaths()
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			p, _ := paths.DataFile(m.Partition, m.Bucket, f.FileName, f.ExternalPath)
			if err := tbl.FS.Delete(context.Background(), p); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// doneJobSnapshots returns the state of e's job, which must be done, and the snapshots its commit
// user made.
func (e *loadEnv) doneJobSnapshots(t testing.TB) (checkpoint.State, []*spec.Snapshot) {
	t.Helper()
	st := e.state(t)
	if _, done := st.Done(); !done {
		t.Fatal("overwrite job not done")
	}
	jr, _ := st.Job()
	return st, loadtest.SnapshotsOf(t, e.tbl, jr.CommitUser)
}

// latestIndex returns the index files live in tbl's latest snapshot.
func latestIndex(t testing.TB, tbl *table.Table) []manifest.IndexManifestEntry {
	t.Helper()
	ctx := context.Background()
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := index.SnapshotEntries(ctx, tbl, latest)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}
