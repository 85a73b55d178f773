package pqflat

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// hybrid decodes Parquet's RLE/bit-packed hybrid encoding of bit width w (levels, dictionary
// indices), run by run, so that a page can be consumed across batches.
type hybrid struct {
	data []byte
	pos  int
	w    int
	left int    // values left in the current run
	rle  bool   // the current run repeats val
	val  uint64 // value of an RLE run
	bits []byte // bytes of a bit-packed run
	bi   int    // index of the next value in bits
}

// errRun is a run that does not fit the encoding or its page.
var errRun = errors.New("malformed RLE/bit-packed run")

func (h *hybrid) init(data []byte, w int) {
	*h = hybrid{data: data, w: w}
}

// next starts the next run.
func (h *hybrid) next() error {
	header, n := binary.Uvarint(h.data[h.pos:])
	if n <= 0 {
		return fmt.Errorf("%w: no run header at byte %d of %d", errRun, h.pos, len(h.data))
	}
	h.pos += n
	count := header >> 1
	if count == 0 || count > 1<<31 {
		return fmt.Errorf("%w: run of %d values", errRun, count)
	}
	if header&1 == 0 {
		nb := (h.w + 7) / 8
		if h.pos+nb > len(h.data) {
			return fmt.Errorf("%w: RLE value past the end", errRun)
		}
		var v uint64
		for k := nb - 1; k >= 0; k-- {
			v = v<<8 | uint64(h.data[h.pos+k])
		}
		h.pos += nb
		h.rle, h.val, h.left = true, v, int(count)
		return nil
	}
	groups := int(count)
	if h.w == 0 {
		h.rle, h.val, h.left = true, 0, groups*8
		return nil
	}
	nb := min(groups*h.w, len(h.data)-h.pos) // the last run may stop short of its groups
	vals := min(groups*8, nb*8/h.w)
	if vals == 0 {
		return fmt.Errorf("%w: bit-packed run past the end", errRun)
	}
	h.rle, h.bits, h.bi, h.left = false, h.data[h.pos:h.pos+nb], 0, vals
	h.pos += nb
	return nil
}

// levels decodes n definition levels (bit width 1) into bitmap bits off..off+n-1 and returns
// how many are 1.
func (h *hybrid) levels(bm []byte, off, n int) (valid int, err error) {
	for n > 0 {
		if h.left == 0 {
			if err := h.next(); err != nil {
				return 0, err
			}
		}
		m := min(h.left, n)
		if h.rle {
			if h.val > 1 {
				return 0, fmt.Errorf("%w: definition level %d above 1", errRun, h.val)
			}
			bitutil.SetBitsTo(bm, int64(off), int64(m), h.val == 1)
			if h.val == 1 {
				valid += m
			}
		} else {
			bitutil.CopyBitmap(h.bits, h.bi, m, bm, off)
			valid += bitutil.CountSetBits(h.bits, h.bi, m)
			h.bi += m
		}
		h.left -= m
		off += m
		n -= m
	}
	return valid, nil
}

// indices decodes len(dst) dictionary indices, each checked to be below size.
func (h *hybrid) indices(dst []int32, size int) error {
	mask := uint64(1)<<h.w - 1
	for k := 0; k < len(dst); {
		if h.left == 0 {
			if err := h.next(); err != nil {
				return err
			}
		}
		m := min(h.left, len(dst)-k)
		if h.rle {
			if h.val >= uint64(size) {
				return fmt.Errorf("dictionary index %d out of range (dictionary of %d)", h.val, size)
			}
			v := int32(h.val)
			for j := k; j < k+m; j++ {
				dst[j] = v
			}
		} else {
			bits := h.bits
			for j := k; j < k+m; j++ {
				bit := h.bi * h.w
				b := bit >> 3
				var x uint64
				if b+8 <= len(bits) {
					x = binary.LittleEndian.Uint64(bits[b:])
				} else {
					for q := len(bits) - 1; q >= b; q-- {
						x = x<<8 | uint64(bits[q])
					}
				}
				v := (x >> (bit & 7)) & mask
				if v >= uint64(size) {
					return fmt.Errorf("dictionary index %d out of range (dictionary of %d)", v, size)
				}
				dst[j] = int32(v)
				h.bi++
			}
		}
		h.left -= m
		k += m
	}
	return nil
}

// legacyLevels decodes n definition levels of the deprecated BIT_PACKED encoding (bit width 1,
// most significant bit first) from bits starting at bit *at.
func legacyLevels(bits []byte, at *int, bm []byte, off, n int) (valid int, err error) {
	if (*at+n+7)/8 > len(bits) {
		return 0, fmt.Errorf("%w: BIT_PACKED levels past the end", errRun)
	}
	for k := 0; k < n; k++ {
		i := *at + k
		if bits[i>>3]>>(7-uint(i&7))&1 == 1 {
			bitutil.SetBit(bm, off+k)
			valid++
		} else {
			bitutil.ClearBit(bm, off+k)
		}
	}
	*at += n
	return valid, nil
}
