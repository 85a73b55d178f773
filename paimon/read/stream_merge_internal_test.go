package read

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec/dv"
	"github.com/lakeload/lakeload/paimon/table"
)

const (
	streamBatch   = 64   // rows per record batch in these tests
	streamFiles   = 4    // overlapping level-0 files, one sorted run each
	streamPerFile = 1500 // rows per file: > 20 batches
)

// streamTable commits streamFiles overlapping batches of updates (and deletes in the last one) to a
// one-bucket primary-key table and returns the table with the expected visible rows.
func streamTable(t *testing.T) (*table.Table, []string) {
	t.Helper()
	tbl := rtTable(t, [][2]string{{"k", "INT"}, {"v", "STRING"}}, nil, []string{"k"}, map[string]string{"bucket": "1"})
	model := map[int32]string{}
	for c := range streamFiles {
		var changes []rtChange
		lo := int32(c * streamPerFile / 3)
		for k := lo; k < lo+streamPerFile; k++ {
			v := fmt.Sprintf("c%d-%d", c, k)
			changes = append(changes, rtIns(k, v))
			model[k] = v
		}
		if c == streamFiles-1 {
			for k := int32(0); k < lo; k += 7 {
				changes = append(changes, rtDel(k, ""))
				delete(model, k)
			}
		}
		rtCommit(t, tbl, changes...)
	}
	var want [][]any
	for k, v := range model {
		want = append(want, []any{k, v})
	}
	return tbl, rtLines(want)
}

// TestMergeHoldsOneBatchPerRun: a merge of files many batches long gives the model's rows and never
// holds more than one record batch per sorted run (the whole-file runs it replaces held 1500+).
func TestMergeHoldsOneBatchPerRun(t *testing.T) {
	tbl, want := streamTable(t)
	ctx := context.Background()
	plan, err := Scan(ctx, tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Splits) != 1 || len(plan.Splits[0].Files) != streamFiles {
		t.Fatalf("want one split of %d files, got %+v", streamFiles, plan.Splits)
	}
	for _, f := range plan.Splits[0].Files {
		if f.Level != 0 || f.RowCount < 10*streamBatch {
			t.Fatalf("file %s: level %d, %d rows; want level-0 files of many batches", f.FileName, f.Level, f.RowCount)
		}
	}
	r, err := NewReader(tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	r.files.batch, r.files.mergeRows = streamBatch, streamFiles*streamBatch
	var rows [][]any
	if err := r.ReadSplit(ctx, plan.Splits[0], func(row []any) error {
		rows = append(rows, slices.Clone(row))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := rtLines(rows); !slices.Equal(got, want) {
		t.Fatalf("merged %d rows, model has %d; first got %v, want %v", len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
	}
	if p := r.files.peakBuffered; p < streamBatch || p > streamFiles*streamBatch {
		t.Fatalf("peak buffered records %d, want between one batch (%d) and one batch per run (%d)", p, streamBatch, streamFiles*streamBatch)
	}
	if r.files.buffered != 0 {
		t.Fatalf("%d records still buffered after the read", r.files.buffered)
	}

	// Keeping retracts (compaction below the top level): every deleted key comes out as a retract.
	r.files.peakBuffered = 0
	var retracts, total int
	if err := r.ReadKeyValues(ctx, plan.Splits[0], false, func(kv mergetree.KeyValue) error {
		total++
		if kv.Kind.IsRetract() {
			retracts++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	lo := (streamFiles - 1) * streamPerFile / 3
	if wantRetracts := (lo + 6) / 7; retracts != wantRetracts || total != len(want)+wantRetracts {
		t.Fatalf("kept %d retracts of %d records, want %d of %d", retracts, total, wantRetracts, len(want)+wantRetracts)
	}
	if p := r.files.peakBuffered; p > streamFiles*streamBatch {
		t.Fatalf("peak buffered records %d keeping retracts, want <= %d", p, streamFiles*streamBatch)
	}

	// A merge budget smaller than runs × batch shrinks every run's batches to budget/runs rows.
	r.files.peakBuffered, r.files.mergeRows, r.files.minBatch = 0, 2*streamBatch, 8
	rows = rows[:0]
	if err := r.ReadSplit(ctx, plan.Splits[0], func(row []any) error {
		rows = append(rows, slices.Clone(row))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := rtLines(rows); !slices.Equal(got, want) {
		t.Fatalf("with a merge budget of %d rows: %d rows, model %d", 2*streamBatch, len(got), len(want))
	}
	if p := r.files.peakBuffered; p < streamBatch/2 || p > 2*streamBatch {
		t.Fatalf("peak buffered records %d with a budget of %d rows over %d runs", p, 2*streamBatch, streamFiles)
	}
}

// TestMergeStopReleasesRuns: when the consumer fails mid-merge the error comes back as is and the
// runs release their batches (and files).
func TestMergeStopReleasesRuns(t *testing.T) {
	tbl, _ := streamTable(t)
	ctx := context.Background()
	plan, err := Scan(ctx, tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	r.files.batch, r.files.mergeRows = streamBatch, streamFiles*streamBatch
	stop := errors.New("consumer stops")
	n := 0
	err = r.ReadSplit(ctx, plan.Splits[0], func([]any) error {
		if n++; n == 500 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("ReadSplit = %v, want the consumer's error", err)
	}
	if r.files.buffered != 0 || r.files.peakBuffered == 0 {
		t.Fatalf("after the stop: %d records buffered (peak %d), want 0 (peak > 0)", r.files.buffered, r.files.peakBuffered)
	}
}

// TestBatchesSkipDeletedPositions: a deletion vector that removes whole batches (and single rows)
// removes exactly those positions; an emptied batch does not end the file.
func TestBatchesSkipDeletedPositions(t *testing.T) {
	tbl, _ := streamTable(t)
	ctx := context.Background()
	plan, err := Scan(ctx, tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Splits[0]
	f := s.Files[0]
	r, err := NewReader(tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	r.files.batch, r.files.mergeRows = streamBatch, streamFiles*streamBatch
	var all [][]any
	if err := r.files.read(ctx, s, f, func(kv mergetree.KeyValue) error {
		all = append(all, kv.Value)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	bm := roaring.New()
	bm.AddRange(streamBatch, 3*streamBatch) // batches 1 and 2 entirely
	bm.Add(0)
	bm.Add(uint32(len(all) - 1))
	name := "index-stream-test-0"
	w, err := tbl.FS.Create(ctx, fileio.Join(r.files.paths.IndexDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	metas, _, err := dv.WriteIndexFile(w, map[string]*roaring.Bitmap{f.FileName: bm})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s.Deletions = map[string]DeletionFile{f.FileName: {IndexFile: name, Meta: metas[0]}}
	var want, got []string
	for pos, row := range all {
		if !bm.Contains(uint32(pos)) {
			want = append(want, fmt.Sprint(row))
		}
	}
	if err := r.files.read(ctx, s, f, func(kv mergetree.KeyValue) error {
		got = append(got, fmt.Sprint(kv.Value))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("read %d rows with the deletion vector, want %d (of %d)", len(got), len(want), len(all))
	}
	b, err := r.files.open(ctx, s, f, streamBatch)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	var sizes []int
	for {
		kvs, ok, err := b.next(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		sizes = append(sizes, len(kvs))
	}
	if len(sizes) < 4 || sizes[0] != streamBatch-1 || sizes[1] != 0 || sizes[2] != 0 || sizes[3] != streamBatch {
		t.Fatalf("batch sizes %v, want %d, 0, 0, %d, …", sizes[:min(4, len(sizes))], streamBatch-1, streamBatch)
	}
}
