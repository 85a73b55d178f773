package dv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

func corruptf(meta manifest.DeletionVectorMeta, format string, args ...any) error {
	return fmt.Errorf("%w: deletion vector of %s at offset %d: %s",
		spec.ErrCorrupt, meta.DataFileName, meta.Offset, fmt.Sprintf(format, args...))
}

// ReadDeletionVector reads the deletion vector that meta locates in the index file r. It checks
// the file's version byte, the size field against meta.Length, the magic number, the CRC32, that
// the bitmap uses the whole payload and, when meta.Cardinality is set, the cardinality.
func ReadDeletionVector(r io.ReaderAt, meta manifest.DeletionVectorMeta) (DeletionVector, error) {
	if meta.Offset < 1 || meta.Length < 4 {
		return nil, corruptf(meta, "invalid range (length %d)", meta.Length)
	}
	var version [1]byte
	if _, err := r.ReadAt(version[:], 0); err != nil {
		return nil, readErr(meta, "version byte", err)
	}
	if version[0] != IndexFileVersion {
		return nil, corruptf(meta, "index file version %d, want %d", version[0], IndexFileVersion)
	}
	var head [8]byte
	if _, err := r.ReadAt(head[:], int64(meta.Offset)); err != nil {
		return nil, readErr(meta, "size and magic", err)
	}
	size := int32(binary.BigEndian.Uint32(head[:4]))
	switch {
	case int32(binary.BigEndian.Uint32(head[4:])) == Magic32:
		if size != meta.Length {
			return nil, corruptf(meta, "size field %d, meta length %d", size, meta.Length)
		}
		payload, err := readPayload(r, meta, size)
		if err != nil {
			return nil, err
		}
		body := payload[4:]
		bm, n, err := readBitmap32(meta, body)
		if err != nil {
			return nil, err
		}
		if n != len(body) {
			return nil, corruptf(meta, "roaring bitmap uses %d of %d bytes", n, len(body))
		}
		return checkCardinality(meta, bitmap32{bm})
	case int32(binary.LittleEndian.Uint32(head[4:])) == Magic64:
		if int64(size)+8 != int64(meta.Length) {
			return nil, corruptf(meta, "size field %d, meta length %d (want size+8)", size, meta.Length)
		}
		payload, err := readPayload(r, meta, size)
		if err != nil {
			return nil, err
		}
		bm, err := readBitmap64(meta, payload[4:])
		if err != nil {
			return nil, err
		}
		return checkCardinality(meta, bitmap64{bm})
	default:
		return nil, corruptf(meta, "unknown magic number %#x", head[4:])
	}
}

// readPayload reads the size-byte payload after the size field and verifies the CRC behind it.
// Reading through a SectionReader keeps memory proportional to the bytes that really exist.
func readPayload(r io.ReaderAt, meta manifest.DeletionVectorMeta, size int32) ([]byte, error) {
	if size < 4 {
		return nil, corruptf(meta, "size field %d", size)
	}
	n := int64(size) + 4
	buf, err := io.ReadAll(io.NewSectionReader(r, int64(meta.Offset)+4, n))
	if err != nil {
		return nil, readErr(meta, "payload", err)
	}
	if int64(len(buf)) != n {
		return nil, corruptf(meta, "truncated: %d of %d payload+CRC bytes", len(buf), n)
	}
	payload, stored := buf[:size], binary.BigEndian.Uint32(buf[size:])
	if got := crc32.ChecksumIEEE(payload); got != stored {
		return nil, corruptf(meta, "CRC32 %#08x, stored %#08x", got, stored)
	}
	return payload, nil
}

// readBitmap64 decodes Java's 64-bit portable layout: LE bitmap count, then per bitmap an LE
// high key (strictly increasing) and a 32-bit portable bitmap. Java writes empty bitmaps for
// unused keys; they are skipped. The count is bounded by the bytes present before anything is
// allocated for it.
func readBitmap64(meta manifest.DeletionVectorMeta, body []byte) (*roaring64.Bitmap, error) {
	if len(body) < 8 {
		return nil, corruptf(meta, "64-bit bitmap shorter than its count")
	}
	count := binary.LittleEndian.Uint64(body)
	rest := body[8:]
	if count > uint64(len(rest))/12 { // each bitmap takes at least 4 key + 8 header bytes
		return nil, corruptf(meta, "64-bit bitmap count %d does not fit in %d bytes", count, len(body))
	}
	out := roaring64.New()
	prev := int64(-1)
	for i := uint64(0); i < count; i++ {
		if len(rest) < 4 {
			return nil, corruptf(meta, "64-bit bitmap truncated at key %d", i)
		}
		key := binary.LittleEndian.Uint32(rest)
		if int64(key) <= prev {
			return nil, corruptf(meta, "64-bit bitmap keys not increasing (%d after %d)", key, prev)
		}
		prev = int64(key)
		bm, n, err := readBitmap32(meta, rest[4:])
		if err != nil {
			return nil, err
		}
		rest = rest[4+n:]
		high := uint64(key) << 32
		it := bm.ManyIterator()
		buf := make([]uint32, 4096)
		wide := make([]uint64, 0, 4096)
		for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
			wide = wide[:0]
			for _, low := range buf[:k] {
				wide = append(wide, high|uint64(low))
			}
			out.AddMany(wide)
		}
	}
	if len(rest) != 0 {
		return nil, corruptf(meta, "%d bytes after the 64-bit bitmap", len(rest))
	}
	return out, nil
}

// readBitmap32 decodes one 32-bit portable RoaringBitmap from the start of body and returns it
// with the number of bytes it used. The bitmap must validate; a panic inside the roaring
// library becomes a corruption error.
func readBitmap32(meta manifest.DeletionVectorMeta, body []byte) (bm *roaring.Bitmap, n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			bm, n, err = nil, 0, corruptf(meta, "roaring bitmap decoder failed: %v", p)
		}
	}()
	bm = roaring.New()
	read, err := bm.ReadFrom(bytes.NewReader(body))
	if err != nil {
		return nil, 0, corruptf(meta, "roaring bitmap: %v", err)
	}
	if read <= 0 || read > int64(len(body)) {
		return nil, 0, corruptf(meta, "roaring bitmap size %d of %d bytes", read, len(body))
	}
	if err := bm.Validate(); err != nil {
		return nil, 0, corruptf(meta, "roaring bitmap: %v", err)
	}
	return bm, int(read), nil
}

func checkCardinality(meta manifest.DeletionVectorMeta, v DeletionVector) (DeletionVector, error) {
	if meta.Cardinality != nil && *meta.Cardinality != v.Cardinality() {
		return nil, corruptf(meta, "cardinality %d, meta says %d", v.Cardinality(), *meta.Cardinality)
	}
	return v, nil
}

func readErr(meta manifest.DeletionVectorMeta, what string, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return corruptf(meta, "truncated %s", what)
	}
	return fmt.Errorf("deletion vector of %s: read %s: %w", meta.DataFileName, what, err)
}
