package spec

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

func pf(name, typ string) []DataField { return []DataField{col(name, typ)} }

const dflt = "__DEFAULT_PARTITION__"

func TestPartitionPathLegacy(t *testing.T) {
	ts := func(ms int64, nano int32) TimestampValue { return TimestampValue{Millis: ms, NanoOfMilli: nano} }
	const tenAM = 1704103200000 // 2024-01-01T10:00:00Z
	cases := []struct {
		typ  string
		val  any
		want string
	}{
		{"STRING", "2024-01-01", "k=2024-01-01/"},
		{"VARCHAR(5)", "a b", "k=a b/"},
		{"CHAR(3)", "ab ", "k=ab /"},
		{"INT", int32(-42), "k=-42/"},
		{"BIGINT", int64(9223372036854775807), "k=9223372036854775807/"},
		{"SMALLINT", int16(7), "k=7/"},
		{"TINYINT", int8(-128), "k=-128/"},
		{"BOOLEAN", true, "k=true/"},
		{"BOOLEAN", false, "k=false/"},
		{"DATE", int32(19723), "k=19723/"},
		{"TIME(3)", int32(36000000), "k=36000000/"},
		{"TIMESTAMP(3)", ts(tenAM, 0), "k=2024-01-01T10%3A00/"},
		{"TIMESTAMP(3)", ts(tenAM+5000, 0), "k=2024-01-01T10%3A00%3A05/"},
		{"TIMESTAMP(3)", ts(tenAM+5123, 0), "k=2024-01-01T10%3A00%3A05.123/"},
		{"TIMESTAMP(6)", ts(tenAM+123, 456000), "k=2024-01-01T10%3A00%3A00.123456/"},
		{"TIMESTAMP(9)", ts(tenAM, 1), "k=2024-01-01T10%3A00%3A00.000000001/"},
		{"TIMESTAMP(3)", ts(-1, 0), "k=1969-12-31T23%3A59%3A59.999/"},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", ts(0, 0), "k=1970-01-01T00%3A00/"},
		{"DECIMAL(10, 2)", DecimalValue{big.NewInt(12345)}, "k=123.45/"},
		{"DECIMAL(10, 2)", DecimalValue{big.NewInt(-5)}, "k=-0.05/"},
		{"DECIMAL(5, 0)", DecimalValue{big.NewInt(0)}, "k=0/"},
		{"DECIMAL(38, 3)", DecimalValue{new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)}, "k=10000000000000000000000000000000000.000/"},
		{"FLOAT", float32(1e10), "k=1.0E10/"},
		{"FLOAT", float32(0.1), "k=0.1/"},
		{"DOUBLE", 1.0, "k=1.0/"},
		{"DOUBLE", 1e-4, "k=1.0E-4/"},
		{"DOUBLE", math.NaN(), "k=NaN/"},
		// Escaping (uppercase hex), space and non-ASCII untouched.
		{"STRING", `a/b:c=d?e%f#g'h"i*j\k{l}m[n]o^p`, "k=a%2Fb%3Ac%3Dd%3Fe%25f%23g%27h%22i%2Aj%5Ck%7Bl%7Dm%5Bn%5Do%5Ep/"},
		{"STRING", "\x01\n\x1f\x7f", "k=%01%0A%1F%7F/"},
		{"STRING", "héllo wörld ü", "k=héllo wörld ü/"},
		// null, empty and whitespace-only → default name; NBSP is not Java whitespace.
		{"STRING", nil, "k=" + dflt + "/"},
		{"INT", nil, "k=" + dflt + "/"},
		{"STRING", "", "k=" + dflt + "/"},
		{"STRING", " \t\u2003\u3000", "k=" + dflt + "/"},
		{"STRING", "\u00a0", "k=\u00a0/"},
	}
	for _, c := range cases {
		got, err := PartitionPath(pf("k", c.typ), []any{c.val}, dflt, true)
		if err != nil || got != c.want {
			t.Errorf("%s %#v: got %q, %v; want %q", c.typ, c.val, got, err, c.want)
		}
	}
}

