package file

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakeload/lakeload/codec/orcfile"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// orcArrowType is the Arrow type an ORC input column is read as, before source.ArrowMapping casts it
// to the table's type (the same safe widening casts as Parquet). ORC timestamps hold nanoseconds
// whatever their values: a top-level timestamp column read into a TIMESTAMP or TIMESTAMP_LTZ column
// is read in that column's unit (a value with finer digits is an error, never rounded); target is
// the table type the column feeds, nil when none.
func orcArrowType(t *orcfile.Type, target *spec.DataType) (arrow.DataType, error) {
	switch t.Kind {
	case orcfile.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case orcfile.Byte:
		return arrow.PrimitiveTypes.Int8, nil
	case orcfile.Short:
		return arrow.PrimitiveTypes.Int16, nil
	case orcfile.Int:
		return arrow.PrimitiveTypes.Int32, nil
	case orcfile.Long:
		return arrow.PrimitiveTypes.Int64, nil
	case orcfile.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case orcfile.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case orcfile.String, orcfile.Varchar, orcfile.Char:
		return arrow.BinaryTypes.String, nil
	case orcfile.Binary:
		return arrow.BinaryTypes.Binary, nil
	case orcfile.Date:
		return arrow.FixedWidthTypes.Date32, nil
	case orcfile.Decimal:
		p := t.Precision
		if p <= 0 || p > 38 {
			p = 38 // the footer leaves the precision out: Hive's maximum
		}
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(t.Scale)}, nil
	case orcfile.Timestamp, orcfile.TimestampInstant:
		unit := arrow.Nanosecond
		if target != nil && (target.Root == spec.Timestamp || target.Root == spec.TimestampLTZ) {
			unit = timestampUnit(target.Precision)
		}
		zone := ""
		if t.Kind == orcfile.TimestampInstant {
			zone = "UTC"
		}
		return &arrow.TimestampType{Unit: unit, TimeZone: zone}, nil
	case orcfile.List:
		e, err := orcArrowType(t.Children[0], nil)
		if err != nil {
			return nil, err
		}
		return arrow.ListOf(e), nil
	case orcfile.Map:
		k, err := orcArrowType(t.Children[0], nil)
		if err != nil {
			return nil, err
		}
		v, err := orcArrowType(t.Children[1], nil)
		if err != nil {
			return nil, err
		}
		return arrow.MapOf(k, v), nil
	case orcfile.Struct:
		fields := make([]arrow.Field, len(t.Children))
		for i, c := range t.Children {
			ft, err := orcArrowType(c, nil)
			if err != nil {
				return nil, err
			}
			fields[i] = arrow.Field{Name: t.FieldNames[i], Type: ft, Nullable: true}
		}
		return arrow.StructOf(fields...), nil
	}
	return nil, fmt.Errorf("ORC type %s is not supported as input: convert the column (or leave it out of the table with --ignore-extra-columns)", t.Kind)
}

// timestampUnit is the Arrow unit holding a TIMESTAMP(precision) exactly.
func timestampUnit(precision int) arrow.TimeUnit {
	switch {
	case precision <= 0:
		return arrow.Second
	case precision <= 3:
		return arrow.Millisecond
	case precision <= 6:
		return arrow.Microsecond
	}
	return arrow.Nanosecond
}

var bigTen = big.NewInt(10)

