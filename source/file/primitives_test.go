package file

import (
	"bytes"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/source"
)

var primitiveCols = []string{
	"b BOOLEAN", "i8 TINYINT", "i16 SMALLINT", "i32 INT", "i64 BIGINT", "f32 FLOAT", "f64 DOUBLE",
	"dec DECIMAL(10, 2)", "s STRING", "ch CHAR(3)", "bin BYTES", "d DATE", "tm TIME(3)", "ts TIMESTAMP(3)",
	"ts6 TIMESTAMP(6)", "ts9 TIMESTAMP(9)", "ltz TIMESTAMP(3) WITH LOCAL TIME ZONE",
}

// Known epoch values: 2024-02-29 is day 19782; 2024-02-29 12:34:56 UTC is second 1709210096.
const (
	day20240229 = 19782
	sec20240229 = 1709210096
)

// checkPrimitives asserts the three rows every primitive-type fixture holds: row 0 typical values,
// row 1 all nulls, row 2 extremes and empty strings.
func checkPrimitives(t *testing.T, b *source.Batch) {
	t.Helper()
	if n := b.Record.NumRows(); n != 3 {
		t.Fatalf("rows = %d, want 3", n)
	}
	for i, f := range b.Record.Schema().Fields() {
		if !b.Record.Column(i).IsNull(1) {
			t.Errorf("row 1 column %s: want null", f.Name)
		}
	}
	eq := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	eq("b0", col(t, b, "b").(*array.Boolean).Value(0), true)
	eq("b2", col(t, b, "b").(*array.Boolean).Value(2), false)
	eq("i8", col(t, b, "i8").(*array.Int8).Value(0), int8(-128))
	eq("i8max", col(t, b, "i8").(*array.Int8).Value(2), int8(127))
	eq("i16", col(t, b, "i16").(*array.Int16).Value(0), int16(-32768))
	eq("i32", col(t, b, "i32").(*array.Int32).Value(0), int32(math.MinInt32))
	eq("i64", col(t, b, "i64").(*array.Int64).Value(0), int64(math.MinInt64))
	eq("i64max", col(t, b, "i64").(*array.Int64).Value(2), int64(math.MaxInt64))
	eq("f32", col(t, b, "f32").(*array.Float32).Value(0), float32(1.5))
	eq("f64", col(t, b, "f64").(*array.Float64).Value(0), -2.25)
	eq("f64inf", col(t, b, "f64").(*array.Float64).Value(2), math.Inf(-1))
	dec := col(t, b, "dec").(*array.Decimal128)
	eq("dec", dec.Value(0).ToString(2), "-12345678.90")
	eq("dec2", dec.Value(2).ToString(2), "0.05")
	eq("s", col(t, b, "s").(*array.String).Value(0), "héllo, \"world\"")
	eq("s2", col(t, b, "s").(*array.String).Value(2), "")
	eq("ch", col(t, b, "ch").(*array.String).Value(0), "abc")
	bin := col(t, b, "bin").(*array.Binary)
	if !bytes.Equal(bin.Value(0), []byte{1, 2, 3, 255}) || len(bin.Value(2)) != 0 || bin.IsNull(2) {
		t.Errorf("bin = %v / %v", bin.Value(0), bin.Value(2))
	}
	eq("d", col(t, b, "d").(*array.Date32).Value(0), arrow.Date32(day20240229))
	eq("d2", col(t, b, "d").(*array.Date32).Value(2), arrow.Date32(-1))
	eq("tm", col(t, b, "tm").(*array.Time32).Value(0), arrow.Time32(86399123))
	eq("ts", col(t, b, "ts").(*array.Timestamp).Value(0), arrow.Timestamp(sec20240229*1000+789))
	eq("ts6", col(t, b, "ts6").(*array.Timestamp).Value(0), arrow.Timestamp(sec20240229*1000000+123456))
	eq("ts9", col(t, b, "ts9").(*array.Timestamp).Value(0), arrow.Timestamp(-1))
	eq("ltz", col(t, b, "ltz").(*array.Timestamp).Value(0), arrow.Timestamp((sec20240229-7200)*1000+789))
	eq("ltz2", col(t, b, "ltz").(*array.Timestamp).Value(2), arrow.Timestamp(sec20240229*1000))
	want, err := source.ArrowSchema(table(t, primitiveCols...).Fields)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Record.Schema().Equal(want) {
		t.Errorf("schema\n%s\nwant\n%s", b.Record.Schema(), want)
	}
}

func TestCSVPrimitives(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "p.csv", "b,i8,i16,i32,i64,f32,f64,dec,s,ch,bin,d,tm,ts,ts6,ts9,ltz\r\n"+
		`true,-128,-32768,-2147483648,-9223372036854775808,1.5,-2.25,-12345678.90,"héllo, ""world""",abc,AQID/w==,2024-02-29,23:59:59.123,2024-02-29 12:34:56.789,2024-02-29T12:34:56.123456,1969-12-31 23:59:59.999999999,2024-02-29T12:34:56.789+02:00`+"\r\n"+
		`,\N,,,,,,,,,,,,,,,`+"\n"+
		`FALSE,127,32767,2147483647,9223372036854775807,3.4e38,-Infinity,.05,"",xyz,"",1969-12-31,00:00:00,1970-01-01 00:00:00,1970-01-01 00:00:00,1970-01-01 00:00:00,2024-02-29 12:34:56Z`+"\n")
	checkPrimitives(t, readOne(t, p, table(t, primitiveCols...), source.MappingOptions{}))
}

func TestJSONLPrimitives(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "p.jsonl",
		`{"b":true,"i8":-128,"i16":-32768,"i32":-2147483648,"i64":-9223372036854775808,"f32":1.5,"f64":-2.25,"dec":-12345678.90,"s":"héllo, \"world\"","ch":"abc","bin":"AQID/w==","d":"2024-02-29","tm":"23:59:59.123","ts":"2024-02-29 12:34:56.789","ts6":"2024-02-29T12:34:56.123456","ts9":"1969-12-31 23:59:59.999999999","ltz":"2024-02-29T12:34:56.789+02:00"}`+"\n"+
			`{"b":null,"i8":null,"i16":null,"f32":null,"dec":null,"s":null,"bin":null,"d":null,"tm":null,"ts":null,"ltz":null}`+"\n"+
			`{"b":"0","i8":"127","i16":32767,"i32":2147483647,"i64":"9223372036854775807","f32":"3.4e38","f64":"-Infinity","dec":"0.05","s":"","ch":"xyz","bin":"","d":"1969-12-31","tm":"00:00:00","ts":"1970-01-01 00:00:00","ts6":"1970-01-01 00:00:00","ts9":"1970-01-01 00:00:00","ltz":"2024-02-29 12:34:56Z"}`)
	checkPrimitives(t, readOne(t, p, table(t, primitiveCols...), source.MappingOptions{}))
}
