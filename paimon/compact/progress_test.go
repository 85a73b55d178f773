package compact_test

import (
	"fmt"
	"testing"

	"github.com/lakeload/lakeload/paimon/compact"
)

// TestProgressCountsWhatWasDone: a full compaction of 2 partitions × 3 buckets reports the totals
// first, then one report per bucket whose counts grow by that bucket's files, and ends with counts
// equal to what the result and the snapshot say was done (files read and written, rows, partitions).
func TestProgressCountsWhatWasDone(t *testing.T) {
	tbl := newTable(t, []string{"dt", "id"}, []string{"dt"}, map[string]string{"bucket": "3"})
	m := newModel("deduplicate")
	writeRounds(t, tbl, m, 3, 300)
	before := liveFiles(t, tbl)
	var rowsBefore, bytesBefore int64
	for _, e := range before {
		rowsBefore += e.File.RowCount
		bytesBefore += e.File.FileSize
	}
	var reports []compact.Progress
	r := mustRun(t, tbl, compact.Options{Full: true, Progress: func(p compact.Progress) { reports = append(reports, p) }})
	if r.SnapshotID == 0 || len(r.Buckets) != 6 {
		t.Fatalf("result %+v, want 6 buckets compacted", r)
	}
	if len(reports) != 1+6 {
		t.Fatalf("%d reports, want 7 (the plan, then one per bucket): %+v", len(reports), reports)
	}
	first := reports[0]
	if first.Attempt != 1 || first.BucketsDone != 0 || first.BucketsTotal != 6 || first.PartitionsTotal != 2 ||
		first.FilesTotal != len(before) || first.RowsTotal != rowsBefore || first.BytesTotal != bytesBefore {
		t.Errorf("first report %+v, want totals 6 buckets, 2 partitions, %d files, %d rows, %d bytes", first, len(before), rowsBefore, bytesBefore)
	}
	for i, p := range reports[1:] {
		b := r.Buckets[i]
		if p.BucketsDone != i+1 || p.Partition != b.Partition || p.PartitionBucketsTotal != 3 {
			t.Errorf("report %d: %+v, want bucket %d done in partition %s of 3 buckets", i+1, p, i+1, b.Partition)
		}
		if prev := reports[i]; p.FilesRead-prev.FilesRead != b.Inputs || p.FilesWritten-prev.FilesWritten != b.Outputs {
			t.Errorf("report %d: files read +%d written +%d, want +%d and +%d", i+1, p.FilesRead-prev.FilesRead,
				p.FilesWritten-prev.FilesWritten, b.Inputs, b.Outputs)
		}
	}
	last := reports[len(reports)-1]
	after := liveFiles(t, tbl)
	var rowsAfter, bytesAfter int64
	for _, e := range after {
		rowsAfter += e.File.RowCount
		bytesAfter += e.File.FileSize
	}
	if last.BucketsDone != 6 || last.PartitionsDone != 2 || last.FilesRead != len(before) || last.RowsRead != rowsBefore ||
		last.BytesRead != bytesBefore || last.FilesWritten != len(after) || last.RowsWritten != rowsAfter || last.BytesWritten != bytesAfter {
		t.Errorf("last report %+v, want everything read (%d files, %d rows, %d bytes) and written (%d files, %d rows, %d bytes)",
			last, len(before), rowsBefore, bytesBefore, len(after), rowsAfter, bytesAfter)
	}
	if last.RowsWritten != int64(len(m.want())) {
		t.Errorf("rows written %d, want the %d rows of the table", last.RowsWritten, len(m.want()))
	}
}

// TestProgressWithinABucket: a bucket of more than ProgressEveryRows rows reports while it is merged.
func TestProgressWithinABucket(t *testing.T) {
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1"})
	m := newModel("deduplicate")
	n := compact.ProgressEveryRows + 100
	for round := range 2 {
		var cs []change
		for k := range n {
			cs = append(cs, ins(int64(k), fmt.Sprint(round), "a"))
		}
		commitChanges(t, tbl, m, cs)
	}
	var within []compact.Progress
	mustRun(t, tbl, compact.Options{Full: true, Progress: func(p compact.Progress) {
		if p.BucketRowsMerged > 0 {
			within = append(within, p)
		}
	}})
	if len(within) != 1 || within[0].BucketRowsMerged != compact.ProgressEveryRows || within[0].BucketRowsTotal != int64(2*n) || within[0].BucketsDone != 0 {
		t.Errorf("reports within the bucket: %+v, want one at %d of %d rows merged", within, compact.ProgressEveryRows, 2*n)
	}
}
