package source

import (
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// RowKindForms is the expected-form text used in op column errors.
const RowKindForms = "one of +I, -U, +U, -D, insert, update_before, update, update_after, delete (case-insensitive)"

// ParseRowKind parses an op column value (see RowKindForms). It reports false for anything else,
// the empty string included.
func ParseRowKind(s string) (spec.RowKind, bool) {
	switch strings.ToLower(s) {
	case "+i", "insert":
		return spec.RowKindInsert, true
	case "-u", "update_before":
		return spec.RowKindUpdateBefore, true
	case "+u", "update", "update_after":
		return spec.RowKindUpdateAfter, true
	case "-d", "delete":
		return spec.RowKindDelete, true
	}
	return 0, false
}
