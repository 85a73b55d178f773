package compat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/table"
)

// mixedPKDef is a partitioned, bucketed primary-key table whose kind column is pypaimon's rowkind.field.
var mixedPKDef = tableDef{
	cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"v", "BIGINT"}, {"src", "STRING"}, {"kind", "STRING"}},
	pk:   []string{"dt", "id"}, part: []string{"dt"},
	options: map[string]string{"bucket": "2", "rowkind.field": "kind"},
}

var mixedAppendDef = tableDef{cols: [][2]string{{"id", "INT"}, {"src", "STRING"}}}

// mixedPKCommit makes commit n (0-based) by writer w: upserts over 30 keys that overlap every earlier
// commit, with src naming the writer and commit so a stale winner is visible, and deletes (and
// re-inserts of deleted keys) from the second commit on (see rowkindCommits for why not in the first).
func mixedPKCommit(r *rand.Rand, w string, n int) []change {
	var cs []change
	for i := 0; i < 40; i++ {
		id := int64(r.IntN(30))
		row := []any{fmt.Sprintf("2024-06-0%d", 1+id%2), id, int64(r.IntN(1000)), fmt.Sprintf("%s#%d", w, n+1), nil}
		if n > 0 && r.IntN(5) == 0 {
			cs = append(cs, withKind(del(row...), 4))
		} else {
			cs = append(cs, withKind(ins(row...), 4))
		}
	}
	return cs
}

func mixedAppendCommit(r *rand.Rand, w string, n int) []change {
	var cs []change
	for i := 0; i < 5+r.IntN(5); i++ {
		cs = append(cs, ins(int32(r.IntN(10)), fmt.Sprintf("%s#%d", w, n+1)))
	}
	return cs
}

// TestMixedWriters (interop c): lakeload and pypaimon take turns committing to one table, starting with
// either writer. After every commit lakeload, Java Paimon and pypaimon read the new snapshot exactly as
// the model says (so for the primary-key table the later writer always wins), every file a commit adds
// has sequence numbers above all live files of its bucket, and both writers encode each partition
// identically.
func TestMixedWriters(t *testing.T) {
	py := oracle.Py(t)
	oracle.Java(t)
	cases := []struct {
		name    string
		def     tableDef
		writers []string
		commit  func(r *rand.Rand, w string, n int) []change
	}{
		{"pk_py_first", mixedPKDef, []string{"py", "lakeload", "py", "lakeload", "lakeload", "py"}, mixedPKCommit},
		{"pk_lakeload_first", mixedPKDef, []string{"lakeload", "py", "lakeload", "py", "py", "lakeload"}, mixedPKCommit},
		{"append_py_first", mixedAppendDef, []string{"py", "lakeload", "py"}, mixedAppendCommit},
		{"append_lakeload_first", mixedAppendDef, []string{"lakeload", "py", "lakeload"}, mixedAppendCommit},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wh := t.TempDir()
			path := tablePath(wh, tc.name)
			fields := tc.def.schema(t).Fields
			r := rand.New(rand.NewPCG(uint64(ci), 5))
			var tbl *table.Table
			var m *model
			for n, w := range tc.writers {
				cs := tc.commit(r, w, n)
				var id int64
				switch {
				case w == "py":
					id = pyCommit(t, py, path, tc.def, fields, cs)
				case tbl == nil:
					tbl = newTable(t, wh, tc.name, tc.def)
					fallthrough
				default:
					id = lakeloadCommit(t, tbl, cs)
				}
				if id != int64(n+1) {
					t.Fatalf("commit %d by %s made snapshot %d", n+1, w, id)
				}
				if tbl == nil {
					tbl = openTable(t, wh, tc.name)
				}
				if m == nil {
					m = newModel(tbl.Schema)
				}
				for _, c := range cs {
					m.apply(c)
				}
				what := fmt.Sprintf("commit %d by %s", n+1, w)
				threeReaders(t, what, tbl, id, canonLines(t, tbl.Schema.Fields, m.result()))
				checkSequences(t, what, tbl, id)
			}
			sameSnapshots(t, tbl)
		})
	}
}

// checkSequences checks snapshot id against id-1: every added file's sequence numbers lie above the
// maximum of the files that were live in its (partition, bucket) before, and partitions are encoded
// the same way by every writer (one BinaryRow byte string per partition value).
func checkSequences(t *testing.T, what string, tbl *table.Table, id int64) {
	t.Helper()
	ctx := context.Background()
	live := func(id int64) []liveFile {
		if id == 0 {
			return nil
		}
		s, err := tbl.Snapshots().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		es, err := tbl.LiveFiles(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]liveFile, len(es))
		for i, e := range es {
			out[i] = liveFile{string(e.Partition), e.Bucket, e.File.FileName, e.File.MinSequenceNumber, e.File.MaxSequenceNumber}
		}
		return out
	}
	type pb struct {
		part   string
		bucket int32
	}
	before := map[string]bool{}
	maxSeq := map[pb]int64{}
	for _, f := range live(id - 1) {
		before[f.name] = true
		k := pb{f.part, f.bucket}
		if s, ok := maxSeq[k]; !ok || f.max > s {
			maxSeq[k] = f.max
		}
	}
	parts := map[string]bool{}
	for _, f := range live(id) {
		parts[f.part] = true
		if before[f.name] || !tbl.HasPrimaryKey() {
			continue
		}
		if s, ok := maxSeq[pb{f.part, f.bucket}]; ok && f.min <= s {
			t.Errorf("%s: new file %s (bucket %d) has sequence numbers %d..%d, not above the bucket's previous maximum %d",
				what, f.name, f.bucket, f.min, f.max, s)
		}
	}
	if len(tbl.Schema.PartitionKeys) > 0 && len(parts) != 2 {
		t.Errorf("%s: %d distinct partition encodings, want 2 (one per dt value)", what, len(parts))
	}
}

type liveFile struct {
	part     string
	bucket   int32
	name     string
	min, max int64
}