// appendORC appends one orcfile value of ORC type t to b (built for orcArrowType(t, …)). An error
// says why the value cannot be held exactly (a timestamp finer than its column, a decimal out of
// its type), or that the decoded value does not have its type's Go form (a damaged file).
func appendORC(b array.Builder, t *orcfile.Type, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error { return fmt.Errorf("%w: ORC %s column holds a %T", spec.ErrCorrupt, t.Kind, v) }
	switch t.Kind {
	case orcfile.Boolean:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		b.(*array.BooleanBuilder).Append(x)
	case orcfile.Byte:
		x, ok := v.(int8)
		if !ok {
			return bad()
		}
		b.(*array.Int8Builder).Append(x)
	case orcfile.Short:
		x, ok := v.(int16)
		if !ok {
			return bad()
		}
		b.(*array.Int16Builder).Append(x)
	case orcfile.Int:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		b.(*array.Int32Builder).Append(x)
	case orcfile.Long:
		x, ok := v.(int64)
		if !ok {
			return bad()
		}
		b.(*array.Int64Builder).Append(x)
	case orcfile.Float:
		x, ok := v.(float32)
		if !ok {
			return bad()
		}
		b.(*array.Float32Builder).Append(x)
	case orcfile.Double:
		x, ok := v.(float64)
		if !ok {
			return bad()
		}
		b.(*array.Float64Builder).Append(x)
	case orcfile.String, orcfile.Varchar, orcfile.Char:
		x, ok := v.(string)
		if !ok {
			return bad()
		}
		if t.Kind == orcfile.Char {
			x = strings.TrimRight(x, " ") // CHAR(n) pads to n; readers (Hive, Java Paimon) return it trimmed
		}
		b.(*array.StringBuilder).Append(x)
	case orcfile.Binary:
		x, ok := v.([]byte)
		if !ok {
			return bad()
		}
		b.(*array.BinaryBuilder).Append(x)
	case orcfile.Date:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		b.(*array.Date32Builder).Append(arrow.Date32(x))
	case orcfile.Decimal:
		d, ok := v.(orcfile.DecimalValue)
		if !ok || d.Unscaled == nil {
			return bad()
		}
		dt := b.Type().(*arrow.Decimal128Type)
		u := new(big.Int).Set(d.Unscaled)
		switch s := int(dt.Scale); {
		case d.Scale < s:
			u.Mul(u, new(big.Int).Exp(bigTen, big.NewInt(int64(s-d.Scale)), nil))
		case d.Scale > s:
			q, r := new(big.Int).QuoRem(u, new(big.Int).Exp(bigTen, big.NewInt(int64(d.Scale-s)), nil), new(big.Int))
			if r.Sign() != 0 {
				return fmt.Errorf("decimal %s×10^-%d has more fraction digits than its column's DECIMAL(%d, %d)", d.Unscaled, d.Scale, dt.Precision, dt.Scale)
			}
			u = q
		}
		if len(new(big.Int).Abs(u).Text(10)) > int(dt.Precision) {
			return fmt.Errorf("decimal %s×10^-%d does not fit its column's DECIMAL(%d, %d)", d.Unscaled, d.Scale, dt.Precision, dt.Scale)
		}
		b.(*array.Decimal128Builder).Append(decimal128.FromBigInt(u))
	case orcfile.Timestamp, orcfile.TimestampInstant:
		ts, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		unit := b.Type().(*arrow.TimestampType).Unit
		per := unitFactorNanos(unit)
		ns := int64(ts.Nanosecond())
		if ns%per != 0 {
			return fmt.Errorf("timestamp %s has digits finer than the column holds (%s): raise the column's precision", ts.Format("2006-01-02 15:04:05.999999999"), unit)
		}
		x, err := arrow.TimestampFromTime(ts, unit)
		if err != nil {
			return fmt.Errorf("timestamp %s: %w", ts, err)
		}
		b.(*array.TimestampBuilder).Append(x)
	case orcfile.List:
		l, ok := v.([]any)
		if !ok {
			return bad()
		}
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for _, e := range l {
			if err := appendORC(lb.ValueBuilder(), t.Children[0], e); err != nil {
				return err
			}
		}
	case orcfile.Map:
		kvs, ok := v.([]orcfile.KeyValue)
		if !ok {
			return bad()
		}
		mb := b.(*array.MapBuilder)
		mb.Append(true)
		for _, kv := range kvs {
			if kv.Key == nil {
				return fmt.Errorf("%w: ORC map key is null", spec.ErrCorrupt)
			}
			if err := appendORC(mb.KeyBuilder(), t.Children[0], kv.Key); err != nil {
				return err
			}
			if err := appendORC(mb.ItemBuilder(), t.Children[1], kv.Value); err != nil {
				return err
			}
		}
	case orcfile.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, c := range t.Children {
			if err := appendORC(sb.FieldBuilder(i), c, m[t.FieldNames[i]]); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("ORC type %s is not supported as input", t.Kind)
	}
	return nil
}

func unitFactorNanos(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1e9
	case arrow.Millisecond:
		return 1e6
	case arrow.Microsecond:
		return 1e3
	}
	return 1
}

// orcColumns are the input columns of an ORC file's root struct (for schema evolution, as
// ReadColumns says): each typed as its Arrow reading would be stored.
func orcColumns(of *orcfile.File) *InputColumns {
	c := &InputColumns{Format: source.FormatORC}
	for i, ft := range of.Schema.Children {
		at, err := orcArrowType(ft, nil)
		if err != nil {
			c.Columns = append(c.Columns, Column{Name: of.Schema.FieldNames[i], Why: err})
			continue
		}
		t, why := arrowColumnType(at, true)
		c.Columns = append(c.Columns, Column{Name: of.Schema.FieldNames[i], Type: t, Why: why})
	}
	return c
}
