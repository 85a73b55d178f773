package killsoak

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/lakeload/lakeload/paimon/spec"
)

// arrowSchema is the input file schema: the table's columns (key columns non-nullable), then the
// op column when the table has one.
func arrowSchema(ts tableSpec, fields []spec.DataField) (*arrow.Schema, error) {
	var out []arrow.Field
	for i, f := range fields {
		var t arrow.DataType
		switch f.Type.Root {
		case spec.Int:
			t = arrow.PrimitiveTypes.Int32
		case spec.BigInt:
			t = arrow.PrimitiveTypes.Int64
		case spec.Double:
			t = arrow.PrimitiveTypes.Float64
		case spec.VarChar:
			t = arrow.BinaryTypes.String
		default:
			return nil, fmt.Errorf("column %s: type root %d not generated", f.Name, f.Type.Root)
		}
		out = append(out, arrow.Field{Name: f.Name, Type: t, Nullable: !ts.isKeyCol(i)})
	}
	if ts.opColumn != "" {
		out = append(out, arrow.Field{Name: ts.opColumn, Type: arrow.BinaryTypes.String})
	}
	return arrow.NewSchema(out, nil), nil
}

func (ts tableSpec) isKeyCol(i int) bool {
	for _, c := range ts.keyCols {
		if c == i {
			return true
		}
	}
	return false
}

// writeParquet writes rows to path with row groups of rowGroup rows.
func writeParquet(path string, schema *arrow.Schema, rows []genRow, rowGroup int) error {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		for i, fb := range b.Fields() {
			var v any
			if i < len(r.vals) {
				v = r.vals[i]
			} else {
				v = r.op
			}
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch x := fb.(type) {
			case *array.Int32Builder:
				x.Append(v.(int32))
			case *array.Int64Builder:
				x.Append(v.(int64))
			case *array.Float64Builder:
				x.Append(v.(float64))
			case *array.StringBuilder:
				x.Append(v.(string))
			default:
				return fmt.Errorf("builder %T not supported", fb)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(rowGroup)))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
