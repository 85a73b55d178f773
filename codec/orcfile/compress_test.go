package orcfile

import (
	"bytes"
	"compress/flate"
	"errors"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// chunk frames one compressed (or, if original, stored) chunk with its 3-byte header.
func chunk(payload []byte, original bool) []byte {
	h := len(payload) << 1
	if original {
		h |= 1
	}
	return append([]byte{byte(h), byte(h >> 8), byte(h >> 16)}, payload...)
}

func compressWith(t *testing.T, c Compression, b []byte) []byte {
	t.Helper()
	switch c {
	case Zstd:
		enc, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		return enc.EncodeAll(b, nil)
	case Zlib:
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	case Snappy:
		return snappy.Encode(nil, b)
	case LZ4:
		dst := make([]byte, lz4.CompressBlockBound(len(b)))
		n, err := lz4.CompressBlock(b, dst, nil)
		if err != nil || n == 0 {
			t.Fatalf("lz4: %d, %v", n, err)
		}
		return dst[:n]
	}
	t.Fatalf("no compressor for %s", c)
	return nil
}

// TestDecompressCodecs: every codec's chunks, mixed with stored chunks, decompress to the
// concatenation of their contents; chunks larger than the block size are rejected.
func TestDecompressCodecs(t *testing.T) {
	part1 := bytes.Repeat([]byte("paimon manifest "), 200)
	part2 := []byte("stored as is")
	for _, c := range []Compression{Zstd, Zlib, Snappy, LZ4} {
		t.Run(c.String(), func(t *testing.T) {
			f := &File{Compression: c, BlockSize: 4096, budget: newBudget(1000)}
			framed := append(chunk(compressWith(t, c, part1), false), chunk(part2, true)...)
			got, err := f.decompress(framed, "test stream")
			if err != nil {
				t.Fatal(err)
			}
			if want := append(append([]byte{}, part1...), part2...); !bytes.Equal(got, want) {
				t.Fatalf("got %d bytes, want %d", len(got), len(want))
			}
			f.BlockSize = 1024
			if _, err := f.decompress(framed, "test stream"); !errors.Is(err, ErrCorrupt) {
				t.Errorf("chunk of %d bytes with block size 1024: %v", len(part1), err)
			}
			f.BlockSize = 4096
			for _, bad := range [][]byte{framed[:2], framed[:len(framed)-1], chunk([]byte{0xde, 0xad, 0xbe, 0xef}, false)} {
				if _, err := f.decompress(bad, "test stream"); !errors.Is(err, ErrCorrupt) {
					t.Errorf("bad stream %x: %v", bad[:min(len(bad), 8)], err)
				}
			}
		})
	}
}

// TestDecompressBudget: the total decompressed size is capped in proportion to the file size.
func TestDecompressBudget(t *testing.T) {
	f := &File{Compression: Zstd, BlockSize: maxBlockSize, budget: newBudget(10)}
	big := compressWith(t, Zstd, make([]byte, f.budget.maxBytes+1))
	if _, err := f.decompress(chunk(big, false), "test stream"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%d-byte zstd bomb: %v", len(big), err)
	}
}
