package binrow

import (
	"bytes"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestLayoutWorkedExamples checks the byte-exact rows of paimon-format §5.3.
func TestLayoutWorkedExamples(t *testing.T) {
	intStr := []spec.DataType{ty(spec.Int), strT()}
	cases := []struct {
		name   string
		types  []spec.DataType
		values []any
		want   string
	}{
		{"(INT 5, STRING ab)", intStr, []any{int32(5), "ab"},
			"0000000000000000 | 0500000000000000 | 6162000000000082"},
		{"(INT null, STRING ab)", intStr, []any{nil, "ab"},
			"0001000000000000 | 0000000000000000 | 6162000000000082"},
		{"STRING hello world!", []spec.DataType{strT()}, []any{"hello world!"},
			"0000000000000000 | 0c00000010000000 | 68656c6c6f20776f | 726c642100000000"},
		{"empty row", nil, nil, "0000000000000000"},
	}
	for _, c := range cases {
		got, err := Encode(c.types, c.values)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := unhex(t, c.want); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %x\nwant %x", c.name, got, want)
		}
	}
	ser, err := Serialize(intStr, []any{int32(5), "ab"})
	if err != nil {
		t.Fatal(err)
	}
	if want := unhex(t, "00000002 | 0000000000000000 | 0500000000000000 | 6162000000000082"); !bytes.Equal(ser, want) {
		t.Errorf("Serialize:\n got %x\nwant %x", ser, want)
	}
}

// TestEmptyRow checks EMPTY_ROW: arity 0, 12 bytes, equal to Serialize of no fields.
func TestEmptyRow(t *testing.T) {
	if want := unhex(t, "00000000 0000000000000000"); !bytes.Equal(EmptyRow, want) {
		t.Fatalf("EmptyRow = %x", EmptyRow)
	}
	ser, err := Serialize(nil, nil)
	if err != nil || !bytes.Equal(ser, EmptyRow) {
		t.Errorf("Serialize() = %x, %v; want EmptyRow", ser, err)
	}
	if a, err := Arity(EmptyRow); err != nil || a != 0 {
		t.Errorf("Arity(EmptyRow) = %d, %v", a, err)
	}
	if v, err := Deserialize(nil, EmptyRow); err != nil || len(v) != 0 {
		t.Errorf("Deserialize(EmptyRow) = %v, %v", v, err)
	}
}

// TestLayoutTypes pins the slot and variable-part bytes of each non-trivial encoding.
func TestLayoutTypes(t *testing.T) {
	const hdr = "0000000000000000"
	const nullHdr = "0001000000000000"
	cases := []struct {
		name string
		typ  spec.DataType
		v    any
		want string
	}{
		{"BOOLEAN true", ty(spec.Boolean), true, hdr + "0100000000000000"},
		{"TINYINT -1 keeps high bytes zero", ty(spec.TinyInt), int8(-1), hdr + "ff00000000000000"},
		{"SMALLINT -2", ty(spec.SmallInt), int16(-2), hdr + "feff000000000000"},
		{"INT -1", ty(spec.Int), int32(-1), hdr + "ffffffff00000000"},
		{"DATE -1", ty(spec.Date), int32(-1), hdr + "ffffffff00000000"},
		{"BIGINT -2", ty(spec.BigInt), int64(-2), hdr + "feffffffffffffff"},
		{"FLOAT 1.0", ty(spec.Float), float32(1), hdr + "0000803f00000000"},
		{"DOUBLE -0.0", ty(spec.Double), -zero(), hdr + "0000000000000080"},
		{"DECIMAL(18,2) -1", decT(18, 2), dec(t, "-1"), hdr + "ffffffffffffffff"},
		{"empty STRING inline", strT(), "", hdr + "0000000000000080"},
		{"7-byte STRING inline", strT(), "abcdefg", hdr + "6162636465666787"},
		{"8-byte STRING in var part", strT(), "abcdefgh", hdr + "0800000010000000" + "6162636465666768"},
		{"7-byte BYTES inline", bytesT(), []byte{1, 2, 3, 4, 5, 6, 7}, hdr + "0102030405060787"},
		{"CHAR inline", spec.DataType{Root: spec.Char, Length: 3}, "xyz", hdr + "78797a0000000083"},
		{"TIMESTAMP(3) -1ms", tsT(3), spec.TimestampValue{Millis: -1}, hdr + "ffffffffffffffff"},
		{"TIMESTAMP(9) -1ms+999999ns", tsT(9), spec.TimestampValue{Millis: -1, NanoOfMilli: 999999},
			hdr + "3f420f0010000000" + "ffffffffffffffff"},
		{"TIMESTAMP_LTZ(6)", ltzT(6), spec.TimestampValue{Millis: 1, NanoOfMilli: 2000},
			hdr + "d007000010000000" + "0100000000000000"},
		{"null TIMESTAMP(9) reserves 8 bytes", tsT(9), nil, nullHdr + "0000000010000000" + "0000000000000000"},
		{"null TIMESTAMP(3) zero slot", tsT(3), nil, nullHdr + "0000000000000000"},
		{"null DECIMAL(30,2) reserves 16 bytes", decT(30, 2), nil,
			nullHdr + "0000000010000000" + "0000000000000000 0000000000000000"},
		{"null DECIMAL(18,2) zero slot", decT(18, 2), nil, nullHdr + "0000000000000000"},
		{"null STRING zero slot", strT(), nil, nullHdr + "0000000000000000"},
	}
	for _, c := range cases {
		got, err := Encode([]spec.DataType{c.typ}, []any{c.v})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := unhex(t, c.want); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %x\nwant %x", c.name, got, want)
		}
	}
}

