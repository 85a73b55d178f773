package job

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
)

// owEnv is a table holding "old" data (loaded by an append job) and the input of an overwrite job.
type owEnv struct {
	*loadEnv
	mode      string
	newGlob   string
	oldLines  []string // table state before the overwrite
	newLines  []string // expected state after it
	oldSnap   int64    // latest snapshot before the overwrite
	touchedOf map[string]bool
}

// overwriteFixtures splits fx's files: the first 3 are loaded before, the other 5 overwrite. For the
// partitioned table the new files hold no row of 2024-01-03, so that partition must survive a
// partition overwrite.
func overwriteFixtures(fx loadtest.Fixture) (oldFx, newFx loadtest.Fixture) {
	oldFx, newFx = fx, fx
	oldFx.Files = fx.Files[:3]
	newFx.Files = nil
	for _, fl := range fx.Files[3:] {
		var rows []loadtest.Row
		for _, r := range fl.Rows {
			if len(fx.Partition) == 0 || r.Values[0] != "2024-01-03" {
				rows = append(rows, r)
			}
		}
		newFx.Files = append(newFx.Files, loadtest.File{Name: fl.Name, Rows: rows})
	}
	return oldFx, newFx
}

// partitionOf returns the partition value of a canonical line ("" for unpartitioned tables).
func partitionOf(t testing.TB, fx loadtest.Fixture, line string) string {
	if len(fx.Partition) == 0 {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("line %s: %v", line, err)
	}
	return fmt.Sprint(m[fx.Partition[0]])
}

func newOwEnv(t *testing.T, fx loadtest.Fixture, mode string) *owEnv {
	t.Helper()
	oldFx, newFx := overwriteFixtures(fx)
	oldGlob := oldFx.WriteInputs(t, loadtest.TempDir(t))
	newGlob := newFx.WriteInputs(t, loadtest.TempDir(t))
	e := &owEnv{loadEnv: newLoadEnv(t, oldFx, oldGlob), mode: mode, newGlob: newGlob, touchedOf: map[string]bool{}}
	if _, err := Run(context.Background(), e.config(matrixCommitRows)); err != nil {
		t.Fatal(err)
	}
	e.oldLines = loadtest.Lines(t, e.tbl)
	id, _, err := e.tbl.Snapshots().LatestID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e.oldSnap = id
	e.store = checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/ow-store") // the overwrite job's own store
	newRows := newFx.ExpectedOf(t, newFx.Files)
	for _, fl := range newFx.Files {
		for _, r := range fl.Rows {
			p := ""
			if len(fx.Partition) > 0 {
				p = fmt.Sprint(r.Values[0])
			}
			e.touchedOf[p] = true
		}
	}
	e.setModel(t, fx, newRows)
	return e
}

// setModel sets the table the overwrite must leave (newLines and want): the rows newRows plus, in
// partitions mode, the old rows of the partitions (of fixture fx) the new input does not touch.
func (e *owEnv) setModel(t testing.TB, fx loadtest.Fixture, newRows []string) {
	e.newLines = slices.Clone(newRows)
	if e.mode == checkpoint.OverwritePartitions {
		for _, l := range e.oldLines {
			if !e.touchedOf[partitionOf(t, fx, l)] {
				e.newLines = append(e.newLines, l)
			}
		}
	}
	sort.Strings(e.newLines)
	e.want = e.newLines
}

func (e *owEnv) owConfig() Config {
	c := e.config(30) // a window per input file
	c.Name, c.From, c.Overwrite = "ow-"+e.fx.Name, []string{e.newGlob}, e.mode
	return c
}

// partitions groups lines by partition.
func (e *owEnv) partitions(t testing.TB, lines []string) map[string][]string {
	out := map[string][]string{}
	for _, l := range lines {
		p := partitionOf(t, e.fx, l)
		out[p] = append(out[p], l)
	}
	return out
}

