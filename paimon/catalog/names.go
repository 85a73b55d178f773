package catalog

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Name rules (checked when a database, table or column is created; docs/bad-input.md):
//   - database and table names: not empty, no '/', '\', control characters, leading '.' or
//     surrounding spaces (a database or table name never contains '.', see ParseIdentifier), so
//     <warehouse>/<db>.db/<table> never points outside the warehouse;
//   - column names: not empty, no '/', '\', "..", control characters, leading '.' or surrounding
//     spaces. Partition values need no rule: they are escaped in paths as Java escapes them.

// hasControl reports whether s holds a control character (C0, DEL, C1) or invalid UTF-8.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar })
}

// CheckColumnNames checks the top-level column names of a new table; the error wraps ErrBadName and
// names the column.
func CheckColumnNames(fields []spec.DataField) error {
	for _, f := range fields {
		n := f.Name
		if n == "" || strings.ContainsAny(n, "/\\") || strings.Contains(n, "..") || strings.HasPrefix(n, ".") ||
			strings.TrimSpace(n) != n || hasControl(n) {
			return fmt.Errorf("%w: column name %q: use a non-empty name without '/', '\\', '..', control characters, a leading '.' or surrounding spaces",
				ErrBadName, n)
		}
	}
	return nil
}
