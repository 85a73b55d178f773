package parquet

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// diffFields covers every type of the fast path, nullable and not, dictionary and PLAIN columns.
func diffFields() []spec.DataField {
	f := func(id int, name string, t spec.DataType) spec.DataField {
		return spec.DataField{ID: id, Name: name, Type: t}
	}
	return []spec.DataField{
		f(0, "id", typ(spec.BigInt, false)),
		f(1, "name", typ(spec.VarChar, true)),    // distinct, long, multibyte: PLAIN, several pages
		f(2, "city", typ(spec.VarChar, true)),    // low cardinality: dictionary
		f(3, "dt", typ(spec.VarChar, false)),     // NOT NULL dictionary
		f(4, "v", typ(spec.Double, true)),        // NaN, ±Inf, ±0
		f(5, "f", typ(spec.Float, true)),         // NaN, ±0
		f(6, "i", typ(spec.Int, true)),           // low cardinality: INT32 dictionary
		f(7, "kind", typ(spec.TinyInt, false)),   // like _VALUE_KIND
		f(8, "s", typ(spec.SmallInt, true)),      // distinct-ish SMALLINT
		f(9, "d", typ(spec.Date, true)),          // DATE
		f(10, "tm", typ(spec.Time, true)),        // TIME
		f(11, "b", typ(spec.Boolean, true)),      // BOOLEAN
		f(12, "bin", typ(spec.VarBinary, true)),  // BINARY with 0xFF bytes
		f(13, "ts3", ts(spec.Timestamp, 3)),      // INT64 millis
		f(14, "ts6", ts(spec.TimestampLTZ, 6)),   // INT64 micros
		f(15, "nul", typ(spec.VarChar, true)),    // all null
		f(16, "fb", typ(spec.VarChar, true)),     // dictionary that outgrows 1 MiB: fallback
		f(17, "seq", typ(spec.BigInt, false)),    // _SEQUENCE_NUMBER-like
		f(18, "dnul", typ(spec.Double, true)),    // all null DOUBLE
		f(19, "nan", typ(spec.Double, true)),     // NaN only
		f(20, "zero", typ(spec.Double, false)),   // +0.0 only
		f(21, "big", typ(spec.BigInt, true)),     // sparse nulls
		f(22, "emp", typ(spec.VarChar, false)),   // empty strings only
		f(23, "lng", typ(spec.VarChar, true)),    // > 4096-byte values: no footer min/max
		f(24, "bools", typ(spec.Boolean, false)), // NOT NULL BOOLEAN
		f(25, "dd", typ(spec.Double, false)),     // distinct DOUBLE without nulls: PLAIN bulk copy
		f(26, "ff", typ(spec.Float, false)),      // distinct FLOAT without nulls
	}
}

var (
	diffWords  = []string{"", "a", "Zürich", "東京", "😀 emoji", "ab", "b", strings.Repeat("x", 17), "\xff\xfe"}
	diffCities = []string{"Berlin", "Paris", "", "Zürich", "東京都", "Z"}
	diffFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1.5, -2.25, math.MaxFloat64, math.SmallestNonzeroFloat64}
)

func randString(r *rand.Rand, n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		switch r.IntN(4) {
		case 0:
			sb.WriteString("é")
		case 1:
			sb.WriteString("日")
		case 2:
			sb.WriteString("🙂")
		default:
			sb.WriteByte(byte('a' + r.IntN(26)))
		}
	}
	return sb.String()
}

