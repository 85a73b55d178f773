package source

import (
	"encoding/base64"
	"errors"
	"unicode/utf8"
)

// Rejected is an input row left out of a load because it failed row-level validation (only with
// MappingOptions.SkipBadRows): it names where the row is, what is wrong with it and what it held.
type Rejected struct {
	File   string `json:"file"`
	Row    int64  `json:"row"`            // 1-based data row within the file (header excluded)
	Line   int64  `json:"line,omitempty"` // 1-based line where the row starts (text formats)
	Column string `json:"column"`         // the column at fault, "(row)" or "(line)" for the whole row
	Reason string `json:"reason"`         // the error message
	// Raw is the row's text (JSON Lines: the line; CSV: the record re-encoded as CSV).
	Raw string `json:"raw,omitempty"`
	// RawBase64 holds the row's exact bytes (standard base64) when they are not valid UTF-8, which
	// JSON cannot carry: Raw then shows each invalid byte as U+FFFD.
	RawBase64 string `json:"rawBase64,omitempty"`
	// Values holds a Parquet row's input values as a JSON object (column name → value).
	Values map[string]any `json:"values,omitempty"`
}

// SetRaw records the row's text, keeping its exact bytes in RawBase64 when they are not UTF-8.
func (r *Rejected) SetRaw(raw string) {
	r.Raw = raw
	if !utf8.ValidString(raw) {
		r.RawBase64 = base64.StdEncoding.EncodeToString([]byte(raw))
	}
}

// RejectOf turns a row-level error into a Rejected row; ok is false for errors that are not about
// one row (a *ValueError with a known row), which must fail the load even with SkipBadRows.
func RejectOf(err error) (r Rejected, ok bool) {
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Row < 0 {
		return Rejected{}, false
	}
	return Rejected{File: ve.File, Row: ve.Row + 1, Line: ve.Line, Column: ve.Column, Reason: ve.Error()}, true
}
