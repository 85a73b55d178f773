package manifest

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/hamba/avro/v2"
)

// Limits on what one decoded Avro value may allocate (paimon metadata stays far below both).
const (
	maxValueBytes  = 16 << 20 // one bytes or string value
	maxArrayLength = 1 << 20  // elements of one array or map
)

// valueDecoder decodes one Avro value of a fixed writer schema from r. It yields the values
// readOCF hands to the row accessors: unions already unwrapped (nil for null), records as
// map[string]any, arrays as []any, maps as map[string]any, int as int32, long as int64,
// timestamp/date logical types as time.Time (timestamp-millis as its raw int64, which the
// accessors read identically). Fixed values and decimals get types the accessors reject.
type valueDecoder func(r *valueReader) (any, error)

// fixedValue is an Avro fixed value; no Paimon field has that type.
type fixedValue []byte

// decimalValue is an Avro decimal (bytes or fixed); no Paimon field has that type.
type decimalValue []byte

// compileDecoder builds the valueDecoder of a writer schema that passed checkSchema (so it is
// not recursive and its arrays and maps have elements of at least one byte).
func compileDecoder(s avro.Schema) (valueDecoder, error) {
	logical := ""
	if l, ok := s.(avro.LogicalTypeSchema); ok && l.Logical() != nil {
		logical = string(l.Logical().Type())
	}
	switch s := s.(type) {
	case *avro.RefSchema:
		return compileDecoder(s.Schema())
	case *avro.NullSchema:
		return func(*valueReader) (any, error) { return nil, nil }, nil
	case *avro.PrimitiveSchema:
		return primitiveDecoder(s.Type(), logical)
	case *avro.FixedSchema:
		size := s.Size()
		return func(r *valueReader) (any, error) {
			b, err := r.take(size)
			if err != nil {
				return nil, err
			}
			if logical == string(avro.Decimal) {
				return decimalValue(b), nil
			}
			return fixedValue(b), nil
		}, nil
	case *avro.EnumSchema:
		symbols := s.Symbols()
		return func(r *valueReader) (any, error) {
			i, err := r.long()
			if err != nil {
				return nil, err
			}
			if i < 0 || i >= int64(len(symbols)) {
				return nil, fmt.Errorf("enum index %d of %d symbols", i, len(symbols))
			}
			return symbols[i], nil
		}, nil
	case *avro.RecordSchema:
		fields := s.Fields()
		names := make([]string, len(fields))
		decs := make([]valueDecoder, len(fields))
		for i, f := range fields {
			d, err := compileDecoder(f.Type())
			if err != nil {
				return nil, err
			}
			names[i], decs[i] = f.Name(), d
		}
		return func(r *valueReader) (any, error) {
			m := make(map[string]any, len(decs))
			for i, d := range decs {
				v, err := d(r)
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", names[i], err)
				}
				m[names[i]] = v
			}
			return m, nil
		}, nil
	case *avro.ArraySchema:
		item, err := compileDecoder(s.Items())
		if err != nil {
			return nil, err
		}
		return func(r *valueReader) (any, error) {
			out := []any{}
			err := r.blocks(func() error {
				v, err := item(r)
				out = append(out, v)
				return err
			})
			return out, err
		}, nil
	case *avro.MapSchema:
		val, err := compileDecoder(s.Values())
		if err != nil {
			return nil, err
		}
		return func(r *valueReader) (any, error) {
			out := map[string]any{}
			err := r.blocks(func() error {
				k, err := r.str()
				if err != nil {
					return err
				}
				v, err := val(r)
				out[k] = v
				return err
			})
			return out, err
		}, nil
	case *avro.UnionSchema:
		branches := make([]valueDecoder, len(s.Types()))
		for i, b := range s.Types() {
			d, err := compileDecoder(b)
			if err != nil {
				return nil, err
			}
			branches[i] = d
		}
		return func(r *valueReader) (any, error) {
			i, err := r.long()
			if err != nil {
				return nil, err
			}
			if i < 0 || i >= int64(len(branches)) {
				return nil, fmt.Errorf("union branch %d of %d", i, len(branches))
			}
			return branches[i](r)
		}, nil
	}
	return nil, fmt.Errorf("unsupported avro type %s", s.Type())
}

