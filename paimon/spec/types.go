// Package spec holds Apache Paimon's on-disk vocabulary: data types, schema and snapshot files,
// and the Go value (datum) model used for keys, partitions and statistics.
//
// Invariants: every encoder here produces bytes or JSON that Java Paimon 1.x/2.x and pypaimon 2.x
// read; decoders never panic on malformed input (they return errors wrapping ErrCorrupt).
package spec

import (
	"errors"
	"math/big"
)

// ErrCorrupt marks malformed on-disk data (JSON, Avro, BinaryRow). Test with errors.Is.
var ErrCorrupt = errors.New("paimon: corrupt data")

// TypeRoot is the kind of a DataType (Java org.apache.paimon.types.DataTypeRoot).
type TypeRoot int

// The supported type roots.
const (
	Boolean TypeRoot = iota
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	VarChar // STRING is VarChar with Length MaxLength
	Binary
	VarBinary // BYTES is VarBinary with Length MaxLength
	Date
	Time
	Timestamp    // TIMESTAMP(p), no time zone
	TimestampLTZ // TIMESTAMP(p) WITH LOCAL TIME ZONE
	Array
	Multiset
	Map
	Row
)

// MaxLength is the length of STRING (= VARCHAR(MaxLength)) and BYTES (= VARBINARY(MaxLength)).
const MaxLength = 2147483647

// DataType is a Paimon logical type. Fields unused by a root are zero.
type DataType struct {
	Root      TypeRoot
	Nullable  bool
	Length    int         // CHAR, VARCHAR, BINARY, VARBINARY
	Precision int         // DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ
	Scale     int         // DECIMAL
	Elem      *DataType   // ARRAY and MULTISET element; MAP key
	Value     *DataType   // MAP value
	Fields    []DataField // ROW
}

// DataField is a named, id-carrying column (Java DataField).
type DataField struct {
	ID           int
	Name         string
	Type         DataType
	Description  *string
	DefaultValue *string
}

// IsCompactDecimal reports whether a DECIMAL fits an int64 unscaled value (precision <= 18).
func (t DataType) IsCompactDecimal() bool { return t.Precision <= 18 }

// IsCompactTimestamp reports whether a TIMESTAMP/TIMESTAMP_LTZ is stored as millis only (precision <= 3).
func (t DataType) IsCompactTimestamp() bool { return t.Precision <= 3 }

// IsAtomic reports whether t is not ARRAY, MULTISET, MAP or ROW.
func (t DataType) IsAtomic() bool { return t.Root < Array }

// Datum model: the Go value of one field, used for BinaryRow, keys, partitions, stats and merging.
//
//	nil                    SQL NULL (any type)
//	BOOLEAN                bool
//	TINYINT                int8
//	SMALLINT               int16
//	INT                    int32
//	BIGINT                 int64
//	FLOAT                  float32
//	DOUBLE                 float64
//	DECIMAL(p,s)           DecimalValue (unscaled value; scale is the type's)
//	CHAR/VARCHAR/STRING    string (UTF-8)
//	BINARY/VARBINARY/BYTES []byte
//	DATE                   int32 days since 1970-01-01
//	TIME                   int32 millis of day
//	TIMESTAMP[_LTZ]        TimestampValue (wall clock of UTC for LTZ)
//	ARRAY/MULTISET         []any
//	MAP                    []MapEntry
//	ROW                    []any
type Datum = any

// DecimalValue is the unscaled value of a DECIMAL; the scale comes from the type.
type DecimalValue struct{ Unscaled *big.Int }

// TimestampValue is a timestamp as Paimon stores it: epoch millis plus nanos within the milli (0..999999).
type TimestampValue struct {
	Millis      int64
	NanoOfMilli int32
}

// MapEntry is one key/value pair of a MAP datum.
type MapEntry struct{ Key, Value any }

// RowKind is the change kind of a row (Java RowKind), stored as _VALUE_KIND.
type RowKind int8

// Row kinds.
const (
	RowKindInsert       RowKind = 0 // +I
	RowKindUpdateBefore RowKind = 1 // -U
	RowKindUpdateAfter  RowKind = 2 // +U
	RowKindDelete       RowKind = 3 // -D
)

// IsRetract reports whether k removes a row (-U or -D).
func (k RowKind) IsRetract() bool { return k == RowKindUpdateBefore || k == RowKindDelete }
