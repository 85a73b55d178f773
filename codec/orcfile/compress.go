package orcfile

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// chunkHeaderLen is the size of the header before every compressed chunk: a little-endian
// 24-bit value holding chunkLength*2 + isOriginal.
const chunkHeaderLen = 3

// zstdDecoder is shared by all files; DecodeAll is safe for concurrent use. Its memory cap is
// the largest block size a file may declare.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(maxBlockSize))
})

// decompress undoes the file's general compression of one stream or tail section. With
// compression NONE it returns b itself.
func (f *File) decompress(b []byte, what string) ([]byte, error) {
	if f.Compression == None {
		return b, nil
	}
	var out []byte
	for pos := 0; pos < len(b); {
		if len(b)-pos < chunkHeaderLen {
			return nil, corruptf("%s: truncated chunk header at byte %d", what, pos)
		}
		h := int(b[pos]) | int(b[pos+1])<<8 | int(b[pos+2])<<16
		pos += chunkHeaderLen
		n := h >> 1
		if n > len(b)-pos {
			return nil, corruptf("%s: chunk of %d bytes at byte %d overruns the %d-byte stream", what, n, pos, len(b))
		}
		chunk := b[pos : pos+n]
		pos += n
		start := len(out)
		if h&1 == 1 { // stored uncompressed
			if err := f.budget.spendBytes(n, what); err != nil {
				return nil, err
			}
			out = append(out, chunk...)
			continue
		}
		limit := min(f.BlockSize, f.budget.bytesLeft())
		var err error
		if out, err = decodeChunk(f.Compression, out, chunk, limit); err != nil {
			return nil, corruptf("%s: %s chunk at byte %d: %v", what, f.Compression, pos-n, err)
		}
		if uint64(len(out)-start) > limit {
			return nil, corruptf("%s: chunk decompresses to %d bytes, more than the %d allowed", what, len(out)-start, limit)
		}
		if err := f.budget.spendBytes(len(out)-start, what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeChunk appends the decompression of one chunk to out; it may overshoot limit by at most
// one block, which the caller rejects.
func decodeChunk(c Compression, out, chunk []byte, limit uint64) ([]byte, error) {
	switch c {
	case Zstd:
		dec, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		return dec.DecodeAll(chunk, out)
	case Zlib: // raw deflate, no zlib header
		buf := bytes.NewBuffer(out)
		_, err := buf.ReadFrom(io.LimitReader(flate.NewReader(bytes.NewReader(chunk)), int64(limit)+1))
		return buf.Bytes(), err
	case Snappy:
		n, err := snappy.DecodedLen(chunk)
		if err != nil {
			return nil, err
		}
		if uint64(n) > limit {
			return nil, errTooLarge
		}
		dst, err := snappy.Decode(make([]byte, n), chunk)
		return append(out, dst...), err
	case LZ4: // raw LZ4 block; LZ4 expands at most 255-fold
		dst := make([]byte, min(limit, 255*uint64(len(chunk))+16))
		n, err := lz4.UncompressBlock(chunk, dst)
		if err != nil {
			return nil, err
		}
		return append(out, dst[:n]...), nil
	}
	return nil, unsupportedf("compression %s", c)
}

type chunkError string

func (e chunkError) Error() string { return string(e) }

const errTooLarge = chunkError("decompressed size exceeds the compression block size")
