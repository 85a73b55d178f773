package binrow

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Set writes datum v (see spec.Datum; nil = NULL) into field i of type t. It returns an error,
// leaving the row unchanged, for an out-of-range index, an unsupported type, a Go value of the
// wrong type for t, or a value the type cannot hold.
func (b *Builder) Set(i int, t spec.DataType, v any) error {
	if i < 0 || i >= b.arity {
		return fmt.Errorf("binrow: field index %d outside row of arity %d", i, b.arity)
	}
	if err := checkSupported(t); err != nil {
		return fmt.Errorf("field %d: %w", i, err)
	}
	if v == nil {
		b.SetNull(i, t)
		return nil
	}
	ok := true
	switch t.Root {
	case spec.Boolean:
		var x bool
		if x, ok = v.(bool); ok {
			b.SetBool(i, x)
		}
	case spec.TinyInt:
		var x int8
		if x, ok = v.(int8); ok {
			b.SetInt8(i, x)
		}
	case spec.SmallInt:
		var x int16
		if x, ok = v.(int16); ok {
			b.SetInt16(i, x)
		}
	case spec.Int, spec.Date, spec.Time:
		var x int32
		if x, ok = v.(int32); ok {
			b.SetInt32(i, x)
		}
	case spec.BigInt:
		var x int64
		if x, ok = v.(int64); ok {
			b.SetInt64(i, x)
		}
	case spec.Float:
		var x float32
		if x, ok = v.(float32); ok {
			b.SetFloat32(i, x)
		}
	case spec.Double:
		var x float64
		if x, ok = v.(float64); ok {
			b.SetFloat64(i, x)
		}
	case spec.Decimal:
		var x spec.DecimalValue
		if x, ok = v.(spec.DecimalValue); ok {
			if err := b.SetDecimal(i, t.Precision, x.Unscaled); err != nil {
				return fmt.Errorf("field %d (%s): %w", i, typeName(t), err)
			}
		}
	case spec.Char, spec.VarChar:
		var x string
		if x, ok = v.(string); ok {
			b.SetString(i, x)
		}
	case spec.Binary, spec.VarBinary:
		var x []byte
		if x, ok = v.([]byte); ok {
			b.SetBytes(i, x)
		}
	case spec.Timestamp, spec.TimestampLTZ:
		var x spec.TimestampValue
		if x, ok = v.(spec.TimestampValue); ok {
			if err := b.SetTimestamp(i, t.Precision, x); err != nil {
				return fmt.Errorf("field %d (%s): %w", i, typeName(t), err)
			}
		}
	}
	if !ok {
		return fmt.Errorf("binrow: field %d (%s): want %s, got %T", i, typeName(t), datumGoType(t), v)
	}
	return nil
}

// datumGoType names the Go type of a non-null datum of t (spec.Datum model).
func datumGoType(t spec.DataType) string {
	switch t.Root {
	case spec.Boolean:
		return "bool"
	case spec.TinyInt:
		return "int8"
	case spec.SmallInt:
		return "int16"
	case spec.Int, spec.Date, spec.Time:
		return "int32"
	case spec.BigInt:
		return "int64"
	case spec.Float:
		return "float32"
	case spec.Double:
		return "float64"
	case spec.Decimal:
		return "spec.DecimalValue"
	case spec.Char, spec.VarChar:
		return "string"
	case spec.Binary, spec.VarBinary:
		return "[]byte"
	case spec.Timestamp, spec.TimestampLTZ:
		return "spec.TimestampValue"
	}
	return "?"
}
