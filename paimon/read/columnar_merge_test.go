package read

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/roundtrip"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// countMerges runs fn counting the sections Records merged column by column.
func countMerges(fn func()) int {
	n := 0
	onColumnarMerge = func(int) { n++ }
	defer func() { onColumnarMerge = nil }()
	fn()
	return n
}

// mergeCols is a table whose trimmed primary key spans every type with a typed comparator
// (partition p is not part of it).
var mergeCols = [][2]string{
	{"p", "STRING NOT NULL"}, {"k1", "INT NOT NULL"}, {"k2", "STRING NOT NULL"}, {"k3", "DECIMAL(10, 2) NOT NULL"},
	{"k4", "TIMESTAMP(6) NOT NULL"}, {"k5", "DOUBLE NOT NULL"}, {"k6", "BOOLEAN NOT NULL"}, {"k7", "DATE NOT NULL"},
	{"k8", "BYTES NOT NULL"}, {"k9", "SMALLINT NOT NULL"}, {"v", "BIGINT"}, {"s", "STRING"}, {"arr", "ARRAY<INT>"},
	{"sq", "INT"},
}

var mergePK = []string{"p", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"}

// mergeRow is the row of key number k (a small domain, so commits collide) with value v.
func mergeRow(k int, v int64, sq any) []any {
	floats := []float64{-1.5, 0, 2.25}
	return []any{[]string{"a", "b"}[k%2], int32(k % 5), []string{"", "x", "xy", "é"}[k%4],
		dec(int64(k%3) - 1),
		spec.TimestampValue{Millis: int64(k % 2), NanoOfMilli: int32(k%3) * 1000}, floats[k%3], k%7 < 3, int32(k % 2),
		[]byte{byte(k % 3)}, int16(k%2 - 1), v, fmt.Sprint("s", v), []any{int32(v), nil}, sq}
}

// mergeKey is a key's identity in the test model.
func mergeKey(row []any) string { return fmt.Sprint(row[:10]) }

// TestColumnarMergeMatchesRowPath: lakeload-written tables of several commits (overlapping level-0
// runs) with inserts, updates and deletes read the same through the columnar merge as through the
// row path, for deduplicate (also with ignore-delete and sequence.field in both orders) and
// first-row, and deduplicate equals a naive last-write-wins model.
func TestColumnarMergeMatchesRowPath(t *testing.T) {
	cases := []struct {
		name    string
		opts    map[string]string
		deletes bool
	}{
		{"deduplicate", nil, true},
		{"ignore-delete", map[string]string{"ignore-delete": "true"}, true},
		{"sequence-field", map[string]string{"sequence.field": "sq"}, true},
		{"sequence-field-desc", map[string]string{"sequence.field": "sq", "sequence.field.sort-order": "descending"}, true},
		{"first-row", map[string]string{"merge-engine": "first-row"}, false},
		{"first-row-ignore-delete", map[string]string{"merge-engine": "first-row", "ignore-delete": "true"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{"bucket": "2"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			tbl := rtTable(t, mergeCols, []string{"p"}, mergePK, opts)
			commit := func(ch ...rtChange) { rtCommit(t, tbl, ch...) }
			if strings.HasPrefix(tc.name, "first-row") {
				// Batch scans skip first-row level-0 files; the compaction view (AllLevels) merges them.
				recordsScan = ScanOptions{AllLevels: true}
				defer func() { recordsScan = ScanOptions{} }()
				commit = func(ch ...rtChange) { rtCommitOpts(t, tbl, write.Options{CompactsBeforePublish: true}, ch...) }
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			model := map[string][]any{}
			for c := 0; c < 5; c++ {
				var ch []rtChange
				seen := map[int]bool{}
				for i := 0; i < 60; i++ {
					k := rng.IntN(240)
					if seen[k] { // one change per key per commit: the model need not know in-commit order
						continue
					}
					seen[k] = true
					var sq any = int32(rng.IntN(4))
					if rng.IntN(5) == 0 {
						sq = nil
					}
					row := mergeRow(k, int64(c*1000+i), sq)
					if tc.deletes && rng.IntN(6) == 0 {
						ch = append(ch, rtDel(row...))
						delete(model, mergeKey(row))
					} else {
						ch = append(ch, rtIns(row...))
						model[mergeKey(row)] = row
					}
				}
				commit(ch...)
			}
			merged := countMerges(func() { requireSamePaths(t, tbl) })
			if merged == 0 {
				t.Fatal("no section took the columnar merge")
			}
			if tc.name == "deduplicate" {
				cols, _, _ := recordsVia(t, tbl, false, 7)
				var got []string
				for i := 0; i < cols[0].Len(); i++ {
					got = append(got, fmt.Sprint(cols[1].ValueStr(i), "/", cols[10].ValueStr(i)))
				}
				var want []string
				for _, row := range model {
					want = append(want, fmt.Sprint(row[1], "/", row[10]))
				}
				sort.Strings(got)
				sort.Strings(want)
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("deduplicate read differs from the model:\n got %v\nwant %v", got, want)
				}
			}
		})
	}
}

// TestColumnarMergeFloatKeys: Java's Double.compare order of keys (-0.0 < 0.0, NaN last) holds in
// the columnar merge: -0.0 and 0.0 are different keys, NaN one key, all matching the row path.
func TestColumnarMergeFloatKeys(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	negZero := func() float64 { var z float64; return -z }()
	tbl := rtTable(t, [][2]string{{"k", "DOUBLE NOT NULL"}, {"v", "INT"}}, nil, []string{"k"}, map[string]string{"bucket": "1"})
	rtCommit(t, tbl, rtIns(nan, int32(1)), rtIns(negZero, int32(2)), rtIns(0.0, int32(3)), rtIns(-7.5, int32(4)))
	rtCommit(t, tbl, rtIns(0.0, int32(5)), rtIns(nan, int32(6)), rtIns(negZero, int32(7)))
	if countMerges(func() { requireSamePaths(t, tbl) }) == 0 {
		t.Fatal("no columnar merge")
	}
	cols, _, _ := recordsVia(t, tbl, false, 100)
	if got := cols[1].String(); got != "[4 7 5 6]" {
		t.Errorf("values by key order = %s, want [4 7 5 6] (-7.5, -0.0, 0.0, NaN)", got)
	}
}

// TestColumnarMergeFirstRowRetractError: a first-row key with a retract among several records is
// refused like the row path (mergetree.ErrRetractNotAccepted) unless ignore-delete is set.
func TestColumnarMergeFirstRowRetractError(t *testing.T) {
	tbl := rtTable(t, [][2]string{{"k", "INT NOT NULL"}, {"v", "INT"}}, nil, []string{"k"},
		map[string]string{"bucket": "1", "merge-engine": "first-row"})
	o := write.Options{CompactsBeforePublish: true}
	rtCommitOpts(t, tbl, o, rtIns(int32(1), int32(1)))
	rtCommitOpts(t, tbl, o, rtDel(int32(1), int32(1)))
	plan, err := Scan(context.Background(), tbl, ScanOptions{AllLevels: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []bool{true, false} {
		forceRowPath = row
		err := Records(context.Background(), tbl, plan, 10, func(arrow.RecordBatch) error { return nil })
		forceRowPath = false
		if !errors.Is(err, mergetree.ErrRetractNotAccepted) {
			t.Errorf("row path %v: err = %v, want ErrRetractNotAccepted", row, err)
		}
	}
}

// rtCommitOpts is rtCommit with writer options.
func rtCommitOpts(t *testing.T, tbl *table.Table, o write.Options, changes ...rtChange) {
	t.Helper()
	roundtrip.WriteCommit(t, tbl, o, "rt", changes)
}

// reverseRunner runs fns one by one, last first: output order must not depend on run order.
func reverseRunner(fns []func() error) error {
	var first error
	for i := len(fns) - 1; i >= 0; i-- {
		if err := fns[i](); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// TestRecordsParallelKeepsPlanOrder: RecordsWith with a Parallel runner (here running its functions
// one after another, last first) yields the serial output, row for row, and its errors.
func TestRecordsParallelKeepsPlanOrder(t *testing.T) {
	ctx := context.Background()
	tbl, plan := parallelPlan(t, "3", 200, 4)
	read := func(o RecordsOptions) []string {
		var out []string
		err := RecordsWith(ctx, tbl, plan, o, func(rec arrow.RecordBatch) error {
			out = append(out, rowStrings(rec)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	serial := read(RecordsOptions{BatchSize: 16})
	for _, w := range []int{2, 3, 8} {
		par := read(RecordsOptions{BatchSize: 16, Parallel: reverseRunner, Workers: w})
		if strings.Join(par, "\n") != strings.Join(serial, "\n") {
			t.Errorf("workers %d: parallel output differs from serial (%d vs %d rows)", w, len(par), len(serial))
		}
	}
	stop := errors.New("stop")
	n := 0
	err := RecordsWith(ctx, tbl, plan, RecordsOptions{BatchSize: 16, Parallel: reverseRunner, Workers: 2}, func(arrow.RecordBatch) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("callback error: err = %v after %d calls, want stop after 3", err, n)
	}
}

// TestColumnarMergeJavaFixtures: the Java-written primary-key fixtures whose splits need merging
// read the same through the columnar merge as through the row path, and at least one merges.
func TestColumnarMergeJavaFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/java-written/*.db/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	merged := 0
	for _, dir := range dirs {
		if st, err := os.Stat(filepath.Join(dir, "schema")); err != nil || !st.IsDir() {
			continue
		}
		abs, _ := filepath.Abs(dir)
		tbl, err := table.Open(context.Background(), local.New(), abs, "db.t")
		if err != nil {
			t.Fatal(err)
		}
		if !tbl.HasPrimaryKey() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			merged += countMerges(func() { requireSamePaths(t, tbl) })
		})
	}
	if merged == 0 {
		t.Error("no Java fixture section took the columnar merge")
	}
}

// TestColumnarMergeNotSorted: a run whose file is not sorted by key (two files of one level
// overlapping are one run only if their ranges do not overlap, so the corruption is a file whose
// rows go backwards) is an error wrapping spec.ErrCorrupt, never a panic.
func TestColumnarMergeNotSorted(t *testing.T) {
	mk := func(keys ...int64) *colBatch {
		b := array.NewInt64Builder(memAlloc)
		defer b.Release()
		b.AppendValues(keys, nil)
		a := b.NewArray()
		defer a.Release()
		k, _ := keyColumnFor(a)
		return &colBatch{keys: []keyColumn{k}, n: len(keys)}
	}
	ms := &colMergeSpec{keyIdx: []int{0}}
	up, down := mk(1, 2, 3), mk(3, 2)
	if ms.compareKeys(up, 0, up, 1) >= 0 || ms.compareKeys(down, 0, down, 1) <= 0 || ms.compareKeys(up, 2, down, 0) != 0 {
		t.Fatal("int64 key comparator misorders")
	}
	c := &colCursor{ms: ms, cur: down, pos: 0, file: "f.parquet"}
	_, err := c.next()
	if !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), "f.parquet") {
		t.Errorf("backwards keys: err = %v, want ErrCorrupt naming the file", err)
	}
}

// TestColumnarOutputBoundsHeldBatches: winners spread over many input batches (a large run almost
// entirely replaced by newer ones) are flushed once more than maxHeld batches are referenced, so
// the merge never keeps a run's batches alive for one output batch; the rows stay in order.
func TestColumnarOutputBoundsHeldBatches(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	var got []int64
	var sizes []int64
	out := &colOutput{sc: sc, batchSize: 1000, maxHeld: 3, held: map[arrow.RecordBatch]bool{}, emit: func(rec arrow.RecordBatch) error {
		sizes = append(sizes, rec.NumRows())
		got = append(got, rec.Column(0).(*array.Int64).Int64Values()...)
		return nil
	}}
	for i := int64(0); i < 10; i++ {
		b := array.NewInt64Builder(memAlloc)
		b.AppendValues([]int64{i * 10, i*10 + 1, i*10 + 2}, nil)
		col := b.NewArray()
		b.Release()
		rec := array.NewRecordBatch(sc, []arrow.Array{col}, 3)
		col.Release()
		if err := out.add(&colBatch{rec: rec, n: 3}, 1); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := out.flush(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != "[4 4 2]" {
		t.Errorf("batch sizes %v, want [4 4 2] (a flush whenever more than 3 input batches are held)", sizes)
	}
	if fmt.Sprint(got) != "[1 11 21 31 41 51 61 71 81 91]" {
		t.Errorf("rows %v", got)
	}
}
