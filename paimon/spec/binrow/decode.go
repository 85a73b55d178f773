package binrow

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Arity returns the arity stored in serialized bytes (big-endian int32 prefix). It fails if the
// prefix is missing or negative, or the bytes are too short for that arity's fixed part.
func Arity(serialized []byte) (int, error) {
	if len(serialized) < 4 {
		return 0, fmt.Errorf("%w: binrow: serialized row of %d bytes lacks the 4-byte arity", spec.ErrCorrupt, len(serialized))
	}
	a := int32(binary.BigEndian.Uint32(serialized))
	if a < 0 {
		return 0, fmt.Errorf("%w: binrow: negative arity %d", spec.ErrCorrupt, a)
	}
	if need := fixedSize(int(a)); len(serialized)-4 < need {
		return 0, fmt.Errorf("%w: binrow: row of %d bytes is shorter than the %d-byte fixed part of arity %d",
			spec.ErrCorrupt, len(serialized)-4, need, a)
	}
	return int(a), nil
}

// Deserialize decodes the manifest form (big-endian arity, then row bytes) into datums typed by
// types (see spec.Datum). The stored arity must equal len(types). Errors wrap spec.ErrCorrupt.
func Deserialize(types []spec.DataType, b []byte) ([]any, error) {
	a, err := Arity(b)
	if err != nil {
		return nil, err
	}
	if a != len(types) {
		return nil, fmt.Errorf("%w: binrow: serialized arity %d, expected %d fields", spec.ErrCorrupt, a, len(types))
	}
	return Decode(types, b[4:])
}

// Decode decodes row bytes without the arity prefix into datums typed by types (see spec.Datum;
// nil for NULL). Strings and binaries may be inline or in the variable part. Returned values do
// not alias row. Errors for malformed rows wrap spec.ErrCorrupt; unsupported types wrap
// ErrUnsupported.
func Decode(types []spec.DataType, row []byte) ([]any, error) {
	arity := len(types)
	if need := fixedSize(arity); len(row) < need {
		return nil, fmt.Errorf("%w: binrow: row of %d bytes is shorter than the %d-byte fixed part of arity %d",
			spec.ErrCorrupt, len(row), need, arity)
	}
	if row[0] > byte(spec.RowKindDelete) {
		return nil, fmt.Errorf("%w: binrow: invalid RowKind header byte %d", spec.ErrCorrupt, row[0])
	}
	out := make([]any, arity)
	for i, t := range types {
		if err := checkSupported(t); err != nil {
			return nil, fmt.Errorf("field %d: %w", i, err)
		}
		if by, mask := nullByteMask(i); row[by]&mask != 0 {
			continue
		}
		v, err := decodeField(row, slotOffset(arity, i), t)
		if err != nil {
			return nil, fmt.Errorf("%w: binrow: field %d (%s): %v", spec.ErrCorrupt, i, typeName(t), err)
		}
		out[i] = v
	}
	return out, nil
}

// decodeField decodes the non-null field whose slot starts at off.
func decodeField(row []byte, off int, t spec.DataType) (any, error) {
	slot := binary.LittleEndian.Uint64(row[off:])
	switch t.Root {
	case spec.Boolean:
		return row[off] != 0, nil
	case spec.TinyInt:
		return int8(row[off]), nil
	case spec.SmallInt:
		return int16(uint16(slot)), nil
	case spec.Int, spec.Date, spec.Time:
		return int32(uint32(slot)), nil
	case spec.BigInt:
		return int64(slot), nil
	case spec.Float:
		return math.Float32frombits(uint32(slot)), nil
	case spec.Double:
		return math.Float64frombits(slot), nil
	case spec.Decimal:
		return decodeDecimal(row, slot, t.Precision)
	case spec.Char, spec.VarChar:
		b, err := varLenBytes(row, off, slot)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	case spec.Binary, spec.VarBinary:
		b, err := varLenBytes(row, off, slot)
		if err != nil {
			return nil, err
		}
		return append([]byte{}, b...), nil
	case spec.Timestamp, spec.TimestampLTZ:
		return decodeTimestamp(row, slot, t.Precision)
	}
	return nil, fmt.Errorf("unexpected type root %d", int(t.Root))
}

// varPart returns row[off:off+n] where slot = off<<32 | n, checking bounds.
func varPart(row []byte, slot uint64, n uint64) ([]byte, error) {
	off := slot >> 32
	if off+n > uint64(len(row)) {
		return nil, fmt.Errorf("variable part [%d,%d) outside row of %d bytes", off, off+n, len(row))
	}
	return row[off : off+n], nil
}

// varLenBytes returns the bytes of a string/binary field, inline (slot bit 63 set, length in
// bits 56..62) or in the variable part.
func varLenBytes(row []byte, off int, slot uint64) ([]byte, error) {
	if slot&(1<<63) != 0 {
		n := int(slot>>56) & 0x7f
		if n > 7 {
			return nil, fmt.Errorf("inline length %d exceeds 7", n)
		}
		return row[off : off+n], nil
	}
	return varPart(row, slot, uint64(uint32(slot)))
}

// decodeDecimal decodes a compact (slot int64) or non-compact (variable-part two's complement)
// DECIMAL and checks that it fits precision.
func decodeDecimal(row []byte, slot uint64, precision int) (any, error) {
	var v *big.Int
	if precision <= 18 {
		v = big.NewInt(int64(slot))
	} else {
		n := uint64(uint32(slot))
		if n < 1 || n > decimalBytes {
			return nil, fmt.Errorf("decimal byte length %d outside 1..%d", n, decimalBytes)
		}
		b, err := varPart(row, slot, n)
		if err != nil {
			return nil, err
		}
		v = fromTwosComplement(b)
	}
	if err := checkDecimal(precision, v); err != nil {
		return nil, err
	}
	return spec.DecimalValue{Unscaled: v}, nil
}

// decodeTimestamp decodes a compact (slot millis) or non-compact (variable-part millis, slot
// nano-of-milli) timestamp.
func decodeTimestamp(row []byte, slot uint64, precision int) (any, error) {
	if precision <= 3 {
		return spec.TimestampValue{Millis: int64(slot)}, nil
	}
	nanos := uint32(slot)
	if nanos > 999_999 {
		return nil, fmt.Errorf("nano-of-milli %d outside 0..999999", nanos)
	}
	b, err := varPart(row, slot, 8)
	if err != nil {
		return nil, err
	}
	return spec.TimestampValue{Millis: int64(binary.LittleEndian.Uint64(b)), NanoOfMilli: int32(nanos)}, nil
}
