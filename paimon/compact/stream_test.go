package compact_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lakeload/lakeload/paimon/compact"
)

// TestCompactionOfFilesManyBatchesLong: inputs several record batches (8192 rows) long — a compacted
// level-5 run plus overlapping level-0 files with updates and deletes — compact to exactly the model's
// rows, rolled into several files of one sorted run at target-file-size, retracts dropped.
func TestCompactionOfFilesManyBatchesLong(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 80k rows")
	}
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1", "target-file-size": "256 kb"})
	m := newModel("deduplicate")
	round := func(r, n int) {
		var cs []change
		for k := 0; k < n; k++ {
			id := int64(k*2 + r%2)
			if r > 0 && k%11 == 5 {
				cs = append(cs, del(id, "a"))
				continue
			}
			// A few incompressible bytes per value: the files must outgrow target-file-size when
			// merged (several outputs) but not one round's level-0 file.
			cs = append(cs, ins(id, fmt.Sprintf("r%d-%d-%06x", r, k, (uint32(k)*2654435761)>>8), "a"))
		}
		commitChanges(t, tbl, m, cs)
	}
	round(0, 30000)
	mustRun(t, tbl, compact.Options{Full: true})
	round(1, 25000)
	round(2, 25000)
	for _, e := range liveFiles(t, tbl) {
		if e.File.Level == 0 && e.File.RowCount < 3*8192 {
			t.Fatalf("level-0 file %s has %d rows, want several batches", e.File.FileName, e.File.RowCount)
		}
	}
	r := mustRun(t, tbl, compact.Options{Full: true})
	if r.SnapshotID == 0 || r.FilesAfter < 2 {
		t.Fatalf("result %+v, want a full compaction rolling into several files", r)
	}
	checkSnapshot(t, tbl, r)
	var rows int64
	for _, e := range liveFiles(t, tbl) {
		if e.File.Level != 5 || *e.File.DeleteRowCount != 0 {
			t.Errorf("output %s: level %d, %d retracts; want level 5 without retracts", e.File.FileName, e.File.Level, *e.File.DeleteRowCount)
		}
		rows += e.File.RowCount
	}
	want := m.want()
	if rows != int64(len(want)) {
		t.Errorf("outputs hold %d rows, model %d", rows, len(want))
	}
	if got := visible(t, tbl); !slices.Equal(got, want) {
		t.Fatalf("after compaction %d rows, model %d", len(got), len(want))
	}
}
