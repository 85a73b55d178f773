package pqflat

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// diffSchema has a column of every Arrow type the fast path produces.
var diffSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "req", Type: arrow.BinaryTypes.String},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "tsz", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "few", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// randomRecord makes n rows; nullPct is the share of nulls in nullable columns (100: all null).
func randomRecord(rng *rand.Rand, n, nullPct int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, diffSchema)
	defer b.Release()
	words := []string{"", "a", "Oslo", "Zürich", "東京", "naïve café", strings.Repeat("x", 300)}
	null := func() bool { return rng.Intn(100) < nullPct }
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(rng.Int63() - rng.Int63())
		for c, f := range diffSchema.Fields()[1:] {
			fb := b.Field(c + 1)
			if f.Nullable && null() {
				fb.AppendNull()
				continue
			}
			switch x := fb.(type) {
			case *array.StringBuilder:
				if f.Name == "city" {
					x.Append(words[rng.Intn(len(words))])
				} else {
					x.Append(fmt.Sprintf("%s-%d", words[rng.Intn(len(words))], rng.Intn(1000)))
				}
			case *array.BinaryBuilder:
				x.Append([]byte{byte(rng.Intn(256)), 0, byte(i)}[:rng.Intn(4)%3])
			case *array.Float64Builder:
				x.Append([]float64{math.NaN(), math.Inf(-1), 0, -0.0, rng.NormFloat64()}[rng.Intn(5)])
			case *array.Float32Builder:
				x.Append(float32(rng.NormFloat64()))
			case *array.Int32Builder:
				x.Append(rng.Int31() - rng.Int31())
			case *array.Int16Builder:
				x.Append(int16(rng.Intn(65536) - 32768))
			case *array.Int8Builder:
				x.Append(int8(rng.Intn(256) - 128))
			case *array.Date32Builder:
				x.Append(arrow.Date32(rng.Intn(40000) - 20000))
			case *array.TimestampBuilder:
				x.Append(arrow.Timestamp(rng.Int63n(1 << 50)))
			case *array.Int64Builder:
				x.Append(int64(rng.Intn(3)))
			}
		}
	}
	return b.NewRecordBatch()
}

// variant is one way of writing a file.
type variant struct {
	dict     bool
	v2       bool
	codec    compress.Compression
	pageSize int64
	dictPage int64 // dictionary page size limit: small ones fall back to PLAIN mid-chunk
	groupRow int64
	noSchema bool // without the ARROW:schema metadata (fuzz seeds: arrow-go's IPC schema decoder allocates what a damaged one says)
}

func (v variant) String() string {
	return fmt.Sprintf("dict=%v v2=%v %s page=%d dictlimit=%d group=%d", v.dict, v.v2, v.codec, v.pageSize, v.dictPage, v.groupRow)
}

func writeFile(t testing.TB, rec arrow.RecordBatch, v variant) []byte {
	t.Helper()
	ver := parquet.DataPageV1
	if v.v2 {
		ver = parquet.DataPageV2
	}
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(v.dict), parquet.WithDataPageVersion(ver),
		parquet.WithCompression(v.codec), parquet.WithDataPageSize(v.pageSize), parquet.WithDictionaryPageSizeLimit(v.dictPage),
		parquet.WithMaxRowGroupLength(v.groupRow), parquet.WithBatchSize(64))
	var buf bytes.Buffer
	aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
	if v.noSchema {
		aprops = pqarrow.DefaultWriterProps()
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, aprops)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readers opens the file twice: pqarrow's record reader and the fast one (nil when not taken).
func readers(t testing.TB, data []byte, batch int64, leaves, groups []int) (pqarrow.RecordReader, *RecordReader, error) {
	open := func() (*pqarrow.FileReader, error) {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batch}, memory.DefaultAllocator)
	}
	fr, err := open()
	if err != nil {
		return nil, nil, err
	}
	want, err := fr.GetRecordReader(context.Background(), leaves, groups)
	if err != nil {
		return nil, nil, err
	}
	fr2, err := open()
	if err != nil {
		want.Release()
		return nil, nil, err
	}
	got, _ := NewRecordReader(fr2, leaves, groups, memory.DefaultAllocator)
	return want, got, nil
}

