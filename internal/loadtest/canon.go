package loadtest

import (
	"sort"
	"testing"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/spec"
)

// CanonLines renders rows of a table with fields as sorted canonical lines (internal/canon).
func CanonLines(t testing.TB, fields []spec.DataField, rows [][]any) []string {
	t.Helper()
	lines, err := canon.Rows(fields, rows)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return lines
}
