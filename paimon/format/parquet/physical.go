package parquet

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// gather returns the present values of l in the order they were recorded.
func gather[T any](l *leaf, vals []T) []T {
	if l.all {
		return vals
	}
	out := make([]T, len(l.idx))
	for k, i := range l.idx {
		out[k] = vals[i]
	}
	return out
}

func widen32[T int8 | int16](l *leaf, vals []T) []int32 {
	n := len(vals)
	if !l.all {
		n = len(l.idx)
	}
	out := make([]int32, n)
	if l.all {
		for k, v := range vals {
			out[k] = int32(v)
		}
		return out
	}
	for k, i := range l.idx {
		out[k] = int32(vals[i])
	}
	return out
}

// indices returns the indices of present values.
func (l *leaf) indices() []int {
	if !l.all {
		return l.idx
	}
	out := make([]int, l.arr.Len())
	for i := range out {
		out[i] = i
	}
	return out
}

// levels returns the def/rep levels to hand to the column writer (nil where the max level is 0).
func (l *leaf) levels() (def, rep []int16) {
	if l.maxDef > 0 {
		def = l.def
	}
	if l.maxRep > 0 {
		rep = l.rep
	}
	return def, rep
}

// writeLeaf converts the present values of l to its Parquet physical type and writes them with
// their levels to cw.
func writeLeaf(cw file.ColumnChunkWriter, l *leaf) error {
	def, rep := l.levels()
	arr := l.arr
	if arr == nil { // every slot absent
		dt, err := arrowconv.ArrowType(l.t)
		if err != nil {
			return err
		}
		arr = array.MakeArrayOfNull(memory.DefaultAllocator, dt, 0)
		defer arr.Release()
		l.arr = arr
	}
	var err error
	switch w := cw.(type) {
	case *file.BooleanColumnChunkWriter:
		a, ok := arr.(*array.Boolean)
		if !ok {
			return typeMismatch(l, arr)
		}
		idx := l.indices()
		vals := make([]bool, len(idx))
		for k, i := range idx {
			vals[k] = a.Value(i)
		}
		_, err = w.WriteBatch(vals, def, rep)
	case *file.Int32ColumnChunkWriter:
		var vals []int32
		switch a := arr.(type) {
		case *array.Int8:
			vals = widen32(l, a.Int8Values())
		case *array.Int16:
			vals = widen32(l, a.Int16Values())
		case *array.Int32:
			vals = gather(l, a.Int32Values())
		case *array.Date32:
			vals = gather(l, arrow.Int32Traits.CastFromBytes(arrow.Date32Traits.CastToBytes(a.Date32Values())))
		case *array.Time32:
			vals = gather(l, arrow.Int32Traits.CastFromBytes(arrow.Time32Traits.CastToBytes(a.Time32Values())))
		case *array.Decimal128:
			idx := l.indices()
			vals = make([]int32, len(idx))
			for k, i := range idx {
				v, err := checkedDecimal(a.Value(i), l.t)
				if err != nil {
					return err
				}
				vals[k] = int32(v.LowBits())
			}
		default:
			return typeMismatch(l, arr)
		}
		_, err = w.WriteBatch(vals, def, rep)
	case *file.Int64ColumnChunkWriter:
		var vals []int64
		switch a := arr.(type) {
		case *array.Int64:
			vals = gather(l, a.Int64Values())
		case *array.Timestamp:
			vals = gather(l, arrow.Int64Traits.CastFromBytes(arrow.TimestampTraits.CastToBytes(a.TimestampValues())))
		case *array.Decimal128:
			idx := l.indices()
			vals = make([]int64, len(idx))
			for k, i := range idx {
				v, err := checkedDecimal(a.Value(i), l.t)
				if err != nil {
					return err
				}
				vals[k] = int64(v.LowBits())
			}
		default:
			return typeMismatch(l, arr)
		}
		_, err = w.WriteBatch(vals, def, rep)
	case *file.Int96ColumnChunkWriter:
		a, ok := arr.(*array.Timestamp)
		if !ok || a.DataType().(*arrow.TimestampType).Unit != arrow.Nanosecond {
			return typeMismatch(l, arr)
		}
		idx := l.indices()
		vals := make([]parquet.Int96, len(idx))
		for k, i := range idx {
			vals[k] = nanosToInt96(int64(a.Value(i)))
		}
		_, err = w.WriteBatch(vals, def, rep)
	case *file.Float32ColumnChunkWriter:
		a, ok := arr.(*array.Float32)
		if !ok {
			return typeMismatch(l, arr)
		}
		_, err = w.WriteBatch(gather(l, a.Float32Values()), def, rep)
	case *file.Float64ColumnChunkWriter:
		a, ok := arr.(*array.Float64)
		if !ok {
			return typeMismatch(l, arr)
		}
		_, err = w.WriteBatch(gather(l, a.Float64Values()), def, rep)
	case *file.ByteArrayColumnChunkWriter:
		idx := l.indices()
		vals := make([]parquet.ByteArray, len(idx))
		switch a := arr.(type) {
		case *array.String:
			value := arrowconv.StringValues(a)
			for k, i := range idx {
				vals[k] = value(i)
			}
		case *array.Binary:
			for k, i := range idx {
				vals[k] = a.Value(i)
			}
		default:
			return typeMismatch(l, arr)
		}
		_, err = w.WriteBatch(vals, def, rep)
	case *file.FixedLenByteArrayColumnChunkWriter:
		a, ok := arr.(*array.Decimal128)
		if !ok {
			return typeMismatch(l, arr)
		}
		width := w.Descr().TypeLength()
		idx := l.indices()
		buf := make([]byte, len(idx)*width)
		vals := make([]parquet.FixedLenByteArray, len(idx))
		for k, i := range idx {
			v, err := checkedDecimal(a.Value(i), l.t)
			if err != nil {
				return err
			}
			vals[k] = putDecimalBE(buf[k*width:(k+1)*width], v)
		}
		_, err = w.WriteBatch(vals, def, rep)
	default:
		return fmt.Errorf("unsupported column writer %T", cw)
	}
	return err
}

