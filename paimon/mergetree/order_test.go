package mergetree

import (
	"math"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func TestCompareDatum(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		a, b any
		want int
	}{
		{nil, int32(1), -1}, {int32(1), nil, 1}, {nil, nil, 0},
		{int32(-5), int32(3), -1}, {int64(7), int64(7), 0}, {int8(-1), int8(1), -1}, {int16(2), int16(1), 1},
		{false, true, -1},
		{negZero, 0.0, -1}, {math.NaN(), math.Inf(1), 1}, {math.NaN(), math.NaN(), 0}, {float32(1), float32(2), -1},
		{"ab", "abc", -1}, {"é", "z", 1}, // unsigned UTF-8 bytes: 0xC3 > 'z'
		{[]byte{0xff}, []byte{0x01, 0x00}, 1}, {[]byte{1}, []byte{1, 0}, -1},
		{dec(-3), dec(2), -1}, {spec.DecimalValue{}, dec(0), 0},
		{spec.TimestampValue{Millis: 1, NanoOfMilli: 5}, spec.TimestampValue{Millis: 1, NanoOfMilli: 4}, 1},
		{[]any{int32(1), nil}, []any{int32(1), int32(0)}, -1},
	}
	for _, tc := range cases {
		if got := compareDatum(tc.a, tc.b); got != tc.want {
			t.Errorf("compareDatum(%#v, %#v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := compareDatum(tc.b, tc.a); got != -tc.want {
			t.Errorf("compareDatum(%#v, %#v) = %d, want %d (antisymmetry)", tc.b, tc.a, got, -tc.want)
		}
	}
}

func TestLessSequenceField(t *testing.T) {
	v := col("v", intType(true))
	w := col("w", intType(true))
	asc := mustConfig(t, map[string]string{"sequence.field": "v, w"}, v, w)
	desc := mustConfig(t, map[string]string{"sequence.field": "v", "sequence.field.sort-order": "descending"}, v, w)
	plain := mustConfig(t, nil, v, w)
	cases := []struct {
		name string
		c    *Config
		a, b KeyValue
		want bool
	}{
		{"no sequence field: by seq", plain, ins(1, 1, int32(9), nil), ins(1, 2, int32(1), nil), true},
		{"sequence field wins over seq", asc, ins(1, 5, int32(1), nil), ins(1, 2, int32(3), nil), true},
		{"null sequence value first", asc, ins(1, 5, nil, nil), ins(1, 2, int32(-100), nil), true},
		{"second sequence field", asc, ins(1, 5, int32(1), int32(2)), ins(1, 2, int32(1), int32(3)), true},
		{"tie falls back to seq", asc, ins(1, 5, int32(1), int32(2)), ins(1, 2, int32(1), int32(2)), false},
		{"descending reverses values", desc, ins(1, 1, int32(3), nil), ins(1, 2, int32(1), nil), true},
		{"descending keeps nulls first", desc, ins(1, 5, nil, nil), ins(1, 2, int32(1), nil), true},
		{"descending tie by seq ascending", desc, ins(1, 1, int32(3), nil), ins(1, 2, int32(3), nil), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Less(tc.a, tc.b); got != tc.want {
				t.Fatalf("Less = %v, want %v", got, tc.want)
			}
			if tc.want && tc.c.Less(tc.b, tc.a) {
				t.Fatal("Less is not asymmetric")
			}
		})
	}
}
