package read

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/roundtrip"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/table/tabletest"
	"github.com/lakeload/lakeload/paimon/write"
)

// rtTable creates a table in a fresh in-memory file system.
func rtTable(t *testing.T, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	return tabletest.NewMem(t, cols, part, pk, opts)
}

func rtOpen(t *testing.T, fs fileio.FileIO, dir string) *table.Table {
	t.Helper()
	return tabletest.Open(t, fs, dir)
}

type rtChange = roundtrip.Change

var rtIns, rtDel = roundtrip.Ins, roundtrip.Del

// rtCommit writes changes with a new writer and commits them (user "rt"); it returns the snapshot id.
func rtCommit(t *testing.T, tbl *table.Table, changes ...rtChange) int64 {
	t.Helper()
	return roundtrip.WriteCommit(t, tbl, write.Options{}, "rt", changes)
}

// rtLines renders rows as sorted strings.
func rtLines(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r)
	}
	slices.Sort(out)
	return out
}

func rtRows(t *testing.T, tbl *table.Table, o ScanOptions) (*spec.TableSchema, []string) {
	t.Helper()
	s, rows, err := Rows(context.Background(), tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	return s, rtLines(rows)
}

// TestTimeTravel: every snapshot reads back the state as of its commit (PK table with updates and deletes).
func TestTimeTravel(t *testing.T) {
	tbl := rtTable(t, [][2]string{{"k", "INT"}, {"v", "STRING"}}, nil, []string{"k"}, map[string]string{"bucket": "2"})
	if plan, err := Scan(context.Background(), tbl, ScanOptions{}); err != nil || plan.Snapshot != nil || len(plan.Splits) != 0 {
		t.Fatalf("empty table: %+v, %v", plan, err)
	}
	steps := []struct {
		changes []rtChange
		want    [][]any
	}{
		{[]rtChange{rtIns(int32(1), "a"), rtIns(int32(2), "b"), rtIns(int32(3), "c")},
			[][]any{{int32(1), "a"}, {int32(2), "b"}, {int32(3), "c"}}},
		{[]rtChange{rtIns(int32(2), "B"), rtDel(int32(3), "c"), rtIns(int32(4), "d")},
			[][]any{{int32(1), "a"}, {int32(2), "B"}, {int32(4), "d"}}},
		{[]rtChange{rtIns(int32(3), "again"), rtDel(int32(1), "a"), rtIns(int32(2), "BB")},
			[][]any{{int32(2), "BB"}, {int32(3), "again"}, {int32(4), "d"}}},
		{[]rtChange{rtDel(int32(2), "BB"), rtDel(int32(3), ""), rtDel(int32(4), "")},
			nil},
	}
	for i, s := range steps {
		if id := rtCommit(t, tbl, s.changes...); id != int64(i+1) {
			t.Fatalf("step %d committed snapshot %d", i, id)
		}
	}
	for i, s := range steps {
		_, got := rtRows(t, tbl, ScanOptions{SnapshotID: int64(i + 1)})
		if want := rtLines(s.want); !slices.Equal(got, want) {
			t.Errorf("snapshot %d: %v, want %v", i+1, got, want)
		}
	}
	_, latest := rtRows(t, tbl, ScanOptions{})
	if len(latest) != 0 {
		t.Errorf("latest: %v, want no rows", latest)
	}
	_, err := Scan(context.Background(), tbl, ScanOptions{SnapshotID: 9})
	if !errors.Is(err, fileio.ErrNotExist) || !strings.Contains(err.Error(), "snapshot 9") {
		t.Errorf("missing snapshot: %v, want ErrNotExist naming snapshot 9", err)
	}
}

// TestScanFilters: partition and bucket filters select splits; together the parts make up the whole.
func TestScanFilters(t *testing.T) {
	ctx := context.Background()
	tbl := rtTable(t, [][2]string{{"p", "STRING"}, {"id", "INT"}, {"v", "STRING"}}, []string{"p"}, nil,
		map[string]string{"bucket": "2", "bucket-key": "id"})
	var changes []rtChange
	for i := range int32(40) {
		changes = append(changes, rtIns([]string{"a", "b", "c"}[i%3], i, fmt.Sprint("v", i)))
	}
	rtCommit(t, tbl, changes...)
	_, all := rtRows(t, tbl, ScanOptions{})
	if len(all) != 40 {
		t.Fatalf("%d rows, want 40", len(all))
	}
	cases := []struct {
		name   string
		o      ScanOptions
		splits int
		keep   func(p string, bucket int32) bool
	}{
		{"partition b", ScanOptions{PartitionFilter: func(v []any) bool { return v[0] == "b" }}, 2,
			func(p string, _ int32) bool { return p == "b" }},
		{"partitions a or c", ScanOptions{PartitionFilter: func(v []any) bool { return v[0] != "b" }}, 4,
			func(p string, _ int32) bool { return p != "b" }},
		{"bucket 0", ScanOptions{BucketFilter: func(b int32) bool { return b == 0 }}, 3,
			func(_ string, b int32) bool { return b == 0 }},
		{"partition c bucket 1", ScanOptions{PartitionFilter: func(v []any) bool { return v[0] == "c" }, BucketFilter: func(b int32) bool { return b == 1 }}, 1,
			func(p string, b int32) bool { return p == "c" && b == 1 }},
		{"nothing", ScanOptions{BucketFilter: func(int32) bool { return false }}, 0, func(string, int32) bool { return false }},
	}
	// Where each row lives, from an unfiltered scan.
	plan, err := Scan(ctx, tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	bucketOf := map[string]int32{}
	for _, s := range plan.Splits {
		err := r.ReadSplit(ctx, s, func(row []any) error {
			bucketOf[fmt.Sprint(row)] = s.Bucket
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, err := Scan(ctx, tbl, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Splits) != c.splits {
				t.Errorf("%d splits, want %d", len(plan.Splits), c.splits)
			}
			_, got := rtRows(t, tbl, c.o)
			var want []string
			for _, line := range all {
				p := strings.Fields(strings.Trim(line, "[]"))[0]
				if c.keep(p, bucketOf[line]) {
					want = append(want, line)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %d rows %v, want %d %v", len(got), got, len(want), want)
			}
		})
	}
}

// TestSchemaEvolutionRead: files written with schema 0 are read in schema 1's types, renames and new
// columns by field id; time travel to the old snapshot reads with the old schema.
func TestSchemaEvolutionRead(t *testing.T) {
	ctx := context.Background()
	tbl := rtTable(t, [][2]string{
		{"id", "INT"}, {"a", "INT"}, {"b", "DOUBLE"}, {"c", "STRING"}, {"d", "DECIMAL(10, 3)"},
		{"e", "TIMESTAMP(3)"}, {"f", "STRING"}, {"g", "BIGINT"},
	}, nil, nil, nil)
	old := [][]any{
		{int32(1), int32(7), 1e12, "42", dec(12345), spec.TimestampValue{Millis: 1500}, "dropped", int64(1) << 40},
		{int32(2), nil, -2.5, "-3.9", dec(-5), spec.TimestampValue{Millis: -1500}, nil, int64(-1)}, // d = -0.005 → -0.0
	}
	var changes []rtChange
	for _, r := range old {
		changes = append(changes, rtIns(r...))
	}
	rtCommit(t, tbl, changes...)

	// Schema 1: id INT→BIGINT, a renamed a2 and INT→DECIMAL(12, 2), b DOUBLE→INT, c STRING→INT,
	// d rescaled, e truncated to seconds, f dropped, g BIGINT→INT, h added.
	s1 := *tbl.Schema
	s1.ID = 1
	s1.Fields = nil
	for _, f := range tbl.Schema.Fields {
		switch f.Name {
		case "id":
			f.Type = mustType(t, "BIGINT")
		case "a":
			f.Name, f.Type = "a2", mustType(t, "DECIMAL(12, 2)")
		case "b", "c", "g":
			f.Type = mustType(t, "INT")
		case "d":
			f.Type = mustType(t, "DECIMAL(10, 1)")
		case "e":
			f.Type = mustType(t, "TIMESTAMP(0)")
		case "f":
			continue
		}
		s1.Fields = append(s1.Fields, f)
	}
	s1.HighestFieldID++
	s1.Fields = append(s1.Fields, spec.DataField{ID: s1.HighestFieldID, Name: "h", Type: mustType(t, "STRING")})
	if err := tbl.Schemas().Create(ctx, &s1); err != nil {
		t.Fatal(err)
	}
	tbl1 := rtOpen(t, tbl.FS, tbl.Path)
	rtCommit(t, tbl1, rtIns(int64(3), dec(100), int32(5), int32(6), dec(7), spec.TimestampValue{Millis: 8000}, int32(9), "new"))

	schema, got := rtRows(t, tbl1, ScanOptions{})
	if schema.ID != 1 {
		t.Errorf("latest read in schema %d, want 1", schema.ID)
	}
	want := rtLines([][]any{
		{int64(1), dec(700), int32(2147483647), int32(42), dec(123), spec.TimestampValue{Millis: 1000}, int32(0), nil},
		{int64(2), nil, int32(-2), int32(-3), dec(0), spec.TimestampValue{Millis: -1000}, int32(-1), nil},
		{int64(3), dec(100), int32(5), int32(6), dec(7), spec.TimestampValue{Millis: 8000}, int32(9), "new"},
	})
	if !slices.Equal(got, want) {
		t.Errorf("evolved read:\n got %v\nwant %v", got, want)
	}
	schema, got = rtRows(t, tbl1, ScanOptions{SnapshotID: 1})
	if schema.ID != 0 || !slices.Equal(got, rtLines(old)) {
		t.Errorf("time travel to snapshot 1: schema %d rows %v, want schema 0 rows %v", schema.ID, got, rtLines(old))
	}

	// A string that Java cannot parse fails the read, naming the file and column.
	bad := rtTable(t, [][2]string{{"c", "STRING"}}, nil, nil, nil)
	rtCommit(t, bad, rtIns("not a number"))
	sb := *bad.Schema
	sb.ID, sb.Fields = 1, []spec.DataField{{ID: 0, Name: "c", Type: mustType(t, "INT")}}
	if err := bad.Schemas().Create(ctx, &sb); err != nil {
		t.Fatal(err)
	}
	_, _, err := Rows(ctx, rtOpen(t, bad.FS, bad.Path), ScanOptions{})
	if err == nil || !strings.Contains(err.Error(), "not a number") || !strings.Contains(err.Error(), "column c") || !strings.Contains(err.Error(), "data-") {
		t.Errorf("unparsable value: %v, want an error naming value, column and file", err)
	}
}

// TestMissingDataFile: a data file listed in the manifests but absent is an error naming it.
func TestMissingDataFile(t *testing.T) {
	ctx := context.Background()
	for _, pk := range [][]string{nil, {"k"}} {
		opts := map[string]string{}
		if pk != nil {
			opts["bucket"] = "1"
		}
		tbl := rtTable(t, [][2]string{{"k", "INT"}, {"v", "STRING"}}, nil, pk, opts)
		rtCommit(t, tbl, rtIns(int32(1), "a"))
		rtCommit(t, tbl, rtIns(int32(2), "b"))
		plan, err := Scan(ctx, tbl, ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		victim := plan.Splits[0].Files[1]
		path, err := tbl.NewPaths().DataFile(plan.Splits[0].Partition, plan.Splits[0].Bucket, victim.FileName, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.FS.Delete(ctx, path); err != nil {
			t.Fatal(err)
		}
		_, _, err = Rows(ctx, tbl, ScanOptions{})
		if !errors.Is(err, fileio.ErrNotExist) || !strings.Contains(err.Error(), victim.FileName) {
			t.Errorf("pk=%v: %v, want ErrNotExist naming %s", pk, err, victim.FileName)
		}
	}
}
