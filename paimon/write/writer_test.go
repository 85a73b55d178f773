package write_test

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// seqRanges returns, per bucket, the [min, max] sequence numbers over msgs' files.
func seqRanges(msgs []table.CommitMessage) map[int32][2]int64 {
	out := map[int32][2]int64{}
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			r, ok := out[m.Bucket]
			if !ok {
				r = [2]int64{f.MinSequenceNumber, f.MaxSequenceNumber}
			}
			out[m.Bucket] = [2]int64{min(r[0], f.MinSequenceNumber), max(r[1], f.MaxSequenceNumber)}
		}
	}
	return out
}

// TestSequenceNumbersContinue: per bucket, a new writer numbers rows above the bucket's live maximum;
// one writer keeps counting across Prepare calls; SequenceBase raises the start but never lowers it.
func TestSequenceNumbersContinue(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, [][2]string{{"k", "INT"}, {"v", "STRING"}}, nil, []string{"k"}, map[string]string{"bucket": "3"})
	batch := func(from, n int, v string) []change {
		var out []change
		for k := from; k < from+n; k++ {
			out = append(out, ins(int32(k), v))
		}
		return out
	}
	first := writeChanges(t, tbl, write.Options{}, batch(0, 30, "one"))
	r1 := seqRanges(first)
	if len(r1) != 3 {
		t.Fatalf("30 keys landed in %d buckets, want 3", len(r1))
	}
	var perBucket = map[int32]int64{}
	for _, m := range first {
		for _, f := range m.NewFiles {
			perBucket[m.Bucket] += f.RowCount
		}
	}
	for b, r := range r1 {
		if r[0] != 0 || r[1] != perBucket[b]-1 {
			t.Errorf("bucket %d: first writer numbered %v, want [0, %d]", b, r, perBucket[b]-1)
		}
	}
	commitMsgs(t, tbl, first)

	// A new writer continues above each bucket's max; Prepare twice keeps counting.
	w, err := write.New(ctx, tbl, write.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var rounds [][]table.CommitMessage
	for round := range 2 {
		for _, c := range batch(0, 30, fmt.Sprint("round", round)) {
			if err := w.WriteRow(ctx, c.Row, c.Kind); err != nil {
				t.Fatal(err)
			}
		}
		msgs, err := w.Prepare(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, msgs)
	}
	r2, r3 := seqRanges(rounds[0]), seqRanges(rounds[1])
	for b := range r1 {
		if r2[b][0] != r1[b][1]+1 || r3[b][0] != r2[b][1]+1 {
			t.Errorf("bucket %d: ranges %v then %v then %v are not contiguous", b, r1[b], r2[b], r3[b])
		}
	}
	commitMsgs(t, tbl, append(rounds[0], rounds[1]...))
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 30 {
		t.Fatalf("%d rows, want 30", len(rows))
	}
	for _, r := range rows {
		if r[1] != "round1" {
			t.Fatalf("row %v: the newest write must win", r)
		}
	}

	// SequenceBase above the table max is used as is; below it, the table max wins.
	for _, c := range []struct{ base, wantAtLeast int64 }{{1000, 1000}, {1, r3[0][1] + 1}} {
		base := c.base
		msgs := writeChanges(t, tbl, write.Options{SequenceBase: &base}, batch(0, 30, "based"))
		for b, r := range seqRanges(msgs) {
			want := max(c.base, r3[b][1]+1)
			if r[0] != want {
				t.Errorf("SequenceBase %d: bucket %d starts at %d, want %d", c.base, b, r[0], want)
			}
		}
	}
}

