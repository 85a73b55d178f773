package compat

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// tsv parses a canonical timestamp ("1969-12-31T23:59:59.999999999") into a datum.
func tsv(t *testing.T, s string) spec.TimestampValue {
	t.Helper()
	tm, err := time.Parse("2006-01-02T15:04:05.999999999", s)
	if err != nil {
		t.Fatal(err)
	}
	return spec.TimestampValue{Millis: tm.UnixMilli(), NanoOfMilli: int32(tm.Nanosecond() % 1e6)}
}

// int96Instants are instants a Java INT96 column stores with a negative nanos of day (before 1970,
// not on a day boundary), on a day boundary before 1970, before 1900, near both ends of int64
// nanoseconds (the minimum rounded up to 100 ns, so that TIMESTAMP(7) holds it) and far in the future.
var int96Instants = []string{
	"1969-12-31T23:59:59.999999999", "1969-12-31T23:59:59.999999", "1899-01-01T00:59:20.001001001",
	"1969-12-31T00:00:00", "1969-12-30T23:59:59.000000001", "1677-09-21T00:12:43.1452242",
	"2262-04-11T23:47:16.854775807", "2200-06-15T12:34:56.789012345", "1970-01-01T00:00:00",
}

// TestJavaCompactedInt96Table is issue 16's worst case: lakeload writes a primary-key table holding
// TIMESTAMP(7..9) values before 1970, before 1900 and far in the future; Java Paimon compacts it in
// full, which rewrites every row as Java's INT96 (a negative nanos of day before 1970). lakeload
// reads the Java-compacted table — rows and Arrow batches — equal to the model and to Java. Then
// lakeload writes on top and compacts in full: its own rewrite replaces Java's file, and lakeload and
// Java read the model's rows again.
func TestJavaCompactedInt96Table(t *testing.T) {
	java := oracle.Java(t)
	wh := t.TempDir()
	def := tableDef{
		cols: [][2]string{{"id", "INT NOT NULL"}, {"k9", "TIMESTAMP(9) NOT NULL"}, {"v7", "TIMESTAMP(7)"},
			{"l8", "TIMESTAMP(8) WITH LOCAL TIME ZONE"}, {"v6", "TIMESTAMP(6)"}, {"arr", "ARRAY<TIMESTAMP(9)>"},
			{"r", "ROW<t TIMESTAMP(9), s STRING>"}},
		pk: []string{"id", "k9"}, options: map[string]string{"bucket": "2"},
	}
	tbl := newTable(t, wh, "ts", def)
	path := tablePath(wh, "ts")
	m := newModel(tbl.Schema)
	row := func(i int, v string) []any {
		k := tsv(t, int96Instants[i%len(int96Instants)])
		if v == "" {
			return []any{int32(i), k, nil, nil, nil, nil, nil}
		}
		x := tsv(t, v)
		micros := x
		micros.NanoOfMilli -= micros.NanoOfMilli % 1000
		hundreds := x
		hundreds.NanoOfMilli -= hundreds.NanoOfMilli % 100
		tens := x
		tens.NanoOfMilli -= tens.NanoOfMilli % 10
		return []any{int32(i), k, hundreds, tens, micros, []any{x, nil, k}, []any{x, v}}
	}
	commitRows := func(cs []change) {
		lakeloadCommit(t, tbl, cs)
		for _, c := range cs {
			m.apply(c)
		}
	}
	var first, second []change
	for i := range 2 * len(int96Instants) {
		v := int96Instants[(i+3)%len(int96Instants)]
		if i == 5 {
			v = ""
		}
		first = append(first, ins(row(i, v)...))
	}
	for i := 0; i < 2*len(int96Instants); i += 3 {
		second = append(second, ins(row(i, int96Instants[(i+1)%len(int96Instants)])...))
	}
	second = append(second, del(row(4, int96Instants[0])...))
	commitRows(first)
	commitRows(second)
	want := canonLines(t, tbl.Schema.Fields, m.result())

	snap := java.Compact(path)
	ctx := context.Background()
	s, err := tbl.Snapshots().Get(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	if s.CommitKind != spec.CommitKindCompact {
		t.Fatalf("Java's compaction made a %s snapshot", s.CommitKind)
	}
	javaFiles := liveDataFiles(t, tbl)
	negative := 0
	for _, f := range javaFiles {
		for _, nod := range int96NanosOfDay(t, f, "k9") {
			if nod < 0 {
				negative++
			}
		}
	}
	if negative == 0 {
		t.Fatal("the Java-compacted files hold no INT96 with a negative nanos of day; the test exercises nothing")
	}
	diffLinesAs(t, "java after Java's compaction", want, java.Read(path, oracle.ReadOpts{}))
	diffLinesAs(t, "lakeload rows after Java's compaction", want, sorted(lakeloadRows(t, tbl, 0)))
	diffLinesAs(t, "lakeload Arrow batches after Java's compaction", want, sorted(lakeloadRecordLines(t, tbl, 0)))

	// lakeload writes on top of Java's files and rewrites them in full.
	var third []change
	for i := 1; i < 2*len(int96Instants); i += 4 {
		third = append(third, ins(row(i, int96Instants[(i+5)%len(int96Instants)])...))
	}
	commitRows(third)
	want = canonLines(t, tbl.Schema.Fields, m.result())
	diffLinesAs(t, "lakeload merge of Java's and lakeload's files", want, sorted(lakeloadRows(t, tbl, 0)))
	runCompaction(t, tbl, compact.Options{Full: true})
	after := liveDataFiles(t, tbl)
	for _, f := range after {
		for _, jf := range javaFiles {
			if f == jf {
				t.Errorf("Java's file %s survived lakeload's full compaction", filepath.Base(f))
			}
		}
		for _, nod := range int96NanosOfDay(t, f, "k9") {
			if nod < 0 || nod >= 86400e9 {
				t.Fatalf("lakeload's rewrite %s holds INT96 nanos of day %d; lakeload writes 0 <= nanos < 1 day", filepath.Base(f), nod)
			}
		}
	}
	diffLinesAs(t, "java after lakeload's full compaction", want, java.Read(path, oracle.ReadOpts{}))
	diffLinesAs(t, "lakeload after its full compaction", want, sorted(lakeloadRows(t, tbl, 0)))
	diffLinesAs(t, "lakeload Arrow batches after its full compaction", want, sorted(lakeloadRecordLines(t, tbl, 0)))
}

// TestJavaFixturesArrowMatchGolden reads every Java-written fixture at every golden snapshot through
// the Arrow path (read.Records: the columnar fast path where it applies, the merge otherwise) and
// compares canonical rows with Java's.
func TestJavaFixturesArrowMatchGolden(t *testing.T) {
	tables, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tb := range tables {
		if !tb.IsDir() {
			continue
		}
		name := tb.Name()
		t.Run(name, func(t *testing.T) {
			goldens, err := os.ReadDir(filepath.Join(goldenDir, name))
			if err != nil {
				t.Fatal(err)
			}
			dir, err := filepath.Abs(filepath.Join(fixtureDir, name+".db", name))
			if err != nil {
				t.Fatal(err)
			}
			tbl, err := table.Open(context.Background(), local.New(), dir, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range goldens {
				mm := goldenName.FindStringSubmatch(g.Name())
				if mm == nil {
					continue
				}
				var id int64
				fmt.Sscan(mm[1], &id)
				t.Run("snapshot-"+mm[1], func(t *testing.T) {
					want := readLines(t, filepath.Join(goldenDir, name, g.Name()))
					diffLines(t, want, sorted(lakeloadRecordLines(t, tbl, id)))
				})
				checked++
			}
		})
	}
	if checked == 0 {
		t.Fatal("no golden files found")
	}
}

// lakeloadRecordLines reads the table through read.Records (Arrow batches) as canonical lines.
func lakeloadRecordLines(t *testing.T, tbl *table.Table, snapshot int64) []string {
	t.Helper()
	ctx := context.Background()
	plan, err := read.Scan(ctx, tbl, read.ScanOptions{SnapshotID: snapshot})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	err = read.Records(ctx, tbl, plan, 4, func(rec arrow.RecordBatch) error {
		for r := 0; r < int(rec.NumRows()); r++ {
			row := make([]any, rec.NumCols())
			for c := range row {
				v, err := arrowconv.DatumAt(rec.Column(c), r, plan.Schema.Fields[c].Type)
				if err != nil {
					return err
				}
				row[c] = v
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lines, err := canon.Rows(plan.Schema.Fields, rows)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// liveDataFiles lists the paths of the data files live in tbl's latest snapshot (unpartitioned).
func liveDataFiles(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	ctx := context.Background()
	s, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live, err := tbl.LiveFiles(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range live {
		out = append(out, filepath.Join(tbl.Path, fmt.Sprintf("bucket-%d", e.Bucket), e.File.FileName))
	}
	return out
}

// int96NanosOfDay returns the raw nanos of day of the INT96 column col of a Parquet file.
func int96NanosOfDay(t *testing.T, path, col string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	idx := pf.MetaData().Schema.ColumnIndexByName(col)
	if idx < 0 || pf.MetaData().Schema.Column(idx).PhysicalType() != parquet.Types.Int96 {
		t.Fatalf("%s: no INT96 column %s", filepath.Base(path), col)
	}
	var out []int64
	for g := 0; g < pf.NumRowGroups(); g++ {
		cr, err := pf.RowGroup(g).Column(idx)
		if err != nil {
			t.Fatal(err)
		}
		rd := cr.(*file.Int96ColumnChunkReader)
		vals := make([]parquet.Int96, pf.RowGroup(g).NumRows())
		n, _, err := rd.ReadBatch(int64(len(vals)), vals, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vals[:n] {
			out = append(out, int64(binary.LittleEndian.Uint64(v[:8])))
		}
	}
	return out
}
