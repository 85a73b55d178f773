package file

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/spec"
)

// stringColumn is the type of a new text column: nullable STRING.
var stringColumn = spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}

// jsonColumnType is the column type for a key's JSON values: strings STRING, booleans BOOLEAN,
// integers BIGINT, numbers with a fraction or exponent DOUBLE, only nulls STRING. Mixed kinds and
// nested values have no single safe type.
func jsonColumnType(k jsonKinds) (spec.DataType, error) {
	n := 0
	for _, b := range []bool{k.str, k.num, k.boolean, k.nested} {
		if b {
			n++
		}
	}
	switch {
	case k.nested:
		return spec.DataType{}, fmt.Errorf("it holds JSON objects or arrays, whose column type cannot be derived")
	case n > 1:
		return spec.DataType{}, fmt.Errorf("it holds values of different JSON types (strings, numbers, booleans)")
	case k.boolean:
		return spec.DataType{Root: spec.Boolean, Nullable: true}, nil
	case k.num && k.frac:
		return spec.DataType{Root: spec.Double, Nullable: true}, nil
	case k.num:
		return spec.DataType{Root: spec.BigInt, Nullable: true}, nil
	}
	return stringColumn, nil
}

// arrowColumnType maps an Arrow input type to the Paimon type the source mapping stores it as unchanged
// (arrowconv.ArrowType of the result is the input type, or one the source casts losslessly).
func arrowColumnType(t arrow.DataType, nullable bool) (spec.DataType, error) {
	p := func(r spec.TypeRoot) spec.DataType { return spec.DataType{Root: r, Nullable: nullable} }
	switch x := t.(type) {
	case *arrow.NullType:
		return stringColumn, nil // all values null: any nullable type reads them
	case *arrow.BooleanType:
		return p(spec.Boolean), nil
	case *arrow.Int8Type:
		return p(spec.TinyInt), nil
	case *arrow.Int16Type, *arrow.Uint8Type:
		return p(spec.SmallInt), nil
	case *arrow.Int32Type, *arrow.Uint16Type:
		return p(spec.Int), nil
	case *arrow.Int64Type, *arrow.Uint32Type:
		return p(spec.BigInt), nil
	case *arrow.Float32Type:
		return p(spec.Float), nil
	case *arrow.Float64Type:
		return p(spec.Double), nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		s := stringColumn
		s.Nullable = nullable
		return s, nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return spec.DataType{Root: spec.VarBinary, Length: spec.MaxLength, Nullable: nullable}, nil
	case *arrow.FixedSizeBinaryType:
		return spec.DataType{Root: spec.Binary, Length: x.ByteWidth, Nullable: nullable}, nil
	case *arrow.Decimal128Type:
		return spec.DataType{Root: spec.Decimal, Precision: int(x.Precision), Scale: int(x.Scale), Nullable: nullable}, nil
	case *arrow.Date32Type:
		return p(spec.Date), nil
	case *arrow.Time32Type:
		d := p(spec.Time)
		if x.Unit == arrow.Millisecond {
			d.Precision = 3
		}
		return d, nil
	case *arrow.TimestampType:
		d := p(spec.Timestamp)
		if x.TimeZone != "" {
			d.Root = spec.TimestampLTZ
		}
		d.Precision = map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}[x.Unit]
		return d, nil
	case *arrow.ListType:
		e, err := arrowColumnType(x.Elem(), x.ElemField().Nullable)
		if err != nil {
			return spec.DataType{}, err
		}
		return spec.DataType{Root: spec.Array, Nullable: nullable, Elem: &e}, nil
	case *arrow.MapType:
		k, err := arrowColumnType(x.KeyType(), false)
		if err != nil {
			return spec.DataType{}, err
		}
		v, err := arrowColumnType(x.ItemType(), x.ItemField().Nullable)
		if err != nil {
			return spec.DataType{}, err
		}
		return spec.DataType{Root: spec.Map, Nullable: nullable, Elem: &k, Value: &v}, nil
	case *arrow.StructType:
		var fs []spec.DataField
		for _, f := range x.Fields() {
			ft, err := arrowColumnType(f.Type, f.Nullable)
			if err != nil {
				return spec.DataType{}, err
			}
			fs = append(fs, spec.DataField{Name: f.Name, Type: ft})
		}
		return spec.DataType{Root: spec.Row, Nullable: nullable, Fields: fs}, nil
	}
	return spec.DataType{}, fmt.Errorf("its input type %s has no Paimon type lakeload derives automatically", t)
}
