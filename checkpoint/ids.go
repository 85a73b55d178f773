package checkpoint

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// IDList is a list of row ids (row-id mode) kept compact in records. In JSON it is a string
//
//	"fc1+zstd:" + base64(zstd(front-coded ids))
//
// where the ids are sorted bytewise and each is written as uvarint(length of the prefix shared with
// the previous id), uvarint(length of the rest), the rest. Sorting first makes the encoding a pure
// function of the multiset of ids. Record digests (ResultDigest) hash the front-coded ids, not the
// compressed bytes, so they do not depend on the compressor's version or on the legacy layout. A plain JSON
// array of strings (the layout before compaction) is still read. Decoding sorts the list.
type IDList []string

const idListPrefix = "fc1+zstd:"

// maxIDListBytes bounds the decompressed size of one list: a damaged record must not exhaust memory.
const maxIDListBytes = 1 << 30

var (
	zstdOnce sync.Once
	zstdEnc  *zstd.Encoder
	zstdDec  *zstd.Decoder
	zstdErr  error
)

func zstdCodec() (*zstd.Encoder, *zstd.Decoder, error) {
	zstdOnce.Do(func() {
		zstdEnc, zstdErr = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
		if zstdErr == nil {
			zstdDec, zstdErr = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxIDListBytes))
		}
	})
	return zstdEnc, zstdDec, zstdErr
}

// MarshalJSON writes the compact form; an empty list is written as an empty JSON string.
func (l IDList) MarshalJSON() ([]byte, error) {
	if len(l) == 0 {
		return []byte(`""`), nil
	}
	raw := l.frontCoded()
	enc, _, err := zstdCodec()
	if err != nil {
		return nil, fmt.Errorf("checkpoint: id list codec: %w", err)
	}
	packed := enc.EncodeAll(raw, nil)
	return json.Marshal(idListPrefix + base64.StdEncoding.EncodeToString(packed))
}

// frontCoded returns the sorted ids front-coded (the uncompressed payload of the JSON form).
func (l IDList) frontCoded() []byte {
	s := slices.Clone([]string(l))
	slices.Sort(s)
	var raw []byte
	prev := ""
	for _, id := range s {
		n := 0
		for n < len(prev) && n < len(id) && prev[n] == id[n] {
			n++
		}
		raw = binary.AppendUvarint(raw, uint64(n))
		raw = binary.AppendUvarint(raw, uint64(len(id)-n))
		raw = append(raw, id[n:]...)
		prev = id
	}
	return raw
}

// UnmarshalJSON reads the compact form or a plain JSON array of strings. Malformed input is an
// error, never a panic.
func (l *IDList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var s []string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		slices.Sort(s)
		*l = s
		return nil
	}
	var text string
	if err := json.Unmarshal(b, &text); err != nil {
		return fmt.Errorf("id list: %w", err)
	}
	if text == "" {
		*l = nil
		return nil
	}
	rest, ok := strings.CutPrefix(text, idListPrefix)
	if !ok {
		return fmt.Errorf("id list: unknown encoding (want prefix %q)", idListPrefix)
	}
	packed, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return fmt.Errorf("id list: base64: %w", err)
	}
	_, dec, err := zstdCodec()
	if err != nil {
		return fmt.Errorf("id list codec: %w", err)
	}
	raw, err := dec.DecodeAll(packed, nil)
	if err != nil {
		return fmt.Errorf("id list: zstd: %w", err)
	}
	ids, err := decodeFrontCoded(raw)
	if err != nil {
		return err
	}
	*l = ids
	return nil
}

// decodeFrontCoded expands front-coded ids into one arena string that the ids are slices of (one
// allocation for all their bytes instead of one or two per id).
func decodeFrontCoded(raw []byte) (IDList, error) {
	var arena []byte
	var ends []int // ends[i]: end offset of id i in arena; it starts at ends[i-1]
	prevStart, prevEnd := 0, 0
	for len(raw) > 0 {
		i := len(ends)
		shared, n := binary.Uvarint(raw)
		if n <= 0 {
			return nil, fmt.Errorf("id list: bad prefix length at id %d", i)
		}
		raw = raw[n:]
		size, n := binary.Uvarint(raw)
		if n <= 0 {
			return nil, fmt.Errorf("id list: bad length at id %d", i)
		}
		raw = raw[n:]
		if shared > uint64(prevEnd-prevStart) || size > uint64(len(raw)) {
			return nil, fmt.Errorf("id list: id %d overruns its data (prefix %d of %d, rest %d of %d bytes)", i, shared, prevEnd-prevStart, size, len(raw))
		}
		start := len(arena)
		arena = append(arena, arena[prevStart:prevStart+int(shared)]...)
		arena = append(arena, raw[:size]...)
		raw = raw[size:]
		if i > 0 && bytes.Compare(arena[start:], arena[prevStart:prevEnd]) < 0 {
			return nil, fmt.Errorf("id list: id %d is out of order", i)
		}
		ends = append(ends, len(arena))
		prevStart, prevEnd = start, len(arena)
	}
	all := string(arena)
	out := make(IDList, len(ends))
	from := 0
	for i, end := range ends {
		out[i] = all[from:end]
		from = end
	}
	return out, nil
}