// TestFolding: rows of one key within one write are folded with the merge engine into one row per key,
// files are sorted by key, _DELETE_ROW_COUNT counts the retractions kept, and reads see the result.
func TestFolding(t *testing.T) {
	type out struct {
		kind spec.RowKind
		vals []any
	}
	cases := []struct {
		name    string
		cols    [][2]string
		opts    map[string]string
		changes []change
		file    []out   // expected file content, in key order
		visible [][]any // expected rows read back
	}{
		{
			name: "deduplicate",
			cols: [][2]string{{"k", "INT"}, {"v", "STRING"}},
			changes: []change{
				ins(int32(4), "d"), ins(int32(1), "a"), ins(int32(2), "x"), ins(int32(1), "b"),
				del(int32(2), "x"), del(int32(3), "gone"), ins(int32(1), "c"),
			},
			file: []out{
				{spec.RowKindInsert, []any{int32(1), "c"}},
				{spec.RowKindDelete, []any{int32(2), "x"}},
				{spec.RowKindDelete, []any{int32(3), "gone"}},
				{spec.RowKindInsert, []any{int32(4), "d"}},
			},
			visible: [][]any{{int32(1), "c"}, {int32(4), "d"}},
		},
		{
			name:    "deduplicate with ignore-delete",
			cols:    [][2]string{{"k", "INT"}, {"v", "STRING"}},
			opts:    map[string]string{"ignore-delete": "true"},
			changes: []change{ins(int32(1), "a"), del(int32(1), "a"), del(int32(2), "b")},
			file:    []out{{spec.RowKindInsert, []any{int32(1), "a"}}},
			visible: [][]any{{int32(1), "a"}},
		},
		{
			name: "partial-update",
			cols: [][2]string{{"k", "INT"}, {"a", "STRING"}, {"b", "STRING"}},
			opts: map[string]string{"merge-engine": "partial-update"},
			changes: []change{
				ins(int32(2), "x", nil), ins(int32(1), nil, "q"), ins(int32(2), nil, "y"), ins(int32(2), "z", nil),
			},
			file: []out{
				{spec.RowKindInsert, []any{int32(1), nil, "q"}},
				{spec.RowKindInsert, []any{int32(2), "z", "y"}},
			},
			visible: [][]any{{int32(1), nil, "q"}, {int32(2), "z", "y"}},
		},
		{
			name:    "aggregation sum",
			cols:    [][2]string{{"k", "INT"}, {"n", "BIGINT"}},
			opts:    map[string]string{"merge-engine": "aggregation", "fields.n.aggregate-function": "sum"},
			changes: []change{ins(int32(1), int64(5)), ins(int32(2), int64(1)), ins(int32(1), int64(7)), ins(int32(1), nil)},
			file: []out{
				{spec.RowKindInsert, []any{int32(1), int64(12)}},
				{spec.RowKindInsert, []any{int32(2), int64(1)}},
			},
			visible: [][]any{{int32(1), int64(12)}, {int32(2), int64(1)}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := map[string]string{"bucket": "1"}
			for k, v := range c.opts {
				opts[k] = v
			}
			tbl := newTable(t, c.cols, nil, []string{"k"}, opts)
			msgs := writeChanges(t, tbl, write.Options{}, c.changes)
			if len(msgs) != 1 || len(msgs[0].NewFiles) != 1 {
				t.Fatalf("messages %+v, want one file", msgs)
			}
			f := msgs[0].NewFiles[0]
			got := readDataFile(t, tbl, msgs[0], f)
			var deletes int64
			for i, w := range c.file {
				if i >= len(got) {
					t.Fatalf("file has %d rows, want %d", len(got), len(c.file))
				}
				if got[i].kind != w.kind || fmt.Sprint(got[i].vals) != fmt.Sprint(w.vals) {
					t.Errorf("file row %d = %v %v, want %v %v", i, got[i].kind, got[i].vals, w.kind, w.vals)
				}
				if w.kind.IsRetract() {
					deletes++
				}
			}
			if len(got) != len(c.file) {
				t.Errorf("file has %d rows, want %d", len(got), len(c.file))
			}
			if f.DeleteRowCount == nil || *f.DeleteRowCount != deletes {
				t.Errorf("_DELETE_ROW_COUNT = %v, want %d", f.DeleteRowCount, deletes)
			}
			// Sequence numbers: distinct, within the file's range, and the range stays within the input's.
			seqs := map[int64]bool{}
			for _, r := range got {
				if seqs[r.seq] || r.seq < f.MinSequenceNumber || r.seq > f.MaxSequenceNumber {
					t.Errorf("row seq %d: duplicate or outside [%d, %d]", r.seq, f.MinSequenceNumber, f.MaxSequenceNumber)
				}
				seqs[r.seq] = true
			}
			if f.MaxSequenceNumber > int64(len(c.changes))-1 {
				t.Errorf("max sequence %d for %d input rows", f.MaxSequenceNumber, len(c.changes))
			}
			commitMsgs(t, tbl, msgs)
			_, rows, err := read.Rows(context.Background(), tbl, read.ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(rows) != fmt.Sprint(c.visible) {
				t.Errorf("read %v, want %v", rows, c.visible)
			}
		})
	}
}

// TestPartitionDirectories: rows go to the directory Java computes from the partition row, escaped.
func TestPartitionDirectories(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, [][2]string{{"p", "STRING"}, {"n", "INT"}, {"v", "INT"}}, []string{"p", "n"}, nil, nil)
	values := []struct {
		p   any
		n   any
		dir string
	}{
		{"a/b", int32(1), "p=a%2Fb/n=1"},
		{"x=y:z", int32(-2), "p=x%3Dy%3Az/n=-2"},
		{"50%", nil, "p=50%25/n=__DEFAULT_PARTITION__"},
		{"", int32(3), "p=__DEFAULT_PARTITION__/n=3"},
		{nil, int32(3), "p=__DEFAULT_PARTITION__/n=3"},
		{"ü space", int32(4), "p=ü space/n=4"},
	}
	var changes []change
	for i, v := range values {
		changes = append(changes, ins(v.p, v.n, int32(i)))
	}
	msgs := writeChanges(t, tbl, write.Options{}, changes)
	if len(msgs) != len(values) {
		t.Fatalf("%d messages for %d distinct partitions ('' and null differ)", len(msgs), len(values))
	}
	dirs := map[string]int{}
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			rows := readDataFile(t, tbl, m, f)
			i := int(rows[0].vals[2].(int32))
			want := path.Join(tbl.Path, values[i].dir, "bucket-0", f.FileName)
			dirs[values[i].dir]++
			if _, err := tbl.FS.Stat(ctx, want); err != nil {
				t.Errorf("row %d: file not at %s: %v", i, want, err)
			}
		}
	}
	if dirs["p=__DEFAULT_PARTITION__/n=3"] != 2 {
		t.Errorf("'' and null partitions: %v", dirs)
	}
	commitMsgs(t, tbl, msgs)
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil || len(rows) != len(values) {
		t.Fatalf("read %d rows, %v", len(rows), err)
	}
}

