package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
)

// scanQuery is what `scan --columns … --where …` asks for, checked against the schema read.
type scanQuery struct {
	cols   []int // schema field of each output column; nil = all
	filter *read.Predicate
}

// parseScanQuery checks --columns and parses --where over schema; errors are usage errors naming the flag.
func parseScanQuery(schema *spec.TableSchema, columns, where string) (scanQuery, error) {
	var q scanQuery
	if strings.TrimSpace(columns) != "" {
		seen := map[string]bool{}
		for _, name := range strings.Split(columns, ",") {
			name = strings.TrimSpace(name)
			_, i, ok := schema.Field(name)
			switch {
			case name == "":
				return q, usageError{fmt.Errorf("--columns %q: empty column name", columns)}
			case !ok:
				return q, usageError{fmt.Errorf("--columns: table has no column %q%s", name, suggestColumn(schema, name))}
			case seen[name]:
				return q, usageError{fmt.Errorf("--columns: column %q is listed twice", name)}
			}
			seen[name] = true
			q.cols = append(q.cols, i)
		}
	}
	if strings.TrimSpace(where) != "" {
		p, err := read.ParsePredicate(where, schema.Fields)
		if err != nil {
			return q, usageError{fmt.Errorf("--where %q: %w", where, err)}
		}
		q.filter = p
	}
	return q, nil
}

func suggestColumn(schema *spec.TableSchema, name string) string {
	var names []string
	best, bestD := "", 3
	for _, f := range schema.Fields {
		names = append(names, f.Name)
		if d := editDistance(strings.ToLower(f.Name), strings.ToLower(name)); d < bestD {
			best, bestD = f.Name, d
		}
	}
	if best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return " (columns: " + strings.Join(names, ", ") + ")"
}

// fields are the output columns' fields.
func (q scanQuery) fields(all []spec.DataField) []spec.DataField {
	if q.cols == nil {
		return all
	}
	out := make([]spec.DataField, len(q.cols))
	for i, c := range q.cols {
		out[i] = all[c]
	}
	return out
}

// decoded are the fields the output and the filter read (nil: all).
func (q scanQuery) decoded() []int {
	if q.cols == nil {
		return nil
	}
	out := slices.Clone(q.cols)
	if q.filter != nil {
		for _, c := range q.filter.Columns() {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// projector maps a row of the schema to the output columns (the identity without --columns).
func (q scanQuery) projector() func(row []any) []any {
	if q.cols == nil {
		return func(row []any) []any { return row }
	}
	buf := make([]any, len(q.cols))
	return func(row []any) []any {
		for i, c := range q.cols {
			buf[i] = row[c]
		}
		return buf
	}
}

// batchFilter returns the runs [start, end) of rec's rows that the filter accepts (all rows without
// one). rec has the schema's columns, in order.
func (q scanQuery) batchFilter(fields []spec.DataField) func(rec arrow.RecordBatch) ([][2]int64, error) {
	if q.filter == nil {
		return func(rec arrow.RecordBatch) ([][2]int64, error) { return [][2]int64{{0, rec.NumRows()}}, nil }
	}
	used := q.filter.Columns()
	row := make([]any, len(fields))
	return func(rec arrow.RecordBatch) ([][2]int64, error) {
		var runs [][2]int64
		n := int(rec.NumRows())
		for r := 0; r < n; r++ {
			for _, c := range used {
				v, err := arrowconv.DatumAt(rec.Column(c), r, fields[c].Type)
				if err != nil {
					return nil, fmt.Errorf("column %s: %w", fields[c].Name, err)
				}
				row[c] = v
			}
			if !q.filter.Eval(row) {
				continue
			}
			if k := len(runs); k > 0 && runs[k-1][1] == int64(r) {
				runs[k-1][1]++
			} else {
				runs = append(runs, [2]int64{int64(r), int64(r) + 1})
			}
		}
		return runs, nil
	}
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
