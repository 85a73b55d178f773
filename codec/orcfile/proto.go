package orcfile

// Hand-written protobuf wire-format reader for ORC's tail messages (orc_proto.proto): no generated
// code, every length bounds-checked against the message it is read from.

// Protobuf wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// pbField is one field of a protobuf message: its number, wire type and value (varint value for
// wireVarint and the fixed types, bytes for wireBytes).
type pbField struct {
	num  uint64
	wire int
	u    uint64
	b    []byte
}

// eachField calls fn for every field of msg in order. Groups (wire types 3 and 4) are rejected:
// ORC never writes them.
func eachField(msg []byte, what string, fn func(f pbField) error) error {
	for pos := 0; pos < len(msg); {
		key, n := uvarint(msg[pos:])
		if n <= 0 {
			return corruptf("%s: bad field key at byte %d", what, pos)
		}
		pos += n
		f := pbField{num: key >> 3, wire: int(key & 7)}
		switch f.wire {
		case wireVarint:
			f.u, n = uvarint(msg[pos:])
			if n <= 0 {
				return corruptf("%s: bad varint in field %d", what, f.num)
			}
			pos += n
		case wireFixed64, wireFixed32:
			size := 8
			if f.wire == wireFixed32 {
				size = 4
			}
			if len(msg)-pos < size {
				return corruptf("%s: truncated fixed field %d", what, f.num)
			}
			for i := size - 1; i >= 0; i-- {
				f.u = f.u<<8 | uint64(msg[pos+i])
			}
			pos += size
		case wireBytes:
			l, n := uvarint(msg[pos:])
			if n <= 0 || l > uint64(len(msg)-pos-n) {
				return corruptf("%s: bad length of field %d", what, f.num)
			}
			pos += n
			f.b = msg[pos : pos+int(l)]
			pos += int(l)
		default:
			return corruptf("%s: unsupported wire type %d in field %d", what, f.wire, f.num)
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// uvarint decodes a base-128 varint (at most 10 bytes) and returns it with the number of bytes
// read, or n <= 0 if b is truncated or the varint is too long.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		v |= uint64(c&0x7f) << (7 * uint(i))
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

// varint returns the value of a varint field, rejecting other wire types.
func (f pbField) varint(what string) (uint64, error) {
	if f.wire != wireVarint {
		return 0, corruptf("%s: field %d has wire type %d, want varint", what, f.num, f.wire)
	}
	return f.u, nil
}

// bytes returns the payload of a length-delimited field, rejecting other wire types.
func (f pbField) bytes(what string) ([]byte, error) {
	if f.wire != wireBytes {
		return nil, corruptf("%s: field %d has wire type %d, want bytes", what, f.num, f.wire)
	}
	return f.b, nil
}

// uint32s appends the values of a repeated uint32 field, which writers emit packed (one
// length-delimited field) or unpacked (one varint field per value).
func (f pbField) uint32s(what string, dst []uint32) ([]uint32, error) {
	switch f.wire {
	case wireVarint:
		if f.u > 1<<32-1 {
			return nil, corruptf("%s: field %d value %d overflows uint32", what, f.num, f.u)
		}
		return append(dst, uint32(f.u)), nil
	case wireBytes:
		for b := f.b; len(b) > 0; {
			v, n := uvarint(b)
			if n <= 0 || v > 1<<32-1 {
				return nil, corruptf("%s: bad packed uint32 in field %d", what, f.num)
			}
			dst = append(dst, uint32(v))
			b = b[n:]
		}
		return dst, nil
	}
	return nil, corruptf("%s: field %d has wire type %d, want uint32", what, f.num, f.wire)
}
