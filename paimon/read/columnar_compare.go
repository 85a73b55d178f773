package read

import (
	"bytes"
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
)

// keyColumn is one column of a batch viewed for ordering rows, by the rules of mergetree's
// compareDatum (Java's generated RecordComparator): nulls first (binrow.CompareNulls); integers, DATE, TIME and
// TIMESTAMP (one Arrow unit per Paimon precision) signed; FLOAT/DOUBLE as Java's
// Float/Double.compare; false < true; strings and binaries unsigned byte-wise; DECIMAL numerically.
// compare orders row i of this column against row j of o, a keyColumn of the same Arrow type.
type keyColumn interface {
	compare(i int, o keyColumn, j int) int
}

// keyColumnFor returns the keyColumn view of a, or false if its type has no typed comparator
// here (the caller then takes the row path).
func keyColumnFor(a arrow.Array) (keyColumn, bool) {
	var nulls arrow.Array
	if a.NullN() > 0 {
		nulls = a
	}
	switch c := a.(type) {
	case *array.Int8:
		return &ordColumn[int8]{v: c.Int8Values(), nulls: nulls}, true
	case *array.Int16:
		return &ordColumn[int16]{v: c.Int16Values(), nulls: nulls}, true
	case *array.Int32:
		return &ordColumn[int32]{v: c.Int32Values(), nulls: nulls}, true
	case *array.Int64:
		return &ordColumn[int64]{v: c.Int64Values(), nulls: nulls}, true
	case *array.Date32:
		return &ordColumn[arrow.Date32]{v: c.Date32Values(), nulls: nulls}, true
	case *array.Time32:
		return &ordColumn[arrow.Time32]{v: c.Time32Values(), nulls: nulls}, true
	case *array.Time64:
		return &ordColumn[arrow.Time64]{v: c.Time64Values(), nulls: nulls}, true
	case *array.Timestamp:
		return &ordColumn[arrow.Timestamp]{v: c.TimestampValues(), nulls: nulls}, true
	case *array.Float32:
		return &floatColumn[float32]{v: c.Float32Values(), nulls: nulls}, true
	case *array.Float64:
		return &floatColumn[float64]{v: c.Float64Values(), nulls: nulls}, true
	case *array.String:
		return &stringColumn{a: c, nulls: nulls}, true
	case *array.Binary:
		return &binaryColumn{a: c, nulls: nulls}, true
	case *array.Boolean:
		return &boolColumn{a: c, nulls: nulls}, true
	case *array.Decimal128:
		return &decimalColumn{a: c, nulls: nulls}, true
	}
	return nil, false
}

// keyTypeSupported reports whether keyColumnFor handles arrays of type t.
func keyTypeSupported(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIME32, arrow.TIME64,
		arrow.TIMESTAMP, arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.BINARY, arrow.BOOL, arrow.DECIMAL128:
		return true
	}
	return false
}

// cmpNulls orders by nullness (nulls first); done is false when both are non-null.
func cmpNulls(a arrow.Array, i int, b arrow.Array, j int) (c int, done bool) {
	return binrow.CompareNulls(a != nil && a.IsNull(i), b != nil && b.IsNull(j))
}

type ordColumn[T int8 | int16 | int32 | int64 | arrow.Date32 | arrow.Time32 | arrow.Time64 | arrow.Timestamp] struct {
	v     []T
	nulls arrow.Array // nil when the column has no nulls
}

func (c *ordColumn[T]) compare(i int, o keyColumn, j int) int {
	d := o.(*ordColumn[T])
	if c.nulls != nil || d.nulls != nil {
		if r, done := cmpNulls(c.nulls, i, d.nulls, j); done {
			return r
		}
	}
	return cmp.Compare(c.v[i], d.v[j])
}

type floatColumn[T float32 | float64] struct {
	v     []T
	nulls arrow.Array
}

func (c *floatColumn[T]) compare(i int, o keyColumn, j int) int {
	d := o.(*floatColumn[T])
	if c.nulls != nil || d.nulls != nil {
		if r, done := cmpNulls(c.nulls, i, d.nulls, j); done {
			return r
		}
	}
	return binrow.CompareJavaDouble(float64(c.v[i]), float64(d.v[j]))
}

type stringColumn struct {
	a     *array.String
	nulls arrow.Array
}

func (c *stringColumn) compare(i int, o keyColumn, j int) int {
	d := o.(*stringColumn)
	if c.nulls != nil || d.nulls != nil {
		if r, done := cmpNulls(c.nulls, i, d.nulls, j); done {
			return r
		}
	}
	return cmp.Compare(c.a.Value(i), d.a.Value(j))
}

type binaryColumn struct {
	a     *array.Binary
	nulls arrow.Array
}

func (c *binaryColumn) compare(i int, o keyColumn, j int) int {
	d := o.(*binaryColumn)
	if c.nulls != nil || d.nulls != nil {
		if r, done := cmpNulls(c.nulls, i, d.nulls, j); done {
			return r
		}
	}
	return bytes.Compare(c.a.Value(i), d.a.Value(j))
}

type boolColumn struct {
	a     *array.Boolean
	nulls arrow.Array
}

func (c *boolColumn) compare(i int, o keyColumn, j int) int {
	d := o.(*boolColumn)
	if c.nulls != nil || d.nulls != nil {
		if r, done := cmpNulls(c.nulls, i, d.nulls, j); done {
			return r
		}
	}
	x, y := c.a.Value(i), d.a.Value(j)
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

type decimalColumn struct {
	a     *array.Decimal128
	nulls arrow.Array
}

func (c *decimalColumn) compare(i int, o keyColumn, j int) int {
	d := o.(*decimalColumn)
	if c.nulls != nil || d.nulls != nil {
		if r, done := cmpNulls(c.nulls, i, d.nulls, j); done {
			return r
		}
	}
	x, y := c.a.Value(i), d.a.Value(j)
	return decimalCmp(x, y)
}

func decimalCmp(x, y decimal128.Num) int {
	switch {
	case x.Less(y):
		return -1
	case y.Less(x):
		return 1
	}
	return 0
}
