package source

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
)

// DeclaredLength returns the length limit a CHAR(n), VARCHAR(n), BINARY(n) or VARBINARY(n) column
// declares (characters for text, bytes for binary); 0 when there is none (STRING, BYTES, others).
func DeclaredLength(t spec.DataType) int {
	switch t.Root {
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		if t.Length > 0 && t.Length < spec.MaxLength {
			return t.Length
		}
	}
	return 0
}

// LengthProblem returns the expected form when v is longer than t's declared length, or "" when
// it fits. Text is measured in Unicode code points (Paimon's BinaryString.numChars), binary in
// bytes. Nothing is ever truncated: a value that does not fit is an error.
func LengthProblem(t spec.DataType, v []byte) string {
	n := DeclaredLength(t)
	if n == 0 {
		return ""
	}
	if t.Root == spec.Binary || t.Root == spec.VarBinary {
		if len(v) > n {
			return fmt.Sprintf("at most %d bytes (the value has %d): the column is %s(%d); widen it or shorten the value", n, len(v), rootName(t.Root), n)
		}
		return ""
	}
	if c := utf8.RuneCount(v); c > n {
		return fmt.Sprintf("at most %d characters (the value has %d): the column is %s(%d); widen it or shorten the value", n, c, rootName(t.Root), n)
	}
	return ""
}

// asciiOnly reports whether every byte of b is below 0x80, eight bytes at a time.
func asciiOnly(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func rootName(r spec.TypeRoot) string {
	switch r {
	case spec.Char:
		return "CHAR"
	case spec.VarChar:
		return "VARCHAR"
	case spec.Binary:
		return "BINARY"
	}
	return "VARBINARY"
}

// textProblem checks a converted top-level column of table type t: CHAR/VARCHAR/STRING values must
// be valid UTF-8 (Parquet STRING columns are not validated by the decoder), and values must fit a
// declared length. It returns the first bad row's index, its value and the expected form; -1 when
// every value is fine.
func textProblem(a arrow.Array, t spec.DataType) (int, string, string) {
	text := t.Root == spec.Char || t.Root == spec.VarChar
	if !text && DeclaredLength(t) == 0 {
		return -1, "", ""
	}
	var get func(int) []byte
	switch x := a.(type) {
	case *array.String:
		off, data := x.ValueOffsets(), x.ValueBytes()
		if DeclaredLength(t) == 0 && asciiOnly(data) {
			return -1, "", "" // ASCII is valid UTF-8 and there is no length to check
		}
		get = func(i int) []byte { return data[off[i]-off[0] : off[i+1]-off[0]] }
	case *array.Binary:
		get = x.Value
	default:
		return -1, "", ""
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		v := get(i)
		if text && !utf8.Valid(v) {
			return i, string(v), typeName(t) + ": UTF-8 text (the input holds invalid UTF-8 bytes)"
		}
		if p := LengthProblem(t, v); p != "" {
			return i, string(v), p
		}
	}
	return -1, "", ""
}
