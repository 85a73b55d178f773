package dv

import (
	"math"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// Format constants (Java DeletionVectorsIndexFile.VERSION_ID_V1, BitmapDeletionVector.MAGIC_NUMBER,
// Bitmap64DeletionVector.MAGIC_NUMBER).
const (
	IndexFileVersion byte  = 1
	Magic32          int32 = 1581511376 // stored big-endian
	Magic64          int32 = 1681511377 // stored little-endian
)

// DeletionVector tells which row positions of one data file are deleted.
type DeletionVector interface {
	// IsDeleted reports whether the row at position pos (0-based) is deleted.
	IsDeleted(pos int64) bool
	// Cardinality is the number of deleted rows.
	Cardinality() int64
}

// bitmap32 is Java's BitmapDeletionVector (positions < 2^31 in practice, < 2^32 here).
type bitmap32 struct{ bm *roaring.Bitmap }

func (v bitmap32) IsDeleted(pos int64) bool {
	return pos >= 0 && pos <= math.MaxUint32 && v.bm.Contains(uint32(pos))
}

func (v bitmap32) Cardinality() int64 { return int64(v.bm.GetCardinality()) }

// bitmap64 is Java's Bitmap64DeletionVector.
type bitmap64 struct{ bm *roaring64.Bitmap }

func (v bitmap64) IsDeleted(pos int64) bool { return pos >= 0 && v.bm.Contains(uint64(pos)) }

func (v bitmap64) Cardinality() int64 { return int64(v.bm.GetCardinality()) }
