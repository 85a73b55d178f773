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

// testSplit has the JSON of the job's input split (source.Split, opaque to this package) for the
// fields these tests set; a byte range (ByteEnd > 0) needs record format version 2.
type testSplit struct {
	Path            string `json:"path"`
	Format          string `json:"format"`
	Size            int64  `json:"size"`
	ModTimeUnixNano int64  `json:"modTimeUnixNano"`
	RowStart        int64  `json:"rowStart,omitempty"`
	RowCount        int64  `json:"rowCount"`
	ByteStart       int64  `json:"byteStart,omitempty"`
	ByteEnd         int64  `json:"byteEnd,omitempty"`
	FirstLine       int64  `json:"firstLine,omitempty"`
}

// stored returns s as the job stores it.
func (s testSplit) stored() Opaque {
	v := 1
	if s.ByteEnd > 0 {
		v = 2
	}
	return mustOpaque(s, v)
}

// mustOpaque is NewOpaque, panicking on an error (these values always encode).
func mustOpaque(v any, version int) Opaque {
	o, err := NewOpaque(v, version)
	if err != nil {
		panic(err)
	}
	return o
}

func testPlan(n int) PlanRecord {
	var p PlanRecord
	for i := range n {
		p.Splits = append(p.Splits, testSplit{Path: fmt.Sprintf("/in/f%d.parquet", i), Format: "parquet",
			Size: int64(100 + i), ModTimeUnixNano: 7, RowCount: 10}.stored())
	}
	return p
}

// testMessage has the JSON of the job's commit message (table.CommitMessage, opaque to this package).
type testMessage struct {
	Partition    []byte                  `json:"partition"`
	Bucket       int32                   `json:"bucket"`
	TotalBuckets int32                   `json:"totalBuckets"`
	NewFiles     []manifest.DataFileMeta `json:"newFiles"`
}

// msg returns a commit message adding one data file with a name unique to tag.
func msg(tag string) Opaque {
	del := int64(0)
	return mustOpaque(testMessage{Partition: []byte{0, 0, 0, 0}, Bucket: 0, TotalBuckets: 1,
		NewFiles: []manifest.DataFileMeta{{FileName: "data-" + tag + ".parquet", FileSize: 1234, RowCount: 10,
			MinSequenceNumber: 5, MaxSequenceNumber: 14, SchemaID: 0, ValueStatsCols: []string{},
			CreationTimeMillis: 99, DeleteRowCount: &del}}}, 1)
}

// result builds a TaskResult with its digest set.
func result(t testing.TB, w int64, a int, task string, splits []int, msgs ...Opaque) TaskResult {
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

// sameOpaque reports whether a and b hold the same JSON.
func sameOpaque(a, b Opaque) bool { return string(a.Bytes()) == string(b.Bytes()) }
