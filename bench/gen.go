package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

const (
	inputFiles = 4      // input Parquet files
	batchRows  = 65_536 // rows per Arrow batch read from the input
	partitions = 8      // distinct values of the partition column dt
	repeatPct  = 20     // percent of rows that update an earlier id
	seed       = 20261130
)

// InputSchema is the generated input: id, three strings, two doubles, an int64 timestamp, a STRING partition.
var InputSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tag", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "w", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "ts", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "dt", Type: arrow.BinaryTypes.String},
}, nil)

// TableColumns is InputSchema as Paimon (name, SQL type) pairs.
var TableColumns = [][2]string{
	{"id", "BIGINT NOT NULL"}, {"name", "STRING"}, {"city", "STRING"}, {"tag", "STRING"},
	{"v", "DOUBLE"}, {"w", "DOUBLE"}, {"ts", "BIGINT"}, {"dt", "STRING NOT NULL"},
}

var cities = []string{"Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Geneva", "Hanoi",
	"Istanbul", "Jakarta", "Kyoto", "Lima", "Madrid", "Nairobi", "Oslo", "Porto"}

// Generate writes rows deterministic rows (seeded) as inputFiles Parquet files in dir and returns their paths.
// Every row's id is its index, except repeatPct% that reuse an earlier id (updates).
func Generate(dir string, rows int) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, seed))
	var paths []string
	per := (rows + inputFiles - 1) / inputFiles
	for f, start := 0, 0; start < rows; f, start = f+1, start+per {
		end := min(start+per, rows)
		p := filepath.Join(dir, fmt.Sprintf("in-%02d.parquet", f))
		if err := writeInput(p, rng, start, end); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func writeInput(path string, rng *rand.Rand, start, end int) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	defer out.Close()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy))
	fw, err := pqarrow.NewFileWriter(InputSchema, out, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, InputSchema)
	defer b.Release()
	for i := start; i < end; {
		n := min(batchRows, end-i)
		for r := 0; r < n; r, i = r+1, i+1 {
			id := int64(i)
			if i > 0 && rng.IntN(100) < repeatPct {
				id = rng.Int64N(int64(i))
			}
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append("name-" + strconv.FormatInt(id*7919%1_000_003, 10))
			b.Field(2).(*array.StringBuilder).Append(cities[rng.IntN(len(cities))])
			b.Field(3).(*array.StringBuilder).Append(strconv.FormatUint(rng.Uint64()&0xffffffff, 16))
			b.Field(4).(*array.Float64Builder).Append(rng.Float64() * 1000)
			b.Field(5).(*array.Float64Builder).Append(float64(rng.IntN(100_000)) / 100)
			b.Field(6).(*array.Int64Builder).Append(1_760_000_000_000 + int64(i)*13)
			b.Field(7).(*array.StringBuilder).Append(fmt.Sprintf("2026-01-%02d", 1+rng.IntN(partitions)))
		}
		rec := b.NewRecordBatch()
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return fw.Close()
}

// ReadInput calls fn with every batch of the input files, in order; fn must not keep the batch.
func ReadInput(ctx context.Context, paths []string, fn func(arrow.RecordBatch) error) error {
	for _, p := range paths {
		if err := readFile(ctx, p, fn); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

func readFile(ctx context.Context, path string, fn func(arrow.RecordBatch) error) error {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		if err := fn(rr.RecordBatch()); err != nil {
			return err
		}
	}
	return rr.Err()
}
