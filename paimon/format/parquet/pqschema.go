package parquet

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// RootName is the name of the Parquet root message Java Paimon writes.
const RootName = "paimon_schema"

// Java SpecialFields constants for the ids of nested list elements and map keys/values.
const (
	structuredFieldIDBase    int32 = 2147483647 / 4
	structuredFieldDepthStep int32 = 1 << 10
)

// Nested field ids as Java computes them, with Java's int32 wrap-around.
func arrayElementFieldID(id int32, depth int32) int32 {
	return structuredFieldIDBase + id*structuredFieldDepthStep + depth
}
func mapKeyFieldID(id int32, depth int32) int32 {
	return structuredFieldIDBase - id*structuredFieldDepthStep - depth
}
func mapValueFieldID(id int32, depth int32) int32 {
	return structuredFieldIDBase + id*structuredFieldDepthStep + depth
}

// ParquetSchema builds the Parquet schema Java's ParquetSchemaConverter produces for fields.
func ParquetSchema(fields []spec.DataField) (*schema.Schema, error) {
	nodes := make(schema.FieldList, len(fields))
	for i, f := range fields {
		n, err := parquetNode(f.Name, f.Type, int32(f.ID), 0, int32(f.ID))
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		nodes[i] = n
	}
	root, err := schema.NewGroupNode(RootName, parquet.Repetitions.Required, nodes, -1)
	if err != nil {
		return nil, err
	}
	return schema.NewSchema(root), nil
}

// decimalBytes is Java's computeMinBytesForDecimalPrecision: the least n with 2^(8n-1) >= 10^p.
func decimalBytes(precision int) int {
	pow10 := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	n := 1
	for new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)).Cmp(pow10) < 0 {
		n++
	}
	return n
}

func repetition(nullable bool) parquet.Repetition {
	if nullable {
		return parquet.Repetitions.Optional
	}
	return parquet.Repetitions.Required
}

// fid maps a Java field id to arrow-go's convention (negative = absent).
func fid(id int32) int32 {
	if id < 0 {
		return -1
	}
	return id
}

func primitive(name string, rep parquet.Repetition, lt schema.LogicalType, pt parquet.Type, length int, id int32) (schema.Node, error) {
	if lt == nil {
		lt = schema.NoLogicalType{}
	}
	return schema.NewPrimitiveNodeLogical(name, rep, lt, pt, length, fid(id))
}

