package checkpoint

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// backends runs fn once per fileio backend with a fresh store.
func backends(t *testing.T, fn func(t *testing.T, fs fileio.FileIO, s *Store)) {
	t.Run("mem", func(t *testing.T) {
		fs := mem.New()
		fn(t, fs, NewStore(fs, "/ckpt/job"))
	})
	t.Run("local", func(t *testing.T) {
		fs := local.New()
		fn(t, fs, NewStore(fs, fileio.Join(t.TempDir(), "ckpt")))
	})
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testJob() JobRecord {
	return JobRecord{JobID: "job-1", CommitUser: "lakeload-job-1", TablePath: "/wh/db.db/t", TableUUID: "u-1",
		InputFingerprint: "fp-1", Options: map[string]string{"op-column": "op"}, LakeloadVersion: "0.1", Created: t0}
}

func testPlan(n int) PlanRecord {
	var p PlanRecord
	for i := range n {
		p.Splits = append(p.Splits, source.Split{Path: fmt.Sprintf("/in/f%d.parquet", i), Format: source.FormatParquet,
			Size: int64(100 + i), ModTimeUnixNano: 7, RowCount: 10})
	}
	return p
}

// msg returns a commit message adding one data file with a name unique to tag.
func msg(tag string) table.CommitMessage {
	del := int64(0)
	return table.CommitMessage{Partition: []byte{0, 0, 0, 0}, Bucket: 0, TotalBuckets: 1,
		NewFiles: []manifest.DataFileMeta{{FileName: "data-" + tag + ".parquet", FileSize: 1234, RowCount: 10,
			MinSequenceNumber: 5, MaxSequenceNumber: 14, SchemaID: 0, ValueStatsCols: []string{},
			CreationTimeMillis: 99, DeleteRowCount: &del}}}
}

// result builds a TaskResult with its digest set.
func result(t testing.TB, w int64, a int, task string, splits []int, msgs ...table.CommitMessage) TaskResult {
	t.Helper()
	r := TaskResult{Window: w, Attempt: a, TaskID: task, Messages: msgs, Splits: splits, Rows: int64(10 * len(splits))}
	d, err := ResultDigest(r)
	if err != nil {
		t.Fatal(err)
	}
	r.Digest = d
	return r
}

var bg = context.Background()

func memFS() fileio.FileIO { return mem.New() }
