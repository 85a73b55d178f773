package mergetree

import (
	"fmt"
	"math"
	"math/big"

	"github.com/lakeload/lakeload/paimon/spec"
)

type arithOp int

const (
	opAdd arithOp = iota
	opSub
	opMul
	opDiv
	opNeg // unary: negates a
)

var opSymbols = [...]string{"+", "-", "*", "/", "neg"}

// arith applies op to two non-null numeric Datums with Java FieldSumAgg/FieldProductAgg
// semantics: integer overflow is an error (Math.addExact & co.), floats follow IEEE, DECIMAL is
// exact and becomes null when the result exceeds the column precision (DecimalUtils.add,
// Decimal.fromBigDecimal), except that Java's compact (precision <= 18) add/subtract path keeps
// any result that fits an int64.
func (f *fieldAgg) arith(op arithOp, a, b any) (any, error) {
	if op == opNeg {
		b = a
	}
	overflow := func() error {
		return fmt.Errorf("mergetree: column %q (%s): %T overflow: %v %s %v", f.spec.column, f.spec.fn, a, a, opSymbols[op], b)
	}
	switch x := a.(type) {
	case int8:
		return narrowOp(f, op, x, b, math.MinInt8, math.MaxInt8, overflow)
	case int16:
		return narrowOp(f, op, x, b, math.MinInt16, math.MaxInt16, overflow)
	case int32:
		return narrowOp(f, op, x, b, math.MinInt32, math.MaxInt32, overflow)
	case int64:
		y, ok := b.(int64)
		if !ok {
			return nil, f.typeErr(b)
		}
		r, err := int64Op(op, x, y)
		if err != nil {
			return nil, f.wrap(err, overflow)
		}
		return r, nil
	case float32:
		y, ok := b.(float32)
		if !ok {
			return nil, f.typeErr(b)
		}
		return float32(floatOp(op, float64(x), float64(y), true)), nil
	case float64:
		y, ok := b.(float64)
		if !ok {
			return nil, f.typeErr(b)
		}
		return floatOp(op, x, y, false), nil
	case spec.DecimalValue:
		y, ok := b.(spec.DecimalValue)
		if !ok {
			return nil, f.typeErr(b)
		}
		r, err := decimalOp(op, unscaled(x), unscaled(y), f.spec.typ.Precision, f.spec.typ.Scale)
		if err != nil {
			return nil, fmt.Errorf("mergetree: column %q (%s): %w", f.spec.column, f.spec.fn, err)
		}
		if r == nil {
			return nil, nil
		}
		return spec.DecimalValue{Unscaled: r}, nil
	}
	return nil, f.typeErr(a)
}

var (
	errOverflow   = fmt.Errorf("overflow")
	errDivByZero  = fmt.Errorf("/ by zero")
	errNonTermDiv = fmt.Errorf("non-terminating decimal expansion; no exact representable decimal result")
)

func (f *fieldAgg) wrap(err error, overflow func() error) error {
	if err == errOverflow {
		return overflow()
	}
	return fmt.Errorf("mergetree: column %q (%s): %w", f.spec.column, f.spec.fn, err)
}

// smallIntOp computes op on values of a type narrower than int64 and checks the type's range.
// narrowOp applies op to a TINYINT/SMALLINT/INT accumulator x and input b of the same Go type,
// failing on overflow of [lo, hi] as Java 2.x does.
func narrowOp[T int8 | int16 | int32](f *fieldAgg, op arithOp, x T, b any, lo, hi int64, overflow func() error) (any, error) {
	y, ok := b.(T)
	if !ok {
		return nil, f.typeErr(b)
	}
	r, err := smallIntOp(op, int64(x), int64(y), lo, hi)
	if err != nil {
		return nil, f.wrap(err, overflow)
	}
	return T(r), nil
}

func smallIntOp(op arithOp, a, b, lo, hi int64) (int64, error) {
	var r int64
	switch op {
	case opAdd:
		r = a + b
	case opSub:
		r = a - b
	case opMul:
		r = a * b
	case opNeg:
		r = -a
	case opDiv:
		if b == 0 {
			return 0, errDivByZero
		}
		r = a / b
	}
	if r < lo || r > hi {
		return 0, errOverflow
	}
	return r, nil
}

// int64Op is Math.addExact/subtractExact/multiplyExact/negateExact and checked division.
func int64Op(op arithOp, a, b int64) (int64, error) {
	switch op {
	case opAdd:
		r := a + b
		if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
			return 0, errOverflow
		}
		return r, nil
	case opSub:
		r := a - b
		if (a >= 0) != (b >= 0) && (r >= 0) != (a >= 0) {
			return 0, errOverflow
		}
		return r, nil
	case opMul:
		if a == 0 || b == 0 {
			return 0, nil
		}
		r := a * b
		if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return 0, errOverflow
		}
		return r, nil
	case opNeg:
		if a == math.MinInt64 {
			return 0, errOverflow
		}
		return -a, nil
	default: // opDiv
		if b == 0 {
			return 0, errDivByZero
		}
		if a == math.MinInt64 && b == -1 {
			return 0, errOverflow
		}
		return a / b, nil
	}
}

// floatOp computes op in float32 (single) or float64 precision.
func floatOp(op arithOp, a, b float64, single bool) float64 {
	var r float64
	switch op {
	case opAdd:
		r = a + b
	case opSub:
		r = a - b
	case opMul:
		r = a * b
	case opDiv:
		r = a / b
	case opNeg:
		r = -a
	}
	if single {
		return float64(float32(r))
	}
	return r
}

var (
	bigTen  = big.NewInt(10)
	bigTwo  = big.NewInt(2)
	bigFive = big.NewInt(5)
)

// decimalOp computes op on unscaled values of DECIMAL(precision, scale). A nil result with a
// nil error is SQL NULL (precision overflow).
func decimalOp(op arithOp, a, b *big.Int, precision, scale int) (*big.Int, error) {
	r := new(big.Int)
	switch op {
	case opAdd, opSub:
		if op == opAdd {
			r.Add(a, b)
		} else {
			r.Sub(a, b)
		}
		if precision <= 18 && a.IsInt64() && b.IsInt64() && r.IsInt64() {
			return r, nil // Java's compact path: no precision check
		}
	case opNeg:
		r.Neg(a)
	case opMul:
		// exact product has scale 2*scale; setScale(scale, HALF_UP)
		r.Mul(a, b)
		r = divHalfUp(r, new(big.Int).Exp(bigTen, big.NewInt(int64(scale)), nil))
	case opDiv:
		if b.Sign() == 0 {
			return nil, fmt.Errorf("decimal %w", errDivByZero)
		}
		if !terminates(a, b) {
			return nil, errNonTermDiv
		}
		num := new(big.Int).Mul(a, new(big.Int).Exp(bigTen, big.NewInt(int64(scale)), nil))
		r = divHalfUp(num, b)
	}
	if decimalDigits(r) > precision {
		return nil, nil
	}
	return r, nil
}

// divHalfUp divides with RoundingMode.HALF_UP (ties away from zero).
func divHalfUp(n, d *big.Int) *big.Int {
	q, rem := new(big.Int).QuoRem(n, d, new(big.Int))
	if rem.Sign() == 0 {
		return q
	}
	twice := new(big.Int).Abs(rem)
	twice.Mul(twice, bigTwo)
	if twice.Cmp(new(big.Int).Abs(d)) >= 0 {
		if (n.Sign() < 0) != (d.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// terminates reports whether a/b has a finite decimal expansion (BigDecimal.divide succeeds).
func terminates(a, b *big.Int) bool {
	d := new(big.Int).Abs(b)
	g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(a), d)
	if g.Sign() != 0 {
		d.Quo(d, g)
	}
	m := new(big.Int)
	for _, p := range []*big.Int{bigTwo, bigFive} {
		for {
			q, r := new(big.Int).QuoRem(d, p, m)
			if r.Sign() != 0 {
				break
			}
			d = q
		}
	}
	return d.Cmp(big.NewInt(1)) == 0
}

// decimalDigits is BigDecimal.precision of an unscaled value (0 has one digit).
func decimalDigits(x *big.Int) int {
	s := new(big.Int).Abs(x).String()
	return len(s)
}
