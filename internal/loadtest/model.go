package loadtest

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Expected returns the table state after loading every input file once, as sorted canonical lines:
// the input applied in file order, then row order (append: every row; deduplicate: the last row
// per key, deletes remove; aggregation: sum columns add up, other columns keep the last non-null).
func (f Fixture) Expected(t testing.TB) []string {
	t.Helper()
	return f.ExpectedOf(t, f.Files)
}

// ExpectedOf is Expected over the given files (in the given order) instead of the fixture's own.
func (f Fixture) ExpectedOf(t testing.TB, files []File) []string {
	t.Helper()
	s := f.Schema(t)
	var rows [][]any
	if len(f.PK) == 0 {
		for _, fl := range files {
			for _, r := range fl.Rows {
				rows = append(rows, r.Values)
			}
		}
	} else {
		rows = f.merge(files)
	}
	lines, err := canon.Rows(s.Fields, rows)
	if err != nil {
		t.Fatalf("fixture %s: %v", f.Name, err)
	}
	sort.Strings(lines)
	return lines
}

func (f Fixture) merge(files []File) [][]any {
	var keyIdx []int
	for _, k := range f.PK {
		for i, c := range f.Columns {
			if c[0] == k {
				keyIdx = append(keyIdx, i)
			}
		}
	}
	opts := spec.NewCoreOptions(f.Options)
	sum := map[int]bool{}
	for i, c := range f.Columns {
		if opts.FieldAggregateFunction(c[0]) == "sum" {
			sum[i] = true
		}
	}
	agg := opts.MergeEngine() == "aggregation"
	state := map[string][]any{}
	for _, fl := range files {
		for _, r := range fl.Rows {
			parts := make([]string, len(keyIdx))
			for i, k := range keyIdx {
				parts[i] = fmt.Sprintf("%#v", r.Values[k])
			}
			key := strings.Join(parts, "|")
			cur, ok := state[key]
			switch {
			case r.Kind.IsRetract():
				delete(state, key)
			case !ok || !agg:
				state[key] = append([]any(nil), r.Values...)
			default:
				for i, v := range r.Values {
					switch {
					case v == nil:
					case sum[i] && cur[i] != nil:
						cur[i] = addInts(cur[i], v)
					default:
						cur[i] = v
					}
				}
			}
		}
	}
	out := make([][]any, 0, len(state))
	for _, row := range state {
		out = append(out, row)
	}
	return out
}

func addInts(a, b any) any {
	switch x := a.(type) {
	case int64:
		return x + b.(int64)
	case int32:
		return x + b.(int32)
	}
	panic(fmt.Sprintf("loadtest: sum over %T", a))
}

// Canon renders rows of the fixture's table as sorted canonical lines.
func (f Fixture) Canon(t testing.TB, rows [][]any) []string {
	t.Helper()
	return CanonLines(t, f.Schema(t).Fields, rows)
}
