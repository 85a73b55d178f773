package mergetree

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

type aggStep struct {
	retract bool
	in      any
}

func TestFieldAggregators(t *testing.T) {
	i32 := spec.DataType{Root: spec.Int, Nullable: true}
	i8 := spec.DataType{Root: spec.TinyInt, Nullable: true}
	i64 := spec.DataType{Root: spec.BigInt, Nullable: true}
	f32 := spec.DataType{Root: spec.Float, Nullable: true}
	d52 := spec.DataType{Root: spec.Decimal, Precision: 5, Scale: 2, Nullable: true}
	d202 := spec.DataType{Root: spec.Decimal, Precision: 20, Scale: 2, Nullable: true}
	boolT := spec.DataType{Root: spec.Boolean, Nullable: true}
	ts := spec.DataType{Root: spec.Timestamp, Precision: 9, Nullable: true}
	add := func(v any) aggStep { return aggStep{in: v} }
	sub := func(v any) aggStep { return aggStep{retract: true, in: v} }
	cases := []struct {
		name    string
		spec    aggSpec
		steps   []aggStep
		want    any
		wantErr bool
	}{
		{"sum ints skips nulls", aggSpec{fn: aggSum, typ: i32}, []aggStep{add(nil), add(int32(2)), add(nil), add(int32(3))}, int32(5), false},
		{"sum retract", aggSpec{fn: aggSum, typ: i32}, []aggStep{add(int32(5)), sub(int32(2)), sub(nil)}, int32(3), false},
		{"sum retract from null negates", aggSpec{fn: aggSum, typ: i32}, []aggStep{sub(int32(2))}, int32(-2), false},
		{"sum retract null from null", aggSpec{fn: aggSum, typ: i32}, []aggStep{sub(nil)}, nil, false},
		{"sum int overflow", aggSpec{fn: aggSum, typ: i32}, []aggStep{add(int32(math.MaxInt32)), add(int32(1))}, nil, true},
		{"sum tinyint overflow", aggSpec{fn: aggSum, typ: i8}, []aggStep{add(int8(100)), add(int8(28))}, nil, true},
		{"sum tinyint negate overflow", aggSpec{fn: aggSum, typ: i8}, []aggStep{sub(int8(math.MinInt8))}, nil, true},
		{"sum bigint overflow", aggSpec{fn: aggSum, typ: i64}, []aggStep{add(int64(math.MinInt64)), sub(int64(1))}, nil, true},
		{"sum float32", aggSpec{fn: aggSum, typ: f32}, []aggStep{add(float32(0.1)), add(float32(0.2))}, float32(0.1) + float32(0.2), false},
		{"sum decimal compact keeps value beyond precision", aggSpec{fn: aggSum, typ: d52}, []aggStep{add(dec(99999)), add(dec(1))}, dec(100000), false},
		{"sum decimal big becomes null on overflow", aggSpec{fn: aggSum, typ: d202},
			[]aggStep{add(spec.DecimalValue{Unscaled: new(big.Int).Exp(big.NewInt(10), big.NewInt(19), nil)}), add(spec.DecimalValue{Unscaled: new(big.Int).Mul(big.NewInt(9), new(big.Int).Exp(big.NewInt(10), big.NewInt(19), nil))})}, nil, false},
		{"sum decimal big exact", aggSpec{fn: aggSum, typ: d202}, []aggStep{add(dec(math.MaxInt64)), add(dec(1))},
			spec.DecimalValue{Unscaled: new(big.Int).Add(big.NewInt(math.MaxInt64), big.NewInt(1))}, false},
		{"product", aggSpec{fn: aggProduct, typ: i32}, []aggStep{add(int32(3)), add(nil), add(int32(-4))}, int32(-12), false},
		{"product retract divides", aggSpec{fn: aggProduct, typ: i32}, []aggStep{add(int32(12)), sub(int32(5))}, int32(2), false},
		{"product retract by zero", aggSpec{fn: aggProduct, typ: i32}, []aggStep{add(int32(12)), sub(int32(0))}, nil, true},
		{"product decimal rounds half up", aggSpec{fn: aggProduct, typ: d52}, []aggStep{add(dec(105)), add(dec(105))}, dec(110), false}, // 1.05*1.05=1.1025
		{"product decimal divide", aggSpec{fn: aggProduct, typ: d52}, []aggStep{add(dec(100)), sub(dec(800))}, dec(13), false},          // 1/8=0.125 -> 0.13
		{"product decimal non-terminating", aggSpec{fn: aggProduct, typ: d52}, []aggStep{add(dec(100)), sub(dec(300))}, nil, true},
		{"min", aggSpec{fn: aggMin, typ: i32}, []aggStep{add(int32(3)), add(nil), add(int32(-1)), add(int32(7))}, int32(-1), false},
		{"max strings bytewise", aggSpec{fn: aggMax, typ: stringType}, []aggStep{add("ab"), add("b"), add("abc")}, "b", false},
		{"max float NaN largest", aggSpec{fn: aggMax, typ: f32}, []aggStep{add(float32(1)), add(float32(math.NaN())), add(float32(2))}, float32(math.NaN()), false},
		{"min timestamp nanos", aggSpec{fn: aggMin, typ: ts}, []aggStep{add(spec.TimestampValue{Millis: 5, NanoOfMilli: 2}), add(spec.TimestampValue{Millis: 5, NanoOfMilli: 1})}, spec.TimestampValue{Millis: 5, NanoOfMilli: 1}, false},
		{"max retract rejected", aggSpec{fn: aggMax, typ: i32}, []aggStep{add(int32(1)), sub(int32(1))}, nil, true},
		{"max ignore-retract", aggSpec{fn: aggMax, typ: i32, ignoreRetract: true}, []aggStep{add(int32(1)), sub(int32(1))}, int32(1), false},
		{"last_value takes nulls", aggSpec{fn: aggLastValue, typ: i32}, []aggStep{add(int32(1)), add(nil)}, nil, false},
		{"last_value retract nulls", aggSpec{fn: aggLastValue, typ: i32}, []aggStep{add(int32(1)), sub(int32(5))}, nil, false},
		{"last_non_null_value", aggSpec{fn: aggLastNonNullValue, typ: i32}, []aggStep{add(int32(1)), add(nil)}, int32(1), false},
		{"last_non_null_value retract non-null", aggSpec{fn: aggLastNonNullValue, typ: i32}, []aggStep{add(int32(1)), sub(int32(9))}, nil, false},
		{"last_non_null_value retract null", aggSpec{fn: aggLastNonNullValue, typ: i32}, []aggStep{add(int32(1)), sub(nil)}, int32(1), false},
		{"first_value keeps first null", aggSpec{fn: aggFirstValue, typ: i32}, []aggStep{add(nil), add(int32(2))}, nil, false},
		{"first_non_null_value", aggSpec{fn: aggFirstNonNullValue, typ: i32}, []aggStep{add(nil), add(int32(2)), add(int32(3))}, int32(2), false},
		{"first_not_null_value legacy", aggSpec{fn: aggFirstNotNullValue, typ: i32}, []aggStep{add(nil), add(int32(2)), add(int32(3))}, int32(2), false},
		{"first_value retract rejected", aggSpec{fn: aggFirstValue, typ: i32}, []aggStep{add(int32(1)), sub(int32(1))}, nil, true},
		{"bool_and", aggSpec{fn: aggBoolAnd, typ: boolT}, []aggStep{add(true), add(nil), add(false)}, false, false},
		{"bool_or", aggSpec{fn: aggBoolOr, typ: boolT}, []aggStep{add(false), add(nil), add(true)}, true, false},
		{"listagg skips blank", aggSpec{fn: aggListagg, typ: stringType, delimiter: ","}, []aggStep{add(" \t"), add("a"), add(nil), add(" "), add("b")}, "a,b", false},
		{"listagg no-break space is not blank", aggSpec{fn: aggListagg, typ: stringType, delimiter: "-"}, []aggStep{add("a"), add("\u00a0")}, "a-\u00a0", false},
		{"listagg distinct", aggSpec{fn: aggListagg, typ: stringType, delimiter: ",", distinct: true}, []aggStep{add("a,b"), add("b,c,,a"), add("d")}, "a,b,c,d", false},
		{"listagg retract rejected", aggSpec{fn: aggListagg, typ: stringType, delimiter: ","}, []aggStep{add("a"), sub("a")}, nil, true},
		{"primary-key", aggSpec{fn: aggPrimaryKey, typ: i32}, []aggStep{add(int32(1)), sub(int32(2))}, int32(2), false},
		{"wrong datum type is an error", aggSpec{fn: aggSum, typ: i32}, []aggStep{add(int32(1)), add(int64(2))}, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.column = "c"
			f := &fieldAgg{spec: tc.spec}
			var acc any
			var err error
			for _, s := range tc.steps {
				if s.retract {
					acc, err = f.retract(acc, s.in)
				} else {
					acc, err = f.agg(acc, s.in)
				}
				if err != nil {
					break
				}
			}
			if tc.wantErr {
				if err == nil {
					t.Fatalf("got %v, want error", acc)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !datumEqual(acc, tc.want) {
				t.Fatalf("got %#v, want %#v", acc, tc.want)
			}
		})
	}
}

func TestRetractErrorsWrapSentinel(t *testing.T) {
	f := &fieldAgg{spec: aggSpec{column: "c", fn: aggMin}}
	if _, err := f.retract(int32(1), int32(1)); !errors.Is(err, ErrRetractNotAccepted) {
		t.Fatalf("err = %v", err)
	}
}

// datumEqual compares Datums, treating NaN as equal to NaN and decimals by value.
func datumEqual(a, b any) bool {
	if x, ok := a.(spec.DecimalValue); ok {
		y, ok := b.(spec.DecimalValue)
		return ok && unscaled(x).Cmp(unscaled(y)) == 0
	}
	if x, ok := a.(float32); ok && math.IsNaN(float64(x)) {
		y, ok := b.(float32)
		return ok && math.IsNaN(float64(y))
	}
	return reflect.DeepEqual(a, b)
}
