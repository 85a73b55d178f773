package file

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/source"
)

// writeParquet writes rows given as a JSON array of objects with the given Arrow schema.
func writeParquet(t *testing.T, dir, name string, schema *arrow.Schema, jsonRows string, rowGroupRows int64) string {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(jsonRows))
	if err != nil {
		t.Fatalf("fixture JSON: %v", err)
	}
	defer rec.Release()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rowGroupRows))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParquetPrimitives(t *testing.T) {
	tbl := table(t, primitiveCols...)
	schema, err := source.ArrowSchema(tbl.Fields)
	if err != nil {
		t.Fatal(err)
	}
	ts := func(sec, frac int64, mul int64) int64 { return sec*mul + frac }
	rows := fmt.Sprintf(`[
	{"b":true,"i8":-128,"i16":-32768,"i32":-2147483648,"i64":-9223372036854775808,"f32":1.5,"f64":-2.25,"dec":"-12345678.90",
	 "s":"héllo, \"world\"","ch":"abc","bin":"AQID/w==","d":%d,"tm":86399123,"ts":%d,"ts6":%d,"ts9":-1,"ltz":%d},
	{},
	{"b":false,"i8":127,"i16":32767,"i32":2147483647,"i64":9223372036854775807,"f32":3.4e38,"f64":"-Inf","dec":"0.05",
	 "s":"","ch":"xyz","bin":"","d":-1,"tm":0,"ts":0,"ts6":0,"ts9":0,"ltz":%d}]`,
		day20240229, ts(sec20240229, 789, 1000), ts(sec20240229, 123456, 1e6), ts(sec20240229-7200, 789, 1000), sec20240229*1000)
	p := writeParquet(t, t.TempDir(), "p.parquet", schema, rows, 2)
	sp := split(t, p)
	if sp.Format != "parquet" || sp.RowCount != 3 {
		t.Fatalf("split %+v: want parquet with RowCount 3", sp)
	}
	checkPrimitives(t, readOne(t, p, tbl, source.MappingOptions{}))
}

// TestParquetWidening feeds narrower input types into wider table columns.
func TestParquetWidening(t *testing.T) {
	in := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "dec", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "dec2", Type: &arrow.Decimal128Type{Precision: 5, Scale: 1}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "ltz", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "America/New_York"}, Nullable: true},
		{Name: "ls", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	}, nil)
	p := writeParquet(t, t.TempDir(), "w.parquet", in,
		`[{"a":-5,"b":300,"c":-70000,"u":4000000000,"f":0.5,"dec":-123,"dec2":"1234.5","ts":1500,"ltz":2000001,"ls":"x"},{}]`, 100)
	tbl := table(t, "a SMALLINT", "b BIGINT", "c BIGINT", "u BIGINT", "f DOUBLE", "dec DECIMAL(12, 2)", "dec2 DECIMAL(8, 3)",
		"ts TIMESTAMP(6)", "ltz TIMESTAMP(9) WITH LOCAL TIME ZONE", "ls STRING")
	b := readOne(t, p, tbl, source.MappingOptions{})
	got := map[string]string{}
	for i, f := range b.Record.Schema().Fields() {
		got[f.Name] = b.Record.Column(i).ValueStr(0)
		if d, ok := b.Record.Column(i).(*array.Decimal128); ok {
			got[f.Name] = d.Value(0).ToString(f.Type.(*arrow.Decimal128Type).Scale)
		}
		if !b.Record.Column(i).IsNull(1) {
			t.Errorf("%s row 1 not null", f.Name)
		}
	}
	want := map[string]string{"a": "-5", "b": "300", "c": "-70000", "u": "4000000000", "f": "0.5", "dec": "-123.00",
		"dec2": "1234.500", "ts": "1970-01-01T00:00:01.5", "ltz": "1970-01-01T00:00:02.000001Z", "ls": "x"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if ts := col(t, b, "ts").(*array.Timestamp).Value(0); ts != 1500000 {
		t.Errorf("ts raw = %d, want 1500000 µs", ts)
	}
	if ltz := col(t, b, "ltz").(*array.Timestamp).Value(0); ltz != 2000001000 {
		t.Errorf("ltz raw = %d, want 2000001000 ns", ltz)
	}
}

func TestParquetUnsafeCasts(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		in    arrow.DataType
		table string
		frag  string
	}{
		{arrow.PrimitiveTypes.Int64, "x INT", "cannot be stored losslessly as INT"},
		{arrow.PrimitiveTypes.Uint64, "x BIGINT", "cannot be stored losslessly"},
		{arrow.PrimitiveTypes.Float64, "x FLOAT", "cannot be stored losslessly"},
		{arrow.PrimitiveTypes.Int32, "x STRING", "cannot be stored losslessly"},
		{&arrow.TimestampType{Unit: arrow.Microsecond}, "x TIMESTAMP(3)", "more precise"},
		{&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, "x TIMESTAMP(3)", "TIMESTAMP_LTZ"},
		{&arrow.Decimal128Type{Precision: 10, Scale: 4}, "x DECIMAL(10, 2)", "rounding is never implicit"},
		{arrow.FixedWidthTypes.Date32, "x TIMESTAMP(3)", "cannot be stored losslessly"},
	}
	for i, c := range cases {
		name := fmt.Sprintf("u%d.parquet", i)
		p := writeParquet(t, dir, name, arrow.NewSchema([]arrow.Field{{Name: "x", Type: c.in, Nullable: true}}, nil), `[{}]`, 10)
		_, err := readAll(t, split(t, p), table(t, c.table), source.MappingOptions{})
		wantErr(t, err, name, `column "x"`, c.frag)
	}
}

