package source

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestTextProblemUTF8: the ASCII fast path of a STRING column never hides an invalid value: a valid
// value is accepted whatever its bytes, invalid bytes are found in any row (also when the batch's
// bytes are valid UTF-8 as a whole: a character split over two values), in a slice too, and a
// declared length is still checked on ASCII.
func TestTextProblemUTF8(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}
	for _, tc := range []struct {
		name    string
		vals    []string
		nulls   []bool
		t       spec.DataType
		off     int // slice start
		wantRow int
		want    string
	}{
		{name: "ascii", vals: []string{"a", "bc", strings.Repeat("x", 40)}, t: str, wantRow: -1},
		{name: "utf8", vals: []string{"a", "é", "日本"}, t: str, wantRow: -1},
		{name: "invalid late", vals: []string{strings.Repeat("a", 30), "ok", "b\xffc"}, t: str, wantRow: 2, want: "UTF-8"},
		{name: "split character", vals: []string{"a", "\xc3", "\xa9"}, t: str, wantRow: 1, want: "UTF-8"},
		{name: "invalid null", vals: []string{"a", "\xff", "b"}, nulls: []bool{true, false, true}, t: str, wantRow: -1},
		{name: "sliced", vals: []string{"\xff", "ok", "\xfe"}, off: 1, t: str, wantRow: 1, want: "UTF-8"},
		{name: "length on ascii", vals: []string{"abc", "abcdef"}, t: spec.DataType{Root: spec.VarChar, Nullable: true, Length: 4}, wantRow: 1, want: "at most 4 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := array.NewStringBuilder(memory.DefaultAllocator)
			defer b.Release()
			b.AppendValues(tc.vals, tc.nulls)
			a := b.NewStringArray()
			defer a.Release()
			s := array.NewSlice(a, int64(tc.off), int64(a.Len()))
			defer s.Release()
			row, _, want := textProblem(s, tc.t)
			if row != tc.wantRow || !strings.Contains(want, tc.want) {
				t.Fatalf("row %d (%q), want row %d (%q)", row, want, tc.wantRow, tc.want)
			}
		})
	}
}
