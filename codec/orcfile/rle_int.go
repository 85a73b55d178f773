package orcfile

// intReader yields the values of an integer stream one at a time. Unsigned streams return the
// uint64 bit pattern as int64.
type intReader interface {
	next() (int64, error)
}

// newIntReader picks RLE v1 (encodings DIRECT, DICTIONARY) or v2 (DIRECT_V2, DICTIONARY_V2).
func newIntReader(s *stream, v2, signed bool) intReader {
	if v2 {
		return &rleV2{s: s, signed: signed}
	}
	return &rleV1{s: s, signed: signed}
}

// rleV1 decodes integer RLE version 1: a control byte 0..127 starts a run of control+3 values
// from a varint base with a signed byte delta; -1..-128 starts that many varint literals.
type rleV1 struct {
	s      *stream
	signed bool
	left   int
	run    bool
	val    int64
	delta  int64
}

func (r *rleV1) next() (int64, error) {
	if r.left == 0 {
		ctrl, err := r.s.byte()
		if err != nil {
			return 0, err
		}
		if ctrl < 0x80 {
			d, err := r.s.byte()
			if err != nil {
				return 0, err
			}
			if r.val, err = r.s.varint(r.signed); err != nil {
				return 0, err
			}
			r.left, r.run, r.delta = int(ctrl)+3, true, int64(int8(d))
		} else {
			r.left, r.run = 256-int(ctrl), false
		}
	}
	r.left--
	if !r.run {
		return r.s.varint(r.signed)
	}
	v := r.val
	r.val += r.delta
	return v, nil
}

// rleV2 decodes integer RLE version 2, one run (at most 512 values) at a time, in its four
// sub-encodings: short repeat, direct, patched base and delta.
type rleV2 struct {
	s      *stream
	signed bool
	lits   []int64 // decoded values of the current run
	idx    int
}

func (r *rleV2) next() (int64, error) {
	if r.idx == len(r.lits) {
		r.lits, r.idx = r.lits[:0], 0
		if err := r.readRun(); err != nil {
			return 0, err
		}
	}
	v := r.lits[r.idx]
	r.idx++
	return v, nil
}

func (r *rleV2) readRun() error {
	h, err := r.s.byte()
	if err != nil {
		return err
	}
	switch h >> 6 {
	case 0:
		return r.shortRepeat(h)
	case 1:
		return r.direct(h)
	case 2:
		return r.patchedBase(h)
	}
	return r.delta(h)
}

func (r *rleV2) decode(u uint64) int64 {
	if r.signed {
		return unzigzag(u)
	}
	return int64(u)
}

// shortRepeat: 3 bits of value width in bytes (minus 1), 3 bits of count (minus 3), value.
func (r *rleV2) shortRepeat(h byte) error {
	u, err := r.s.bigEndian(int(h>>3&7) + 1)
	if err != nil {
		return err
	}
	v := r.decode(u)
	for range int(h&7) + 3 {
		r.lits = append(r.lits, v)
	}
	return nil
}

// runLength reads the 9-bit length (minus 1) held in the header's low bit and the next byte.
func (r *rleV2) runLength(h byte) (int, error) {
	b, err := r.s.byte()
	return (int(h&1)<<8 | int(b)) + 1, err
}

// direct: 5-bit width code, 9-bit length, bit-packed values.
func (r *rleV2) direct(h byte) error {
	n, err := r.runLength(h)
	if err != nil {
		return err
	}
	if r.lits, err = r.s.unpack(r.lits, n, decodeWidth(h>>1&0x1f)); err != nil {
		return err
	}
	for i, v := range r.lits {
		r.lits[i] = r.decode(uint64(v))
	}
	return nil
}

// patchedBase: width, length, base width, patch width, patch gap width, patch count; a
// sign-magnitude base; bit-packed offsets from the base; then (gap, patch) pairs whose patch
// supplies the high bits of the value gap positions after the previous patch.
func (r *rleV2) patchedBase(h byte) error {
	n, err := r.runLength(h)
	if err != nil {
		return err
	}
	width := decodeWidth(h >> 1 & 0x1f)
	b3, err := r.s.byte()
	if err != nil {
		return err
	}
	b4, err := r.s.byte()
	if err != nil {
		return err
	}
	baseBytes := int(b3>>5) + 1
	patchWidth := decodeWidth(b3 & 0x1f)
	gapWidth := uint(b4>>5) + 1
	patches := int(b4 & 0x1f)
	if patchWidth+gapWidth > 64 {
		return corruptf("%s: patch width %d + gap width %d exceed 64 bits", r.s.what, patchWidth, gapWidth)
	}
	ubase, err := r.s.bigEndian(baseBytes)
	if err != nil {
		return err
	}
	base := int64(ubase)
	if sign := uint64(1) << (8*uint(baseBytes) - 1); ubase&sign != 0 {
		base = -int64(ubase &^ sign)
	}
	if r.lits, err = r.s.unpack(r.lits, n, width); err != nil {
		return err
	}
	list, err := r.s.unpack(nil, patches, closestFixedBits(patchWidth+gapWidth))
	if err != nil {
		return err
	}
	pos := 0
	for _, p := range list {
		pos += int(uint64(p) >> patchWidth) // at most 255
		patch := uint64(p) & (1<<patchWidth - 1)
		if patch == 0 { // a gap-only entry, used to skip more than 255 values
			continue
		}
		if pos >= n {
			return corruptf("%s: patch at position %d of a %d-value run", r.s.what, pos, n)
		}
		r.lits[pos] |= int64(patch << width)
	}
	for i := range r.lits {
		r.lits[i] += base
	}
	return nil
}

// delta: width code of the deltas (0 = all deltas equal the delta base), length, base value,
// signed delta base, then length-2 bit-packed delta magnitudes carrying the delta base's sign.
func (r *rleV2) delta(h byte) error {
	n, err := r.runLength(h)
	if err != nil {
		return err
	}
	code := h >> 1 & 0x1f
	v, err := r.s.varint(r.signed)
	if err != nil {
		return err
	}
	d, err := r.s.varint(true)
	if err != nil {
		return err
	}
	if code == 0 {
		for range n {
			r.lits = append(r.lits, v)
			v += d
		}
		return nil
	}
	if n < 2 {
		return corruptf("%s: delta run of %d value with packed deltas", r.s.what, n)
	}
	r.lits = append(r.lits, v, v+d)
	start := len(r.lits)
	if r.lits, err = r.s.unpack(r.lits, n-2, decodeWidth(code)); err != nil {
		return err
	}
	prev := v + d
	for i := start; i < len(r.lits); i++ {
		if d < 0 {
			prev -= r.lits[i]
		} else {
			prev += r.lits[i]
		}
		r.lits[i] = prev
	}
	return nil
}

// decodeWidth maps RLE v2's 5-bit width code to a bit width (1..64).
func decodeWidth(code byte) uint {
	switch {
	case code <= 23:
		return uint(code) + 1
	case code <= 26:
		return 26 + 2*uint(code-24) // 26, 28, 30
	}
	return 32 + 8*uint(code-27) // 32, 40, 48, 56, 64
}

// closestFixedBits rounds a bit width up to one the width table can express.
func closestFixedBits(n uint) uint {
	switch {
	case n == 0:
		return 1
	case n <= 24:
		return n
	case n <= 32:
		return n + n%2
	}
	return (n + 7) / 8 * 8
}