// TestPrepareAndAbort: Prepare twice, Abort deletes unprepared files only.
func TestPrepareAndAbort(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, [][2]string{{"k", "INT"}, {"v", "STRING"}}, nil, []string{"k"}, map[string]string{"bucket": "2"})
	// A tiny buffer flushes on every row, so files exist before Prepare.
	w, err := write.New(ctx, tbl, write.Options{BufferBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	dataFiles := func() []string {
		var out []string
		for _, b := range []string{"bucket-0", "bucket-1"} {
			infos, err := tbl.FS.List(ctx, path.Join(tbl.Path, b))
			if err != nil {
				t.Fatal(err)
			}
			for _, fi := range infos {
				out = append(out, fi.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	write3 := func(v string) {
		for k := range int32(3) {
			if err := w.WriteRow(ctx, []any{k, v}, spec.RowKindInsert); err != nil {
				t.Fatal(err)
			}
		}
	}
	write3("one")
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var prepared []string
	for _, m := range msgs {
		if m.TotalBuckets != 2 {
			t.Errorf("message TotalBuckets %d, want 2", m.TotalBuckets)
		}
		for _, f := range m.NewFiles {
			prepared = append(prepared, f.FileName)
		}
	}
	slices.Sort(prepared)
	if len(prepared) != 3 || !slices.Equal(prepared, dataFiles()) {
		t.Fatalf("prepared %v, on disk %v", prepared, dataFiles())
	}
	again, err := w.Prepare(ctx)
	if err != nil || len(again) != 0 {
		t.Fatalf("second Prepare: %v, %v; want no messages", again, err)
	}
	write3("two")
	if n := len(dataFiles()); n != 6 {
		t.Fatalf("%d files after flushing 3 more rows, want 6", n)
	}
	if err := w.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	if got := dataFiles(); !slices.Equal(got, prepared) {
		t.Errorf("after Abort: %v, want only the prepared %v", got, prepared)
	}
	if m, err := w.Prepare(ctx); err != nil || len(m) != 0 {
		t.Errorf("Prepare after Abort: %v, %v", m, err)
	}
	commitMsgs(t, tbl, msgs)
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil || len(rows) != 3 {
		t.Fatalf("read %v, %v", rows, err)
	}
	for _, r := range rows {
		if r[1] != "one" {
			t.Errorf("aborted row visible: %v", r)
		}
	}
}

// TestRefusedWrites: tables and rows lakeload cannot write give an error naming the option and the remedy.
func TestRefusedWrites(t *testing.T) {
	kv := [][2]string{{"k", "INT"}, {"v", "STRING"}}
	cases := []struct {
		name string
		cols [][2]string
		part []string
		pk   []string
		opts map[string]string
		want []string // substrings of the error
	}{
		{"cross-partition dynamic bucket", [][2]string{{"p", "STRING"}, {"k", "INT"}, {"v", "STRING"}}, []string{"p"}, []string{"k"}, nil, []string{"bucket=-1", "add p to the primary key", "'bucket'='4'"}},
		{"bad target-row-num", kv, nil, []string{"k"}, map[string]string{"dynamic-bucket.target-row-num": "0"}, []string{"dynamic-bucket.target-row-num", "positive"}},
		{"deletion vectors", kv, nil, []string{"k"}, map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"}, []string{"deletion-vectors.enabled", "without deletion vectors"}},
		{"first-row", kv, nil, []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "first-row"}, []string{"merge-engine=first-row", "lakeload load", "deduplicate, partial-update or aggregation"}},
		{"changelog input", kv, nil, []string{"k"}, map[string]string{"bucket": "1", "changelog-producer": "input"}, []string{"changelog-producer=input", "use 'none'"}},
		{"orc", kv, nil, nil, map[string]string{"file.format": "orc"}, []string{"file.format=orc", "'file.format'='parquet'"}},
		{"bucket function mod", kv, nil, []string{"k"}, map[string]string{"bucket": "2", "bucket-function.type": "mod"}, []string{"bucket-function.type=mod", "'default'"}},
		{"orc manifests", kv, nil, []string{"k"}, map[string]string{"bucket": "2", "manifest.format": "orc"}, []string{"manifest.format=orc", "'avro'"}},
		{"postpone bucket", kv, nil, []string{"k"}, map[string]string{"bucket": "-2"}, []string{"bucket=-2", "fixed bucket count"}},
		{"row tracking", kv, nil, nil, map[string]string{"row-tracking.enabled": "true"}, []string{"row-tracking.enabled"}},
		{"float partition", [][2]string{{"f", "FLOAT"}, {"v", "STRING"}}, []string{"f"}, nil, nil, []string{"partition column f", "FLOAT", "Float.toString", "STRING"}},
		{"double partition", [][2]string{{"d", "DOUBLE"}, {"k", "INT"}, {"v", "STRING"}}, []string{"d"}, []string{"d", "k"}, map[string]string{"bucket": "1"}, []string{"partition column d", "DOUBLE", "Double.toString"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := newTable(t, c.cols, c.part, c.pk, c.opts)
			err := write.CheckWritable(tbl)
			_, newErr := write.New(context.Background(), tbl, write.Options{})
			for _, e := range []error{err, newErr} {
				if e == nil || !strings.Contains(e.Error(), "not supported") && !isUnsupported(e) {
					t.Fatalf("got %v, want ErrUnsupportedTable", e)
				}
				for _, w := range c.want {
					if !strings.Contains(e.Error(), w) {
						t.Errorf("error %q does not mention %q", e, w)
					}
				}
			}
		})
	}
	// Partition columns of other types stay writable.
	ok := newTable(t, [][2]string{{"p", "DECIMAL(5,2)"}, {"v", "STRING"}}, []string{"p"}, nil, nil)
	if err := write.CheckWritable(ok); err != nil {
		t.Errorf("DECIMAL partition refused: %v", err)
	}
}

func isUnsupported(err error) bool {
	return err != nil && strings.Contains(err.Error(), write.ErrUnsupportedTable.Error())
}

// TestRefusedRetractions: -U/-D rows need a primary key, and partial-update needs ignore-delete.
func TestRefusedRetractions(t *testing.T) {
	ctx := context.Background()
	kv := [][2]string{{"k", "INT"}, {"v", "STRING"}}
	cases := []struct {
		name string
		pk   []string
		opts map[string]string
		kind spec.RowKind
		want []string // "" = accepted
	}{
		{"delete into append table", nil, nil, spec.RowKindDelete, []string{"append table", "no primary key"}},
		{"update-before into append table", nil, nil, spec.RowKindUpdateBefore, []string{"append table"}},
		{"update-after into append table", nil, nil, spec.RowKindUpdateAfter, nil},
		{"delete into partial-update", []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "partial-update"}, spec.RowKindDelete, []string{"partial-update", "'ignore-delete'='true'"}},
		{"update-before into partial-update", []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "partial-update"}, spec.RowKindUpdateBefore, []string{"ignore-delete"}},
		{"delete into partial-update with ignore-delete (dropped)", []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "partial-update", "ignore-delete": "true"}, spec.RowKindDelete, nil},
		{"delete into partial-update with legacy ignore-delete (dropped)", []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "partial-update", "partial-update.ignore-delete": "true"}, spec.RowKindDelete, nil},
		{"delete into deduplicate", []string{"k"}, map[string]string{"bucket": "1"}, spec.RowKindDelete, nil},
		{"delete into append table with ignore-delete (dropped)", nil, map[string]string{"ignore-delete": "true"}, spec.RowKindDelete, nil},
		{"update-before into partial-update with ignore-update-before (dropped)", []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "partial-update", "ignore-update-before": "true"}, spec.RowKindUpdateBefore, nil},
		{"delete into partial-update with ignore-update-before", []string{"k"}, map[string]string{"bucket": "1", "merge-engine": "partial-update", "ignore-update-before": "true"}, spec.RowKindDelete, []string{"ignore-delete"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := newTable(t, kv, nil, c.pk, c.opts)
			w, err := write.New(ctx, tbl, write.Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = w.WriteRow(ctx, []any{int32(1), "x"}, c.kind)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				msgs, err := w.Prepare(ctx)
				if err != nil {
					t.Fatal(err)
				}
				dropped := strings.Contains(c.name, "(dropped)")
				if dropped != (len(msgs) == 0) {
					t.Errorf("dropped=%v but %d messages were prepared", dropped, len(msgs))
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, s := range c.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

// TestWriteRowValidation: malformed rows are refused at WriteRow, naming the problem, and do not
// poison the buffer of rows already written.
func TestWriteRowValidation(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, [][2]string{{"k", "INT"}, {"v", "STRING NOT NULL"}, {"w", "STRING"}}, nil, []string{"k"}, map[string]string{"bucket": "2"})
	w, err := write.New(ctx, tbl, write.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow(ctx, []any{int32(1), "ok", nil}, spec.RowKindInsert); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row  []any
		want string
	}{
		{[]any{int32(2)}, "1 values"},
		{[]any{int32(2), "a", "b", "c"}, "4 values"},
		{[]any{nil, "a", nil}, "column k is NOT NULL"},
		{[]any{int32(2), nil, "b"}, "column v is NOT NULL"},
	} {
		if err := w.WriteRow(ctx, c.row, spec.RowKindInsert); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("WriteRow(%v): %v, want an error mentioning %q", c.row, err, c.want)
		}
	}
	msgs, err := w.Prepare(ctx)
	if err != nil || len(msgs) != 1 || msgs[0].NewFiles[0].RowCount != 1 {
		t.Fatalf("Prepare after refused rows: %+v, %v; want the one good row", msgs, err)
	}
}

// TestSingleStringPartitionRouting: a table partitioned by one STRING column finds a row's partition by
// its value (the writer's shortcut); every row must land in its own partition, ” and null apart,
// with the bucket Java computes from a BIGINT bucket key.
func TestSingleStringPartitionRouting(t *testing.T) {
	tbl := newTable(t, [][2]string{{"p", "STRING"}, {"id", "BIGINT"}, {"v", "INT"}}, []string{"p"}, nil,
		map[string]string{"bucket": "4", "bucket-key": "id"})
	parts := []any{"a", "b", "", nil, "ü", "a-longer-partition-value"}
	var changes []change
	for i := 0; i < 60; i++ {
		changes = append(changes, ins(parts[(i*7)%len(parts)], int64(i*1_000_003), int32(i)))
	}
	msgs := writeChanges(t, tbl, write.Options{}, changes)
	seen := 0
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			for _, r := range readDataFile(t, tbl, m, f) {
				i := int(r.vals[2].(int32))
				want := parts[(i*7)%len(parts)]
				wantPart, err := binrow.Serialize([]spec.DataType{{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}}, []any{want})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(m.Partition, wantPart) || r.vals[0] != want {
					t.Errorf("row %d (p=%v) in partition %x, value %v", i, want, m.Partition, r.vals[0])
				}
				var kb binrow.Builder
				kb.Reset(1)
				kb.SetInt64(0, r.vals[1].(int64))
				if b := int32(binrow.Bucket(binrow.Hash(kb.Bytes()), 4)); m.Bucket != b {
					t.Errorf("row %d in bucket %d, want %d", i, m.Bucket, b)
				}
				seen++
			}
		}
	}
	if seen != len(changes) {
		t.Fatalf("%d rows in the files, wrote %d", seen, len(changes))
	}
}
