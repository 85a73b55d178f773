package job

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// TestReviewOverwritePinHoldsFinalUntilDone: an overwrite job's final OVERWRITE snapshot F is what
// recovery looks up to record the windows not yet published. A crash after window 1 (or every window)
// was published but before the job is done, with another writer's commit and snapshot expiry in
// between, must still resume: the consumer pin must keep F until the job is done (protocol.md,
// "Overwrite jobs" item 4). Publishing window 1 must not advance the pin past F.
func TestReviewOverwritePinHoldsFinalUntilDone(t *testing.T) {
	fx := loadtest.AggSum(41, matrixFiles, matrixRows)
	for _, crashAfter := range []string{"first", "last"} {
		t.Run(crashAfter, func(t *testing.T) {
			e := newOwEnv(t, fx, checkpoint.OverwritePartitions)
			ctx := context.Background()
			cfg := e.owConfig()
			n := int64(0)
			crashed := false
			var last int64
			cfg.Hook = func(p string, w int64) error {
				if p == PointAssigned {
					last = max(last, w)
				}
				if p != PointAfterPublish || crashed || (crashAfter == "first" && w != 1) || (crashAfter == "last" && w != last) {
					return nil
				}
				n++
				foreignCommit(t, e.tbl, []any{5000 + n, int64(7), int32(1), "other"})
				if _, err := maintain.Expire(ctx, e.tbl, aggressiveExpiry); err != nil {
					return err
				}
				crashed = true
				return errCrash
			}
			if _, err := e.run(ctx, cfg); !errors.Is(err, errCrash) {
				t.Fatalf("first run: %v, want the crash after publishing window 1", err)
			}
			cfg.Hook = nil
			if _, err := e.run(ctx, cfg); err != nil {
				t.Fatalf("resume after a crash between the publishes of an overwrite job (with expiry): %v", err)
			}
			st := e.state(t)
			if _, done := st.Done(); !done {
				t.Fatal("overwrite job not done")
			}
			for _, ws := range st.Windows() {
				if ws.Published == nil {
					t.Fatalf("window %d not published", ws.Window)
				}
			}
			if got := loadtest.Lines(t, e.tbl); len(got) != len(e.newLines)+1 {
				t.Fatalf("table has %d rows, want the %d new rows and the other writer's row", len(got), len(e.newLines))
			}
		})
	}
}

// TestReviewBackgroundCompactionAcrossSchemaEvolution: a background compaction started after window
// 2 (schema 0) is still in flight when window 3 adds a column (--evolve-schema add-columns) and
// commits. The compaction must not rewrite window 3's files with the old schema: the new column's
// values must survive, and no snapshot may go back to an older schema id.
func TestReviewBackgroundCompactionAcrossSchemaEvolution(t *testing.T) {
	ctx := context.Background()
	tbl, in := reviewEvoTable(t)
	released := make(chan struct{})
	var once sync.Once
	blocked := atomic.Bool{}
	cfg := Config{
		Spec:    Spec{Name: "evo", Input: Input{From: []string{filepath.Join(in, "a*.jsonl")}}, CommitRows: 1, Parallelism: 1, EvolveSchema: EvolveAddColumns},
		Table:   tbl,
		InputFS: local.New(),
		Store:   checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/store"),
	}
	cfg.Hook = func(p string, w int64) error {
		switch {
		case p == PointBeforeCompact && w == 2:
			blocked.Store(true)
			// Hold the compaction until window 3 (which evolves the schema) is published. A driver that
			// waits for the compaction before evolving never gets there: the timeout lets it go on.
			select {
			case <-released:
			case <-time.After(2 * time.Second):
			}
		case p == PointAfterPublish && w == 3:
			once.Do(func() { close(released) })
		}
		return nil
	}
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !blocked.Load() || res.Windows != 3 {
		t.Fatalf("compaction after window 2 never started (or %d windows): the test proves nothing", res.Windows)
	}
	latest, err := table.Open(ctx, local.New(), tbl.Path, tbl.Name)
	if err != nil {
		t.Fatal(err)
	}
	checkSchemaIDsMonotone(t, latest)
	want := expectedLines(t, latest.Schema.Fields, [][]any{
		{int64(1), "one", nil}, {int64(2), "two", nil}, {int64(3), "three", float64(1.5)},
	})
	if d := loadtest.Diff(want, loadtest.Lines(t, latest)); d != "" {
		t.Fatalf("table after the load:%s", d)
	}
}