func zero() float64 { return 0 }

// TestDecimalJavaBytes checks BigInteger.toByteArray semantics (minimal two's complement, Java
// bitLength) inside the 16-byte reserved area, including -2^k values.
func TestDecimalJavaBytes(t *testing.T) {
	cases := []struct {
		name string
		v    spec.DecimalValue
		want string // toByteArray
	}{
		{"0", dec(t, "0"), "00"},
		{"-1", dec(t, "-1"), "ff"},
		{"127", dec(t, "127"), "7f"},
		{"128", pow2(1, 7), "0080"},
		{"-2^7", pow2(-1, 7), "80"},
		{"-129", dec(t, "-129"), "ff7f"},
		{"-2^8", pow2(-1, 8), "ff00"},
		{"-2^63", pow2(-1, 63), "8000000000000000"},
		{"2^63", pow2(1, 63), "008000000000000000"},
		{"-2^64", pow2(-1, 64), "ff0000000000000000"},
		{"-2^119", pow2(-1, 119), "800000000000000000000000000000"},
		{"-2^120", pow2(-1, 120), "ff000000000000000000000000000000"},
		{"10^38-1", dec(t, "99999999999999999999999999999999999999"), "4b3b4ca85a86c47a098a223fffffffff"},
		{"-(10^38-1)", dec(t, "-99999999999999999999999999999999999999"), "b4c4b357a5793b85f675ddc000000001"},
	}
	for _, c := range cases {
		row, err := Encode([]spec.DataType{decT(38, 0)}, []any{c.v})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		jb := unhex(t, c.want)
		area := make([]byte, 16)
		copy(area, jb)
		want := append(unhex(t, "0000000000000000"), byte(len(jb)), 0, 0, 0, 0x10, 0, 0, 0)
		want = append(want, area...)
		if !bytes.Equal(row, want) {
			t.Errorf("%s:\n got %x\nwant %x", c.name, row, want)
		}
	}
}

// TestLayoutWideRow checks the 16-byte null bit set of arity > 56 and null bits past byte 8.
func TestLayoutWideRow(t *testing.T) {
	const arity = 60
	types := make([]spec.DataType, arity)
	values := make([]any, arity)
	for i := range types {
		types[i] = ty(spec.BigInt)
		values[i] = int64(i)
	}
	values[0], values[55], values[56], values[59] = nil, nil, nil, nil
	row, err := Encode(types, values)
	if err != nil {
		t.Fatal(err)
	}
	if len(row) != 16+8*arity {
		t.Fatalf("row length %d, want %d", len(row), 16+8*arity)
	}
	// bits i+8: 0→byte1 bit0, 55→byte7 bit7, 56→byte8 bit0, 59→byte8 bit3.
	if want := unhex(t, "0001000000000080 0900000000000000"); !bytes.Equal(row[:16], want) {
		t.Errorf("null bits %x, want %x", row[:16], want)
	}
	if got := row[16+8*7]; got != 7 {
		t.Errorf("slot 7 = %d, want 7", got)
	}
	back, err := Decode(types, row)
	if err != nil {
		t.Fatal(err)
	}
	if i := sameRow(types, values, back); i >= 0 {
		t.Errorf("field %d: got %v, want %v", i, back[i], values[i])
	}
}
