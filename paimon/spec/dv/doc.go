// Package dv reads and writes Paimon deletion-vector index files (paimon-format.md §6.7; Java
// DeletionVectorsIndexFile, DeletionFileWriter, BitmapDeletionVector, Bitmap64DeletionVector at
// release-2.0.0).
//
// Layout of an index file: one version byte (1), then per data file
//
//	int32 BE size | payload | int32 BE CRC32(payload)
//
// where payload is either
//   - 32-bit: int32 BE magic 1581511376 + 32-bit RoaringBitmap portable serialization; the
//     DeletionVectorMeta length is the payload size (= size field), or
//   - 64-bit (deletion-vectors.bitmap64): int32 LE magic 1681511377 + 64-bit Roaring portable
//     serialization (LE bitmap count, then LE key + 32-bit bitmap per key); the meta length
//     covers size field, payload and CRC (= size + 8).
//
// DeletionVectorMeta.Offset points at the size field.
//
// Invariants: WriteIndexFile produces exactly Java's 32-bit layout (bitmaps run-optimized, data
// files in name order); ReadDeletionVector verifies version byte, size, magic, CRC, that the
// bitmap consumes the payload exactly, and the recorded cardinality. Decoders never panic:
// malformed input gives errors wrapping spec.ErrCorrupt.
package dv
