package loadtest

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/lakeload/lakeload/paimon/spec"
)

// opText is the op-column text of each row kind.
var opText = map[spec.RowKind]string{spec.RowKindInsert: "+I", spec.RowKindUpdateBefore: "-U",
	spec.RowKindUpdateAfter: "+U", spec.RowKindDelete: "-D"}

// WriteInputs writes the fixture's files into dir and returns the glob matching exactly them.
// Columns appear in the input in reverse table order with the op column first, so loading
// exercises mapping by name.
func (f Fixture) WriteInputs(t testing.TB, dir string) string {
	t.Helper()
	for _, fl := range f.Files {
		f.WriteFile(t, filepath.Join(dir, fl.Name), fl)
	}
	return filepath.Join(dir, "in-*")
}

// WriteFile writes one input file in the format its name implies.
func (f Fixture) WriteFile(t testing.TB, path string, fl File) {
	t.Helper()
	cols := f.inputColumns()
	var err error
	switch fl.Format() {
	case "parquet":
		err = f.writeParquet(path, cols, fl.Rows)
	case "csv":
		err = writeCSV(path, cols, fl.Rows, f.CSVDelimiter)
	case "jsonl":
		err = writeJSONL(path, cols, fl.Rows)
	default:
		err = fmt.Errorf("unknown format of %s", fl.Name)
	}
	if err != nil {
		t.Fatalf("write input %s: %v", path, err)
	}
}

// inputColumn is a column of the input files: a table field (its index) or the op column (-1).
type inputColumn struct {
	name  string
	field int
}

func (f Fixture) inputColumns() []inputColumn {
	var cols []inputColumn
	if f.OpColumn != "" {
		cols = append(cols, inputColumn{f.OpColumn, -1})
	}
	for i := len(f.Columns) - 1; i >= 0; i-- {
		cols = append(cols, inputColumn{f.Columns[i][0], i})
	}
	return cols
}

func cell(c inputColumn, r Row) any {
	if c.field < 0 {
		return opText[r.Kind]
	}
	return r.Values[c.field]
}

func writeCSV(path string, cols []inputColumn, rows []Row, delim rune) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(fh)
	if delim != 0 {
		w.Comma = delim
	}
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.name
	}
	_ = w.Write(rec)
	for _, r := range rows {
		for i, c := range cols {
			switch v := cell(c, r).(type) {
			case nil:
				rec[i] = "" // unquoted empty field = null
			case string:
				rec[i] = v
			default:
				rec[i] = fmt.Sprint(v)
			}
		}
		_ = w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func writeJSONL(path string, cols []inputColumn, rows []Row) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	for _, r := range rows {
		m := map[string]any{}
		for _, c := range cols {
			m[c.name] = cell(c, r)
		}
		b, err := json.Marshal(m)
		if err != nil {
			fh.Close()
			return err
		}
		if _, err := fh.Write(append(b, '\n')); err != nil {
			fh.Close()
			return err
		}
	}
	return fh.Close()
}

func (f Fixture) writeParquet(path string, cols []inputColumn, rows []Row) error {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		typ := arrow.DataType(arrow.BinaryTypes.String)
		if c.field >= 0 {
			switch f.Columns[c.field][1] {
			case "BIGINT", "BIGINT NOT NULL":
				typ = arrow.PrimitiveTypes.Int64
			case "INT", "INT NOT NULL":
				typ = arrow.PrimitiveTypes.Int32
			}
		}
		fields[i] = arrow.Field{Name: c.name, Type: typ, Nullable: true}
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, r := range rows {
		for i, c := range cols {
			v := cell(c, r)
			switch fb := b.Field(i).(type) {
			case *array.StringBuilder:
				if v == nil {
					fb.AppendNull()
				} else {
					fb.Append(v.(string))
				}
			case *array.Int64Builder:
				if v == nil {
					fb.AppendNull()
				} else {
					fb.Append(v.(int64))
				}
			case *array.Int32Builder:
				if v == nil {
					fb.AppendNull()
				} else {
					fb.Append(v.(int32))
				}
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), fh, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		fh.Close()
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
