package read

import (
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
)

// Predicate is a type-checked row filter over the columns of one schema, parsed by ParsePredicate.
//
// Invariants:
//   - Literals are converted to their column's type when parsed, so evaluation compares datums of
//     one type (binrow.Compare, Java's order).
//   - NOT is pushed down to the comparisons when parsed (De Morgan; NOT a < b is a >= b, NOT IN is
//     a NOT IN leaf). Under SQL's three-valued logic a comparison with NULL is unknown and a row is
//     kept only when the whole predicate is true; without NOT above the leaves, treating an unknown
//     leaf as false gives exactly that answer.
//   - MayMatch (partition, bucket and file pruning) answers false only when no row described by the
//     bounds can satisfy the predicate; an unknown bound answers true.
type Predicate struct {
	fields []spec.DataField
	root   node
	text   string
}

type op int

const (
	opEq op = iota
	opNe
	opLt
	opLe
	opGt
	opGe
	opIn
	opNotIn
	opIsNull
	opNotNull
)

var opText = map[op]string{opEq: "=", opNe: "!=", opLt: "<", opLe: "<=", opGt: ">", opGe: ">=",
	opIn: "IN", opNotIn: "NOT IN", opIsNull: "IS NULL", opNotNull: "IS NOT NULL"}

// negated is the comparison that is true exactly when o is false (for non-null operands).
var negated = map[op]op{opEq: opNe, opNe: opEq, opLt: opGe, opLe: opGt, opGt: opLe, opGe: opLt,
	opIn: opNotIn, opNotIn: opIn, opIsNull: opNotNull, opNotNull: opIsNull}

type node interface{ isNode() }

type andNode struct{ l, r node }
type orNode struct{ l, r node }

// leaf compares column col (index in Predicate.fields) with vals (one value; a list for IN).
type leaf struct {
	col  int
	op   op
	vals []any
}

func (andNode) isNode() {}
func (orNode) isNode()  {}
func (leaf) isNode()    {}

// String is the predicate's text as parsed.
func (p *Predicate) String() string { return p.text }

// Columns returns the indexes (in the schema's field order) of the columns the predicate reads.
func (p *Predicate) Columns() []int {
	seen := map[int]bool{}
	var out []int
	walk(p.root, func(l leaf) {
		if !seen[l.col] {
			seen[l.col] = true
			out = append(out, l.col)
		}
	})
	return out
}

func walk(n node, fn func(leaf)) {
	switch n := n.(type) {
	case andNode:
		walk(n.l, fn)
		walk(n.r, fn)
	case orNode:
		walk(n.l, fn)
		walk(n.r, fn)
	case leaf:
		fn(n)
	}
}

// Eval reports whether row (values in the schema's field order) satisfies the predicate.
func (p *Predicate) Eval(row []any) bool { return p.eval(p.root, row) }

func (p *Predicate) eval(n node, row []any) bool {
	switch n := n.(type) {
	case andNode:
		return p.eval(n.l, row) && p.eval(n.r, row)
	case orNode:
		return p.eval(n.l, row) || p.eval(n.r, row)
	case leaf:
		v := row[n.col]
		switch n.op {
		case opIsNull:
			return v == nil
		case opNotNull:
			return v != nil
		}
		if v == nil {
			return false // unknown
		}
		t := p.fields[n.col].Type
		switch n.op {
		case opIn, opNotIn:
			in := false
			for _, x := range n.vals {
				if binrow.Compare(t, v, x) == 0 {
					in = true
					break
				}
			}
			return in == (n.op == opIn)
		}
		return holds(n.op, binrow.Compare(t, v, n.vals[0]))
	}
	return false
}

func holds(o op, c int) bool {
	switch o {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	case opGe:
		return c >= 0
	}
	return false
}

// Bounds describe the values of one column in a set of rows (a partition, a data file).
type Bounds struct {
	// Known is false when nothing is known about the column; the other fields are then ignored.
	Known bool
	// Min and Max bound the column's non-null values (nil: unknown, or no non-null value).
	Min, Max any
	// Nulls is the number of null values (-1: unknown); Rows the number of rows (-1: unknown).
	Nulls, Rows int64
}