// sameBatches reads both to the end and fails on the first difference of schema, batch
// boundaries, arrays or errors.
func sameBatches(t testing.TB, name string, want pqarrow.RecordReader, got *RecordReader) {
	t.Helper()
	defer want.Release()
	defer got.Release()
	if !want.Schema().Equal(got.Schema()) {
		t.Fatalf("%s: schema %s, pqarrow %s", name, got.Schema(), want.Schema())
	}
	for b := 0; ; b++ {
		w, g := want.Next(), got.Next()
		if w != g {
			t.Fatalf("%s: batch %d: fast Next %v (err %v), pqarrow %v (err %v)", name, b, g, got.Err(), w, want.Err())
		}
		if !w {
			break
		}
		wr, gr := want.RecordBatch(), got.RecordBatch()
		if wr.NumRows() != gr.NumRows() {
			t.Fatalf("%s: batch %d has %d rows, pqarrow %d", name, b, gr.NumRows(), wr.NumRows())
		}
		for c := 0; c < int(wr.NumCols()); c++ {
			wa, ga := wr.Column(c), gr.Column(c)
			if !arrow.TypeEqual(wa.DataType(), ga.DataType()) || !array.ApproxEqual(wa, ga, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
				t.Fatalf("%s: batch %d column %s:\nfast    %v\npqarrow %v", name, b, wr.ColumnName(c), ga, wa)
			}
			if ga.NullN() != wa.NullN() {
				t.Fatalf("%s: batch %d column %s: %d nulls, pqarrow %d", name, b, wr.ColumnName(c), ga.NullN(), wa.NullN())
			}
		}
	}
	if want.Err() != nil || got.Err() != nil {
		t.Fatalf("%s: errors: fast %v, pqarrow %v", name, got.Err(), want.Err())
	}
}

func TestFlatMatchesPqarrowOnRandomFiles(t *testing.T) {
	rng := rand.New(rand.NewSource(18))
	codecs := []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip}
	rounds := 48
	if testing.Short() {
		rounds = 12
	}
	for i := 0; i < rounds; i++ {
		v := variant{dict: i%2 == 0, v2: i%4 >= 2, codec: codecs[i%len(codecs)], pageSize: []int64{256, 4096, 1 << 20}[i%3],
			dictPage: []int64{64, 1 << 20}[(i/3)%2], groupRow: []int64{50, 333, 5000}[(i/2)%3]}
		n := rng.Intn(1500)
		nulls := []int{0, 10, 50, 100}[(i/4)%4]
		rec := randomRecord(rng, n, nulls)
		data := writeFile(t, rec, v)
		rec.Release()
		batch := []int64{0, 1, 7, 64, 1000, 8192}[rng.Intn(6)]
		var leaves, groups []int
		if i%3 == 1 {
			leaves = []int{9, 1, 2, 5}
		}
		name := fmt.Sprintf("round %d (%s, %d rows, %d%% nulls, batch %d, leaves %v)", i, v, n, nulls, batch, leaves)
		if i%5 == 4 {
			pf, _ := file.NewParquetReader(bytes.NewReader(data))
			for g := 1; g < pf.NumRowGroups(); g += 2 {
				groups = append(groups, g)
			}
			if len(groups) == 0 {
				groups = []int{0}
			}
		}
		want, got, err := readers(t, data, batch, leaves, groups)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got == nil {
			t.Fatalf("%s: fast path not taken", name)
		}
		sameBatches(t, name, want, got)
	}
}

// TestFlatMatchesPqarrowOnFixtures reads every Parquet file of the repository's test data
// (written by Java Paimon, pyarrow/pypaimon, arrow-go and lakeload) both ways.
func TestFlatMatchesPqarrowOnFixtures(t *testing.T) {
	fast, all := 0, 0
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		all++
		for _, batch := range []int64{0, 3, 8192} {
			want, got, err := readers(t, data, batch, nil, nil)
			if err != nil {
				return nil // not readable by pqarrow either (damaged fixtures)
			}
			if got == nil {
				want.Release()
				continue
			}
			fast++
			sameBatches(t, fmt.Sprintf("%s batch %d", p, batch), want, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d fixture reads took the fast path", fast, all*3)
	if fast == 0 {
		t.Fatal("no fixture took the fast path")
	}
}

// TestFlatBatchOutgrowsFirstSizing reads batches of more rows than the buffers are first sized
// for (firstRows), which grow as the pages come.
func TestFlatBatchOutgrowsFirstSizing(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	rec := randomRecord(rng, firstRows+firstRows/2+7, 20)
	data := writeFile(t, rec, variant{dict: true, codec: compress.Codecs.Snappy, pageSize: 1 << 16, dictPage: 1 << 12, groupRow: 50000})
	rec.Release()
	for _, batch := range []int64{0, firstRows + 1} {
		want, got, err := readers(t, data, batch, nil, nil)
		if err != nil || got == nil {
			t.Fatalf("batch %d: %v (fast path taken: %v)", batch, err, got != nil)
		}
		sameBatches(t, fmt.Sprintf("batch %d", batch), want, got)
	}
}
