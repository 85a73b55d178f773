package orcfile

// byteRLE decodes ORC byte run-length encoding: a control byte 0..127 starts a run of
// control+3 copies of the next byte; -1..-128 starts that many literal bytes.
type byteRLE struct {
	s      *stream
	left   int // values left in the current run or literal group
	repeat bool
	val    byte
}

func (r *byteRLE) next() (byte, error) {
	if r.left == 0 {
		ctrl, err := r.s.byte()
		if err != nil {
			return 0, err
		}
		if ctrl < 0x80 {
			r.left, r.repeat = int(ctrl)+3, true
			if r.val, err = r.s.byte(); err != nil {
				return 0, err
			}
		} else {
			r.left, r.repeat = 256-int(ctrl), false
		}
	}
	r.left--
	if r.repeat {
		return r.val, nil
	}
	return r.s.byte()
}

// boolRLE decodes ORC boolean run-length encoding: bits, most significant first, packed into
// bytes that are byte-RLE encoded.
type boolRLE struct {
	bytes byteRLE
	cur   byte
	bits  int // bits of cur not yet returned
}

func newBoolRLE(s *stream) *boolRLE { return &boolRLE{bytes: byteRLE{s: s}} }

func (r *boolRLE) next() (bool, error) {
	if r.bits == 0 {
		b, err := r.bytes.next()
		if err != nil {
			return false, err
		}
		r.cur, r.bits = b, 8
	}
	r.bits--
	return r.cur>>uint(r.bits)&1 == 1, nil
}
