package killsoak

import (
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/spec"
)

// expected folds generated rows, in file order then row order, into a table's final state. It is
// the harness's own model of the three merge rules and never touches lakeload's reader or writer.
type expected struct {
	merge   merge
	fields  []spec.DataField
	keyCols []int
	lines   []string          // mergeAppend: one canonical line per row
	sums    map[string][]any  // mergeSum: key → running sums
	last    map[string]genRow // mergeDedup: key → last row
	rows    int64             // input rows applied
}

func newExpected(ts tableSpec, fields []spec.DataField) *expected {
	return &expected{merge: ts.merge, fields: fields, keyCols: ts.keyCols,
		sums: map[string][]any{}, last: map[string]genRow{}}
}

func (e *expected) key(vals []any) string {
	parts := make([]string, len(e.keyCols))
	for i, c := range e.keyCols {
		parts[i] = fmt.Sprintf("%T:%v", vals[c], vals[c])
	}
	return strings.Join(parts, "\x00")
}

// apply folds rows (the next rows of the input, in order) into the state.
func (e *expected) apply(rows []genRow) error {
	for _, r := range rows {
		e.rows++
		switch e.merge {
		case mergeAppend:
			if r.op != "" && r.op != "+I" {
				return fmt.Errorf("append table row with kind %s", r.op)
			}
			b, err := canon.Row(e.fields, r.vals)
			if err != nil {
				return err
			}
			e.lines = append(e.lines, string(b))
		case mergeSum:
			if r.op != "" && r.op != "+I" {
				return fmt.Errorf("sum model supports inserts only, got %s", r.op)
			}
			k := e.key(r.vals)
			acc, ok := e.sums[k]
			if !ok {
				e.sums[k] = append([]any(nil), r.vals...)
				continue
			}
			for i, v := range r.vals {
				if !e.isKey(i) {
					s, err := sum(acc[i], v)
					if err != nil {
						return fmt.Errorf("column %s: %w", e.fields[i].Name, err)
					}
					acc[i] = s
				}
			}
		case mergeDedup:
			e.last[e.key(r.vals)] = r
		}
	}
	return nil
}

func (e *expected) isKey(i int) bool {
	for _, c := range e.keyCols {
		if c == i {
			return true
		}
	}
	return false
}

// sum adds two values of a sum column as Paimon's sum aggregator does: NULL is ignored.
func sum(acc, v any) (any, error) {
	switch {
	case v == nil:
		return acc, nil
	case acc == nil:
		return v, nil
	}
	switch a := acc.(type) {
	case int64:
		if b, ok := v.(int64); ok {
			return a + b, nil
		}
	case float64:
		if b, ok := v.(float64); ok {
			return a + b, nil
		}
	}
	return nil, fmt.Errorf("cannot sum %T and %T", acc, v)
}

// canonicalLines returns the expected table as sorted canonical lines.
func (e *expected) canonicalLines() ([]string, error) {
	var out []string
	switch e.merge {
	case mergeAppend:
		out = append(out, e.lines...)
	case mergeSum:
		for _, vals := range e.sums {
			b, err := canon.Row(e.fields, vals)
			if err != nil {
				return nil, err
			}
			out = append(out, string(b))
		}
	case mergeDedup:
		for _, r := range e.last {
			if r.op == "-U" || r.op == "-D" {
				continue
			}
			b, err := canon.Row(e.fields, r.vals)
			if err != nil {
				return nil, err
			}
			out = append(out, string(b))
		}
	}
	canon.Sort(out)
	return out, nil
}
