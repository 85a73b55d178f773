package binrow

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestEncodeErrors checks that bad inputs are rejected with an error naming the fault.
func TestEncodeErrors(t *testing.T) {
	arr := spec.DataType{Root: spec.Array, Elem: &spec.DataType{Root: spec.Int}}
	cases := []struct {
		name  string
		types []spec.DataType
		vals  []any
		want  string
	}{
		{"count mismatch", []spec.DataType{ty(spec.Int)}, nil, "1 types but 0 values"},
		{"wrong Go type", []spec.DataType{ty(spec.Int)}, []any{5}, "field 0 (INT): want int32, got int"},
		{"string for bytes", []spec.DataType{bytesT()}, []any{"x"}, "want []byte, got string"},
		{"decimal too wide p38", []spec.DataType{decT(38, 0)}, []any{pow2(1, 127)}, "does not fit DECIMAL precision 38"},
		{"decimal too wide p5", []spec.DataType{decT(5, 2)}, []any{dec(t, "100000")}, "does not fit DECIMAL precision 5"},
		{"decimal nil unscaled", []spec.DataType{decT(20, 2)}, []any{spec.DecimalValue{}}, "nil unscaled"},
		{"decimal precision 0", []spec.DataType{decT(0, 0)}, []any{dec(t, "1")}, "precision 0 outside"},
		{"nanos out of range", []spec.DataType{tsT(9)}, []any{spec.TimestampValue{NanoOfMilli: 1000000}}, "nano-of-milli 1000000"},
		{"negative nanos", []spec.DataType{ltzT(6)}, []any{spec.TimestampValue{NanoOfMilli: -1}}, "nano-of-milli -1"},
		{"array", []spec.DataType{arr}, []any{[]any{int32(1)}}, "unsupported in BinaryRow: ARRAY"},
		{"null array", []spec.DataType{arr}, []any{nil}, "unsupported in BinaryRow: ARRAY"},
	}
	for _, c := range cases {
		_, err := Encode(c.types, c.vals)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := Encode([]spec.DataType{{Root: spec.Map}}, []any{nil}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("MAP: error %v, want ErrUnsupported", err)
	}
}

// TestBuilderSetIndexError checks Set's bounds error and that failed sets leave the row intact.
func TestBuilderSetIndexError(t *testing.T) {
	b := NewBuilder(1)
	if err := b.Set(1, ty(spec.Int), int32(1)); err == nil {
		t.Error("Set(1) on arity 1 succeeded")
	}
	if err := b.Set(-1, ty(spec.Int), int32(1)); err == nil {
		t.Error("Set(-1) succeeded")
	}
	if err := b.Set(0, decT(20, 0), spec.DecimalValue{Unscaled: new(big.Int).Lsh(big.NewInt(1), 100)}); err == nil {
		t.Error("oversized decimal accepted")
	}
	if len(b.Bytes()) != 16 {
		t.Errorf("failed Set grew the row to %d bytes", len(b.Bytes()))
	}
}

// TestDecodeCorrupt checks that malformed rows give errors wrapping spec.ErrCorrupt.
func TestDecodeCorrupt(t *testing.T) {
	one := func(typ spec.DataType, slot string, rest string) (spec.DataType, []byte) {
		return typ, unhex(t, "0000000000000000"+slot+rest)
	}
	type tc struct {
		name string
		typ  spec.DataType
		row  []byte
		want string
	}
	var cases []tc
	add := func(name string, typ spec.DataType, row []byte, want string) {
		cases = append(cases, tc{name, typ, row, want})
	}
	typ, row := one(strT(), "0800000018000000", "6162636465666768")
	add("string past end", typ, row, "variable part [24,32) outside row of 24 bytes")
	typ, row = one(strT(), "00000000000000ff", "")
	add("inline length 127", typ, row, "inline length 127")
	typ, row = one(decT(30, 0), "1100000010000000", "00000000000000000000000000000000")
	add("decimal length 17", typ, row, "decimal byte length 17")
	typ, row = one(decT(30, 0), "0000000010000000", "00000000000000000000000000000000")
	add("decimal length 0", typ, row, "decimal byte length 0")
	typ, row = one(decT(5, 0), "a086010000000000", "")
	add("compact decimal over precision", typ, row, "does not fit DECIMAL precision 5")
	typ, row = one(tsT(9), "40420f0010000000", "0000000000000000")
	add("nanos 1000000", typ, row, "nano-of-milli 1000000")
	typ, row = one(tsT(6), "0000000018000000", "0000000000000000")
	add("timestamp past end", typ, row, "outside row")
	add("short row", ty(spec.Int), make([]byte, 15), "shorter than the 16-byte fixed part")
	add("bad row kind", ty(spec.Int), append([]byte{9}, make([]byte, 15)...), "RowKind header byte 9")
	for _, c := range cases {
		_, err := Decode([]spec.DataType{c.typ}, c.row)
		if !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrCorrupt containing %q", c.name, err, c.want)
		}
	}

	types := []spec.DataType{ty(spec.Int)}
	ser, err := Serialize(types, []any{int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"no prefix":      ser[:3],
		"negative arity": append([]byte{0xff, 0xff, 0xff, 0xff}, ser[4:]...),
		"truncated":      ser[:len(ser)-1],
		"arity mismatch": append([]byte{0, 0, 0, 2}, ser[4:]...),
	} {
		if _, err := Deserialize(types, b); !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("Deserialize %s: error %v, want ErrCorrupt", name, err)
		}
	}
	if _, err := Deserialize([]spec.DataType{ty(spec.Int), ty(spec.Int)}, ser); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("Deserialize with too many types: error %v, want ErrCorrupt", err)
	}
}
