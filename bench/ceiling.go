package bench

import (
	"context"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ceilingSchema is a PK data file's layout: _KEY_id, _SEQUENCE_NUMBER, _VALUE_KIND, then the input columns.
var ceilingSchema = arrow.NewSchema(append([]arrow.Field{
	{Name: "_KEY_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "_SEQUENCE_NUMBER", Type: arrow.PrimitiveTypes.Int64},
	{Name: "_VALUE_KIND", Type: arrow.PrimitiveTypes.Int8},
}, InputSchema.Fields()...), nil)

// runCeiling reads the input with arrow-go and writes the same rows plus the PK system columns as one
// zstd (level 1) Parquet file in dir, on one goroutine like the lakeload writer: no sort, no metadata.
// It returns the rows written.
func runCeiling(ctx context.Context, paths []string, dir string) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	out, err := os.Create(filepath.Join(dir, "ceiling.parquet"))
	if err != nil {
		return 0, err
	}
	defer out.Close()
	// The data-page settings lakeload's parquet.Writer uses (page v1, plain + dictionary).
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd), parquet.WithCompressionLevel(1),
		parquet.WithDataPageVersion(parquet.DataPageV1), parquet.WithEncoding(parquet.Encodings.Plain),
		parquet.WithDictionaryDefault(true))
	fw, err := pqarrow.NewFileWriter(ceilingSchema, out, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return 0, err
	}
	var seq, rows int64
	err = ReadInput(ctx, paths, func(rec arrow.RecordBatch) error {
		n := int(rec.NumRows())
		sb := array.NewInt64Builder(memory.DefaultAllocator)
		kb := array.NewInt8Builder(memory.DefaultAllocator)
		sb.Reserve(n)
		kb.Reserve(n)
		for i := 0; i < n; i++ {
			sb.UnsafeAppend(seq)
			kb.UnsafeAppend(0)
			seq++
		}
		s, k := sb.NewArray(), kb.NewArray()
		sb.Release()
		kb.Release()
		defer s.Release()
		defer k.Release()
		cols := append([]arrow.Array{rec.Column(0), s, k}, rec.Columns()...)
		out := array.NewRecordBatch(ceilingSchema, cols, int64(n))
		defer out.Release()
		rows += int64(n)
		return fw.Write(out) // one row group per input batch
	})
	if err != nil {
		return rows, err
	}
	return rows, fw.Close()
}
