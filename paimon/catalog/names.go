package catalog

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Name rules (database and table names checked by every command that names a table, column names
// when a table is created; docs/cli.md "Names"):
//   - database and table names: not empty, printable characters only, no '/', '\', leading '.' or
//     surrounding spaces (a database or table name never contains '.', see ParseIdentifier), so
//     <warehouse>/<db>.db/<table> never points outside the warehouse;
//   - column names: the same, and no "..". Partition values need no rule: they are escaped in paths
//     as Java escapes them.
//
// Printable is unicode.IsPrint: letters, marks, digits, punctuation, symbols and the ASCII space.
// That keeps out control characters (newlines, tabs, DEL), format characters (bidi overrides such
// as U+202E, zero-width spaces), other spaces and separators, private-use and unassigned code
// points, and invalid UTF-8: names that would forge or hide text wherever they are printed. Every
// name Java Paimon's own examples and lakeload's fixtures use (letters, digits, '_', '-', spaces,
// any script) stays allowed.

// nameChars says which characters a name may hold, for the errors.
const nameChars = "printable characters (letters, digits, punctuation, symbols, spaces; no control or format characters such as newlines or bidi overrides)"

// hasUnprintable reports whether s holds a character that is not printable (see above) or invalid UTF-8.
func hasUnprintable(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) || r == unicode.ReplacementChar })
}

// CheckColumnNames checks the top-level column names of a new table; the error wraps ErrBadName and
// names the column.
func CheckColumnNames(fields []spec.DataField) error {
	for _, f := range fields {
		n := f.Name
		if n == "" || strings.ContainsAny(n, "/\\") || strings.Contains(n, "..") || strings.HasPrefix(n, ".") ||
			strings.TrimSpace(n) != n || hasUnprintable(n) {
			return fmt.Errorf("%w: column name %q: use a non-empty name of %s, without '/', '\\', '..', a leading '.' or surrounding spaces",
				ErrBadName, n, nameChars)
		}
	}
	return nil
}
