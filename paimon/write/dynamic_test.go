package write_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

var dynCols = [][2]string{{"p", "STRING"}, {"k", "BIGINT"}, {"v", "STRING"}}

// keyBuckets maps "p/k" to the bucket of every data file row of msgs, failing if a key is in two.
func keyBuckets(t *testing.T, tbl *table.Table, msgs []table.CommitMessage, into map[string]int32) {
	t.Helper()
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			for _, r := range readDataFile(t, tbl, m, f) {
				k := fmt.Sprintf("%v/%v", r.vals[0], r.vals[1])
				if b, ok := into[k]; ok && b != m.Bucket {
					t.Fatalf("key %s in buckets %d and %d", k, b, m.Bucket)
				}
				into[k] = m.Bucket
			}
		}
	}
}

// TestDynamicBucketWriter: rows of a dynamic-bucket table are routed by the HASH index — 3 keys
// per bucket (target-row-num), known keys stay in their bucket across writers — and every message
// of a bucket whose key set grew carries its new HASH file (holding exactly the bucket's key
// hashes), deleting the file it replaces; _TOTAL_BUCKETS is -1 as Java writes it.
func TestDynamicBucketWriter(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, dynCols, []string{"p"}, []string{"p", "k"}, map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": "3"})
	var cs []change
	for k := range 7 {
		cs = append(cs, ins("a", int64(k), "x"))
	}
	cs = append(cs, ins("b", int64(1), "y"), ins("a", int64(2), "again"))
	msgs := writeChanges(t, tbl, write.Options{}, cs)
	buckets := map[string]int32{}
	keyBuckets(t, tbl, msgs, buckets)
	want := map[string]int32{"a/0": 0, "a/1": 0, "a/2": 0, "a/3": 1, "a/4": 1, "a/5": 1, "a/6": 2, "b/1": 0}
	for k, b := range want {
		if buckets[k] != b {
			t.Errorf("key %s in bucket %d, want %d", k, buckets[k], b)
		}
	}
	keyT := tbl.KeyTypes()
	for _, m := range msgs {
		if m.TotalBuckets != -1 || len(m.NewIndexFiles) != 1 || len(m.DeletedIndexFiles) != 0 {
			t.Fatalf("message of bucket %d: total %d, %d new / %d deleted index files", m.Bucket, m.TotalBuckets, len(m.NewIndexFiles), len(m.DeletedIndexFiles))
		}
		hs, err := index.ReadHashFile(ctx, tbl, m.NewIndexFiles[0])
		if err != nil {
			t.Fatal(err)
		}
		var wantH []int32
		for k, b := range buckets {
			p, id, _ := strings.Cut(k, "/")
			n, _ := strconv.ParseInt(id, 10, 64)
			if b == m.Bucket && p == msgPart(t, tbl, m) {
				row, _ := binrow.Encode(keyT, []any{n})
				wantH = append(wantH, binrow.Hash(row))
			}
		}
		slices.Sort(hs)
		slices.Sort(wantH)
		if !slices.Equal(hs, wantH) {
			t.Errorf("bucket %d HASH file %v, want %v", m.Bucket, hs, wantH)
		}
	}
	commitMsgs(t, tbl, msgs)

	// Second writer: updates keep their bucket; new keys fill bucket 2 then open bucket 3. Only the
	// changed buckets get a new file, each deleting the one it replaces.
	msgs2 := writeChanges(t, tbl, write.Options{}, []change{ins("a", int64(4), "u"), ins("a", int64(7), "n"), ins("a", int64(8), "n"), ins("a", int64(9), "n"), del("b", int64(1), nil)})
	keyBuckets(t, tbl, msgs2, buckets)
	if buckets["a/7"] != 2 || buckets["a/8"] != 2 || buckets["a/9"] != 3 {
		t.Errorf("new keys in buckets %d %d %d, want 2 2 3", buckets["a/7"], buckets["a/8"], buckets["a/9"])
	}
	for _, m := range msgs2 {
		changed := m.Bucket >= 2 && msgPart(t, tbl, m) == "a"
		if changed != (len(m.NewIndexFiles) == 1) || (m.Bucket == 2) != (len(m.DeletedIndexFiles) == 1) {
			t.Errorf("bucket %d (%s): %d new, %d deleted index files", m.Bucket, msgPart(t, tbl, m), len(m.NewIndexFiles), len(m.DeletedIndexFiles))
		}
	}
	commitMsgs(t, tbl, msgs2)
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil || len(rows) != 10 {
		t.Fatalf("read %d rows, %v", len(rows), err)
	}
}

func msgPart(t *testing.T, tbl *table.Table, m table.CommitMessage) string {
	t.Helper()
	v, err := binrow.Deserialize(tbl.PartitionTypes(), m.Partition)
	if err != nil {
		t.Fatal(err)
	}
	return v[0].(string)
}

// TestDynamicBucketColumnarAndRowPaths: the columnar path (deduplicate, Arrow batches) and the row
// path (partial-update) route the same keys to the same buckets.
func TestDynamicBucketColumnarAndRowPaths(t *testing.T) {
	ctx := context.Background()
	opts := func(engine string) map[string]string {
		return map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": "5", "merge-engine": engine}
	}
	got := map[string]map[string]int32{}
	for _, engine := range []string{"deduplicate", "partial-update"} {
		tbl := newTable(t, dynCols, []string{"p"}, []string{"p", "k"}, opts(engine))
		schema, err := arrowconv.ArrowSchema(tbl.Schema.Fields)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := range 40 {
			b.Field(0).(*array.StringBuilder).Append([]string{"a", "b", "c"}[i%3])
			b.Field(1).(*array.Int64Builder).Append(int64(i * 7 % 23))
			b.Field(2).(*array.StringBuilder).Append("v")
		}
		rec := b.NewRecordBatch()
		w, err := write.New(ctx, tbl, write.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(ctx, rec, nil); err != nil {
			t.Fatal(err)
		}
		msgs, err := w.Prepare(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got[engine] = map[string]int32{}
		keyBuckets(t, tbl, msgs, got[engine])
		rec.Release()
		b.Release()
	}
	if len(got["deduplicate"]) < 20 || fmt.Sprint(got["deduplicate"]) != fmt.Sprint(got["partial-update"]) {
		t.Errorf("columnar %v\nrow path %v", got["deduplicate"], got["partial-update"])
	}
}
