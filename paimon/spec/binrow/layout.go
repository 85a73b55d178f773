package binrow

import (
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// headerBits is the number of header bits in front of the null bits (the RowKind byte).
const headerBits = 8

// ErrUnsupported reports a type that BinaryRow does not encode here (ARRAY, MULTISET, MAP, ROW).
var ErrUnsupported = errors.New("binrow: type unsupported in BinaryRow")

// nullBitsWidth is the byte width of the header + null bit set for arity fields.
func nullBitsWidth(arity int) int { return ((arity + 63 + headerBits) / 64) * 8 }

// fixedSize is the byte size of the fixed part (bit set and slots) for arity fields.
func fixedSize(arity int) int { return nullBitsWidth(arity) + 8*arity }

// slotOffset is the byte offset of field i's slot for a row of the given arity.
func slotOffset(arity, i int) int { return nullBitsWidth(arity) + 8*i }

// nullByteMask locates field i's null bit: byte index within the row and bit mask.
func nullByteMask(i int) (int, byte) {
	bit := i + headerBits
	return bit / 8, 1 << (bit % 8)
}

// padded rounds n up to a multiple of 8.
func padded(n int) int { return (n + 7) &^ 7 }

// maxDecimalPrecision is Paimon's largest DECIMAL precision.
const maxDecimalPrecision = 38

// typeName renders t for error messages, e.g. "DECIMAL(30,20)".
func typeName(t spec.DataType) string {
	switch t.Root {
	case spec.Boolean:
		return "BOOLEAN"
	case spec.TinyInt:
		return "TINYINT"
	case spec.SmallInt:
		return "SMALLINT"
	case spec.Int:
		return "INT"
	case spec.BigInt:
		return "BIGINT"
	case spec.Float:
		return "FLOAT"
	case spec.Double:
		return "DOUBLE"
	case spec.Decimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case spec.Char:
		return fmt.Sprintf("CHAR(%d)", t.Length)
	case spec.VarChar:
		return fmt.Sprintf("VARCHAR(%d)", t.Length)
	case spec.Binary:
		return fmt.Sprintf("BINARY(%d)", t.Length)
	case spec.VarBinary:
		return fmt.Sprintf("VARBINARY(%d)", t.Length)
	case spec.Date:
		return "DATE"
	case spec.Time:
		return fmt.Sprintf("TIME(%d)", t.Precision)
	case spec.Timestamp:
		return fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case spec.TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
	case spec.Array:
		return "ARRAY"
	case spec.Multiset:
		return "MULTISET"
	case spec.Map:
		return "MAP"
	case spec.Row:
		return "ROW"
	}
	return fmt.Sprintf("type root %d", int(t.Root))
}

// isVarLen reports whether t stores its value as inline-or-variable bytes (strings and binaries).
func isVarLen(t spec.DataType) bool {
	switch t.Root {
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		return true
	}
	return false
}

// isTimestamp reports whether t is TIMESTAMP or TIMESTAMP_LTZ.
func isTimestamp(t spec.DataType) bool {
	return t.Root == spec.Timestamp || t.Root == spec.TimestampLTZ
}

// checkSupported returns an error wrapping ErrUnsupported for non-atomic or unknown types.
func checkSupported(t spec.DataType) error {
	if t.Root < spec.Boolean || t.Root >= spec.Array {
		return fmt.Errorf("%w: %s", ErrUnsupported, typeName(t))
	}
	return nil
}
