package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ceilingSchema is a PK data file's layout: _KEY_id, _SEQUENCE_NUMBER, _VALUE_KIND, then the input columns.
var ceilingSchema = arrow.NewSchema(append([]arrow.Field{
	{Name: "_KEY_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "_SEQUENCE_NUMBER", Type: arrow.PrimitiveTypes.Int64},
	{Name: "_VALUE_KIND", Type: arrow.PrimitiveTypes.Int8},
}, InputSchema.Fields()...), nil)

// ceilingPageBytes is the data page size limit of lakeload's writer (arrow-go's default, which
// paimon/format/parquet keeps) and so of every ceiling.
const ceilingPageBytes = parquet.DefaultDataPageSize

// ceilingSettings is how a ceiling encodes: the layout and lakeload's own choices for the same data.
type ceilingSettings struct {
	PK       bool     // PK layout (ceilingSchema) instead of the input columns alone
	Dict     []string // columns with a dictionary (lakeload's choice, dictColumns); nil = every column
	RowGroup int64    // rows per row group (at most)
}

// ceilingRowGroup is the row-group size of the ceilings for rows input rows: lakeload writes 64 files
// (8 partitions × 8 buckets), each one row group of at most 65,536 rows (paimon/write chunkRows).
func ceilingRowGroup(rows int) int64 { return int64(min(max((rows+63)/64, 1), 65536)) }

// runCeiling reads the input with arrow-go and writes the same rows plus the PK system columns as one
// zstd (level 1) Parquet file in dir, on one goroutine: no sort, no metadata. Dictionary everywhere, one
// row group per input batch (the Go benchmarks' ceiling, bench_test.go). It returns the rows written.
func runCeiling(ctx context.Context, paths []string, dir string) (int64, error) {
	return runArrowGoCeiling(ctx, paths, dir, ceilingSettings{PK: true, RowGroup: batchRows})
}

// runArrowGoCeiling is the arrow-go ceiling with settings s: page v1, PLAIN + dictionary for s.Dict,
// zstd level 1, statistics on (arrow-go's default), one file.
func runArrowGoCeiling(ctx context.Context, paths []string, dir string, s ceilingSettings) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	out, err := os.Create(filepath.Join(dir, "ceiling.parquet"))
	if err != nil {
		return 0, err
	}
	defer out.Close()
	schema := InputSchema
	if s.PK {
		schema = ceilingSchema
	}
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd), parquet.WithCompressionLevel(1),
		parquet.WithDataPageVersion(parquet.DataPageV1), parquet.WithEncoding(parquet.Encodings.Plain),
		parquet.WithDataPageSize(ceilingPageBytes), parquet.WithMaxRowGroupLength(s.RowGroup),
		parquet.WithDictionaryDefault(s.Dict == nil)}
	for _, c := range s.Dict {
		opts = append(opts, parquet.WithDictionaryFor(c, true))
	}
	fw, err := pqarrow.NewFileWriter(schema, out, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
	if err != nil {
		return 0, err
	}
	var seq, rows int64
	err = ReadInput(ctx, paths, func(rec arrow.RecordBatch) error {
		n := int(rec.NumRows())
		rows += int64(n)
		if !s.PK { // the input's schema carries the reader's field-id metadata: write its columns as InputSchema
			out := array.NewRecordBatch(InputSchema, rec.Columns(), int64(n))
			defer out.Release()
			return fw.Write(out)
		}
		sb := array.NewInt64Builder(memory.DefaultAllocator)
		kb := array.NewInt8Builder(memory.DefaultAllocator)
		sb.Reserve(n)
		kb.Reserve(n)
		for i := 0; i < n; i++ {
			sb.UnsafeAppend(seq)
			kb.UnsafeAppend(0)
			seq++
		}
		sa, ka := sb.NewArray(), kb.NewArray()
		sb.Release()
		kb.Release()
		defer sa.Release()
		defer ka.Release()
		cols := append([]arrow.Array{rec.Column(0), sa, ka}, rec.Columns()...)
		out := array.NewRecordBatch(ceilingSchema, cols, int64(n))
		defer out.Release()
		return fw.Write(out) // row groups of at most s.RowGroup rows per input batch
	})
	if err != nil {
		return rows, err
	}
	return rows, fw.Close()
}

