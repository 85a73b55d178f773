package compact_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// stage writes cs as uncommitted level-0 files with sequence numbers from base and applies them to m.
func stage(t *testing.T, tbl *table.Table, m *model, base int64, cs []change) []table.CommitMessage {
	t.Helper()
	return writeChanges(t, tbl, m, write.Options{CompactsBeforePublish: true, SequenceBase: &base}, cs)
}

// TestMergeFilesOfStagedBatches: three uncommitted batches (keys repeated, deletes for the
// deduplicate table) are merged per bucket into one highest-level run; committed alone, the run is
// visible to the Java-like read of a deletion-vector / first-row table and equals the model, each
// bucket's outputs are one sorted run at MaxLevel, and Abort removes the outputs of a second merge.
func TestMergeFilesOfStagedBatches(t *testing.T) {
	for _, c := range []struct {
		engine string
		opts   map[string]string
	}{
		{"deduplicate", map[string]string{"bucket": "2", "deletion-vectors.enabled": "true", "target-file-size": "2 kb"}},
		{"first-row", map[string]string{"bucket": "2", "merge-engine": "first-row"}},
	} {
		t.Run(c.engine, func(t *testing.T) {
			ctx := context.Background()
			tbl := newTable(t, []string{"dt", "id"}, []string{"dt"}, c.opts)
			m := newModel(c.engine)
			type bk struct {
				part   string
				bucket int32
			}
			staged := map[bk][]manifest.DataFileMeta{}
			total := map[bk]int32{}
			for r := 0; r < 3; r++ {
				var cs []change
				for k := 0; k < 80; k++ {
					if c.engine == "deduplicate" && (k+r)%7 == 0 {
						cs = append(cs, del(int64(k), "a"))
					} else {
						cs = append(cs, ins(int64(k), fmt.Sprintf("r%d-%d", r, k), []string{"a", "b"}[k%2]))
					}
				}
				for _, msg := range stage(t, tbl, m, int64(1+r*1000), cs) {
					k := bk{string(msg.Partition), msg.Bucket}
					staged[k] = append(staged[k], msg.NewFiles...)
					total[k] = msg.TotalBuckets
				}
			}
			level, err := compact.MaxLevel(tbl)
			if err != nil || level != 5 {
				t.Fatalf("MaxLevel = %d, %v; want 5 (num-levels defaults to trigger 5 + 1)", level, err)
			}
			var msgs []table.CommitMessage
			for k, files := range staged {
				out, err := compact.MergeFiles(ctx, tbl, []byte(k.part), k.bucket, total[k], files, level, true, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i, f := range out.Files {
					if f.Level != level {
						t.Fatalf("output %s at level %d", f.FileName, f.Level)
					}
					if i > 0 && string(out.Files[i-1].MaxKey) == string(f.MinKey) {
						t.Fatalf("outputs %s and %s share a key", out.Files[i-1].FileName, f.FileName)
					}
				}
				msgs = append(msgs, table.CommitMessage{Partition: []byte(k.part), Bucket: k.bucket, TotalBuckets: total[k], NewFiles: out.Files})
			}
			if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "merger", Identifier: commit.BatchIdentifier, LookupAfter: -1}); err != nil {
				t.Fatal(err)
			}
			if got := visible(t, tbl); len(got) == 0 || !slices.Equal(got, m.want()) {
				t.Fatalf("merged run reads %d rows, model %d:\n%v\n%v", len(got), len(m.want()), got, m.want())
			}
			// A second merge's outputs are removed by Abort.
			for k, files := range staged {
				out, err := compact.MergeFiles(ctx, tbl, []byte(k.part), k.bucket, total[k], files, level, true, nil)
				if err != nil || len(out.Files) == 0 {
					t.Fatalf("second merge: %v, %d files", err, len(out.Files))
				}
				if err := out.Abort(ctx); err != nil {
					t.Fatal(err)
				}
				p, _ := tbl.NewPaths().DataFile([]byte(k.part), k.bucket, out.Files[0].FileName, nil)
				if _, err := tbl.FS.Stat(ctx, p); !errors.Is(err, fileio.ErrNotExist) {
					t.Fatalf("aborted output %s: stat err %v, want not-exist", p, err)
				}
				break
			}
		})
	}
}