func TestParquetValueErrors(t *testing.T) {
	dir := t.TempDir()
	in := arrow.NewSchema([]arrow.Field{{Name: "amount", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	p := writeParquet(t, dir, "v.parquet", in, `[{"amount":1,"id":1},{"amount":1,"id":2},{"amount":100000000000,"id":3}]`, 2)
	_, err := readAll(t, split(t, p), table(t, "amount DECIMAL(12, 2)", "id BIGINT NOT NULL"), source.MappingOptions{})
	wantErr(t, err, "v.parquet", "row 3", `column "amount"`, `"100000000000"`, "at most 10 integer digits")

	p = writeParquet(t, dir, "n.parquet", in, `[{"amount":1,"id":1},{"amount":2}]`, 10)
	_, err = readAll(t, split(t, p), table(t, "amount BIGINT", "id BIGINT NOT NULL"), source.MappingOptions{})
	wantErr(t, err, "n.parquet", "row 2", `column "id"`, "NOT NULL")
}

func TestParquetNested(t *testing.T) {
	in := arrow.NewSchema([]arrow.Field{
		{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "addr", Type: arrow.StructOf(arrow.Field{Name: "City", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "zip", Type: arrow.PrimitiveTypes.Int16, Nullable: true}), Nullable: true},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	p := writeParquet(t, t.TempDir(), "n.parquet", in, `[
		{"tags":[1,null,3],"addr":{"City":"Oslo","zip":150},"attrs":[{"key":"a","value":1},{"key":"b","value":null}]},
		{"tags":null,"addr":null,"attrs":null},
		{"tags":[],"addr":{"City":null,"zip":null},"attrs":[]}]`, 100)
	tbl := table(t, "tags ARRAY<BIGINT>", "addr ROW<city STRING, zip INT, extra DOUBLE>", "attrs MAP<STRING, BIGINT>")
	b := readOne(t, p, tbl, source.MappingOptions{})
	want, _ := source.ArrowSchema(tbl.Fields)
	if !b.Record.Schema().Equal(want) {
		t.Fatalf("schema %s\nwant %s", b.Record.Schema(), want)
	}
	tags := col(t, b, "tags").(*array.List)
	vals := tags.ListValues().(*array.Int64)
	if s, e := tags.ValueOffsets(0); e-s != 3 || vals.Value(int(s)) != 1 || !vals.IsNull(int(s)+1) || vals.Value(int(s)+2) != 3 {
		t.Errorf("tags[0] = %s", tags)
	}
	if !tags.IsNull(1) || tags.IsNull(2) {
		t.Errorf("tags nulls wrong: %s", tags)
	}
	addr := col(t, b, "addr").(*array.Struct)
	if addr.Field(0).(*array.String).Value(0) != "Oslo" || addr.Field(1).(*array.Int32).Value(0) != 150 || !addr.Field(2).IsNull(0) || !addr.IsNull(1) {
		t.Errorf("addr = %s", addr)
	}
	attrs := col(t, b, "attrs").(*array.Map)
	keys, items := attrs.Keys().(*array.String), attrs.Items().(*array.Int64)
	if s, e := attrs.ValueOffsets(0); e-s != 2 || keys.Value(int(s)) != "a" || items.Value(int(s)) != 1 || !items.IsNull(int(s)+1) {
		t.Errorf("attrs = %s", attrs)
	}

	// A NOT NULL field nested in a ROW is enforced per row, and only where the row itself is not null.
	_, err := readAll(t, split(t, p), table(t, "tags ARRAY<BIGINT NOT NULL>", "addr ROW<city STRING, zip INT>", "attrs MAP<STRING, BIGINT>"), source.MappingOptions{})
	wantErr(t, err, "n.parquet", "row 1", `column "tags"`, "NOT NULL")
	_, err = readAll(t, split(t, p), table(t, "tags ARRAY<BIGINT>", "addr ROW<city STRING NOT NULL, zip INT>", "attrs MAP<STRING, BIGINT>"), source.MappingOptions{})
	wantErr(t, err, "row 3", `column "addr"`)
	_, err = readAll(t, split(t, p), table(t, "tags ARRAY<BIGINT>", "addr ROW<zip INT>", "attrs MAP<STRING, BIGINT>"), source.MappingOptions{})
	wantErr(t, err, `"City" matches no field`)
}

// arrowOpFixture writes the op-column rows of TestOpColumn as Parquet.
func arrowOpFixture(t *testing.T, dir string) string {
	in := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "op", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	return writeParquet(t, dir, "o.parquet", in, `[{"id":1,"op":"+I","v":"a"},{"id":1,"op":"-U","v":"a"},{"id":1,"op":"+U","v":"b"},
		{"id":1,"op":"-D","v":"b"},{"id":2,"op":"INSERT","v":"c"},{"id":2,"op":"update_before","v":"c"},{"id":2,"op":"Update","v":"d"},
		{"id":2,"op":"update_after","v":"d"},{"id":2,"op":"delete","v":"d"}]`, 100)
}

// TestParquetNaiveToLTZ reads zone-less timestamps into TIMESTAMP_LTZ as local time of opts.TimeZone.
func TestParquetNaiveToLTZ(t *testing.T) {
	tokyo := time.FixedZone("UTC+9", 9*3600)
	in := arrow.NewSchema([]arrow.Field{{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true}}, nil)
	p := writeParquet(t, t.TempDir(), "z.parquet", in, `[{"t":32400123}]`, 10) // 1970-01-01 09:00:00.123 wall clock
	b := readOne(t, p, table(t, "t TIMESTAMP(6) WITH LOCAL TIME ZONE"), source.MappingOptions{TimeZone: tokyo})
	if got := col(t, b, "t").(*array.Timestamp).Value(0); got != 123000 {
		t.Errorf("t = %d µs, want 123000 (09:00 in UTC+9 is 00:00 UTC)", got)
	}
}
