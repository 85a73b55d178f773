package orcfile

// stream is one decompressed stream with a read position; every read is bounds-checked.
type stream struct {
	b    []byte
	pos  int
	what string // e.g. "column 3 DATA", for error messages
}

func (s *stream) remaining() int { return len(s.b) - s.pos }

func (s *stream) eof() error {
	return corruptf("%s: unexpected end of stream at byte %d", s.what, s.pos)
}

func (s *stream) byte() (byte, error) {
	if s.pos >= len(s.b) {
		return 0, s.eof()
	}
	c := s.b[s.pos]
	s.pos++
	return c, nil
}

// take returns the next n bytes (aliasing the stream).
func (s *stream) take(n uint64) ([]byte, error) {
	if n > uint64(s.remaining()) {
		return nil, s.eof()
	}
	b := s.b[s.pos : s.pos+int(n)]
	s.pos += int(n)
	return b, nil
}

func (s *stream) uvarint() (uint64, error) {
	v, n := uvarint(s.b[s.pos:])
	if n <= 0 {
		return 0, corruptf("%s: bad varint at byte %d", s.what, s.pos)
	}
	s.pos += n
	return v, nil
}

// varint reads a varint, zigzag-decoding it if signed.
func (s *stream) varint(signed bool) (int64, error) {
	u, err := s.uvarint()
	if signed {
		return unzigzag(u), err
	}
	return int64(u), err
}

// bigEndian reads an n-byte (1..8) big-endian unsigned value.
func (s *stream) bigEndian(n int) (uint64, error) {
	b, err := s.take(uint64(n))
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, err
}

// unpack appends n values of width bits each (1..64), bit-packed most significant bit first, and
// skips to the next byte boundary.
func (s *stream) unpack(dst []int64, n int, width uint) ([]int64, error) {
	bytes := (uint64(n)*uint64(width) + 7) / 8
	data, err := s.take(bytes)
	if err != nil {
		return dst, err
	}
	var bit uint64
	for range n {
		var v uint64
		for left := width; left > 0; {
			avail := 8 - uint(bit%8)
			k := min(avail, left)
			v = v<<k | uint64(data[bit/8]>>(avail-k))&(1<<k-1)
			left -= k
			bit += uint64(k)
		}
		dst = append(dst, int64(v))
	}
	return dst, nil
}

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }
