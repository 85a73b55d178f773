package mergetree

import (
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// fieldAgg aggregates one column (Java FieldAggregator). first_value and first_non_null_value
// are stateful until reset.
type fieldAgg struct {
	spec        aggSpec
	initialized bool
}

func (f *fieldAgg) reset() { f.initialized = false }

// agg folds input into the accumulator.
func (f *fieldAgg) agg(acc, in any) (any, error) {
	switch f.spec.fn {
	case aggPrimaryKey, aggLastValue:
		return in, nil
	case aggLastNonNullValue:
		if in == nil {
			return acc, nil
		}
		return in, nil
	case aggFirstValue:
		if !f.initialized {
			f.initialized = true
			return in, nil
		}
		return acc, nil
	case aggFirstNonNullValue, aggFirstNotNullValue:
		if !f.initialized && in != nil {
			f.initialized = true
			return in, nil
		}
		return acc, nil
	case aggListagg:
		return f.listagg(acc, in)
	}
	// The remaining functions keep the non-null side when either side is null.
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	switch f.spec.fn {
	case aggSum:
		return f.arith(opAdd, acc, in)
	case aggProduct:
		return f.arith(opMul, acc, in)
	case aggMin, aggMax:
		c := compareDatum(acc, in)
		if typeRank(acc) != typeRank(in) {
			return nil, f.typeErr(in)
		}
		if (c < 0) == (f.spec.fn == aggMin) {
			return acc, nil
		}
		return in, nil
	case aggBoolAnd, aggBoolOr:
		x, ok1 := acc.(bool)
		y, ok2 := in.(bool)
		if !ok1 || !ok2 {
			return nil, f.typeErr(in)
		}
		if f.spec.fn == aggBoolAnd {
			return x && y, nil
		}
		return x || y, nil
	}
	return nil, fmt.Errorf("mergetree: column %q: unsupported aggregate function %q", f.spec.column, f.spec.fn)
}

// retract removes input from the accumulator; functions without retraction fail unless the
// column sets ignore-retract.
func (f *fieldAgg) retract(acc, in any) (any, error) {
	if f.spec.ignoreRetract {
		return acc, nil
	}
	switch f.spec.fn {
	case aggPrimaryKey:
		return in, nil
	case aggLastValue:
		return nil, nil
	case aggLastNonNullValue:
		if in != nil {
			return nil, nil
		}
		return acc, nil
	case aggSum:
		if acc == nil || in == nil {
			if acc == nil && in != nil {
				return f.arith(opNeg, in, nil)
			}
			return acc, nil
		}
		return f.arith(opSub, acc, in)
	case aggProduct:
		if acc == nil || in == nil {
			return acc, nil
		}
		return f.arith(opDiv, acc, in)
	}
	return nil, fmt.Errorf("%w: aggregate function %q on column %q does not support retraction; set %q to ignore retractions",
		ErrRetractNotAccepted, f.spec.fn, f.spec.column, spec.FieldOptKey(f.spec.column, "ignore-retract"))
}

func (f *fieldAgg) typeErr(v any) error {
	return fmt.Errorf("mergetree: column %q (%s): unexpected datum of Go type %T", f.spec.column, f.spec.fn, v)
}

// listagg concatenates non-blank strings with the delimiter (Java FieldListaggAgg).
func (f *fieldAgg) listagg(acc, in any) (any, error) {
	if in == nil {
		return acc, nil
	}
	s, ok := in.(string)
	if !ok {
		return nil, f.typeErr(in)
	}
	if javaIsBlank(s) {
		return acc, nil
	}
	if acc == nil {
		return in, nil
	}
	a, ok := acc.(string)
	if !ok {
		return nil, f.typeErr(acc)
	}
	if javaIsBlank(a) {
		return in, nil
	}
	delim := f.spec.delimiter
	if !f.spec.distinct {
		return a + delim + s, nil
	}
	split := delim
	if split == "" {
		split = " " // Java splits on a single space when the delimiter is empty
	}
	seen := make(map[string]bool)
	for _, tok := range strings.Split(a, split) {
		seen[tok] = true
	}
	var b strings.Builder
	b.WriteString(a)
	for _, tok := range strings.Split(s, split) {
		if javaIsBlank(tok) || seen[tok] {
			continue
		}
		seen[tok] = true
		b.WriteString(delim)
		b.WriteString(tok)
	}
	return b.String(), nil
}

// javaIsBlank is Paimon StringUtils.isBlank: every char is Character.isWhitespace.
func javaIsBlank(s string) bool {
	for _, r := range s {
		if !javaIsWhitespace(r) {
			return false
		}
	}
	return true
}

// javaIsWhitespace is Java's Character.isWhitespace: Unicode space, line and paragraph
// separators except no-break spaces, plus \t \n \v \f \r and the file/group/record/unit separators.
func javaIsWhitespace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1C && r <= 0x1F, r == ' ':
		return true
	case r == 0x00A0 || r == 0x2007 || r == 0x202F:
		return false
	case r == 0x1680, r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}