func TestPartitionPathNonLegacy(t *testing.T) {
	ts := func(ms int64, nano int32) TimestampValue { return TimestampValue{Millis: ms, NanoOfMilli: nano} }
	const tenAM = 1704103200000
	cases := []struct {
		typ  string
		val  any
		want string
	}{
		{"DATE", int32(19723), "k=2024-01-01/"},
		{"DATE", int32(-1), "k=1969-12-31/"},
		{"TIME(0)", int32(36000000), "k=10%3A00%3A00/"},
		{"TIME(3)", int32(36000500), "k=10%3A00%3A00.5/"},
		{"TIME(3)", int32(36000000), "k=10%3A00%3A00.0/"},
		{"TIME(3)", int32(36000123), "k=10%3A00%3A00.123/"},
		{"TIMESTAMP(6)", ts(tenAM, 0), "k=2024-01-01 10%3A00%3A00.000000/"},
		{"TIMESTAMP(0)", ts(tenAM+5000, 0), "k=2024-01-01 10%3A00%3A05/"},
		{"TIMESTAMP(3)", ts(tenAM+120, 0), "k=2024-01-01 10%3A00%3A00.120/"},
		{"TIMESTAMP(3)", ts(tenAM+123, 456789), "k=2024-01-01 10%3A00%3A00.123456789/"},
		{"TIMESTAMP(6) WITH LOCAL TIME ZONE", ts(tenAM, 0), "k=2024-01-01 10%3A00%3A00.000000/"},
		{"BYTES", []byte("abc"), "k=abc/"},
		{"BOOLEAN", true, "k=true/"},
		{"DOUBLE", 1e7, "k=1.0E7/"},
		{"DECIMAL(4, 1)", DecimalValue{big.NewInt(-1234)}, "k=-123.4/"},
		{"STRING", "x", "k=x/"},
	}
	for _, c := range cases {
		got, err := PartitionPath(pf("k", c.typ), []any{c.val}, dflt, false)
		if err != nil || got != c.want {
			t.Errorf("%s %#v: got %q, %v; want %q", c.typ, c.val, got, err, c.want)
		}
	}
}

func TestPartitionPathMultipleAndErrors(t *testing.T) {
	fields := []DataField{col("dt", "STRING"), col("h/r", "INT"), col("x", "STRING")}
	got, err := PartitionPath(fields, []any{"2024-01-01", int32(3), ""}, "DEF", true)
	if want := "dt=2024-01-01/h%2Fr=3/x=DEF/"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if got, err := PartitionPath(nil, nil, dflt, true); err != nil || got != "" {
		t.Errorf("unpartitioned = %q, %v", got, err)
	}
	bad := []struct {
		fields []DataField
		vals   []any
		legacy bool
		want   string
	}{
		{fields, []any{"a"}, true, "3 fields but 1 values"},
		{pf("k", "INT"), []any{int64(1)}, true, `partition column "k"`},
		{pf("k", "BYTES"), []any{[]byte("a")}, true, "legacy-name"},
		{pf("k", "BYTES"), []any{[]byte{0xff}}, false, "UTF-8"},
		{pf("k", "ARRAY<INT>"), []any{[]any{int32(1)}}, true, "cannot be a partition column"},
		{pf("k", "TIMESTAMP(3)"), []any{TimestampValue{NanoOfMilli: 1_000_000}}, true, "nano-of-milli"},
		{pf("k", "DATE"), []any{int32(math.MaxInt32)}, false, "outside years"},
	}
	for _, c := range bad {
		if _, err := PartitionPath(c.fields, c.vals, dflt, c.legacy); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: err = %v, want %q", c.fields, c.vals, err, c.want)
		}
	}
}

func TestEscapePathName(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "a b": "a b", "100%": "100%25", "x=y": "x%3Dy", "日本": "日本", "\x00": "%00"} {
		if got := EscapePathName(in); got != want {
			t.Errorf("EscapePathName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJavaDoubleString(t *testing.T) {
	cases := map[float64]string{
		0: "0.0", 1: "1.0", -1: "-1.0", 100: "100.0", 0.1: "0.1", 0.001: "0.001", 0.0001: "1.0E-4",
		123.456: "123.456", 1234567: "1234567.0", 9999999: "9999999.0", 1e7: "1.0E7", 12345678: "1.2345678E7",
		1e10: "1.0E10", 1e23: "1.0E23", 1.0 / 3: "0.3333333333333333", 2.0 / 3: "0.6666666666666666",
		math.MaxFloat64: "1.7976931348623157E308", math.SmallestNonzeroFloat64: "4.9E-324",
		-2.5e-5: "-2.5E-5", 0.002: "0.002", 1e21: "1.0E21", 1.5e300: "1.5E300",
		math.Inf(1): "Infinity", math.Inf(-1): "-Infinity",
	}
	for in, want := range cases {
		if got := JavaDoubleString(in); got != want {
			t.Errorf("JavaDoubleString(%v) = %s, want %s", in, got, want)
		}
	}
	if got := JavaDoubleString(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("-0.0 = %s", got)
	}
	if got := JavaDoubleString(math.NaN()); got != "NaN" {
		t.Errorf("NaN = %s", got)
	}
}

func TestJavaFloatString(t *testing.T) {
	cases := map[float32]string{
		1e10: "1.0E10", 0.1: "0.1", 1.1: "1.1", 0.3: "0.3", 3.14159: "3.14159", 16777216: "1.6777216E7",
		math.MaxFloat32: "3.4028235E38", math.SmallestNonzeroFloat32: "1.4E-45", 100: "100.0", -0.5: "-0.5",
		1e-3: "0.001", 9.999e-4: "9.999E-4",
	}
	for in, want := range cases {
		if got := JavaFloatString(in); got != want {
			t.Errorf("JavaFloatString(%v) = %s, want %s", in, got, want)
		}
	}
}
