package manifest

import "bytes"

// avroMagic starts every Avro object container file.
var avroMagic = []byte{'O', 'b', 'j', 1}

// checkContainer validates the framing of an Avro object container file (header, metadata map,
// sync marker, and every block's count, size and trailing sync marker) before the Avro library
// sees it, so that lengths taken from the file can never drive a huge or negative allocation.
func checkContainer(data []byte) error {
	if !bytes.HasPrefix(data, avroMagic) {
		return corruptf("not an Avro container file (bad magic)")
	}
	r := &varintReader{b: data, pos: len(avroMagic)}
	for { // metadata map blocks
		n, err := r.long()
		if err != nil {
			return corruptf("avro header: %v", err)
		}
		if n == 0 {
			break
		}
		if n < 0 {
			n = -n
			if _, err := r.long(); err != nil { // byte size of the block, unused
				return corruptf("avro header: %v", err)
			}
		}
		for i := int64(0); i < n*2; i++ { // key and value
			if err := r.skipBytes(); err != nil {
				return corruptf("avro header entry: %v", err)
			}
		}
	}
	if r.remaining() < 16 {
		return corruptf("avro header: truncated sync marker")
	}
	sync := data[r.pos : r.pos+16]
	r.pos += 16
	for block := 0; r.remaining() > 0; block++ {
		count, err := r.long()
		if err != nil {
			return corruptf("avro block %d: %v", block, err)
		}
		size, err := r.long()
		if err != nil {
			return corruptf("avro block %d: %v", block, err)
		}
		if count < 0 || size < 0 || size > int64(r.remaining()) {
			return corruptf("avro block %d: count %d, size %d with %d bytes left", block, count, size, r.remaining())
		}
		r.pos += int(size)
		if r.remaining() < 16 || !bytes.Equal(data[r.pos:r.pos+16], sync) {
			return corruptf("avro block %d: bad sync marker", block)
		}
		r.pos += 16
	}
	return nil
}

// varintReader reads Avro zig-zag varints from a byte slice with bounds checks.
type varintReader struct {
	b   []byte
	pos int
}

func (r *varintReader) remaining() int { return len(r.b) - r.pos }

func (r *varintReader) long() (int64, error) {
	var u uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if r.pos >= len(r.b) {
			return 0, errTruncated
		}
		c := r.b[r.pos]
		r.pos++
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), nil
		}
	}
	return 0, errVarint
}

func (r *varintReader) skipBytes() error {
	n, err := r.long()
	if err != nil {
		return err
	}
	if n < 0 || n > int64(r.remaining()) {
		return errTruncated
	}
	r.pos += int(n)
	return nil
}

type frameError string

func (e frameError) Error() string { return string(e) }

const (
	errTruncated = frameError("truncated or oversized length")
	errVarint    = frameError("varint longer than 10 bytes")
)
