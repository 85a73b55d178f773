package orcfile

import "strconv"

// Kind is an ORC type kind (orc_proto.proto Type.Kind).
type Kind int

// The ORC type kinds, numbered as on disk.
const (
	Boolean Kind = iota
	Byte
	Short
	Int
	Long
	Float
	Double
	String
	Binary
	Timestamp
	List
	Map
	Struct
	Union
	Decimal
	Date
	Varchar
	Char
	TimestampInstant
)

var kindNames = [...]string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
	"string", "binary", "timestamp", "array", "map", "struct", "uniontype", "decimal", "date",
	"varchar", "char", "timestamp with local time zone"}

// String returns the ORC/Hive type name, e.g. "bigint".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Type is one node of a file's type tree. Column ids are the pre-order positions used by the
// stripe streams; the root (a struct for every Paimon file) has id 0.
type Type struct {
	ID         int
	Kind       Kind
	Children   []*Type  // struct fields, list element, map key and value
	FieldNames []string // struct field names, parallel to Children
	// Precision and Scale of a DECIMAL column (0 when the footer leaves them out).
	Precision, Scale int
}

// String renders the type as ORC does, e.g. "struct<_VERSION:int,_NAMES:array<string>>".
func (t *Type) String() string {
	switch t.Kind {
	case Struct:
		s := "struct<"
		for i, c := range t.Children {
			if i > 0 {
				s += ","
			}
			s += t.FieldNames[i] + ":" + c.String()
		}
		return s + ">"
	case List:
		return "array<" + t.Children[0].String() + ">"
	case Map:
		return "map<" + t.Children[0].String() + "," + t.Children[1].String() + ">"
	}
	return t.Kind.String()
}

// Compression is the general-purpose codec of a file (orc_proto.proto CompressionKind).
type Compression int

// The compression kinds, numbered as on disk. LZO is recognized but not decoded.
const (
	None Compression = iota
	Zlib
	Snappy
	LZO
	LZ4
	Zstd
)

var compressionNames = [...]string{"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD"}

// String returns the codec name as ORC spells it, e.g. "ZSTD".
func (c Compression) String() string {
	if c >= 0 && int(c) < len(compressionNames) {
		return compressionNames[c]
	}
	return "Compression(" + strconv.Itoa(int(c)) + ")"
}

// ColumnStats is the part of ORC's ColumnStatistics this reader keeps: how many non-null values
// a column holds and whether it holds nulls.
type ColumnStats struct {
	NumValues uint64
	HasNull   bool
}

// StripeInfo locates one stripe (orc_proto.proto StripeInformation).
type StripeInfo struct {
	Offset, IndexLength, DataLength, FooterLength uint64
	NumRows                                       uint64
}

// Field returns the type of a struct's field by name, or nil if t has no such field.
func (t *Type) Field(name string) *Type {
	for i, n := range t.FieldNames {
		if n == name {
			return t.Children[i]
		}
	}
	return nil
}