// diffBatch builds rows [start, start+n) of the differential input.
func diffBatch(t testing.TB, fields []spec.DataField, r *rand.Rand, start, n int) arrow.RecordBatch {
	t.Helper()
	sc, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	null := func(p int) bool { return r.IntN(100) < p }
	for k := 0; k < n; k++ {
		row := start + k
		b.Field(0).(*array.Int64Builder).Append(int64(row)*7919 - 1e6)
		sb := func(i int, p int, v func() string) {
			if null(p) {
				b.Field(i).AppendNull()
			} else {
				b.Field(i).(*array.StringBuilder).Append(v())
			}
		}
		sb(1, 10, func() string {
			if r.IntN(100) == 0 {
				return diffWords[r.IntN(len(diffWords))]
			}
			return randString(r, 20+r.IntN(200))
		})
		sb(2, 20, func() string { return diffCities[r.IntN(len(diffCities))] })
		sb(3, 0, func() string { return fmt.Sprintf("2026-12-%02d", 1+row%3) })
		fl := func(i, p int, fv []float64) {
			if null(p) {
				b.Field(i).AppendNull()
				return
			}
			v := fv[r.IntN(len(fv))]
			if r.IntN(3) == 0 {
				v = r.NormFloat64() * 1e6
			}
			switch fb := b.Field(i).(type) {
			case *array.Float64Builder:
				fb.Append(v)
			case *array.Float32Builder:
				fb.Append(float32(v))
			}
		}
		fl(4, 15, diffFloats)
		fl(5, 15, diffFloats)
		if null(30) {
			b.Field(6).AppendNull()
		} else {
			b.Field(6).(*array.Int32Builder).Append(int32(r.IntN(5) - 2))
		}
		b.Field(7).(*array.Int8Builder).Append(int8(r.IntN(4) - 1))
		if null(5) {
			b.Field(8).AppendNull()
		} else {
			b.Field(8).(*array.Int16Builder).Append(int16(r.IntN(65536) - 32768))
		}
		if null(5) {
			b.Field(9).AppendNull()
		} else {
			b.Field(9).(*array.Date32Builder).Append(arrow.Date32(r.IntN(40000) - 20000))
		}
		if null(5) {
			b.Field(10).AppendNull()
		} else {
			b.Field(10).(*array.Time32Builder).Append(arrow.Time32(r.IntN(86400000)))
		}
		if null(10) {
			b.Field(11).AppendNull()
		} else {
			b.Field(11).(*array.BooleanBuilder).Append(r.IntN(2) == 0)
		}
		if null(10) {
			b.Field(12).AppendNull()
		} else {
			v := make([]byte, r.IntN(20))
			for j := range v {
				v[j] = byte(0xF0 + r.IntN(16))
			}
			b.Field(12).(*array.BinaryBuilder).Append(v)
		}
		tsb := func(i int) {
			if null(10) {
				b.Field(i).AppendNull()
			} else {
				b.Field(i).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Int64N(1<<50) - 1<<49))
			}
		}
		tsb(13)
		tsb(14)
		b.Field(15).AppendNull()
		sb(16, 5, func() string {
			if row < 7000 {
				return diffCities[r.IntN(3)]
			}
			return fmt.Sprintf("%08d-%s", row, strings.Repeat("y", 90))
		})
		b.Field(17).(*array.Int64Builder).Append(int64(row))
		b.Field(18).AppendNull()
		b.Field(19).(*array.Float64Builder).Append(math.NaN())
		b.Field(20).(*array.Float64Builder).Append(0)
		if row%97 == 0 {
			b.Field(21).AppendNull()
		} else {
			b.Field(21).(*array.Int64Builder).Append(r.Int64() - math.MaxInt64/2)
		}
		b.Field(22).(*array.StringBuilder).Append("")
		sb(23, 50, func() string { return strings.Repeat(string(rune('a'+row%26)), 4000+row%200) })
		b.Field(24).(*array.BooleanBuilder).Append(row%5 != 0)
		d := r.NormFloat64() * 1e9
		if r.IntN(100) == 0 {
			d = diffFloats[r.IntN(len(diffFloats))]
		}
		b.Field(25).(*array.Float64Builder).Append(d)
		b.Field(26).(*array.Float32Builder).Append(float32(d))
	}
	return b.NewRecordBatch()
}

// writeBoth writes the same batches through the fast and the general path.
func writeBoth(t *testing.T, fields []spec.DataField, batches []arrow.RecordBatch, opts WriterOptions) (fast, general []byte, fs, gs FileStats) {
	t.Helper()
	write := func(general bool) ([]byte, FileStats) {
		o := opts
		o.general = general
		data, st, fastPath := writeBatches(t, fields, batches, o)
		if fastPath == general {
			t.Fatalf("general=%v but fast path=%v", general, fastPath)
		}
		return data, st
	}
	fast, fs = write(false)
	general, gs = write(true)
	return
}

