package binrow

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Builder writes one BinaryRow into a reusable buffer, like Java's BinaryRowWriter.
//
// Variable-length data (long strings/binaries, DECIMAL p>18, TIMESTAMP p>3) is appended in call
// order, so set fields in ascending field order to get Java's exact bytes (and hash). Typed
// setters panic when i is outside [0, arity), like slice indexing; Set returns an error instead.
// Nulls are accepted for any field regardless of the type's Nullable flag, as in Java.
type Builder struct {
	buf   []byte
	arity int
}

// NewBuilder returns a Builder reset to an empty row of the given arity.
func NewBuilder(arity int) *Builder {
	b := &Builder{}
	b.Reset(arity)
	return b
}

// Reset starts a new row of the given arity (all fields non-null zero, RowKind INSERT), reusing the
// buffer. It panics if arity is negative.
func (b *Builder) Reset(arity int) {
	if arity < 0 {
		panic(fmt.Sprintf("binrow: negative arity %d", arity))
	}
	n := fixedSize(arity)
	if cap(b.buf) < n {
		b.buf = make([]byte, n, n+64)
	} else {
		b.buf = b.buf[:n]
		clear(b.buf)
	}
	b.arity = arity
}

// Arity returns the arity of the row being built.
func (b *Builder) Arity() int { return b.arity }

// Bytes returns the row bytes (no arity prefix). The slice aliases the Builder's buffer and is
// valid until the next Reset.
func (b *Builder) Bytes() []byte { return b.buf }

// AppendSerialized appends the serialized (manifest) form, big-endian arity then row bytes, to dst.
func (b *Builder) AppendSerialized(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(b.arity))
	return append(dst, b.buf...)
}

// Hash returns the Java hashCode of the row built so far (see Hash).
func (b *Builder) Hash() int32 { return Hash(b.buf) }

// SetRowKind sets the header byte (Java RowKind); keys and partitions keep INSERT (0).
func (b *Builder) SetRowKind(k spec.RowKind) { b.buf[0] = byte(k) }

// slot returns the byte offset of field i's slot, panicking on an out-of-range index.
func (b *Builder) slot(i int) int {
	if i < 0 || i >= b.arity {
		panic(fmt.Sprintf("binrow: field index %d outside row of arity %d", i, b.arity))
	}
	return slotOffset(b.arity, i)
}

// putSlot stores v in field i's slot and clears its null bit.
func (b *Builder) putSlot(i int, v uint64) {
	off := b.slot(i)
	binary.LittleEndian.PutUint64(b.buf[off:], v)
	by, mask := nullByteMask(i)
	b.buf[by] &^= mask
}

// reserve appends n zero bytes (n a multiple of 8) to the variable part and returns their offset.
func (b *Builder) reserve(n int) int {
	off := len(b.buf)
	b.buf = append(b.buf, make([]byte, n)...)
	return off
}

// SetNullAt marks field i null with a zero slot; use SetNull for DECIMAL p>18 and TIMESTAMP p>3.
func (b *Builder) SetNullAt(i int) {
	off := b.slot(i)
	binary.LittleEndian.PutUint64(b.buf[off:], 0)
	by, mask := nullByteMask(i)
	b.buf[by] |= mask
}

// SetNull marks field i of type t null exactly as Java does: non-compact DECIMAL and TIMESTAMP
// still reserve their 16 / 8 zero bytes and store slot = offset<<32.
func (b *Builder) SetNull(i int, t spec.DataType) {
	n := 0
	switch {
	case t.Root == spec.Decimal && !t.IsCompactDecimal():
		n = decimalBytes
	case isTimestamp(t) && !t.IsCompactTimestamp():
		n = 8
	}
	if n == 0 {
		b.SetNullAt(i)
		return
	}
	b.slot(i) // bounds check before growing the buffer
	off := b.reserve(n)
	b.putSlot(i, uint64(off)<<32)
	by, mask := nullByteMask(i)
	b.buf[by] |= mask
}

// SetBool sets a BOOLEAN field.
func (b *Builder) SetBool(i int, v bool) {
	var x uint64
	if v {
		x = 1
	}
	b.putSlot(i, x)
}