// checkVisibleStates reads every snapshot after the old data with lakeload's reader: each partition
// the overwrite replaces holds exactly its old rows or exactly its new rows, every other partition its
// old rows (table mode: the whole table is all-old or all-new).
func (e *owEnv) checkVisibleStates(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	latest, _, err := e.tbl.Snapshots().LatestID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	oldP, newP := e.partitions(t, e.oldLines), e.partitions(t, e.newLines)
	for id := e.oldSnap; id <= latest; id++ {
		schema, rows, err := read.Rows(ctx, e.tbl, read.ScanOptions{SnapshotID: id})
		if err != nil {
			t.Fatalf("read snapshot %d: %v", id, err)
		}
		lines, err := canon.Rows(schema.Fields, rows)
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(lines)
		if e.mode == checkpoint.OverwriteTable {
			if !slices.Equal(lines, e.oldLines) && !slices.Equal(lines, e.newLines) {
				t.Fatalf("snapshot %d shows neither the old nor the new table:%s", id, loadtest.Diff(e.newLines, lines))
			}
			continue
		}
		got := e.partitions(t, lines)
		for _, p := range slices.Sorted(mapKeys(oldP, newP, got)) {
			if !slices.Equal(got[p], oldP[p]) && !slices.Equal(got[p], newP[p]) {
				t.Fatalf("snapshot %d: partition %q holds neither its old nor its new rows:%s", id, p, loadtest.Diff(newP[p], got[p]))
			}
		}
	}
}

func mapKeys(ms ...map[string][]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range ms {
			for k := range m {
				if !seen[k] && !yield(k) {
					return
				}
				seen[k] = true
			}
		}
	}
}

// checkOverwriteFinished asserts the end state: done; every window committed in the one OVERWRITE
// snapshot of the job's user (none of any other kind) and published with the attempt it names; the
// table equal to the model.
func (e *owEnv) checkOverwriteFinished(t testing.TB) {
	t.Helper()
	st, snaps := e.doneJobSnapshots(t)
	if len(snaps) != 1 || snaps[0].CommitKind != spec.CommitKindOverwrite || snaps[0].CommitIdentifier != checkpoint.OverwriteIdentifier(st) {
		t.Fatalf("the job's user made %d snapshots (want one OVERWRITE with identifier %d)", len(snaps), checkpoint.OverwriteIdentifier(st))
	}
	attempts, err := checkpoint.ParseWindows(snaps[0].Properties[checkpoint.PropWindows])
	if err != nil {
		t.Fatal(err)
	}
	for _, ws := range st.Windows() {
		if ws.Committed == nil || ws.Published == nil || ws.Committed.SnapshotID != snaps[0].ID ||
			ws.Published.Attempt != attempts[ws.Window] || ws.Committed.Attempt != attempts[ws.Window] {
			t.Fatalf("window %d: committed %+v published %+v, snapshot %d names attempt %d", ws.Window, ws.Committed, ws.Published, snaps[0].ID, attempts[ws.Window])
		}
	}
	if d := loadtest.Diff(e.newLines, loadtest.Lines(t, e.tbl)); d != "" {
		t.Fatalf("table after the overwrite differs from the model:%s", d)
	}
}

// checkStaged asserts after a crash: published ⊆ committed, and no window is committed unless the
// final OVERWRITE snapshot exists (and then with its id).
func (e *owEnv) checkStaged(t testing.TB) {
	t.Helper()
	st := e.state(t)
	jr, ok := st.Job()
	if !ok {
		return
	}
	snaps := loadtest.SnapshotsOf(t, e.tbl, jr.CommitUser)
	if len(snaps) > 1 {
		t.Fatalf("the job's user made %d snapshots", len(snaps))
	}
	for _, ws := range st.Windows() {
		if ws.Published != nil && ws.Committed == nil {
			t.Fatalf("window %d published without committed", ws.Window)
		}
		if ws.Committed != nil && (len(snaps) != 1 || snaps[0].ID != ws.Committed.SnapshotID) {
			t.Fatalf("window %d committed as snapshot %d, the table has %d snapshots of the job", ws.Window, ws.Committed.SnapshotID, len(snaps))
		}
	}
}

