package compat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// spillRow is one input row of the spill tests: (dt, id, name, v) and its kind.
type spillRow struct {
	dt   string
	id   int64
	name string
	v    float64
	kind spec.RowKind
}

// spillInput is 4 batches of 3000 rows over ids 0..4999: every batch updates ids of earlier batches,
// and batch 3 deletes some, so updates of one key land on both sides of every spill boundary.
func spillInput() [][]spillRow {
	var out [][]spillRow
	for b := 0; b < 4; b++ {
		var rows []spillRow
		for i := 0; i < 3000; i++ {
			id := int64((b*1700 + i*7) % 5000)
			kind := spec.RowKindInsert
			if b == 3 && i%10 == 0 {
				kind = spec.RowKindDelete
			}
			rows = append(rows, spillRow{dt: fmt.Sprintf("d%d", id%2), id: id, name: fmt.Sprintf("b%d-r%d", b, i), v: float64(b*10000 + i), kind: kind})
		}
		out = append(out, rows)
	}
	return out
}

func spillTable(t *testing.T, pk bool, bufferSize string) *table.Table {
	t.Helper()
	cols := [][2]string{{"dt", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"name", "STRING"}, {"v", "DOUBLE"}}
	fields := make([]spec.DataField, len(cols))
	for i, c := range cols {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		fields[i] = spec.DataField{ID: i, Name: c[0], Type: typ}
	}
	opts := map[string]string{"bucket": "2", "write-buffer-size": bufferSize, "file.format": "parquet"}
	var keys []string
	if pk {
		keys = []string{"dt", "id"}
	} else {
		opts["bucket-key"] = "id"
	}
	s, err := spec.NewSchema(fields, []string{"dt"}, keys, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fs, dir := local.New(), t.TempDir()+"/db.db/t"
	if err := table.NewSchemas(fs, dir).Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	tbl, err := table.Open(ctx, fs, dir, "db.t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func spillRecord(t *testing.T, tbl *table.Table, rows []spillRow) (arrow.RecordBatch, []spec.RowKind) {
	t.Helper()
	schema, err := arrowconv.ArrowSchema(tbl.Schema.Fields)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	kinds := make([]spec.RowKind, len(rows))
	for i, r := range rows {
		b.Field(0).(*array.StringBuilder).Append(r.dt)
		b.Field(1).(*array.Int64Builder).Append(r.id)
		if i%13 == 0 {
			b.Field(2).(*array.StringBuilder).AppendNull() // nulls across batches exercise the gathered validity
		} else {
			b.Field(2).(*array.StringBuilder).Append(r.name)
		}
		b.Field(3).(*array.Float64Builder).Append(r.v)
		kinds[i] = r.kind
	}
	return b.NewRecordBatch(), kinds
}

// writeSpilled writes the batches with WriteSeq, sequence numbers by input position, delivering
// batches 1 and 0 in swapped order (as parallel readers may), then prepares and commits.
func writeSpilled(t *testing.T, tbl *table.Table, batches [][]spillRow) []table.CommitMessage {
	t.Helper()
	ctx := context.Background()
	w, err := write.New(ctx, tbl, write.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []int{1, 0, 2, 3} {
		rec, kinds := spillRecord(t, tbl, batches[b])
		if err := w.WriteSeq(ctx, rec, kinds, int64(b*len(batches[0]))); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	commitMsgs(t, tbl, msgs)
	return msgs
}

// checkRuns asserts every file is a level-0 file and that some bucket got several sorted runs
// whose sequence ranges interleave (the windows' readers delivered batches out of order).
func checkRuns(t *testing.T, msgs []table.CommitMessage, minFiles int) {
	t.Helper()
	most := 0
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			if f.Level != 0 {
				t.Errorf("file %s of bucket %d is at level %d, want 0", f.FileName, m.Bucket, f.Level)
			}
			if f.MinSequenceNumber > f.MaxSequenceNumber {
				t.Errorf("file %s: sequence range %d..%d", f.FileName, f.MinSequenceNumber, f.MaxSequenceNumber)
			}
		}
		most = max(most, len(m.NewFiles))
	}
	if most < minFiles {
		t.Fatalf("at most %d files per bucket, want ≥ %d: the buffer did not spill", most, minFiles)
	}
}

func spillLines(t *testing.T, tbl *table.Table, rows [][]any) []string {
	t.Helper()
	lines, err := canon.Rows(tbl.Schema.Fields, rows)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func rowOf(r spillRow, i int) []any {
	var name any = r.name
	if i%13 == 0 {
		name = nil
	}
	return []any{r.dt, r.id, name, r.v}
}

func checkReaders(t *testing.T, tbl *table.Table, want []string) {
	t.Helper()
	_, rows, err := read.Rows(context.Background(), tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := loadtest.Diff(want, spillLines(t, tbl, rows)); d != "" {
		t.Errorf("lakeload reads:%s", d)
	}
	for name, c := range map[string]func(testing.TB) *oracle.Client{"java": oracle.Java, "pypaimon": oracle.Py} {
		if d := loadtest.Diff(want, c(t).Read(tbl.Path, oracle.ReadOpts{})); d != "" {
			t.Errorf("%s reads:%s", name, d)
		}
	}
}

// A primary-key write larger than write-buffer-size becomes several level-0 sorted runs per bucket;
// updates and deletes of one key on both sides of a spill resolve to the row of the highest
// sequence number (input position), whatever order the batches arrived in.
func TestSpillPrimaryKeyLatestWins(t *testing.T) {
	tbl := spillTable(t, true, "80 kb")
	batches := spillInput()
	msgs := writeSpilled(t, tbl, batches)
	checkRuns(t, msgs, 3)
	latest := map[[2]any][]any{}
	for _, rows := range batches {
		for i, r := range rows {
			k := [2]any{r.dt, r.id}
			if r.kind == spec.RowKindDelete {
				delete(latest, k)
				continue
			}
			latest[k] = rowOf(r, i)
		}
	}
	var want [][]any
	for _, r := range latest {
		want = append(want, r)
	}
	checkReaders(t, tbl, spillLines(t, tbl, want))
}

// An append write larger than write-buffer-size keeps every row, in several files per bucket.
func TestSpillAppendKeepsEveryRow(t *testing.T) {
	tbl := spillTable(t, false, "80 kb")
	batches := spillInput()
	for i := range batches[3] {
		batches[3][i].kind = spec.RowKindInsert
	}
	msgs := writeSpilled(t, tbl, batches)
	checkRuns(t, msgs, 3)
	var want [][]any
	for _, rows := range batches {
		for i, r := range rows {
			want = append(want, rowOf(r, i))
		}
	}
	checkReaders(t, tbl, spillLines(t, tbl, want))
}

// A malformed write-buffer-size is refused, naming the option.
func TestSpillBadBufferOption(t *testing.T) {
	tbl := spillTable(t, true, "lots")
	_, err := write.New(context.Background(), tbl, write.Options{})
	if err == nil || !strings.Contains(err.Error(), "write-buffer-size") {
		t.Fatalf("New with write-buffer-size=lots: %v", err)
	}
}

// commitMsgs commits msgs as a batch writer would and returns the snapshot id.
func commitMsgs(t *testing.T, tbl *table.Table, msgs []table.CommitMessage) int64 {
	t.Helper()
	res, err := commit.Commit(context.Background(), tbl, msgs, commit.Options{User: "test", Identifier: commit.BatchIdentifier, LookupAfter: -1})
	if err != nil {
		t.Fatal(err)
	}
	return res.SnapshotID
}
