package manifest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/hamba/avro/v2/ocf"
	"github.com/klauspost/compress/zstd"
)

// maxBlockBytes caps the decompressed size of one Avro data block. Java flushes a block every
// ~64 KiB of rows, WriteManifest every 100 rows; only a decompression bomb comes near this.
const maxBlockBytes = 256 << 20

// Shared zstandard codec state. Creating a zstd encoder or decoder allocates megabytes of tables
// and history; EncodeAll and DecodeAll are safe for concurrent use, so one of each serves every
// goroutine (the library runs at most GOMAXPROCS calls at once and queues the rest).
var (
	zstdOnce sync.Once
	zstdEnc  *zstd.Encoder
	zstdDec  *zstd.Decoder
	zstdErr  error
)

func zstdCodec() (*zstd.Encoder, *zstd.Decoder, error) {
	zstdOnce.Do(func() {
		// Default encoder options: the same frames ocf.ZStandard emits.
		zstdEnc, zstdErr = zstd.NewWriter(nil)
		if zstdErr != nil {
			return
		}
		zstdDec, zstdErr = zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxBlockBytes))
	})
	return zstdEnc, zstdDec, zstdErr
}

// decompressBlock undoes the container's codec on one block. The result may alias data.
func decompressBlock(codec []byte, data []byte, dst []byte) ([]byte, error) {
	switch string(codec) {
	case "", string(ocf.Null):
		return data, nil
	case string(ocf.ZStandard):
		_, dec, err := zstdCodec()
		if err != nil {
			return nil, fmt.Errorf("manifest: create zstd decoder: %w", err)
		}
		out, err := dec.DecodeAll(data, dst[:0])
		if err != nil {
			return nil, corruptf("zstandard block: %v", err)
		}
		return out, nil
	case string(ocf.Deflate):
		out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(data)), maxBlockBytes+1))
		if err != nil {
			return nil, corruptf("deflate block: %v", err)
		}
		if len(out) > maxBlockBytes {
			return nil, corruptf("deflate block inflates beyond %d bytes", maxBlockBytes)
		}
		return out, nil
	case string(ocf.Snappy):
		// Block = snappy data + 4-byte CRC; the data starts with its decoded length as a uvarint.
		if n, k := binary.Uvarint(data); k <= 0 || n > maxBlockBytes {
			return nil, corruptf("snappy block: bad or oversized decoded length")
		}
		out, err := (&ocf.SnappyCodec{}).Decode(data)
		if err != nil {
			return nil, corruptf("snappy block: %v", err)
		}
		return out, nil
	}
	return nil, corruptf("unknown avro codec %q", codec)
}
