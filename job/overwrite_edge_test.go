package job

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Overwrite edge cases: new content that is empty — input whose rows delete every key they write
// (merged into nothing before the commit on a deletion-vector table), or no rows at all.
//
// The right outcome: the partitions the input touches (partition mode) or the whole table (table
// mode) are replaced by nothing, i.e. their old rows are deleted by the job's OVERWRITE snapshot.
// Only when there is nothing to delete either does the job make no snapshot; its windows are then
// recorded committed with snapshot 0 (MergedAway when their staged files merged into nothing) and
// the job finishes; running it again reports it done.

// edgeFixture is a deletion-vector deduplicate table partitioned by dt (key dt, id) with the old
// rows given (loaded before the overwrite) and new input files of the given rows.
func edgeFixture(name string, dv bool, files ...[]loadtest.Row) loadtest.Fixture {
	opts := map[string]string{"bucket": "2"}
	if dv {
		opts["deletion-vectors.enabled"] = "true"
	}
	fx := loadtest.Fixture{Name: name,
		Columns: [][2]string{{"dt", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"val", "STRING"}, {"amount", "BIGINT"}},
		PK:      []string{"dt", "id"}, Partition: []string{"dt"}, Options: opts, OpColumn: "op"}
	for i, rows := range files {
		fx.Files = append(fx.Files, loadtest.File{Name: fmt.Sprintf("in-%02d.%s", i, []string{"jsonl", "csv", "parquet"}[i%3]), Rows: rows})
	}
	return fx
}

// edgeRows returns rows of kind k for keys 0..n-1 of partition dt.
func edgeRows(k spec.RowKind, dt string, n int) []loadtest.Row {
	var out []loadtest.Row
	for id := range n {
		v := []any{dt, int64(id), nil, nil}
		if k != spec.RowKindDelete {
			v = []any{dt, int64(id), fmt.Sprintf("%s-%d", dt, id), int64(id * 10)}
		}
		out = append(out, loadtest.Row{Kind: k, Values: v})
	}
	return out
}

// edgeEnv loads old (nil: nothing) into a fresh table, then prepares an overwrite job of newFiles.
func edgeEnv(t *testing.T, name string, old []loadtest.Row, mode string, newFiles ...[]loadtest.Row) (*loadEnv, Config) {
	t.Helper()
	oldFx := edgeFixture(name, true, old)
	e := newLoadEnv(t, oldFx, oldFx.WriteInputs(t, loadtest.TempDir(t)))
	if len(old) > 0 {
		if _, err := Run(context.Background(), e.config(1000)); err != nil {
			t.Fatalf("loading the old rows: %v", err)
		}
	}
	newFx := edgeFixture(name, true, newFiles...)
	e.store = checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/ow-store")
	cfg := e.config(1) // a window per input file
	cfg.Name, cfg.From, cfg.Overwrite = "ow-"+name, []string{newFx.WriteInputs(t, loadtest.TempDir(t))}, mode
	return e, cfg
}

// runBounded runs cfg with a deadline, so that a job that never settles fails instead of hanging.
func runBounded(t *testing.T, e *loadEnv, cfg Config) (Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res, err := e.run(ctx, cfg)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the overwrite job did not settle within %s (a hang): %v", hangGuard, err)
	}
	return res, err
}

// checkEdgeDone asserts the job is done with every window committed (in the job's one OVERWRITE
// snapshot, or in none when snapshots is 0) and published, the table holds want, and a rerun
// reports the job done without touching anything.
func checkEdgeDone(t *testing.T, e *loadEnv, cfg Config, snapshots int, want []string) {
	t.Helper()
	st, snaps := e.doneJobSnapshots(t)
	if len(snaps) != snapshots {
		t.Fatalf("the job made %d snapshots, want %d", len(snaps), snapshots)
	}
	var id int64
	if snapshots == 1 {
		if snaps[0].CommitKind != spec.CommitKindOverwrite {
			t.Fatalf("the job's snapshot is a %s, want OVERWRITE", snaps[0].CommitKind)
		}
		id = snaps[0].ID
	}
	for _, ws := range st.Windows() {
		if ws.Committed == nil || ws.Published == nil || ws.Committed.SnapshotID != id || ws.Published.Attempt != ws.Committed.Attempt {
			t.Fatalf("window %d: committed %+v published %+v; want committed in snapshot %d and published", ws.Window, ws.Committed, ws.Published, id)
		}
	}
	if d := loadtest.Diff(want, loadtest.Lines(t, e.tbl)); d != "" {
		t.Fatalf("table after the overwrite:%s", d)
	}
	latest, _, err := e.tbl.Snapshots().LatestID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := runBounded(t, e, cfg)
	if err != nil || !res.AlreadyDone {
		t.Fatalf("rerun of the finished job: %+v, %v; want already done", res, err)
	}
	if again, _, _ := e.tbl.Snapshots().LatestID(context.Background()); again != latest {
		t.Fatalf("the rerun made snapshot %d", again)
	}
}

