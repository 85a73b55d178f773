package canon

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func typ(r spec.TypeRoot) spec.DataType { return spec.DataType{Root: r, Nullable: true} }

func TestFloatPythonRepr(t *testing.T) {
	cases := map[float64]string{
		1: "1.0", 0: "0.0", 0.1: "0.1", 1e16: "1e+16", 1e15: "1000000000000000.0",
		1234567890123456: "1234567890123456.0", 1e-4: "0.0001", 1e-5: "1e-05", 1.5e-7: "1.5e-07",
		5e-324: "5e-324", math.MaxFloat64: "1.7976931348623157e+308", 123456789012345678: "1.2345678901234568e+17",
		300.000000001: "300.000000001", 2.5: "2.5", 1e22: "1e+22", 100: "100.0",
	}
	for f, want := range cases {
		if got := Float(f); got != want {
			t.Errorf("Float(%v) = %q, want %q", f, got, want)
		}
	}
	if got := Float(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("Float(-0) = %q", got)
	}
	if got := floatJSON(math.NaN()); got != `"NaN"` {
		t.Errorf("NaN -> %s", got)
	}
	if got := floatJSON(math.Inf(-1)); got != `"-Infinity"` {
		t.Errorf("-Inf -> %s", got)
	}
}

func TestFloat32IsWidened(t *testing.T) {
	got, err := Value(typ(spec.Float), float32(3.1))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "3.0999999046325684" {
		t.Fatalf("float32(3.1) -> %s", got)
	}
}

func TestScalars(t *testing.T) {
	dec := spec.DataType{Root: spec.Decimal, Precision: 10, Scale: 3}
	ts := spec.DataType{Root: spec.Timestamp, Precision: 3}
	cases := []struct {
		t    spec.DataType
		v    any
		want string
	}{
		{typ(spec.Boolean), true, "true"},
		{typ(spec.TinyInt), int8(-128), "-128"},
		{typ(spec.SmallInt), int16(300), "300"},
		{typ(spec.Int), int32(-7), "-7"},
		{typ(spec.BigInt), int64(math.MaxInt64), "9223372036854775807"},
		{dec, spec.DecimalValue{Unscaled: big.NewInt(-5)}, `"-0.005"`},
		{dec, spec.DecimalValue{Unscaled: big.NewInt(120)}, `"0.120"`},
		{spec.DataType{Root: spec.Decimal, Precision: 5}, spec.DecimalValue{Unscaled: big.NewInt(42)}, `"42"`},
		{typ(spec.VarChar), "a\"b\\c\n\x01<>&\u2028", `"a\"b\\c\n\u0001<>&` + "\u2028" + `"`},
		{typ(spec.VarChar), "bad\xffutf8", `"bad` + "\ufffd" + `utf8"`},
		{typ(spec.VarBinary), []byte{0xde, 0xad, 0x01}, `"dead01"`},
		{typ(spec.Date), int32(0), `"1970-01-01"`},
		{typ(spec.Date), int32(-719529), `"-0001-12-31"`},
		{typ(spec.Date), int32(2932897), `"+10000-01-01"`},
		{typ(spec.Time), int32(3723004), `"01:02:03.004"`},
		{ts, spec.TimestampValue{Millis: -1, NanoOfMilli: 999999}, `"1969-12-31T23:59:59.999999999"`},
		{typ(spec.TimestampLTZ), spec.TimestampValue{Millis: 1700000000123, NanoOfMilli: 456}, `"2023-11-14T22:13:20.123000456"`},
		{typ(spec.Int), nil, "null"},
	}
	for _, c := range cases {
		got, err := Value(c.t, c.v)
		if err != nil {
			t.Errorf("Value(%v, %#v): %v", c.t.Root, c.v, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("Value(%v, %#v) = %s, want %s", c.t.Root, c.v, got, c.want)
		}
	}
}

func TestNested(t *testing.T) {
	f32 := typ(spec.Float)
	key := spec.DataType{Root: spec.Array, Elem: &f32}
	rowT := spec.DataType{Root: spec.Row, Fields: []spec.DataField{
		{ID: 1, Name: "f1", Type: typ(spec.BigInt)}, {ID: 0, Name: "f0", Type: typ(spec.Boolean)},
	}}
	mapT := spec.DataType{Root: spec.Map, Elem: &key, Value: &rowT}
	v := []spec.MapEntry{
		{Key: []any{float32(5.5)}, Value: []any{int64(2), false}},
		{Key: []any{float32(5.25), nil}, Value: nil},
	}
	got, err := Value(mapT, v)
	if err != nil {
		t.Fatal(err)
	}
	want := `[[[5.25,null],null],[[5.5],{"f0":false,"f1":2}]]`
	if string(got) != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}

	i32 := typ(spec.Int)
	ms := spec.DataType{Root: spec.Multiset, Elem: &i32}
	got, err = Value(ms, []any{int32(3), int32(10), int32(3)})
	if err != nil || string(got) != "[10,3,3]" {
		t.Fatalf("multiset -> %s, %v (want bytewise-sorted [10,3,3])", got, err)
	}
}

func TestRowsSortedAndKeysOrdered(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.Int)},
		{ID: 1, Name: "Name", Type: typ(spec.VarChar)},
		{ID: 2, Name: "amount", Type: typ(spec.Double)},
	}
	lines, err := Rows(fields, [][]any{
		{int32(2), "b", 1.5},
		{int32(10), nil, math.Inf(1)},
		{int32(1), "a", nil},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"Name":"a","amount":null,"id":1}`,
		`{"Name":"b","amount":1.5,"id":2}`,
		`{"Name":null,"amount":"Infinity","id":10}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestTypeMismatchIsError(t *testing.T) {
	bad := []struct {
		t spec.DataType
		v any
	}{
		{typ(spec.Int), int64(1)},
		{typ(spec.VarChar), []byte("x")},
		{typ(spec.Timestamp), int64(0)},
		{spec.DataType{Root: spec.Array}, []any{1}}, // no element type
		{typ(spec.Map), []any{}},
		{spec.DataType{Root: 99}, 1},
	}
	for _, b := range bad {
		if _, err := Value(b.t, b.v); err == nil {
			t.Errorf("Value(%v, %#v) succeeded", b.t.Root, b.v)
		}
	}
	if _, err := Row([]spec.DataField{{Name: "a", Type: typ(spec.Int)}}, nil); err == nil {
		t.Error("Row with missing value succeeded")
	}
}
