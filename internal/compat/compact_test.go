package compat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// compactCommit writes changes like lakeloadCommit, for tables whose level-0 files are hidden
// (the caller compacts before relying on the rows).
func compactCommit(t *testing.T, tbl *table.Table, changes []change) {
	t.Helper()
	writeCommit(t, tbl, write.Options{CompactsBeforePublish: true}, changes)
}

// runCompaction compacts tbl and checks the snapshot it commits.
func runCompaction(t *testing.T, tbl *table.Table, o compact.Options) compact.Result {
	t.Helper()
	r, err := compact.Run(context.Background(), tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.SnapshotID == 0 {
		t.Fatalf("nothing was compacted: %+v", r)
	}
	s, err := tbl.Snapshots().Get(context.Background(), r.SnapshotID)
	if err != nil {
		t.Fatal(err)
	}
	if s.CommitKind != spec.CommitKindCompact || !strings.HasPrefix(s.CommitUser, compact.CommitUserPrefix) {
		t.Fatalf("compaction snapshot %d: kind %s user %s", s.ID, s.CommitKind, s.CommitUser)
	}
	return r
}

// levelsOf counts the table's live files per level.
func levelsOf(t *testing.T, tbl *table.Table) map[int32]int {
	t.Helper()
	ctx := context.Background()
	s, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live, err := tbl.LiveFiles(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]int{}
	for _, e := range live {
		out[e.File.Level]++
	}
	return out
}

// TestCompactLakeloadWrittenOraclesRead: lakeload writes upserts and deletes in six commits, compacts
// (universal, then full); Java and pypaimon read the model's rows before and after each compaction.
func TestCompactLakeloadWrittenOraclesRead(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	wh := t.TempDir()
	defs := map[string]tableDef{
		"dedup": {
			cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}},
			pk:   []string{"dt", "id"}, part: []string{"dt"}, options: map[string]string{"bucket": "2"},
		},
		"partial": {
			cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}},
			pk:   []string{"dt", "id"}, part: []string{"dt"}, options: map[string]string{"bucket": "2", "merge-engine": "partial-update"},
		},
		"append": {
			cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}},
			part: []string{"dt"},
		},
	}
	for name, def := range defs {
		t.Run(name, func(t *testing.T) {
			tbl := newTable(t, wh, name, def)
			m := newModel(tbl.Schema)
			path := tablePath(wh, name)
			for _, cs := range upsertCommits(uint64(len(name)), 6, 60, 40) {
				if name != "dedup" {
					cs = insertsOnly(cs)
				}
				lakeloadCommit(t, tbl, cs)
				for _, c := range cs {
					m.apply(c)
				}
			}
			want := canonLines(t, tbl.Schema.Fields, m.result())
			diffLinesAs(t, "java before", want, java.Read(path, oracle.ReadOpts{}))
			r := runCompaction(t, tbl, compact.Options{})
			if r.FilesAfter >= r.FilesBefore {
				t.Errorf("universal compaction: %d files before, %d after", r.FilesBefore, r.FilesAfter)
			}
			diffLinesAs(t, "java after universal compaction", want, java.Read(path, oracle.ReadOpts{}))
			diffLinesAs(t, "pypaimon after universal compaction", want, py.Read(path, oracle.ReadOpts{}))
			if tbl.HasPrimaryKey() {
				// More writes on top of the compacted levels, then a full compaction.
				extra := upsertCommits(99, 2, 30, 40)
				for _, cs := range extra {
					if name != "dedup" {
						cs = insertsOnly(cs)
					}
					lakeloadCommit(t, tbl, cs)
					for _, c := range cs {
						m.apply(c)
					}
				}
				want = canonLines(t, tbl.Schema.Fields, m.result())
				runCompaction(t, tbl, compact.Options{Full: true})
				if lv := levelsOf(t, tbl); len(lv) != 1 || lv[5] == 0 {
					t.Errorf("after full compaction files per level: %v, want all on level 5", lv)
				}
				diffLinesAs(t, "java after full compaction", want, java.Read(path, oracle.ReadOpts{}))
				diffLinesAs(t, "pypaimon after full compaction", want, py.Read(path, oracle.ReadOpts{}))
			}
			diffLinesAs(t, "lakeload after compaction", want, sorted(lakeloadRows(t, tbl, 0)))
		})
	}
}

func insertsOnly(cs []change) []change {
	var out []change
	for _, c := range cs {
		if !c.Kind.IsRetract() {
			out = append(out, c)
		}
	}
	return out
}

