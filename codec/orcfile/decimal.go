package orcfile

import (
	"math/big"
	"strconv"
)

// maxDecimalDigits is the largest precision (and scale) of an ORC/Hive decimal.
const maxDecimalDigits = 38

// maxDecimalVarint is the most bytes an unscaled value of 38 digits (< 2^127, zigzag < 2^128)
// takes as a base-128 varint.
const maxDecimalVarint = 19

// DecimalValue is one DECIMAL value: Unscaled × 10^-Scale. Scale is the value's own scale as the
// writer stored it (Hive decimals drop trailing zeros, so it may be below the column's).
type DecimalValue struct {
	Unscaled *big.Int
	Scale    int
}

// decimals decodes a DECIMAL column: DATA holds zigzag base-128 varints of any length (each
// value's unscaled digits), SECONDARY the scale of each value as a signed integer run.
func (st *stripe) decimals(t *Type, out []any) error {
	data, err := st.stream(t.ID, streamData, true)
	if err != nil {
		return err
	}
	scales, err := st.ints(t.ID, streamSecondary, true)
	if err != nil {
		return err
	}
	what := st.name("column " + strconv.Itoa(t.ID))
	for i := range out {
		u, err := bigVarint(data)
		if err != nil {
			return err
		}
		sc, err := scales.next()
		if err != nil {
			return err
		}
		if sc < 0 || sc > maxDecimalDigits {
			return corruptf("%s: decimal scale %d", what, sc)
		}
		out[i] = DecimalValue{Unscaled: u, Scale: int(sc)}
	}
	return nil
}

// bigVarint reads one zigzag-encoded base-128 varint of at most maxDecimalVarint bytes.
func bigVarint(s *stream) (*big.Int, error) {
	var u big.Int
	var chunk big.Int
	for n := 0; ; n++ {
		if n == maxDecimalVarint {
			return nil, corruptf("%s: decimal varint longer than %d bytes", s.what, maxDecimalVarint)
		}
		b, err := s.byte()
		if err != nil {
			return nil, err
		}
		chunk.SetUint64(uint64(b & 0x7f))
		u.Or(&u, chunk.Lsh(&chunk, uint(7*n)))
		if b < 0x80 {
			break
		}
	}
	// zigzag: (u >> 1) ^ -(u & 1)
	neg := u.Bit(0) == 1
	u.Rsh(&u, 1)
	if neg {
		u.Add(&u, big.NewInt(1)).Neg(&u)
	}
	return &u, nil
}
