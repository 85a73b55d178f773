package pqflat

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// kind is how a column's physical values become its Arrow values.
type kind int

const (
	kindNone  kind = iota
	kindI32        // INT32 → Int32, Date32 (same bits)
	kindI8         // INT32 → Int8 (narrowed as pqarrow does)
	kindI16        // INT32 → Int16
	kindI64        // INT64 → Int64, Timestamp of the logical type's unit (same bits)
	kindF32        // FLOAT → Float32
	kindF64        // DOUBLE → Float64
	kindBytes      // BYTE_ARRAY → String, Binary
)

// kindOf is the fast decoding of a leaf column into dt (pqarrow's Arrow type for it), or kindNone.
func kindOf(col *schema.Column, dt arrow.DataType) kind {
	if col.MaxRepetitionLevel() != 0 || col.MaxDefinitionLevel() > 1 {
		return kindNone
	}
	lt := col.LogicalType()
	plain := lt == nil || lt.Equals(schema.NoLogicalType{})
	intOf := func(bits int8) bool {
		if plain {
			return bits == 32 && col.PhysicalType() == parquet.Types.Int32 || bits == 64 && col.PhysicalType() == parquet.Types.Int64
		}
		it, ok := lt.(schema.IntLogicalType)
		return ok && it.IsSigned() && it.BitWidth() == bits
	}
	switch col.PhysicalType() {
	case parquet.Types.Int32:
		switch dt.ID() {
		case arrow.INT32:
			if intOf(32) {
				return kindI32
			}
		case arrow.INT8:
			if intOf(8) {
				return kindI8
			}
		case arrow.INT16:
			if intOf(16) {
				return kindI16
			}
		case arrow.DATE32:
			if _, ok := lt.(schema.DateLogicalType); ok {
				return kindI32
			}
		}
	case parquet.Types.Int64:
		switch dt.ID() {
		case arrow.INT64:
			if intOf(64) {
				return kindI64
			}
		case arrow.TIMESTAMP:
			if sameUnit(lt, dt.(*arrow.TimestampType).Unit) {
				return kindI64
			}
		}
	case parquet.Types.Float:
		if dt.ID() == arrow.FLOAT32 && plain {
			return kindF32
		}
	case parquet.Types.Double:
		if dt.ID() == arrow.FLOAT64 && plain {
			return kindF64
		}
	case parquet.Types.ByteArray:
		_, str := lt.(schema.StringLogicalType)
		if dt.ID() == arrow.STRING && str || dt.ID() == arrow.BINARY && plain {
			return kindBytes
		}
	}
	return kindNone
}

func sameUnit(lt schema.LogicalType, u arrow.TimeUnit) bool {
	ts, ok := lt.(schema.TimestampLogicalType)
	if !ok {
		return false
	}
	switch ts.TimeUnit() {
	case schema.TimeUnitMillis:
		return u == arrow.Millisecond
	case schema.TimeUnitMicros:
		return u == arrow.Microsecond
	case schema.TimeUnitNanos:
		return u == arrow.Nanosecond
	}
	return false
}

// chunkSupported reports whether a column chunk is unencrypted and declares only encodings
// decoded here.
func chunkSupported(cc *metadata.ColumnChunkMetaData) bool {
	if cc.CryptoMetadata() != nil {
		return false
	}
	for _, e := range cc.Encodings() {
		switch e {
		case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict,
			parquet.Encodings.RLE, parquet.Encodings.BitPacked:
		default:
			return false
		}
	}
	return true
}