// SetInt8 sets a TINYINT field.
func (b *Builder) SetInt8(i int, v int8) { b.putSlot(i, uint64(uint8(v))) }

// SetInt16 sets a SMALLINT field.
func (b *Builder) SetInt16(i int, v int16) { b.putSlot(i, uint64(uint16(v))) }

// SetInt32 sets an INT, DATE (days since epoch) or TIME (millis of day) field.
func (b *Builder) SetInt32(i int, v int32) { b.putSlot(i, uint64(uint32(v))) }

// SetInt64 sets a BIGINT field.
func (b *Builder) SetInt64(i int, v int64) { b.putSlot(i, uint64(v)) }

// SetFloat32 sets a FLOAT field (raw IEEE-754 bits).
func (b *Builder) SetFloat32(i int, v float32) { b.putSlot(i, uint64(math.Float32bits(v))) }

// SetFloat64 sets a DOUBLE field (raw IEEE-754 bits).
func (b *Builder) SetFloat64(i int, v float64) { b.putSlot(i, math.Float64bits(v)) }

// SetString sets a CHAR/VARCHAR/STRING field from its UTF-8 bytes.
func (b *Builder) SetString(i int, v string) { setVarLen(b, i, v) }

// SetBytes sets a BINARY/VARBINARY/BYTES field.
func (b *Builder) SetBytes(i int, v []byte) { setVarLen(b, i, v) }

// setVarLen stores up to 7 bytes inline (slot byte 7 = 0x80|len), longer values in the
// zero-padded variable part with slot = offset<<32 | len.
func setVarLen[T string | []byte](b *Builder, i int, v T) {
	off := b.slot(i)
	n := len(v)
	if n <= 7 {
		s := b.buf[off : off+8]
		clear(s)
		copy(s, v)
		s[7] = 0x80 | byte(n)
		by, mask := nullByteMask(i)
		b.buf[by] &^= mask
		return
	}
	at := len(b.buf)
	b.buf = append(b.buf, v...)
	b.buf = append(b.buf, make([]byte, padded(n)-n)...)
	b.putSlot(i, uint64(at)<<32|uint64(n))
}

// SetDecimal sets a DECIMAL(precision, ·) field from its unscaled value. Precision ≤ 18 stores the
// int64 in the slot; larger precision reserves 16 bytes holding Java's BigInteger.toByteArray.
// It fails, leaving the row unchanged, if the value does not fit the precision.
func (b *Builder) SetDecimal(i int, precision int, unscaled *big.Int) error {
	if err := checkDecimal(precision, unscaled); err != nil {
		return err
	}
	if precision <= 18 {
		b.putSlot(i, uint64(unscaled.Int64()))
		return nil
	}
	var tmp [decimalBytes]byte
	bs, ok := javaBigIntegerBytes(&tmp, unscaled)
	if !ok {
		return fmt.Errorf("binrow: unscaled value %s needs more than %d bytes", unscaled, decimalBytes)
	}
	b.slot(i)
	off := b.reserve(decimalBytes)
	copy(b.buf[off:], bs)
	b.putSlot(i, uint64(off)<<32|uint64(len(bs)))
	return nil
}

// SetTimestamp sets a TIMESTAMP(precision) or TIMESTAMP_LTZ(precision) field. Precision ≤ 3
// stores the millis in the slot (NanoOfMilli is dropped, as in Java); larger precision puts the
// millis in the variable part and stores slot = offset<<32 | NanoOfMilli, which must be in
// 0..999999.
func (b *Builder) SetTimestamp(i int, precision int, v spec.TimestampValue) error {
	if precision <= 3 {
		b.putSlot(i, uint64(v.Millis))
		return nil
	}
	if v.NanoOfMilli < 0 || v.NanoOfMilli > 999_999 {
		return fmt.Errorf("binrow: timestamp nano-of-milli %d outside 0..999999", v.NanoOfMilli)
	}
	b.slot(i)
	off := b.reserve(8)
	binary.LittleEndian.PutUint64(b.buf[off:], uint64(v.Millis))
	b.putSlot(i, uint64(off)<<32|uint64(uint32(v.NanoOfMilli)))
	return nil
}