func primitiveDecoder(t avro.Type, logical string) (valueDecoder, error) {
	switch t {
	case avro.Boolean:
		return func(r *valueReader) (any, error) {
			b, err := r.take(1)
			if err != nil {
				return nil, err
			}
			return b[0] != 0, nil
		}, nil
	case avro.Int:
		return func(r *valueReader) (any, error) {
			v, err := r.long()
			if err != nil {
				return nil, err
			}
			if v < math.MinInt32 || v > math.MaxInt32 {
				return nil, fmt.Errorf("int out of range: %d", v)
			}
			switch logical {
			case string(avro.Date):
				return time.Unix(v*86400, 0).UTC(), nil
			case string(avro.TimeMillis):
				return time.Duration(v) * time.Millisecond, nil
			}
			return int32(v), nil
		}, nil
	case avro.Long:
		return func(r *valueReader) (any, error) {
			v, err := r.long()
			if err != nil {
				return nil, err
			}
			switch logical {
			case string(avro.TimestampMicros), string(avro.LocalTimestampMicros):
				return time.UnixMicro(v).UTC(), nil
			case string(avro.TimeMicros):
				return time.Duration(v) * time.Microsecond, nil
			}
			return v, nil // plain long, timestamp-millis and local-timestamp-millis
		}, nil
	case avro.Float:
		return func(r *valueReader) (any, error) {
			b, err := r.take(4)
			if err != nil {
				return nil, err
			}
			return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
		}, nil
	case avro.Double:
		return func(r *valueReader) (any, error) {
			b, err := r.take(8)
			if err != nil {
				return nil, err
			}
			return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
		}, nil
	case avro.Bytes:
		return func(r *valueReader) (any, error) {
			b, err := r.bytes()
			if err != nil {
				return nil, err
			}
			if logical == string(avro.Decimal) {
				return decimalValue(b), nil
			}
			return b, nil
		}, nil
	case avro.String:
		return func(r *valueReader) (any, error) {
			s, err := r.str()
			if err != nil {
				return nil, err
			}
			return s, nil
		}, nil
	case avro.Null:
		return func(*valueReader) (any, error) { return nil, nil }, nil
	}
	return nil, fmt.Errorf("unsupported avro type %s", t)
}

// slabSize is the chunk small byte values are copied into, saving one allocation per value.
const slabSize = 4096

// valueReader reads Avro binary values from one decompressed block with bounds checks. Byte
// values it returns are copies (the block buffer is reused); small ones share slab chunks, with
// their capacity clipped so that appending to one never overwrites another.
type valueReader struct {
	varintReader
	slab []byte
}

func (r *valueReader) long() (int64, error) { return r.varintReader.long() }

// take returns a copy of the next n bytes.
func (r *valueReader) take(n int) ([]byte, error) {
	if n < 0 || n > r.remaining() {
		return nil, errTruncated
	}
	var b []byte
	if n <= slabSize/8 {
		if len(r.slab) < n {
			r.slab = make([]byte, slabSize)
		}
		b, r.slab = r.slab[:n:n], r.slab[n:]
	} else {
		b = make([]byte, n)
	}
	copy(b, r.b[r.pos:])
	r.pos += n
	return b, nil
}

// bytes reads a length-prefixed byte string (a copy).
func (r *valueReader) bytes() ([]byte, error) {
	n, err := r.length()
	if err != nil {
		return nil, err
	}
	return r.take(n)
}

// str reads a length-prefixed string.
func (r *valueReader) str() (string, error) {
	n, err := r.length()
	if err != nil {
		return "", err
	}
	s := string(r.b[r.pos : r.pos+n])
	r.pos += n
	return s, nil
}

// length reads the length of a bytes or string value and checks it against the input and
// maxValueBytes.
func (r *valueReader) length() (int, error) {
	n, err := r.long()
	if err != nil {
		return 0, err
	}
	if n > maxValueBytes {
		return 0, fmt.Errorf("bytes value of %d bytes exceeds %d", n, maxValueBytes)
	}
	if n < 0 || n > int64(r.remaining()) {
		return 0, errTruncated
	}
	return int(n), nil
}

// blocks reads the blocks of an array or map, calling item once per element. Every element
// takes at least one byte (checkSchema), so counts beyond the remaining bytes are corrupt.
func (r *valueReader) blocks(item func() error) error {
	total := int64(0)
	for {
		n, err := r.long()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if n < 0 {
			if n == math.MinInt64 {
				return fmt.Errorf("bad block count %d", n)
			}
			n = -n
			if _, err := r.long(); err != nil { // block byte size, unused
				return err
			}
		}
		total += n
		if total > maxArrayLength || n > int64(r.remaining()) {
			return fmt.Errorf("array or map of %d elements with %d bytes left", total, r.remaining())
		}
		for range n {
			if err := item(); err != nil {
				return err
			}
		}
	}
}
