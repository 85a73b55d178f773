package binrow

import (
	"encoding/binary"
	"math/bits"
)

// hashSeed is Java MurmurHashUtils.DEFAULT_SEED.
const hashSeed = 42

// Hash is Java BinaryRow.hashCode(): MurmurHash3 x86_32 with seed 42 over the whole row bytes
// (header, null bits, slots, variable part; not the arity prefix), as int32. Rows are multiples of
// 8 bytes, where this is standard MurmurHash3; for other lengths it follows Java's
// MurmurHashUtils.hashBytes, which mixes each tail byte (sign-extended) as its own block.
func Hash(row []byte) int32 { return hashSeeded(row, hashSeed) }

// hashSeeded is Java MurmurHashUtils.hashBytes with an explicit seed.
func hashSeeded(row []byte, seed uint32) int32 {
	h := seed
	aligned := len(row) &^ 3
	for i := 0; i < aligned; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(row[i:])))
	}
	for i := aligned; i < len(row); i++ {
		h = mixH1(h, mixK1(uint32(int32(int8(row[i])))))
	}
	return int32(fmix(h ^ uint32(len(row))))
}

// HashBigInt is Hash of the BinaryRow holding one non-null BIGINT v (8 header bytes of zeros, then
// v little-endian): a table's bucket of a row by a BIGINT bucket key, without building the row.
func HashBigInt(v int64) int32 {
	h := uint32(hashSeed)
	h = mixH1(h, mixK1(0))
	h = mixH1(h, mixK1(0))
	h = mixH1(h, mixK1(uint32(v)))
	h = mixH1(h, mixK1(uint32(uint64(v)>>32)))
	return int32(fmix(h ^ 16))
}

func mixK1(k uint32) uint32 {
	k *= 0xcc9e2d51
	k = bits.RotateLeft32(k, 15)
	return k * 0x1b873593
}

func mixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func fmix(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// Bucket is Java's default bucket function (DefaultBucketFunction): abs(hash % n) with Go/Java
// truncated remainder. n must be positive.
func Bucket(hash int32, n int) int {
	r := int(hash) % n
	if r < 0 {
		r = -r
	}
	return r
}