// dictColumns returns the columns of a data file of the table in warehouse wh (db.t) that lakeload gave a
// dictionary (paimon/format/parquet decides per file from its first batch, parquet-mr's break-even), and
// how many files it looked at. Every file must agree on the choice of the first; otherwise the union.
func dictColumns(wh string) ([]string, int, error) {
	files, err := filepath.Glob(filepath.Join(wh, "db.db", "t", "*", "bucket-*", "*.parquet"))
	if err != nil || len(files) == 0 {
		return nil, 0, fmt.Errorf("no data files of db.t in %s (%v)", wh, err)
	}
	var dict []string
	for _, f := range files {
		pf, err := file.OpenParquetFile(f, false)
		if err != nil {
			return nil, 0, err
		}
		md := pf.MetaData()
		if md.NumRowGroups() > 0 {
			rg := md.RowGroup(0)
			for i := 0; i < md.Schema.NumColumns(); i++ {
				cc, err := rg.ColumnChunk(i)
				if err != nil {
					pf.Close()
					return nil, 0, err
				}
				if name := md.Schema.Column(i).Name(); cc.HasDictionaryPage() && !slices.Contains(dict, name) {
					dict = append(dict, name)
				}
			}
		}
		pf.Close()
	}
	return dict, len(files), nil
}

// ceilingTools are the ceiling measures of one scenario: encoder, tool name, dictionary everywhere.
var ceilingTools = []struct {
	encoder, tool string
	dictAll       bool
}{
	{"arrow-go", "ceiling-arrow-go", false},
	{"pyarrow", "ceiling-pyarrow", false},
	{"pyarrow", "ceiling-pyarrow-dict", true},
	{"parquet-rs", "ceiling-parquet-rs", false},
	{"parquet-rs", "ceiling-parquet-rs-dict", true},
}

// ceilings measures every configured ceiling encoder on the input with lakeload's settings (dict: the
// columns lakeload gave a dictionary in this scenario), and each Python encoder also with its default
// dictionary everywhere (tool …-dict).
func (r *runner) ceilings(ctx context.Context, scenario string, round int, pk bool, dict []string) error {
	for _, ct := range ceilingTools {
		if !has(r.cfg.Ceilings, ct.encoder) {
			continue
		}
		s := ceilingSettings{PK: pk, Dict: dict, RowGroup: ceilingRowGroup(r.cfg.Rows)}
		if ct.dictAll {
			s.Dict = nil
		}
		dir, err := r.newWarehouse()
		if err != nil {
			return err
		}
		m := Measure{Scenario: scenario, Tool: ct.tool, Round: round, InBytes: r.inBytes}
		if ct.encoder == "arrow-go" { // in this process: no process rusage of its own
			start, cpu0 := time.Now(), selfCPU()
			n, err := runArrowGoCeiling(ctx, r.inputs, dir, s)
			if err != nil {
				return fmt.Errorf("%s: %w", ct.tool, err)
			}
			m.Rows, m.Elapsed, m.SpanCPU = n, time.Since(start), selfCPU()-cpu0
			m.Extra = map[string]float64{"file-MB": float64(fileBytes([]string{filepath.Join(dir, "ceiling.parquet")})) / 1e6}
		} else {
			py := r.cfg.Python
			if ct.encoder == "parquet-rs" {
				py = r.cfg.BenchPy
			}
			layout, dictEnv := "append", "*"
			if pk {
				layout = "pk"
			}
			if s.Dict != nil {
				dictEnv = strings.Join(s.Dict, ",")
			}
			env := []string{"CEILING_LAYOUT=" + layout, "CEILING_DICT=" + dictEnv,
				fmt.Sprintf("CEILING_ROW_GROUP=%d", s.RowGroup), fmt.Sprintf("CEILING_PAGE_BYTES=%d", ceilingPageBytes)}
			script := filepath.Join(r.cfg.Dir, "py", "parquet_ceiling.py")
			c, err := runChild(ctx, env, false, false, 0, py, append([]string{"-u", script, ct.encoder, dir}, r.inputs...)...)
			if err != nil {
				return err
			}
			rep, strs, err := jsonReport(script, c)
			if err != nil {
				return err
			}
			if len(rep) != 1 || int64(rep[0]["rows"]) != int64(r.cfg.Rows) {
				return fmt.Errorf("%s: bad report %v", script, c.Lines)
			}
			m.Rows, m.Elapsed, m.Usage = int64(rep[0]["rows"]), time.Duration(rep[0]["elapsed"]*1e9), c.Usage
			m.SpanCPU = time.Duration(rep[0]["cpu"] * 1e9)
			m.Extra = map[string]float64{"file-MB": rep[0]["bytes"] / 1e6, "row-groups": rep[0]["row_groups"]}
			r.rep.Versions[ct.encoder+" ceiling files"] = strs[0]["created_by"]
			r.note(fmt.Sprintf("%s %s: dictionary %s.", scenario, ct.tool, strs[0]["dictionary"]))
		}
		r.add(m)
		os.RemoveAll(dir)
	}
	return nil
}