// cell renders value i of arr exactly (floats by bit pattern, so -0.0 and NaN payloads count).
func cell(arr arrow.Array, i int) string {
	if arr.IsNull(i) {
		return "null"
	}
	switch a := arr.(type) {
	case *array.Float64:
		return fmt.Sprintf("%016x", math.Float64bits(a.Value(i)))
	case *array.Float32:
		return fmt.Sprintf("%08x", math.Float32bits(a.Value(i)))
	case *array.String:
		return fmt.Sprintf("%q", a.Value(i))
	case *array.Binary:
		return fmt.Sprintf("%x", a.Value(i))
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)))
	}
	return arr.ValueStr(i)
}

// pqarrowColumns reads data with arrow-go's pqarrow (not lakeload's Reader) and renders each column.
func pqarrowColumns(t *testing.T, data []byte) [][]string {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	out := make([][]string, tbl.NumCols())
	for c := range out {
		for _, ch := range tbl.Column(c).Data().Chunks() {
			for i := 0; i < ch.Len(); i++ {
				out[c] = append(out[c], cell(ch, i))
			}
		}
	}
	return out
}

func inputColumns(batches []arrow.RecordBatch, ncol int) [][]string {
	out := make([][]string, ncol)
	for _, rec := range batches {
		for c := range out {
			col := rec.Column(c)
			for i := 0; i < col.Len(); i++ {
				out[c] = append(out[c], cell(col, i))
			}
		}
	}
	return out
}

type chunkFacts struct {
	stats               string
	dict, plain, rleDic bool
	pages               int // data pages
	plainPages          int // data pages encoded PLAIN
}

// footerFacts describes every column chunk of a file: footer statistics, encodings, data pages.
func footerFacts(t *testing.T, data []byte) (rows []int64, chunks [][]chunkFacts, sch string, md *metadata.FileMetaData) {
	t.Helper()
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	md = rd.MetaData()
	var sb strings.Builder
	schema.PrintSchema(md.Schema.Root(), &sb, 2)
	for g := 0; g < rd.NumRowGroups(); g++ {
		rgm := md.RowGroup(g)
		rows = append(rows, rgm.NumRows())
		var cs []chunkFacts
		for c := 0; c < rgm.NumColumns(); c++ {
			cc, err := rgm.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			var f chunkFacts
			if ok, _ := cc.StatsSet(); ok {
				st, err := cc.Statistics()
				if err != nil {
					t.Fatal(err)
				}
				f.stats = fmt.Sprintf("minmax=%v min=%x max=%x nulls=%v/%d", st.HasMinMax(), st.EncodeMin(), st.EncodeMax(), st.HasNullCount(), st.NullCount())
			}
			for _, e := range cc.Encodings() {
				switch e {
				case parquet.Encodings.Plain:
					f.plain = true
				case parquet.Encodings.RLEDict:
					f.rleDic = true
				}
			}
			f.dict = cc.HasDictionaryPage()
			pr, err := rd.RowGroup(g).GetColumnPageReader(c)
			if err != nil {
				t.Fatal(err)
			}
			for pr.Next() {
				if dp, ok := pr.Page().(*file.DataPageV1); ok {
					f.pages++
					if parquet.Encoding(dp.Encoding()) == parquet.Encodings.Plain {
						f.plainPages++
					}
				}
			}
			if err := pr.Err(); err != nil {
				t.Fatal(err)
			}
			cs = append(cs, f)
		}
		chunks = append(chunks, cs)
	}
	return rows, chunks, sb.String(), md
}

