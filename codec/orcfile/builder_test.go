package orcfile

import (
	"encoding/binary"
	"math"
)

// pb builds protobuf messages field by field.
type pb []byte

func (m pb) u(num int, v uint64) pb {
	return binary.AppendUvarint(binary.AppendUvarint(m, uint64(num)<<3), v)
}

func (m pb) b(num int, v []byte) pb {
	m = binary.AppendUvarint(binary.AppendUvarint(m, uint64(num)<<3|2), uint64(len(v)))
	return append(m, v...)
}

// typ encodes an orc_proto Type message.
func typ(kind Kind, subtypes []uint64, names ...string) []byte {
	m := pb{}.u(1, uint64(kind))
	if len(subtypes) > 0 {
		var packed []byte
		for _, s := range subtypes {
			packed = binary.AppendUvarint(packed, s)
		}
		m = m.b(2, packed)
	}
	for _, n := range names {
		m = m.b(3, []byte(n))
	}
	return m
}

type testStream struct {
	column, kind uint64
	data         []byte
}

// orcSpec describes a one-stripe ORC file for buildORC; with a compression other than None every
// section is framed as stored ("original") chunks.
type orcSpec struct {
	types       [][]byte
	encodings   []uint64       // column encoding kinds, by column id
	dictSizes   map[int]uint64 // dictionary sizes, by column id
	streams     []testStream
	rows        uint64
	tz          string
	compression Compression
}

func (s orcSpec) build() []byte {
	frame := func(b []byte) []byte {
		if s.compression == None {
			return b
		}
		return chunk(b, true)
	}
	file := []byte(Magic)
	stripeOff := len(file)
	var sf pb
	for _, st := range s.streams {
		d := frame(st.data)
		file = append(file, d...)
		sf = sf.b(1, pb{}.u(1, st.kind).u(2, st.column).u(3, uint64(len(d))))
	}
	dataLen := len(file) - stripeOff
	for i, e := range s.encodings {
		sf = sf.b(2, pb{}.u(1, e).u(2, s.dictSizes[i]))
	}
	if s.tz != "" {
		sf = sf.b(3, []byte(s.tz))
	}
	sfb := frame(sf)
	file = append(file, sfb...)
	footer := pb{}.u(1, 3).u(2, uint64(len(file)))
	footer = footer.b(3, pb{}.u(1, uint64(stripeOff)).u(2, 0).u(3, uint64(dataLen)).u(4, uint64(len(sfb))).u(5, s.rows))
	for _, t := range s.types {
		footer = footer.b(4, t)
	}
	footer = footer.u(6, s.rows)
	fb := frame(footer)
	file = append(file, fb...)
	ps := pb{}.u(1, uint64(len(fb))).u(2, uint64(s.compression)).u(3, 4096).b(4, []byte{0, 12}).u(5, 0).b(8000, []byte(Magic))
	file = append(file, ps...)
	return append(file, byte(len(ps)))
}

// rle1 encodes integers as RLE v1 literal groups.
func rle1(signed bool, vals ...int64) []byte {
	var out []byte
	for len(vals) > 0 {
		n := min(len(vals), 128)
		out = append(out, byte(256-n))
		for _, v := range vals[:n] {
			u := uint64(v)
			if signed {
				u = uint64(v<<1) ^ uint64(v>>63)
			}
			out = binary.AppendUvarint(out, u)
		}
		vals = vals[n:]
	}
	return out
}

// byteLits encodes bytes as one byte-RLE literal group (at most 128).
func byteLits(bs ...byte) []byte { return append([]byte{byte(256 - len(bs))}, bs...) }

// bools encodes booleans with boolean RLE.
func bools(vs ...bool) []byte {
	packed := make([]byte, (len(vs)+7)/8)
	for i, v := range vs {
		if v {
			packed[i/8] |= 0x80 >> (i % 8)
		}
	}
	return byteLits(packed...)
}

func float32s(vs ...float32) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	return out
}

func float64s(vs ...float64) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	return out
}

// encodeNanos applies the ORC writer's trailing-zero encoding to a nanosecond value.
func encodeNanos(n int64) int64 {
	if n == 0 || n%100 != 0 {
		return n << 3
	}
	n /= 100
	z := int64(1)
	for n%10 == 0 && z < 7 {
		n /= 10
		z++
	}
	return n<<3 | z
}