// edgeCase is an overwrite in mode of a table holding old, after which the job made snapshots
// snapshots and the table holds want.
type edgeCase struct {
	name      string
	mode      string
	old       []loadtest.Row
	snapshots int
	want      []loadtest.Row
}

// runEdgeCases runs each case as a parallel subtest: an overwrite job (named prefix + case name) of
// the input files newFiles, which must make windows windows (0: any number) and finish as the case
// says (checkEdgeDone).
func runEdgeCases(t *testing.T, prefix string, windows int, cases []edgeCase, newFiles ...[]loadtest.Row) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, cfg := edgeEnv(t, prefix+strings.ReplaceAll(c.name, "-", "_"), c.old, c.mode, newFiles...)
			if _, err := runBounded(t, e, cfg); err != nil {
				t.Fatalf("overwrite: %v", err)
			}
			if n := len(e.state(t).Windows()); windows > 0 && n != windows {
				t.Fatalf("%d windows, want one per input file (%d)", n, windows)
			}
			checkEdgeDone(t, e, cfg, c.snapshots, linesOf(t, c.want))
		})
	}
}

// linesOf is the canonical table content of rows (inserts only).
func linesOf(t *testing.T, rows []loadtest.Row) []string {
	if len(rows) == 0 {
		return nil
	}
	fx := edgeFixture("x", true, rows)
	return fx.Expected(t)
}

// TestOverwriteMergedAway: the new input of a deletion-vector table inserts keys of 2024-01-02 in
// one window and deletes all of them in the next, so the staged files merge into nothing.
//   - the partition holds old rows: one OVERWRITE snapshot deletes them (2024-01-01 untouched);
//   - it holds none (nor does the table in table mode): no snapshot, windows recorded with snapshot
//     0, the job finishes (before the fix it stopped as corrupt: "recorded without a snapshot, but
//     its results hold files");
//   - table mode with old rows: the table is emptied.
func TestOverwriteMergedAway(t *testing.T) {
	day1, day2 := edgeRows(spec.RowKindInsert, "2024-01-01", 6), edgeRows(spec.RowKindInsert, "2024-01-02", 4)
	ins, del := edgeRows(spec.RowKindInsert, "2024-01-02", 5), edgeRows(spec.RowKindDelete, "2024-01-02", 5)
	runEdgeCases(t, "mergedaway_", 2, []edgeCase{
		{"partition-holds-rows", checkpoint.OverwritePartitions, append(append([]loadtest.Row{}, day1...), day2...), 1, day1},
		{"partition-empty", checkpoint.OverwritePartitions, day1, 0, day1},
		{"table-holds-rows", checkpoint.OverwriteTable, append(append([]loadtest.Row{}, day1...), day2...), 1, nil},
		{"table-empty", checkpoint.OverwriteTable, nil, 0, nil},
	}, ins, del)
}

// TestOverwriteMergedAwayCrashResume: the run recording an empty merged overwrite (no snapshot)
// dies after the first window's committed record; the resume records the rest and finishes.
func TestOverwriteMergedAwayCrashResume(t *testing.T) {
	day1 := edgeRows(spec.RowKindInsert, "2024-01-01", 6)
	for _, w := range []int64{1, 2} {
		t.Run(fmt.Sprintf("crash-at-window-%d", w), func(t *testing.T) {
			t.Parallel()
			e, cfg := edgeEnv(t, fmt.Sprintf("mergedaway_crash%d", w), day1, checkpoint.OverwritePartitions,
				edgeRows(spec.RowKindInsert, "2024-01-02", 5), edgeRows(spec.RowKindDelete, "2024-01-02", 5))
			fs := &loadtest.CrashFS{FileIO: local.New()}
			store := checkpoint.NewStore(fs, e.store.Root())
			fs.Match = func(p string) bool { return p == store.CommittedPath(w) || p == store.PublishedPath(w) }
			fs.Arm()
			cfg.Store, e.store = store, store
			if _, err := runBounded(t, e, cfg); !errors.Is(err, errCrash) {
				t.Fatalf("run meant to crash at window %d's record: %v", w, err)
			}
			if p := e.checkPublishedCommitted(t); p != "" {
				t.Fatal(p)
			}
			if _, err := runBounded(t, e, cfg); err != nil {
				t.Fatalf("resume: %v", err)
			}
			checkEdgeDone(t, e, cfg, 0, linesOf(t, day1))
		})
	}
}

// TestOverwriteEmptyInput: overwrite input files without a row. Table mode empties the table (one
// OVERWRITE snapshot; none when the table is empty already); partition mode touches no partition
// and leaves the table as it was, without a snapshot.
func TestOverwriteEmptyInput(t *testing.T) {
	day1 := edgeRows(spec.RowKindInsert, "2024-01-01", 6)
	runEdgeCases(t, "emptyin_", 0, []edgeCase{
		{"table-holds-rows", checkpoint.OverwriteTable, day1, 1, nil},
		{"table-empty", checkpoint.OverwriteTable, nil, 0, nil},
		{"partitions", checkpoint.OverwritePartitions, day1, 0, day1},
	}, nil, nil)
}