// TestOverwriteCrashMatrix crashes an overwrite job (partitions and table modes; append, aggregation
// and partitioned deduplicate tables; 3+ windows) at every named point — in a middle window for the
// per-window points, at the final commit (hook window = the final identifier) for the commit points,
// in the first and last window for the publish points — resumes it, and requires: the table equal to
// the model (old untouched partitions + new rows; nothing merged with the old rows), exactly one
// OVERWRITE snapshot of the job, every window committed in it and published, and at every snapshot
// id each replaced partition all-old or all-new. One case per table is read by Java Paimon and
// pypaimon.
func TestOverwriteCrashMatrix(t *testing.T) {
	for _, fx := range loadtest.All(11, matrixFiles, matrixRows) {
		for _, mode := range []string{checkpoint.OverwritePartitions, checkpoint.OverwriteTable} {
			if mode == checkpoint.OverwriteTable && len(fx.Partition) == 0 {
				continue // unpartitioned: both modes replace everything
			}
			ref := newOwEnv(t, fx, mode)
			res := ref.runUncrashed(t, fx.Name+" "+mode)
			ref.checkOverwriteFinished(t)
			ref.checkVisibleStates(t)
			w, final := res.Windows, res.Windows+1
			crashes := overwriteCrashes(w, final, "planned", "assigned", "task-written", "result-stored", "before-commit",
				"inside-commit", "snapshot-latest", "after-commit", "before-publish-1", "after-publish-1",
				"before-publish-last", "recovery-action", "twice")
			var oracleOnce sync.Once
			runCrashCases(t, fx.Name+"/"+mode+"/", crashes, func(t *testing.T, name string, crashes []crashAt) {
				e := newOwEnv(t, fx, mode)
				cfg := e.crashAndResume(t, crashes, nil)
				e.checkOverwriteFinished(t)
				e.checkVisibleStates(t)
				e.checkAlreadyDone(t, cfg)
				if name == "snapshot-latest" {
					oracleOnce.Do(func() { e.checkOracles(t) })
				}
			})
		}
	}
}

// checkOracles reads the table with Java Paimon and pypaimon and compares with the model.
func (e *owEnv) checkOracles(t *testing.T) {
	t.Helper()
	for name, c := range map[string]func(testing.TB) *oracle.Client{"Java Paimon": oracle.Java, "pypaimon": oracle.Py} {
		got := c(t).Read(e.fx.TablePath(e.wh), oracle.ReadOpts{})
		if d := loadtest.Diff(e.newLines, got); d != "" {
			t.Errorf("%s reads the overwritten %s differently from the model:%s", name, e.fx.Name, d)
		}
	}
}

// TestOverwriteRecomputesWindowWithMissingFiles: the staged files of a window vanish (orphan cleanup)
// before the final commit; the rerun recomputes that window and commits.
func TestOverwriteRecomputesWindowWithMissingFiles(t *testing.T) {
	fx := loadtest.Dedup(5, matrixFiles, matrixRows)
	e := newOwEnv(t, fx, checkpoint.OverwritePartitions)
	cfg := e.crashBeforeCommit(t)
	ws, _ := e.state(t).Window(2)
	at, _ := ws.Attempt(1)
	missing, err := (&driver{t: e.tbl}).missingFiles(context.Background(), msgsOf(t, at.Results[0]))
	if err != nil || len(missing) != 0 {
		t.Fatalf("files of window 2 before deletion: missing %v, %v", missing, err)
	}
	deleteNewFiles(t, e.tbl, msgsOf(t, at.Results[0]))
	log := &actionLog{}
	cfg.Hook, cfg.Logger = nil, slog.New(log)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log.kinds(), ","); !strings.HasPrefix(got, "recompute") {
		t.Fatalf("recovery actions %q, want a recompute of window 2 first", got)
	}
	e.checkOverwriteFinished(t)
	ws, _ = e.state(t).Window(2)
	if ws.Published.Attempt != 2 {
		t.Fatalf("window 2 published attempt %d, want the recomputed attempt 2", ws.Published.Attempt)
	}
}

// TestOverwriteModeIsPartOfTheJob: a job created as an overwrite cannot be resumed as an append (or
// another mode), and unknown modes are refused with the accepted values.
func TestOverwriteModeIsPartOfTheJob(t *testing.T) {
	fx := loadtest.Append(3, 4, 30)
	e := newOwEnv(t, fx, checkpoint.OverwritePartitions)
	cfg := e.crashBeforeCommit(t)
	cfg.Hook = nil
	cfg.Overwrite = ""
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "option overwrite") {
		t.Fatalf("resume as an append job: %v, want an error naming option overwrite", err)
	}
	cfg.Overwrite = "everything"
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), `"partitions"`) {
		t.Fatalf("unknown mode: %v", err)
	}
	cfg.Overwrite, cfg.Incremental = checkpoint.OverwriteTable, true
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "cannot be combined") {
		t.Fatalf("overwrite + incremental: %v", err)
	}
}