// TestCompactHiddenLevel0OraclesRead is the negative control for deletion-vector and first-row
// tables: rows lakeload writes at level 0 are invisible to Java (and pypaimon) until lakeload
// compacts; afterwards both readers return exactly the model's rows.
func TestCompactHiddenLevel0OraclesRead(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	wh := t.TempDir()
	cols := [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}}
	for name, opts := range map[string]map[string]string{
		"dv":        {"bucket": "2", "deletion-vectors.enabled": "true"},
		"first_row": {"bucket": "2", "merge-engine": "first-row"},
	} {
		t.Run(name, func(t *testing.T) {
			tbl := newTable(t, wh, name, tableDef{cols: cols, pk: []string{"dt", "id"}, part: []string{"dt"}, options: opts})
			m := newModel(tbl.Schema)
			path := tablePath(wh, name)
			round := func(seed uint64, n int) {
				for _, cs := range upsertCommits(seed, n, 50, 30) {
					if name == "first_row" {
						cs = insertsOnly(cs)
					}
					compactCommit(t, tbl, cs)
					for _, c := range cs {
						m.apply(c)
					}
				}
			}
			round(1, 3)
			if got := java.Read(path, oracle.ReadOpts{}); len(got) != 0 {
				t.Fatalf("before compaction Java shows %d rows; level-0 rows must be hidden", len(got))
			}
			if got := py.Read(path, oracle.ReadOpts{}); len(got) != 0 {
				t.Fatalf("before compaction pypaimon shows %d rows; level-0 rows must be hidden", len(got))
			}
			runCompaction(t, tbl, compact.Options{})
			want := canonLines(t, tbl.Schema.Fields, m.result())
			if len(want) == 0 {
				t.Fatal("model is empty")
			}
			diffLinesAs(t, "java after compaction", want, java.Read(path, oracle.ReadOpts{}))
			diffLinesAs(t, "pypaimon after compaction", want, py.Read(path, oracle.ReadOpts{}))
			// A second round over the compacted max level.
			round(2, 2)
			hidden := java.Read(path, oracle.ReadOpts{})
			diffLinesAs(t, "java sees only the compacted rows", want, hidden)
			runCompaction(t, tbl, compact.Options{})
			want = canonLines(t, tbl.Schema.Fields, m.result())
			diffLinesAs(t, "java after second compaction", want, java.Read(path, oracle.ReadOpts{}))
			diffLinesAs(t, "pypaimon after second compaction", want, py.Read(path, oracle.ReadOpts{}))
		})
	}
}

// TestCompactJavaWrittenFixtures: a copy of each Java-written primary-key fixture (Avro manifests) is
// compacted in full by lakeload; Java and pypaimon read the rows lakeload read before (for
// fixtures whose level-0 files are hidden, the compaction reveals them: Java then returns what
// lakeload's merge of every level returned before).
func TestCompactJavaWrittenFixtures(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	pyOK := map[string]bool{"pk_table_scan_and_read_dv": true, "pk_table_scan_and_read_first_row": true,
		"pk_table_scan_and_read_mor": true, "pk_table_with_mor": true}
	for _, name := range []string{"pk_table_scan_and_read_mor", "pk_table_with_mor", "pk_table_partial_update",
		"pk_table_scan_and_read_dv", "pk_table_scan_and_read_first_row", "int96_pk"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name+".db", name)
			if err := os.CopyFS(dir, os.DirFS(filepath.Join(fixtureDir, name+".db", name))); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			tbl, err := table.Open(ctx, local.New(), dir, "db."+name)
			if err != nil {
				t.Fatal(err)
			}
			before := java.Read(dir, oracle.ReadOpts{})
			_, idxBefore := liveIndex(t, tbl)
			if tbl.Options.DeletionVectorsEnabled() && len(idxBefore) == 0 {
				t.Fatal("the deletion-vector fixture has no deletion vectors to retire")
			}
			hidden := levelsOf(t, tbl)[0] > 0 && (tbl.Options.DeletionVectorsEnabled() || tbl.Options.MergeEngine() == "first-row")
			r := runCompaction(t, tbl, compact.Options{Full: true})
			after := java.Read(dir, oracle.ReadOpts{})
			if !hidden {
				diffLinesAs(t, fmt.Sprintf("java after compaction (snapshot %d)", r.SnapshotID), before, after)
			} else if len(after) < len(before) {
				t.Errorf("java after compaction: %d rows, before %d", len(after), len(before))
			}
			diffLinesAs(t, "lakeload vs java after compaction", after, sorted(lakeloadRows(t, tbl, 0)))
			if pyOK[name] {
				diffLinesAs(t, "pypaimon after compaction", after, py.Read(dir, oracle.ReadOpts{}))
			}
			if lv := levelsOf(t, tbl); lv[0] != 0 {
				t.Errorf("level-0 files remain after full compaction: %v", lv)
			}
			// Every bucket was rewritten in full, so no deletion vector may remain in the index.
			snap, err := tbl.Snapshots().Get(ctx, r.SnapshotID)
			if err != nil {
				t.Fatal(err)
			}
			idx, err := index.SnapshotEntries(ctx, tbl, snap)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range idx {
				if e.IndexType == manifest.IndexTypeDeletionVectors {
					t.Errorf("deletion-vector index %s of bucket %d survives a full rewrite of the bucket", e.FileName, e.Bucket)
				}
			}
			if name == "pk_table_scan_and_read_first_row" {
				// first-row keeps the earliest row of a key: rows Java showed before stay.
				got := map[string]bool{}
				for _, l := range after {
					got[l] = true
				}
				for _, l := range before {
					if !got[l] {
						t.Errorf("first-row: row %s visible before compaction is gone", l)
					}
				}
			}
		})
	}
}
