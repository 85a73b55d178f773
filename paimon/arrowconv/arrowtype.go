package arrowconv

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/spec"
)

// FieldIDKey is the Arrow field-metadata key that carries a Parquet field id.
const FieldIDKey = "PARQUET:field_id"

// maxDecimalPrecision is Paimon's DecimalType.MAX_PRECISION.
const maxDecimalPrecision = 38

// ArrowType maps a Paimon type to the Arrow type lakeload uses in memory: STRING/CHAR/VARCHAR→String,
// BYTES/BINARY/VARBINARY→Binary, DECIMAL→Decimal128, DATE→Date32, TIME→Time32(ms),
// TIMESTAMP(p)→Timestamp (ms for p<=3, us for p<=6, ns otherwise), TIMESTAMP_LTZ→the same with
// TimeZone "UTC", ARRAY→List (element "element"), MAP→Map, MULTISET→Map(element, INT32 count),
// ROW→Struct.
func ArrowType(t spec.DataType) (arrow.DataType, error) {
	switch t.Root {
	case spec.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case spec.TinyInt:
		return arrow.PrimitiveTypes.Int8, nil
	case spec.SmallInt:
		return arrow.PrimitiveTypes.Int16, nil
	case spec.Int:
		return arrow.PrimitiveTypes.Int32, nil
	case spec.BigInt:
		return arrow.PrimitiveTypes.Int64, nil
	case spec.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case spec.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case spec.Decimal:
		if t.Precision < 1 || t.Precision > maxDecimalPrecision || t.Scale < 0 || t.Scale > t.Precision {
			return nil, fmt.Errorf("parquet: invalid DECIMAL(%d, %d)", t.Precision, t.Scale)
		}
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
	case spec.Char, spec.VarChar:
		return arrow.BinaryTypes.String, nil
	case spec.Binary, spec.VarBinary:
		return arrow.BinaryTypes.Binary, nil
	case spec.Date:
		return arrow.FixedWidthTypes.Date32, nil
	case spec.Time:
		return arrow.FixedWidthTypes.Time32ms, nil
	case spec.Timestamp, spec.TimestampLTZ:
		if t.Precision < 0 || t.Precision > 9 {
			return nil, fmt.Errorf("parquet: invalid timestamp precision %d", t.Precision)
		}
		tz := ""
		if t.Root == spec.TimestampLTZ {
			tz = "UTC"
		}
		return &arrow.TimestampType{Unit: TimestampUnit(t.Precision), TimeZone: tz}, nil
	case spec.Array:
		if t.Elem == nil {
			return nil, fmt.Errorf("parquet: ARRAY without element type")
		}
		et, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: et, Nullable: t.Elem.Nullable}), nil
	case spec.Multiset:
		if t.Elem == nil {
			return nil, fmt.Errorf("parquet: MULTISET without element type")
		}
		et, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, err
		}
		return arrow.MapOfFields(arrow.Field{Type: et}, arrow.Field{Type: arrow.PrimitiveTypes.Int32}), nil
	case spec.Map:
		if t.Elem == nil || t.Value == nil {
			return nil, fmt.Errorf("parquet: MAP without key or value type")
		}
		kt, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, err
		}
		vt, err := ArrowType(*t.Value)
		if err != nil {
			return nil, err
		}
		return arrow.MapOfFields(arrow.Field{Type: kt}, arrow.Field{Type: vt, Nullable: t.Value.Nullable}), nil
	case spec.Row:
		fs, err := arrowFields(t.Fields)
		if err != nil {
			return nil, err
		}
		return arrow.StructOf(fs...), nil
	}
	return nil, fmt.Errorf("parquet: unsupported type root %d", t.Root)
}

// TimestampUnit is the Arrow unit lakeload uses for a timestamp precision.
func TimestampUnit(precision int) arrow.TimeUnit {
	switch {
	case precision <= 3:
		return arrow.Millisecond
	case precision <= 6:
		return arrow.Microsecond
	default:
		return arrow.Nanosecond
	}
}

// ArrowSchema maps fields to an Arrow schema: names and nullability are kept and each field id
// becomes PARQUET:field_id metadata.
func ArrowSchema(fields []spec.DataField) (*arrow.Schema, error) {
	fs, err := arrowFields(fields)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fs, nil), nil
}

func arrowFields(fields []spec.DataField) ([]arrow.Field, error) {
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		dt, err := ArrowType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		out[i] = arrow.Field{
			Name:     f.Name,
			Type:     dt,
			Nullable: f.Type.Nullable,
			Metadata: arrow.NewMetadata([]string{FieldIDKey}, []string{strconv.Itoa(f.ID)}),
		}
	}
	return out, nil
}
