package read

import (
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func mustType(t *testing.T, sql string) spec.DataType {
	t.Helper()
	typ, err := spec.ParseType(sql)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func dec(unscaled int64) spec.DecimalValue { return spec.DecimalValue{Unscaled: big.NewInt(unscaled)} }

// TestCastConversions checks each conversion castFor supports against what Java's CastExecutors
// produce for the same input (values worked out from the Java rules cited per group).
func TestCastConversions(t *testing.T) {
	const errs = "<error>"
	cases := []struct {
		from, to string
		in, want any
	}{
		// NumericPrimitiveCastRule: Number.xxxValue(): integers wrap, floating values go through (int)/(long),
		// which truncates toward zero and saturates (NaN → 0), then narrow.
		{"INT", "BIGINT", int32(-7), int64(-7)},
		{"TINYINT", "INT", int8(-128), int32(-128)},
		{"BIGINT", "INT", int64(1)<<32 + 5, int32(5)},
		{"INT", "SMALLINT", int32(70000), int16(4464)},
		{"INT", "TINYINT", int32(200), int8(-56)},
		{"DOUBLE", "INT", 1e20, int32(math.MaxInt32)},
		{"DOUBLE", "INT", -1e20, int32(math.MinInt32)},
		{"DOUBLE", "INT", math.NaN(), int32(0)},
		{"DOUBLE", "INT", -2.9, int32(-2)},
		{"DOUBLE", "INT", math.Inf(1), int32(math.MaxInt32)},
		{"DOUBLE", "BIGINT", 1e30, int64(math.MaxInt64)},
		{"DOUBLE", "BIGINT", math.Inf(-1), int64(math.MinInt64)},
		{"DOUBLE", "BIGINT", 123.99, int64(123)},
		{"FLOAT", "BIGINT", float32(-1e19), int64(math.MinInt64)},
		{"DOUBLE", "SMALLINT", 1e10, int16(-1)},       // (short)(int) 1e10 = (short) 2147483647
		{"DOUBLE", "TINYINT", 300.7, int8(44)},        // (byte)(int) 300.7 = (byte) 300
		{"FLOAT", "TINYINT", float32(-1e10), int8(0)}, // (byte) Integer.MIN_VALUE
		{"INT", "DOUBLE", int32(-3), float64(-3)},
		{"INT", "FLOAT", int32(16777217), float32(16777216)},
		{"BIGINT", "FLOAT", int64(1)<<62 + int64(1)<<38 + 1, float32(1<<62 + 1<<39)}, // one rounding, not two
		{"BIGINT", "DOUBLE", int64(math.MaxInt64), float64(9.223372036854775807e18)},
		{"DOUBLE", "FLOAT", 0.1, float32(0.1)},
		{"DOUBLE", "FLOAT", 1e300, float32(math.Inf(1))},
		{"FLOAT", "DOUBLE", float32(0.1), float64(float32(0.1))},
		// NumericToStringCastRule / BooleanToStringCastRule: toString, then cut/padded to the target length.
		{"INT", "STRING", int32(-42), "-42"},
		{"BIGINT", "VARCHAR(3)", int64(123456), "123"},
		{"INT", "CHAR(5)", int32(7), "7    "},
		{"DOUBLE", "STRING", 1e10, "1.0E10"},
		{"DOUBLE", "STRING", 0.1, "0.1"},
		{"FLOAT", "STRING", float32(1.5), "1.5"},
		{"DOUBLE", "STRING", math.Inf(-1), "-Infinity"},
		{"BOOLEAN", "STRING", true, "true"},
		{"BOOLEAN", "CHAR(6)", false, "false "},
		// BooleanToNumericCastRule.
		{"BOOLEAN", "INT", true, int32(1)},
		{"BOOLEAN", "TINYINT", false, int8(0)},
		{"BOOLEAN", "BIGINT", true, int64(1)},
		// StringToStringCastRule: cut to length in code points, CHAR padded with spaces.
		{"STRING", "VARCHAR(3)", "héllo", "hél"},
		{"STRING", "CHAR(4)", "ab", "ab  "},
		{"CHAR(2)", "CHAR(4)", "ab", "ab  "},
		{"VARCHAR(5)", "STRING", "abc", "abc"},
		{"VARCHAR(2)", "VARCHAR(10)", "ab", "ab"},
		// StringToBinaryCastRule / BinaryToBinaryCastRule: BINARY(n) cut or zero-padded, VARBINARY(n) cut.
		{"STRING", "BYTES", "hi", []byte("hi")},
		{"STRING", "BINARY(4)", "hi", []byte{'h', 'i', 0, 0}},
		{"STRING", "VARBINARY(1)", "hi", []byte("h")},
		{"BINARY(2)", "BINARY(3)", []byte{1, 2}, []byte{1, 2, 0}},
		{"BYTES", "VARBINARY(2)", []byte{1, 2, 3}, []byte{1, 2}},
		// BinaryToStringCastRule: bytes as UTF-8, no length adjustment.
		{"BYTES", "STRING", []byte("xyz"), "xyz"},
		{"BINARY(3)", "VARCHAR(1)", []byte("xyz"), "xyz"},
		// StringToNumericPrimitiveCastRule (BinaryStringUtils.toInt/toLong/…): sign, digits, a fraction
		// that is dropped; anything else, or overflow, fails the read.
		{"STRING", "INT", "-17", int32(-17)},
		{"STRING", "INT", "+17", int32(17)},
		{"STRING", "INT", "12.97", int32(12)},
		{"STRING", "INT", "-12.5", int32(-12)},
		{"STRING", "INT", ".5", int32(0)},
		{"STRING", "BIGINT", "9223372036854775807", int64(math.MaxInt64)},
		{"STRING", "BIGINT", "-9223372036854775808", int64(math.MinInt64)},
		{"STRING", "BIGINT", "9223372036854775808", errs},
		{"STRING", "INT", "2147483648", errs},
		{"STRING", "TINYINT", "127", int8(127)},
		{"STRING", "TINYINT", "128", errs},
		{"STRING", "SMALLINT", "-32769", errs},
		{"STRING", "INT", " 1", errs},
		{"STRING", "INT", "1e3", errs},
		{"STRING", "INT", "1.2.3", errs},
		{"STRING", "INT", "", errs},
		{"STRING", "INT", "-", errs},
		{"STRING", "INT", "abc", errs},
		{"STRING", "DOUBLE", "1.5e3", 1500.0},
		{"STRING", "DOUBLE", " 2.5 ", 2.5},
		{"STRING", "DOUBLE", "-Infinity", math.Inf(-1)},
		{"STRING", "DOUBLE", "x", errs},
		{"STRING", "FLOAT", "0.1", float32(0.1)},
		{"STRING", "FLOAT", "16777217", float32(16777216)},
		{"STRING", "FLOAT", "1.0000000596046447753906251", math.Nextafter32(1, 2)}, // one rounding, not via double
		// StringToBooleanCastRule: t/true/y/yes/1 and f/false/n/no/0, any case.
		{"STRING", "BOOLEAN", "TRUE", true},
		{"STRING", "BOOLEAN", "Yes", true},
		{"STRING", "BOOLEAN", "y", true},
		{"STRING", "BOOLEAN", "1", true},
		{"STRING", "BOOLEAN", "No", false},
		{"STRING", "BOOLEAN", "f", false},
		{"STRING", "BOOLEAN", "0", false},
		{"STRING", "BOOLEAN", "maybe", errs},
		{"STRING", "BOOLEAN", " true", errs},
		// NumericPrimitiveToDecimalCastRule for integers, DecimalToDecimalCastRule: HALF_UP, null on overflow.
		{"INT", "DECIMAL(5, 2)", int32(123), dec(12300)},
		{"BIGINT", "DECIMAL(5, 2)", int64(1000), nil},
		{"TINYINT", "DECIMAL(3, 0)", int8(-128), dec(-128)},
		{"DECIMAL(10, 3)", "DECIMAL(10, 1)", dec(12345), dec(123)},
		{"DECIMAL(10, 3)", "DECIMAL(10, 2)", dec(12345), dec(1235)},
		{"DECIMAL(10, 3)", "DECIMAL(10, 2)", dec(-12345), dec(-1235)},
		{"DECIMAL(10, 3)", "DECIMAL(10, 2)", dec(-12344), dec(-1234)},
		{"DECIMAL(10, 2)", "DECIMAL(20, 4)", dec(-99), dec(-9900)},
		{"DECIMAL(10, 2)", "DECIMAL(3, 2)", dec(99999), nil},
		{"DECIMAL(10, 2)", "DECIMAL(3, 2)", dec(999), dec(999)},
		{"DECIMAL(10, 0)", "DECIMAL(38, 10)", dec(math.MaxInt64), spec.DecimalValue{Unscaled: new(big.Int).Mul(big.NewInt(math.MaxInt64), big.NewInt(1e10))}},
		// TimestampToTimestampCastRule: truncation (DateTimeUtils.truncate, toward zero on epoch millis).
		{"TIMESTAMP(3)", "TIMESTAMP(0)", spec.TimestampValue{Millis: 1500}, spec.TimestampValue{Millis: 1000}},
		{"TIMESTAMP(3)", "TIMESTAMP(0)", spec.TimestampValue{Millis: -1500}, spec.TimestampValue{Millis: -1000}},
		{"TIMESTAMP(3)", "TIMESTAMP(1)", spec.TimestampValue{Millis: -1234}, spec.TimestampValue{Millis: -1200}},
		{"TIMESTAMP(9)", "TIMESTAMP(6)", spec.TimestampValue{Millis: 7, NanoOfMilli: 123456}, spec.TimestampValue{Millis: 7, NanoOfMilli: 123000}},
		{"TIMESTAMP(9)", "TIMESTAMP(3)", spec.TimestampValue{Millis: -7, NanoOfMilli: 999999}, spec.TimestampValue{Millis: -7}},
		{"TIMESTAMP(0)", "TIMESTAMP(6)", spec.TimestampValue{Millis: 5000}, spec.TimestampValue{Millis: 5000}},
		{"TIMESTAMP(6)", "TIMESTAMP(9)", spec.TimestampValue{Millis: 5, NanoOfMilli: 1000}, spec.TimestampValue{Millis: 5, NanoOfMilli: 1000}},
	}
	for _, c := range cases {
		name := c.from + "→" + c.to
		from, to := mustType(t, c.from), mustType(t, c.to)
		fn, err := castFor(from, to)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fn == nil {
			if !reflect.DeepEqual(c.in, c.want) {
				t.Errorf("%s(%v): no cast, want %#v", name, c.in, c.want)
			}
			continue
		}
		got, err := fn(c.in)
		if c.want == errs {
			if err == nil {
				t.Errorf("%s(%q) = %#v, want an error", name, c.in, got)
			} else if s, ok := c.in.(string); ok && !strings.Contains(err.Error(), s) {
				t.Errorf("%s(%q): error %q does not quote the value", name, c.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%v): %v", name, c.in, err)
			continue
		}
		if wd, ok := c.want.(spec.DecimalValue); ok {
			gd, ok := got.(spec.DecimalValue)
			if !ok || gd.Unscaled.Cmp(wd.Unscaled) != 0 {
				t.Errorf("%s(%v) = %v, want %v", name, c.in, got, wd.Unscaled)
			}
			continue
		}
		if f, ok := c.want.(float64); ok && math.IsNaN(f) {
			if g, ok := got.(float64); !ok || !math.IsNaN(g) {
				t.Errorf("%s(%v) = %#v, want NaN", name, c.in, got)
			}
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s(%#v) = %#v, want %#v", name, c.in, got, c.want)
		}
	}
}

// TestCastIdentityAndRefusals: equal types need no cast (nullability and VARCHAR growth aside), and
// conversions not implemented are refused with an error naming both types.
func TestCastIdentityAndRefusals(t *testing.T) {
	for _, c := range [][2]string{
		{"INT", "INT NOT NULL"}, {"STRING", "STRING"}, {"DECIMAL(10, 2)", "DECIMAL(10, 2)"},
		{"TIMESTAMP(6)", "TIMESTAMP(6)"}, {"DATE", "DATE"}, {"ARRAY<INT>", "ARRAY<INT>"}, {"BYTES", "BYTES"},
	} {
		fn, err := castFor(mustType(t, c[0]), mustType(t, c[1]))
		if err != nil || fn != nil {
			t.Errorf("%s→%s: cast %v, %v; want none", c[0], c[1], fn != nil, err)
		}
	}
	for _, c := range [][2]string{
		{"DATE", "INT"}, {"STRING", "DATE"}, {"DECIMAL(10, 2)", "DOUBLE"}, {"DOUBLE", "DECIMAL(10, 2)"},
		{"TIMESTAMP(3)", "STRING"}, {"INT", "BOOLEAN"}, {"BYTES", "INT"}, {"INT", "TIMESTAMP(3)"},
	} {
		_, err := castFor(mustType(t, c[0]), mustType(t, c[1]))
		if err == nil || !strings.Contains(err.Error(), c[0][:3]) {
			t.Errorf("%s→%s: %v, want an error naming the types", c[0], c[1], err)
		}
	}
}
