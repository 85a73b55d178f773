package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/format/avro"
	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/format/orc"
	"github.com/lakeload/lakeload/paimon/spec"
)

// batchIter is what every data-file decoder yields: Arrow record batches of the requested
// columns in the requested order (parquet.RecordIterator, datafile.Iterator).
type batchIter interface {
	Next() bool
	RecordBatch() arrow.RecordBatch
	Err() error
	Release()
}

// openNonParquet opens data file f at path (size bytes) of format (datafile.ORC or datafile.Avro)
// for reading cols; any other format is datafile.ErrUnsupported.
func openNonParquet(ctx context.Context, f fileio.File, path, format string, size int64, cols []datafile.Column, rows int64) (batchIter, error) {
	var it *datafile.Iterator
	var err error
	switch format {
	case datafile.ORC:
		var rd *orc.Reader
		if rd, err = orc.OpenReader(f, size); err == nil {
			it, err = rd.Read(ctx, cols, rows)
		}
	case datafile.Avro:
		var rd *avro.Reader
		if rd, err = avro.OpenReader(f, size); err == nil {
			it, err = rd.Read(ctx, cols, rows)
		}
	default:
		return nil, datafile.Unsupported(path, format)
	}
	if err != nil {
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	return &pathErrIter{Iterator: it, path: path}, nil
}

// pathErrIter names the file in the error that ends an iteration.
type pathErrIter struct {
	*datafile.Iterator
	path string
}

func (p *pathErrIter) Err() error {
	if err := p.Iterator.Err(); err != nil {
		return fmt.Errorf("data file %s: %w", p.path, err)
	}
	return nil
}

// systemColumns are the Paimon types of the key-value files' system columns.
var systemColumns = map[string]spec.DataType{
	"_SEQUENCE_NUMBER": {Root: spec.BigInt},
	"_VALUE_KIND":      {Root: spec.TinyInt},
}

// typedColumns pairs column names with their types in schema s (system columns included).
func typedColumns(s *spec.TableSchema, names []string) ([]datafile.Column, error) {
	cols := make([]datafile.Column, len(names))
	for i, n := range names {
		if t, ok := systemColumns[n]; ok {
			cols[i] = datafile.Column{Name: n, Type: t}
			continue
		}
		f, _, ok := s.Field(n)
		if !ok {
			return nil, fmt.Errorf("schema %d has no column %q", s.ID, n)
		}
		cols[i] = datafile.Column{Name: n, Type: f.Type}
	}
	return cols, nil
}
