package binrow

import (
	"fmt"
	"math/big"
)

// decimalBytes is the size of the variable-part area a non-compact DECIMAL reserves.
const decimalBytes = 16

// pow10 holds 10^0 … 10^38 for precision checks.
var pow10 = func() [maxDecimalPrecision + 1]*big.Int {
	var t [maxDecimalPrecision + 1]*big.Int
	ten := big.NewInt(10)
	t[0] = big.NewInt(1)
	for i := 1; i <= maxDecimalPrecision; i++ {
		t[i] = new(big.Int).Mul(t[i-1], ten)
	}
	return t
}()

// checkDecimal verifies that unscaled fits DECIMAL(precision, ·): |unscaled| < 10^precision.
func checkDecimal(precision int, unscaled *big.Int) error {
	if precision < 1 || precision > maxDecimalPrecision {
		return fmt.Errorf("binrow: DECIMAL precision %d outside 1..%d", precision, maxDecimalPrecision)
	}
	if unscaled == nil {
		return fmt.Errorf("binrow: DECIMAL(%d) value has a nil unscaled value", precision)
	}
	if unscaled.CmpAbs(pow10[precision]) >= 0 {
		return fmt.Errorf("binrow: unscaled value %s does not fit DECIMAL precision %d", unscaled, precision)
	}
	return nil
}

// javaBigIntegerBytes writes Java's BigInteger.toByteArray of v (minimal big-endian two's
// complement, ⌊bitLength/8⌋+1 bytes) into buf and returns the used tail of buf. ok is false
// when v needs more than 16 bytes.
func javaBigIntegerBytes(buf *[decimalBytes]byte, v *big.Int) (b []byte, ok bool) {
	if v.BitLen() > 8*decimalBytes {
		return nil, false
	}
	v.FillBytes(buf[:]) // magnitude, big-endian
	neg := v.Sign() < 0
	if neg {
		carry := true
		for i := decimalBytes - 1; i >= 0; i-- {
			buf[i] = ^buf[i]
			if carry {
				buf[i]++
				carry = buf[i] == 0
			}
		}
	}
	if (buf[0]&0x80 != 0) != neg {
		return nil, false // the sign bit would not survive in 16 bytes
	}
	i := 0
	for i < decimalBytes-1 {
		redundant := (buf[i] == 0x00 && buf[i+1]&0x80 == 0) || (buf[i] == 0xff && buf[i+1]&0x80 != 0)
		if !redundant {
			break
		}
		i++
	}
	return buf[i:], true
}

// fromTwosComplement decodes big-endian two's complement bytes (Java new BigInteger(byte[])).
func fromTwosComplement(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return v
}
