package binrow

import (
	"encoding/binary"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// EmptyRow is the serialized arity-0 row (Java BinaryRow.EMPTY_ROW): 00 00 00 00 + 8 zero bytes.
// Do not modify it.
var EmptyRow = []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

// Encode returns the BinaryRow bytes (no arity prefix) of values typed by types, header/RowKind
// byte 0, byte-identical to Java's BinaryRowWriter output.
func Encode(types []spec.DataType, values []any) ([]byte, error) {
	if len(types) != len(values) {
		return nil, fmt.Errorf("binrow: %d types but %d values", len(types), len(values))
	}
	var b Builder
	b.Reset(len(types))
	for i, t := range types {
		if err := b.Set(i, t, values[i]); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// Serialize returns the manifest form: 4-byte big-endian arity, then Encode's bytes.
func Serialize(types []spec.DataType, values []any) ([]byte, error) {
	row, err := Encode(types, values)
	if err != nil {
		return nil, err
	}
	out := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(row)), uint32(len(types)))
	return append(out, row...), nil
}
