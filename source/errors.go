package source

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxValueInError is how many bytes of a bad value an error message quotes.
const MaxValueInError = 64

// ValueError reports one input value that cannot be stored in its table field.
type ValueError struct {
	File string
	Line int64 // 1-based line for text formats; 0 when not applicable
	// Row is the 0-based data row index within the file (header excluded), -1 when not known;
	// messages show it 1-based ("row 1" is the first data row).
	Row      int64
	Column   string // input column (or table field) name
	Value    string // the offending value, already truncated
	Expected string // the expected form
	Err      error  // optional cause
}

// Error formats "file F, row R (line L), column "C": bad value "V": expected E[: cause]", with
// R the 1-based data row; the row or line part is left out when unknown.
func (e *ValueError) Error() string {
	var b strings.Builder
	b.WriteString("file ")
	b.WriteString(e.File)
	switch {
	case e.Row >= 0 && e.Line > 0:
		fmt.Fprintf(&b, ", row %d (line %d)", e.Row+1, e.Line)
	case e.Line > 0:
		fmt.Fprintf(&b, ", line %d", e.Line)
	case e.Row >= 0:
		fmt.Fprintf(&b, ", row %d", e.Row+1)
	}
	fmt.Fprintf(&b, ", column %q: bad value %q: expected %s", e.Column, e.Value, e.Expected)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *ValueError) Unwrap() error { return e.Err }

// Truncate shortens s to at most MaxValueInError bytes (on a rune boundary), marking the cut with "…".
func Truncate(s string) string {
	if len(s) <= MaxValueInError {
		return s
	}
	cut := MaxValueInError
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