// ExactBounds describes a column that holds v in every row (a partition column).
func ExactBounds(v any) Bounds {
	if v == nil {
		return Bounds{Known: true, Nulls: 1, Rows: 1}
	}
	return Bounds{Known: true, Min: v, Max: v, Nulls: 0, Rows: 1}
}

// MayMatch reports whether some row whose columns lie within the given bounds could satisfy the
// predicate; bounds(col) returns the bounds of column col (schema field index). False means no row can.
func (p *Predicate) MayMatch(bounds func(col int) Bounds) bool { return p.may(p.root, bounds) }

func (p *Predicate) may(n node, bounds func(int) Bounds) bool {
	switch n := n.(type) {
	case andNode:
		return p.may(n.l, bounds) && p.may(n.r, bounds)
	case orNode:
		return p.may(n.l, bounds) || p.may(n.r, bounds)
	case leaf:
		b := bounds(n.col)
		if !b.Known {
			return true
		}
		allNull := b.Nulls >= 0 && b.Rows >= 0 && b.Nulls >= b.Rows
		switch n.op {
		case opIsNull:
			return b.Nulls != 0
		case opNotNull:
			return !allNull
		}
		if allNull {
			return false
		}
		if b.Min == nil || b.Max == nil {
			return true
		}
		t := p.fields[n.col].Type
		lo := func(x any) int { return binrow.Compare(t, b.Min, x) } // min vs x
		hi := func(x any) int { return binrow.Compare(t, b.Max, x) } // max vs x
		single := binrow.Compare(t, b.Min, b.Max) == 0
		switch n.op {
		case opEq:
			return lo(n.vals[0]) <= 0 && hi(n.vals[0]) >= 0
		case opNe:
			return !single || lo(n.vals[0]) != 0
		case opLt:
			return lo(n.vals[0]) < 0
		case opLe:
			return lo(n.vals[0]) <= 0
		case opGt:
			return hi(n.vals[0]) > 0
		case opGe:
			return hi(n.vals[0]) >= 0
		case opIn:
			for _, x := range n.vals {
				if lo(x) <= 0 && hi(x) >= 0 {
					return true
				}
			}
			return false
		case opNotIn:
			if !single {
				return true
			}
			for _, x := range n.vals {
				if lo(x) == 0 {
					return false
				}
			}
			return true
		}
	}
	return true
}

// Equalities returns, for each of the given columns, the values the predicate allows when it
// requires the column to equal one of a few values in every row it accepts (top-level AND of
// col = v or col IN (...)); ok is false when some column is not so constrained.
func (p *Predicate) Equalities(cols []int) (vals [][]any, ok bool) {
	var conj []leaf
	var collect func(n node)
	collect = func(n node) {
		switch n := n.(type) {
		case andNode:
			collect(n.l)
			collect(n.r)
		case leaf:
			if n.op == opEq || n.op == opIn {
				conj = append(conj, n)
			}
		}
	}
	collect(p.root)
	vals = make([][]any, len(cols))
	for i, c := range cols {
		found := false
		for _, l := range conj {
			if l.col == c && (!found || len(l.vals) < len(vals[i])) {
				vals[i], found = l.vals, true
			}
		}
		if !found {
			return nil, false
		}
	}
	return vals, true
}

// ColumnError is a --where style error: Pos is the byte offset in the predicate text (0-based).
type ColumnError struct {
	Pos  int
	Text string
	Msg  string
}

func (e *ColumnError) Error() string {
	near := e.Text[e.Pos:]
	if len(near) > 20 {
		near = near[:20] + "…"
	}
	if near == "" {
		return fmt.Sprintf("at position %d (end of text): %s", e.Pos+1, e.Msg)
	}
	return fmt.Sprintf("at position %d (near %q): %s", e.Pos+1, near, e.Msg)
}

func columnNames(fields []spec.DataField) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}
