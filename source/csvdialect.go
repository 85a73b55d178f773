package source

import (
	"fmt"
	"strconv"
)

// CSVDialect describes how CSV input is written. The zero value is RFC 4180 with a header row:
// ',' between fields, '"' around quoted fields ("" inside one is a quote), the first record names
// the columns. The CSV reader and the cutter that splits big CSV files (source/file.CutText) use
// the same dialect, so a cut is never inside a quoted field. A result-changing job option: a job
// keeps the dialect it was created with.
type CSVDialect struct {
	Delimiter byte `json:"delimiter,omitempty"` // between fields; 0 = ','
	Quote     byte `json:"quote,omitempty"`     // around quoted fields, doubled inside them; 0 = '"'
	// NoHeader says the file has no header row: field i of every record is the table's i-th
	// column (in schema order), followed by the op column when MappingOptions.OpColumn is set, and a
	// record must have exactly that many fields.
	NoHeader bool `json:"noHeader,omitempty"`
}

// Delim is the field delimiter (',' by default).
func (d CSVDialect) Delim() byte {
	if d.Delimiter == 0 {
		return ','
	}
	return d.Delimiter
}

// QuoteChar is the quote character ('"' by default).
func (d CSVDialect) QuoteChar() byte {
	if d.Quote == 0 {
		return '"'
	}
	return d.Quote
}

// Check refuses a dialect the reader cannot parse unambiguously: a delimiter or quote that is a
// line-end byte, not printable ASCII or a tab, or the same character for both.
func (d CSVDialect) Check() error {
	ok := func(c byte) bool { return c == '\t' || c >= 0x20 && c < 0x7f }
	switch {
	case !ok(d.Delim()):
		return fmt.Errorf("CSV delimiter %s: use one printable ASCII character or a tab", strconv.QuoteRune(rune(d.Delim())))
	case !ok(d.QuoteChar()):
		return fmt.Errorf("CSV quote %s: use one printable ASCII character", strconv.QuoteRune(rune(d.QuoteChar())))
	case d.Delim() == d.QuoteChar():
		return fmt.Errorf("CSV delimiter and quote are both %s: they must differ", strconv.QuoteRune(rune(d.Delim())))
	}
	return nil
}

// IsDefault reports whether d is RFC 4180 with a header (the zero value, spelled out or not).
func (d CSVDialect) IsDefault() bool { return d.Delim() == ',' && d.QuoteChar() == '"' && !d.NoHeader }