// TestFastPathMatchesGeneralPath is the differential test of the fast path (fastwriter.go)
// against the general arrow-go column writers: pqarrow reads identical values (equal to the
// input), FileStats are identical, and the footers have the same schema, row groups and
// per-chunk statistics.
func TestFastPathMatchesGeneralPath(t *testing.T) {
	fields := diffFields()
	r := rand.New(rand.NewPCG(18, 2026))
	var batches []arrow.RecordBatch
	for _, start := range []int{0, 7000, 14000, 21000} {
		batches = append(batches, diffBatch(t, fields, r, start, 7000))
	}
	batches = append(batches, diffBatch(t, fields, r, 28000, 0)) // an empty batch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for _, codec := range []string{"zstd", "snappy", "none"} {
		t.Run(codec, func(t *testing.T) {
			fast, general, fs, gs := writeBoth(t, fields, batches, WriterOptions{Compression: codec, RowGroupRows: 12000})
			compareFiles(t, fields, batches, fast, general, fs, gs)
			if codec != "zstd" {
				return
			}
			// The input exercises what it is meant to: several row groups, several data pages
			// per chunk, dictionary and PLAIN columns, a dictionary fallback.
			rows, chunks, _, _ := footerFacts(t, fast)
			if fmt.Sprint(rows) != "[12000 12000 4000]" {
				t.Fatalf("row groups %v", rows)
			}
			col := func(name string) int {
				for i, f := range fields {
					if f.Name == name {
						return i
					}
				}
				t.Fatalf("no field %s", name)
				return 0
			}
			if c := chunks[0][col("name")]; c.dict || c.pages < 2 || c.plainPages != c.pages {
				t.Errorf("name chunk: %+v, want PLAIN in several pages", c)
			}
			for _, n := range []string{"city", "dt", "i", "kind"} {
				if c := chunks[0][col(n)]; !c.dict || !c.rleDic || c.pages != 1 || c.plainPages != 0 {
					t.Errorf("%s chunk: %+v, want one RLE_DICTIONARY page", n, c)
				}
			}
			for _, n := range []string{"dd", "ff", "id", "seq"} {
				if c := chunks[0][col(n)]; c.dict || c.plainPages != c.pages {
					t.Errorf("%s chunk: %+v, want PLAIN pages only", n, c)
				}
			}
			if c := chunks[1][col("fb")]; !c.dict || !c.rleDic || c.plainPages == 0 || c.plainPages == c.pages {
				t.Errorf("fb chunk of row group 1: %+v, want dictionary fallback to PLAIN", c)
			}
		})
	}
}

func compareFiles(t *testing.T, fields []spec.DataField, batches []arrow.RecordBatch, fast, general []byte, fs, gs FileStats) {
	t.Helper()
	want := inputColumns(batches, len(fields))
	for name, data := range map[string][]byte{"fast": fast, "general": general} {
		got := pqarrowColumns(t, data)
		for c := range fields {
			if len(got[c]) != len(want[c]) {
				t.Fatalf("%s: column %s: %d values, want %d", name, fields[c].Name, len(got[c]), len(want[c]))
			}
			for i := range got[c] {
				if got[c][i] != want[c][i] {
					t.Fatalf("%s: column %s row %d: %s, want %s", name, fields[c].Name, i, got[c][i], want[c][i])
				}
			}
		}
	}
	if fs.RowCount != gs.RowCount || fmt.Sprintf("%#v", fs.Columns) != fmt.Sprintf("%#v", gs.Columns) {
		t.Errorf("FileStats differ:\nfast    %d %#v\ngeneral %d %#v", fs.RowCount, fs.Columns, gs.RowCount, gs.Columns)
	}
	frows, fchunks, fschema, fmd := footerFacts(t, fast)
	grows, gchunks, gschema, gmd := footerFacts(t, general)
	if fschema != gschema {
		t.Errorf("schemas differ:\nfast:\n%s\ngeneral:\n%s", fschema, gschema)
	}
	if fmt.Sprint(frows) != fmt.Sprint(grows) {
		t.Fatalf("row groups: fast %v, general %v", frows, grows)
	}
	if fmd.GetCreatedBy() != gmd.GetCreatedBy() || fmd.NumRows != gmd.NumRows || fmd.Version() != gmd.Version() {
		t.Errorf("file metadata: fast %q %d %v, general %q %d %v", fmd.GetCreatedBy(), fmd.NumRows, fmd.Version(), gmd.GetCreatedBy(), gmd.NumRows, gmd.Version())
	}
	for g := range fchunks {
		for c := range fchunks[g] {
			if fchunks[g][c].stats != gchunks[g][c].stats {
				t.Errorf("row group %d column %s statistics:\nfast    %s\ngeneral %s", g, fields[c].Name, fchunks[g][c].stats, gchunks[g][c].stats)
			}
		}
	}
}

// TestFastPathZeroRows: a file without rows (no Write, or only empty batches) matches too.
func TestFastPathZeroRows(t *testing.T) {
	fields := diffFields()
	r := rand.New(rand.NewPCG(1, 2))
	empty := diffBatch(t, fields, r, 0, 0)
	defer empty.Release()
	for _, batches := range [][]arrow.RecordBatch{nil, {empty}} {
		fast, general, fs, gs := writeBoth(t, fields, batches, WriterOptions{})
		compareFiles(t, fields, batches, fast, general, fs, gs)
	}
}
