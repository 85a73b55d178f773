package dv

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// WriteIndexFile writes one deletion-vector index file holding a 32-bit vector per data file, in
// Java's layout (version byte 1; per vector int32 BE size, BE magic + run-optimized portable
// RoaringBitmap, int32 BE CRC32). Data files are written in name order. It returns one
// DeletionVectorMeta per data file (same order, cardinality set) and the file size. The
// caller's bitmaps are not modified.
func WriteIndexFile(w io.Writer, vectors map[string]*roaring.Bitmap) ([]manifest.DeletionVectorMeta, int64, error) {
	names := make([]string, 0, len(vectors))
	for name, bm := range vectors {
		if bm == nil {
			return nil, 0, fmt.Errorf("dv: nil bitmap for data file %q", name)
		}
		names = append(names, name)
	}
	sort.Strings(names)

	bw := bufio.NewWriter(w)
	if err := bw.WriteByte(IndexFileVersion); err != nil {
		return nil, 0, fmt.Errorf("dv: write index file: %w", err)
	}
	pos := int64(1)
	metas := make([]manifest.DeletionVectorMeta, 0, len(names))
	for _, name := range names {
		bm := vectors[name].Clone()
		bm.RunOptimize()
		bits, err := bm.ToBytes()
		if err != nil {
			return nil, 0, fmt.Errorf("dv: serialize bitmap of %s: %w", name, err)
		}
		payload := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(bits)), uint32(Magic32))
		payload = append(payload, bits...)
		if pos > math.MaxInt32 || int64(len(payload)) > math.MaxInt32-pos {
			return nil, 0, fmt.Errorf("dv: index file exceeds 2 GiB at data file %s", name)
		}
		var frame []byte
		frame = binary.BigEndian.AppendUint32(frame, uint32(len(payload)))
		frame = append(frame, payload...)
		frame = binary.BigEndian.AppendUint32(frame, crc32.ChecksumIEEE(payload))
		if _, err := bw.Write(frame); err != nil {
			return nil, 0, fmt.Errorf("dv: write index file: %w", err)
		}
		card := int64(bm.GetCardinality())
		metas = append(metas, manifest.DeletionVectorMeta{DataFileName: name, Offset: int32(pos), Length: int32(len(payload)), Cardinality: &card})
		pos += int64(len(frame))
	}
	if err := bw.Flush(); err != nil {
		return nil, 0, fmt.Errorf("dv: write index file: %w", err)
	}
	return metas, pos, nil
}
