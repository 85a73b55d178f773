package manifest

import "bytes"

// avroMagic starts every Avro object container file.
var avroMagic = []byte{'O', 'b', 'j', 1}

// Header metadata keys of an Avro object container file.
const (
	metaSchema = "avro.schema"
	metaCodec  = "avro.codec"
)

// container is the framing of an Avro object container file, parsed by parseContainer. Its
// slices alias the file's bytes.
type container struct {
	schemaJSON []byte // header avro.schema
	codec      []byte // header avro.codec; empty means null
	blocks     []block
}

// block is one data block: its row count and its (still compressed) bytes.
type block struct {
	count int64
	data  []byte
}

// parseContainer validates the framing of an Avro object container file (header, metadata map,
// sync marker, and every block's count, size and trailing sync marker) and returns it, so that
// lengths taken from the file can never drive a huge or negative allocation.
func parseContainer(data []byte) (*container, error) {
	if !bytes.HasPrefix(data, avroMagic) {
		return nil, corruptf("not an Avro container file (bad magic)")
	}
	c := &container{}
	r := &varintReader{b: data, pos: len(avroMagic)}
	for { // metadata map blocks
		n, err := r.long()
		if err != nil {
			return nil, corruptf("avro header: %v", err)
		}
		if n == 0 {
			break
		}
		if n < 0 {
			n = -n
			if _, err := r.long(); err != nil { // byte size of the block, unused
				return nil, corruptf("avro header: %v", err)
			}
		}
		for i := int64(0); i < n; i++ {
			key, err := r.bytes()
			if err != nil {
				return nil, corruptf("avro header entry: %v", err)
			}
			val, err := r.bytes()
			if err != nil {
				return nil, corruptf("avro header entry: %v", err)
			}
			switch string(key) {
			case metaSchema:
				c.schemaJSON = val
			case metaCodec:
				c.codec = val
			}
		}
	}
	if r.remaining() < 16 {
		return nil, corruptf("avro header: truncated sync marker")
	}
	sync := data[r.pos : r.pos+16]
	r.pos += 16
	for i := 0; r.remaining() > 0; i++ {
		count, err := r.long()
		if err != nil {
			return nil, corruptf("avro block %d: %v", i, err)
		}
		size, err := r.long()
		if err != nil {
			return nil, corruptf("avro block %d: %v", i, err)
		}
		if count < 0 || size < 0 || size > int64(r.remaining()) {
			return nil, corruptf("avro block %d: count %d, size %d with %d bytes left", i, count, size, r.remaining())
		}
		b := block{count: count, data: data[r.pos : r.pos+int(size)]}
		r.pos += int(size)
		if r.remaining() < 16 || !bytes.Equal(data[r.pos:r.pos+16], sync) {
			return nil, corruptf("avro block %d: bad sync marker", i)
		}
		r.pos += 16
		c.blocks = append(c.blocks, b)
	}
	return c, nil
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

// bytes reads a length-prefixed byte string, aliasing the input.
func (r *varintReader) bytes() ([]byte, error) {
	n, err := r.long()
	if err != nil {
		return nil, err
	}
	if n < 0 || n > int64(r.remaining()) {
		return nil, errTruncated
	}
	b := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return b, nil
}

type frameError string

func (e frameError) Error() string { return string(e) }

const (
	errTruncated = frameError("truncated or oversized length")
	errVarint    = frameError("varint longer than 10 bytes")
)
