package parquet

import "encoding/binary"

// appendHybrid appends vals (each < 1<<bitWidth, bitWidth 1..32) to dst in Parquet's RLE/bit-packed
// hybrid encoding: runs of at least 8 equal values as RLE runs (varint count<<1, value in
// ceil(bitWidth/8) LE bytes), everything else as bit-packed groups of 8 values (varint
// groups<<1|1, LSB first). Only the last group is padded (with zeros); readers stop at the
// page's value count.
func appendHybrid[T uint8 | uint32](dst []byte, vals []T, bitWidth int) []byte {
	n := len(vals)
	i := 0
	for i < n {
		if r := runLength(vals, i); r >= 8 {
			dst = binary.AppendUvarint(dst, uint64(r)<<1)
			v := uint32(vals[i])
			for b := 0; b < (bitWidth+7)/8; b++ {
				dst = append(dst, byte(v>>(8*b)))
			}
			i += r
			continue
		}
		start := i
		for i < n && (i == start || runLength(vals, i) < 8) {
			i += 8
		}
		i = min(i, n)
		groups := (i - start + 7) / 8
		dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
		dst = appendBitPacked(dst, vals[start:i], groups*8, bitWidth)
	}
	return dst
}

// runLength is the number of values equal to vals[i] from i on, counting at most 8 beyond the
// first run of 8 only when it continues (the caller needs to know >= 8 or the exact length).
func runLength[T uint8 | uint32](vals []T, i int) int {
	v := vals[i]
	j := i + 1
	for j < len(vals) && vals[j] == v {
		j++
	}
	return j - i
}

// appendBitPacked packs vals (padded with zeros to count values) LSB first, bitWidth bits each.
func appendBitPacked[T uint8 | uint32](dst []byte, vals []T, count, bitWidth int) []byte {
	var acc uint64
	var nbits int
	for k := 0; k < count; k++ {
		var v uint64
		if k < len(vals) {
			v = uint64(vals[k])
		}
		acc |= v << nbits
		nbits += bitWidth
		for nbits >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	if nbits > 0 {
		dst = append(dst, byte(acc))
	}
	return dst
}
