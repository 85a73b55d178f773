package canon

import (
	"sort"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Row renders one table row as its canonical line (a compact JSON object, no trailing newline).
func Row(fields []spec.DataField, values []any) ([]byte, error) {
	return appendRow(nil, fields, values)
}

// Rows renders every row and returns the lines sorted bytewise: the canonical dump of a table.
func Rows(fields []spec.DataField, rows [][]any) ([]string, error) {
	out := make([]string, len(rows))
	for i, r := range rows {
		b, err := Row(fields, r)
		if err != nil {
			return nil, err
		}
		out[i] = string(b)
	}
	Sort(out)
	return out, nil
}

// Sort orders canonical lines bytewise, the order every oracle prints.
func Sort(lines []string) { sort.Strings(lines) }