// TestReviewBackgroundCompactionAfterForeignSchemaChange: the job's background compaction (started
// after window 2 with schema 0) is in flight when another writer adds a column and commits a row
// using it. The compaction must not rewrite that writer's file with the old schema (dropping the
// value) nor commit a snapshot with an older schema id.
func TestReviewBackgroundCompactionAfterForeignSchemaChange(t *testing.T) {
	ctx := context.Background()
	tbl, in := reviewEvoTable(t)
	if err := os.Remove(filepath.Join(in, "a3.jsonl")); err != nil { // the job ends after window 2
		t.Fatal(err)
	}
	var foreignErr error
	cfg := Config{
		Spec:    Spec{Name: "evo", Input: Input{From: []string{filepath.Join(in, "a*.jsonl")}}, CommitRows: 1, Parallelism: 1},
		Table:   tbl,
		InputFS: local.New(),
		Store:   checkpoint.NewStore(local.New(), loadtest.TempDir(t)+"/store"),
	}
	started := false
	cfg.Hook = func(p string, w int64) error {
		if p == PointBeforeCompact && w == 2 && !started {
			started = true
			foreignErr = reviewForeignEvolvedRow(ctx, tbl)
		}
		return nil
	}
	_, err := Run(ctx, cfg)
	if foreignErr != nil {
		t.Fatal(foreignErr)
	}
	if !started {
		t.Fatal("no compaction started after window 2: the test proves nothing")
	}
	if err != nil {
		t.Fatal(err)
	}
	latest, err := table.Open(ctx, local.New(), tbl.Path, tbl.Name)
	if err != nil {
		t.Fatal(err)
	}
	checkSchemaIDsMonotone(t, latest)
	lines := loadtest.Lines(t, latest)
	want := expectedLines(t, latest.Schema.Fields, [][]any{{int64(9), "nine", float64(2.5)}})
	for _, l := range lines {
		if l == want[0] {
			return
		}
	}
	t.Fatalf("the other writer's row %s is not in the table: %v", want[0], lines)
}

// reviewEvoTable creates a primary-key table (id, name), one bucket, compacting when a bucket has
// two sorted runs, and JSONL input: windows 1 and 2 with the table's columns, window 3 with "score".
func reviewEvoTable(t *testing.T) (*table.Table, string) {
	t.Helper()
	tbl := newEvoTable(t, loadtest.TempDir(t), map[string]string{"bucket": "1", "file.format": "parquet", "num-sorted-run.compaction-trigger": "1"})
	in := loadtest.TempDir(t)
	for name, body := range map[string]string{
		"a1.jsonl": `{"id": 1, "name": "one"}` + "\n",
		"a2.jsonl": `{"id": 2, "name": "two"}` + "\n",
		"a3.jsonl": `{"id": 3, "name": "three", "score": 1.5}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(in, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tbl, in
}

// reviewForeignEvolvedRow adds column score DOUBLE to tbl and commits (9, "nine", 2.5) as another writer.
func reviewForeignEvolvedRow(ctx context.Context, tbl *table.Table) error {
	s, err := catalog.AddColumnsAt(ctx, tbl.FS, tbl.Path, tbl.Schema, []catalog.NewColumn{{Name: "score", Type: spec.DataType{Root: spec.Double, Nullable: true}}})
	if err != nil {
		return err
	}
	t2 := &table.Table{FS: tbl.FS, Path: tbl.Path, Name: tbl.Name, Schema: s, Options: s.CoreOptions()}
	w, err := write.New(ctx, t2, write.Options{})
	if err != nil {
		return err
	}
	if err := w.WriteRow(ctx, []any{int64(9), "nine", float64(2.5)}, spec.RowKindInsert); err != nil {
		return err
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		return err
	}
	_, err = commit.Commit(ctx, t2, msgs, commit.Options{User: "other-writer", Identifier: commit.BatchIdentifier, LookupAfter: -1})
	return err
}

// checkSchemaIDsMonotone fails when a snapshot has an older schema id than a snapshot before it.
func checkSchemaIDsMonotone(t *testing.T, tbl *table.Table) {
	t.Helper()
	ctx := context.Background()
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var prev int64
	for _, sid := range ids {
		sn, err := tbl.Snapshots().Get(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if sn.SchemaID < prev {
			t.Errorf("snapshot %d (%s by %s) has schema %d after a snapshot with schema %d", sid, sn.CommitKind, sn.CommitUser, sn.SchemaID, prev)
		}
		prev = max(prev, sn.SchemaID)
	}
}
