package compat

import (
	"fmt"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestCompactPypaimonWrittenOraclesRead: pypaimon writes primary-key tables (deduplicate with
// upserts and deletes through rowkind.field, and partial-update) in six commits; lakeload compacts
// them with universal compaction, pypaimon writes two more commits on top of lakeload's COMPACT
// snapshot, lakeload compacts fully (every file on the highest level), and pypaimon writes once more.
// At every step lakeload, Java Paimon and pypaimon read the latest snapshot — and every earlier one,
// by time travel — exactly as the independent model says, and lakeload parses every snapshot (both
// writers') as Java does.
func TestCompactPypaimonWrittenOraclesRead(t *testing.T) {
	py := oracle.Py(t)
	oracle.Java(t)
	wh := t.TempDir()
	cols := [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"kind", "STRING"}}
	scenarios := []struct {
		name    string
		def     tableDef
		retract bool // commits carry -U/-D rows (rowkind.field); else inserts only
	}{
		{"pyc_dedup", tableDef{cols: cols, pk: []string{"dt", "id"}, part: []string{"dt"},
			options: map[string]string{"bucket": "2", "rowkind.field": "kind"}}, true},
		{"pyc_partial", tableDef{cols: cols, pk: []string{"dt", "id"}, part: []string{"dt"},
			options: map[string]string{"bucket": "2", "merge-engine": "partial-update"}}, false},
	}
	for si, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			path := tablePath(wh, sc.name)
			fields := sc.def.schema(t).Fields
			commits := rowkindCommits(uint64(20+si), 9, 120, 50)
			if !sc.retract {
				for i, cs := range commits {
					commits[i] = nil
					for _, c := range insertsOnly(cs) { // +U rows become +I: the table has no rowkind.field
						commits[i] = append(commits[i], withKind(ins(c.Row...), 4))
					}
				}
			}
			var m *model
			wants := map[int64][]string{} // snapshot id → model state
			write := func(cs []change) {
				t.Helper()
				id := pyCommit(t, py, path, sc.def, fields, cs)
				tbl := openTable(t, wh, sc.name)
				if m == nil {
					m = newModel(tbl.Schema)
				}
				for _, c := range cs {
					m.apply(c)
				}
				wants[id] = canonLines(t, tbl.Schema.Fields, m.result())
			}
			readAll := func(what string) {
				t.Helper()
				tbl := openTable(t, wh, sc.name)
				for id := int64(1); id <= int64(len(wants)); id++ {
					threeReaders(t, fmt.Sprintf("%s, snapshot %d", what, id), tbl, id, wants[id])
				}
			}
			compactWith := func(o compact.Options) compact.Result {
				t.Helper()
				tbl := openTable(t, wh, sc.name)
				before, _, err := tbl.Snapshots().LatestID(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				r := runCompaction(t, tbl, o)
				if r.FilesAfter >= r.FilesBefore {
					t.Errorf("compaction (full=%v): %d files before, %d after", o.Full, r.FilesBefore, r.FilesAfter)
				}
				wants[r.SnapshotID] = wants[before] // a compaction changes no row
				return r
			}
			for _, cs := range commits[:6] {
				write(cs)
			}
			if lv := levelsOf(t, openTable(t, wh, sc.name)); len(lv) != 1 || lv[0] == 0 {
				t.Fatalf("pypaimon's files per level %v: want level 0 only", lv)
			}
			readAll("pypaimon-written")
			compactWith(compact.Options{})
			readAll("after universal compaction")
			for _, cs := range commits[6:8] {
				write(cs)
			}
			readAll("pypaimon writes on top of lakeload's compaction")
			compactWith(compact.Options{Full: true})
			tbl := openTable(t, wh, sc.name)
			maxLevel, err := compact.MaxLevel(tbl)
			if err != nil {
				t.Fatal(err)
			}
			if lv := levelsOf(t, tbl); len(lv) != 1 || lv[maxLevel] == 0 {
				t.Fatalf("after full compaction files per level: %v, want all on level %d", lv, maxLevel)
			}
			write(commits[8])
			readAll("after full compaction and one more pypaimon commit")
			s, err := tbl.Snapshots().Latest(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if s.CommitKind != spec.CommitKindAppend || len(wants) != 11 {
				t.Fatalf("latest snapshot %d is %s, %d snapshots: want pypaimon's APPEND as the 11th", s.ID, s.CommitKind, len(wants))
			}
			sameSnapshots(t, tbl)
		})
	}
}