// parquetNode mirrors ParquetSchemaConverter.convertToParquetType(name, type, baseID, depth): baseID
// is the id Java passes down (nested ids derive from it) and ownID the id finally set on the node
// (Java overrides it with withId for list elements and map keys/values).
func parquetNode(name string, t spec.DataType, baseID, depth, ownID int32) (schema.Node, error) {
	rep := repetition(t.Nullable)
	switch t.Root {
	case spec.Char, spec.VarChar:
		return primitive(name, rep, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, ownID)
	case spec.Boolean:
		return primitive(name, rep, nil, parquet.Types.Boolean, -1, ownID)
	case spec.Binary, spec.VarBinary:
		return primitive(name, rep, nil, parquet.Types.ByteArray, -1, ownID)
	case spec.Decimal:
		if _, err := arrowconv.ArrowType(t); err != nil {
			return nil, err
		}
		lt := schema.NewDecimalLogicalType(int32(t.Precision), int32(t.Scale))
		switch {
		case t.Precision <= 9:
			return primitive(name, rep, lt, parquet.Types.Int32, -1, ownID)
		case t.Precision <= 18:
			return primitive(name, rep, lt, parquet.Types.Int64, -1, ownID)
		default:
			return primitive(name, rep, lt, parquet.Types.FixedLenByteArray, decimalBytes(t.Precision), ownID)
		}
	case spec.TinyInt:
		return primitive(name, rep, schema.NewIntLogicalType(8, true), parquet.Types.Int32, -1, ownID)
	case spec.SmallInt:
		return primitive(name, rep, schema.NewIntLogicalType(16, true), parquet.Types.Int32, -1, ownID)
	case spec.Int:
		return primitive(name, rep, nil, parquet.Types.Int32, -1, ownID)
	case spec.BigInt:
		return primitive(name, rep, nil, parquet.Types.Int64, -1, ownID)
	case spec.Float:
		return primitive(name, rep, nil, parquet.Types.Float, -1, ownID)
	case spec.Double:
		return primitive(name, rep, nil, parquet.Types.Double, -1, ownID)
	case spec.Date:
		return primitive(name, rep, schema.DateLogicalType{}, parquet.Types.Int32, -1, ownID)
	case spec.Time:
		return primitive(name, rep, schema.NewTimeLogicalType(true, schema.TimeUnitMillis), parquet.Types.Int32, -1, ownID)
	case spec.Timestamp, spec.TimestampLTZ:
		if _, err := arrowconv.ArrowType(t); err != nil {
			return nil, err
		}
		utc := t.Root == spec.TimestampLTZ
		switch {
		case t.Precision <= 3:
			return primitive(name, rep, schema.NewTimestampLogicalType(utc, schema.TimeUnitMillis), parquet.Types.Int64, -1, ownID)
		case t.Precision <= 6:
			return primitive(name, rep, schema.NewTimestampLogicalType(utc, schema.TimeUnitMicros), parquet.Types.Int64, -1, ownID)
		default:
			return primitive(name, rep, nil, parquet.Types.Int96, -1, ownID)
		}
	case spec.Array:
		if t.Elem == nil {
			return nil, fmt.Errorf("ARRAY without element type")
		}
		elem, err := parquetNode("element", *t.Elem, baseID, depth+1, arrayElementFieldID(baseID, depth+1))
		if err != nil {
			return nil, err
		}
		list, err := schema.NewGroupNode("list", parquet.Repetitions.Repeated, schema.FieldList{elem}, -1)
		if err != nil {
			return nil, err
		}
		return schema.NewGroupNodeLogical(name, rep, schema.FieldList{list}, schema.NewListLogicalType(), fid(ownID))
	case spec.Map, spec.Multiset:
		keyType, valType, err := mapTypes(t)
		if err != nil {
			return nil, err
		}
		key, err := parquetNode("key", keyType, baseID, depth+1, mapKeyFieldID(baseID, depth+1))
		if err != nil {
			return nil, err
		}
		val, err := parquetNode("value", valType, baseID, depth+1, mapValueFieldID(baseID, depth+1))
		if err != nil {
			return nil, err
		}
		kv, err := schema.NewGroupNode("key_value", parquet.Repetitions.Repeated, schema.FieldList{key, val}, -1)
		if err != nil {
			return nil, err
		}
		return schema.NewGroupNodeLogical(name, rep, schema.FieldList{kv}, schema.MapLogicalType{}, fid(ownID))
	case spec.Row:
		nodes := make(schema.FieldList, len(t.Fields))
		for i, f := range t.Fields {
			n, err := parquetNode(f.Name, f.Type, int32(f.ID), 0, int32(f.ID))
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", f.Name, err)
			}
			nodes[i] = n
		}
		return schema.NewGroupNode(name, rep, nodes, fid(ownID))
	}
	return nil, fmt.Errorf("unsupported type root %d", t.Root)
}

// mapTypes returns the key (forced NOT NULL, as Java does) and value types of a MAP or MULTISET
// (whose value is the INT NOT NULL count).
func mapTypes(t spec.DataType) (spec.DataType, spec.DataType, error) {
	if t.Elem == nil || (t.Root == spec.Map && t.Value == nil) {
		return spec.DataType{}, spec.DataType{}, fmt.Errorf("MAP/MULTISET without key or value type")
	}
	key := *t.Elem
	key.Nullable = false
	if t.Root == spec.Multiset {
		return key, spec.DataType{Root: spec.Int}, nil
	}
	return key, *t.Value, nil
}
