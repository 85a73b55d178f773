package file

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Compressed text input is recognised by its magic bytes, never by its name: a CSV or JSON Lines
// file compressed with gzip, zstd, bzip2 or LZ4 (frame format) is decompressed as it is read, and is
// always one whole-file split (a compressed stream cannot be entered in the middle). xz and zip are
// recognised and refused with advice.

// magicLen is how many leading bytes compressionOf looks at.
const magicLen = 10

// zstdMaxWindow is the largest zstd window accepted, as the zstd tool's default decoder limit
// (--long=27): a hostile frame cannot make the reader allocate more.
const zstdMaxWindow = 128 << 20

// compressionOf names the compression whose magic bytes head starts with, or "".
func compressionOf(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b, 0x08}):
		return "gzip"
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "zstd"
	case bytes.HasPrefix(head, []byte{0x04, 0x22, 0x4d, 0x18}):
		return "lz4"
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		return "xz"
	case bytes.HasPrefix(head, []byte{'P', 'K', 0x03, 0x04}):
		return "zip"
	case len(head) >= 10 && bytes.HasPrefix(head, []byte("BZh")) && head[3] >= '1' && head[3] <= '9' &&
		(bytes.Equal(head[4:10], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) || // a block
			bytes.Equal(head[4:10], []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})): // the end of an empty stream
		return "bzip2"
	}
	return ""
}

// decompressed returns the text of a file read through br: br itself when the file is not
// compressed, else a decompressing reader (closed by the returned func) and the compression's name.
func decompressed(path string, br *bufio.Reader) (io.Reader, string, func(), error) {
	head, _ := br.Peek(magicLen)
	kind := compressionOf(head)
	none := func() {}
	switch kind {
	case "":
		return br, "", none, nil
	case "gzip":
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, kind, none, fmt.Errorf("file %s: gzip-compressed, but its header cannot be read: %w", path, err)
		}
		return &decompressErr{r: zr, path: path, kind: kind}, kind, func() { _ = zr.Close() }, nil
	case "zstd":
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow))
		if err != nil {
			return nil, kind, none, fmt.Errorf("file %s: zstd-compressed, but it cannot be read: %w", path, err)
		}
		return &decompressErr{r: zr, path: path, kind: kind}, kind, zr.Close, nil
	case "bzip2":
		return &decompressErr{r: bzip2.NewReader(br), path: path, kind: kind}, kind, none, nil
	case "lz4":
		return &decompressErr{r: lz4.NewReader(br), path: path, kind: kind}, kind, none, nil
	}
	return nil, kind, none, fmt.Errorf("file %s is %s-compressed, which lakeload does not read: decompress it first, or recompress it with gzip or zstd", path, kind)
}

// decompressErr names the compression in a decompression error (the reader adds the file), so a damaged
// compressed file is not reported as malformed CSV or JSON.
type decompressErr struct {
	r    io.Reader
	path string
	kind string
}

func (d *decompressErr) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s-compressed data is damaged: %w", d.kind, err)
	}
	return n, err
}
