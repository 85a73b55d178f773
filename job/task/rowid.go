package task

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// What a task needs of row-id mode (job.Config.IDColumn; job/rowid.go holds the driver's part):
// the id column, the canonical text of an id, and the ids an earlier window published, which the
// task skips.

// IDColumnIndex returns the position of the id column in the table schema, refusing a column that
// does not exist or whose type has no canonical id text (only integer and string types do).
func IDColumnIndex(s *spec.TableSchema, name string) (int, error) {
	for i, f := range s.Fields {
		if f.Name != name {
			continue
		}
		switch f.Type.Root {
		case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Char, spec.VarChar:
			return i, nil
		}
		return -1, fmt.Errorf("job: id column %q has type %s; an id column must be an integer (TINYINT…BIGINT) or string (CHAR, VARCHAR) column", name, f.Type)
	}
	return -1, fmt.Errorf("job: id column %q is not a column of the table", name)
}

// IDTexts returns the canonical text of each id in col (decimal for integers, the string itself);
// a null id is an error naming its row via at.
func IDTexts(col arrow.Array, at func(i int) string) ([]string, error) {
	out := make([]string, col.Len())
	for i := range out {
		if col.IsNull(i) {
			return nil, fmt.Errorf("null id at %s: every row needs an id in row-id mode", at(i))
		}
		switch c := col.(type) {
		case *array.Int8:
			out[i] = strconv.FormatInt(int64(c.Value(i)), 10)
		case *array.Int16:
			out[i] = strconv.FormatInt(int64(c.Value(i)), 10)
		case *array.Int32:
			out[i] = strconv.FormatInt(int64(c.Value(i)), 10)
		case *array.Int64:
			out[i] = strconv.FormatInt(c.Value(i), 10)
		case *array.String:
			out[i] = c.Value(i)
		case *array.LargeString:
			out[i] = c.Value(i)
		default:
			return nil, fmt.Errorf("job: id column of arrow type %s is not supported", col.DataType())
		}
	}
	return out, nil
}

// RowAt names row r (0-based within the file, header excluded) of a split's file for messages.
func RowAt(path string, r int64) string { return fmt.Sprintf("%s data row %d", path, r+1) }

// IDFilter is what a task needs in row-id mode: where the id is and which ids to skip.
type IDFilter struct {
	col       int
	published map[string]int64 // ids published by earlier windows: skipped
}

// NewIDFilter returns the filter of a window: the id is field col of the table schema, and the ids
// in published (id → the window that published it) are skipped.
func NewIDFilter(col int, published map[string]int64) *IDFilter {
	return &IDFilter{col: col, published: published}
}

// keep records the ids of rec's rows and returns which rows to write (nil: all of them).
func (f *IDFilter) keep(rec arrow.RecordBatch, at func(int) string, ids *[]string) ([]bool, error) {
	texts, err := IDTexts(rec.Column(f.col), at)
	if err != nil {
		return nil, &source.InputError{Err: err}
	}
	var keep []bool
	for k, id := range texts {
		if _, done := f.published[id]; done {
			if keep == nil {
				keep = make([]bool, len(texts))
				for j := range k {
					keep[j] = true
				}
			}
			continue
		}
		if keep != nil {
			keep[k] = true
		}
		*ids = append(*ids, id)
	}
	return keep, nil
}