func typeMismatch(l *leaf, arr arrow.Array) error {
	return fmt.Errorf("arrow %s does not match Paimon type root %d", arr.DataType(), l.t.Root)
}

func checkedDecimal(v decimal128.Num, t spec.DataType) (decimal128.Num, error) {
	if !v.FitsInPrecision(int32(t.Precision)) {
		return v, fmt.Errorf("decimal %s does not fit DECIMAL(%d, %d)", v.ToString(int32(t.Scale)), t.Precision, t.Scale)
	}
	return v, nil
}

// putDecimalBE writes v as big-endian two's complement into dst (len(dst) <= 16).
func putDecimalBE(dst []byte, v decimal128.Num) []byte {
	var full [16]byte
	binary.BigEndian.PutUint64(full[:8], uint64(v.HighBits()))
	binary.BigEndian.PutUint64(full[8:], v.LowBits())
	copy(dst, full[16-len(dst):])
	return dst
}

const (
	nanosPerDay      = int64(86400) * 1e9
	julianEpochDelta = int64(2440588) // Julian day of 1970-01-01
)

// nanosToInt96 encodes epoch nanos as Impala INT96: nanos of day (LE int64) + Julian day (LE int32).
func nanosToInt96(ns int64) parquet.Int96 {
	days := ns / nanosPerDay
	nod := ns % nanosPerDay
	if nod < 0 {
		nod += nanosPerDay
		days--
	}
	var out parquet.Int96
	binary.LittleEndian.PutUint64(out[:8], uint64(nod))
	binary.LittleEndian.PutUint32(out[8:], uint32(int32(days+julianEpochDelta)))
	return out
}
