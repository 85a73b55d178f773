package parquet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/spec"
)

// paimonTypeOf infers the Paimon type of a column decoded from a Java-written file.
func paimonTypeOf(t *testing.T, f arrow.Field) spec.DataType {
	t.Helper()
	out := spec.DataType{Nullable: f.Nullable}
	switch dt := f.Type.(type) {
	case *arrow.BooleanType:
		out.Root = spec.Boolean
	case *arrow.Int8Type:
		out.Root = spec.TinyInt
	case *arrow.Int16Type:
		out.Root = spec.SmallInt
	case *arrow.Int32Type:
		out.Root = spec.Int
	case *arrow.Int64Type:
		out.Root = spec.BigInt
	case *arrow.Float32Type:
		out.Root = spec.Float
	case *arrow.Float64Type:
		out.Root = spec.Double
	case *arrow.Decimal128Type:
		out.Root, out.Precision, out.Scale = spec.Decimal, int(dt.Precision), int(dt.Scale)
	case *arrow.StringType:
		out.Root, out.Length = spec.VarChar, spec.MaxLength
	case *arrow.BinaryType:
		out.Root, out.Length = spec.VarBinary, spec.MaxLength
	case *arrow.Date32Type:
		out.Root = spec.Date
	case *arrow.Time32Type:
		out.Root = spec.Time
	case *arrow.TimestampType:
		out.Root = spec.Timestamp
		if dt.TimeZone != "" {
			out.Root = spec.TimestampLTZ
		}
		out.Precision = map[arrow.TimeUnit]int{arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}[dt.Unit]
	case *arrow.MapType:
		out.Root = spec.Map
		k, v := paimonTypeOf(t, dt.KeyField()), paimonTypeOf(t, dt.ItemField())
		out.Elem, out.Value = &k, &v
	case *arrow.ListType:
		out.Root = spec.Array
		e := paimonTypeOf(t, dt.ElemField())
		out.Elem = &e
	case *arrow.StructType:
		out.Root = spec.Row
		for _, c := range dt.Fields() {
			out.Fields = append(out.Fields, spec.DataField{Name: c.Name, Type: paimonTypeOf(t, c)})
		}
	default:
		t.Fatalf("column %s: unexpected arrow type %s", f.Name, f.Type)
	}
	return out
}

// TestReadJavaWrittenFiles opens every Java-written data file, decodes every value of every
// column to a Datum and checks the row count against the footer.
func TestReadJavaWrittenFiles(t *testing.T) {
	root := filepath.Join("..", "..", "..", "testdata", "java-written")
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d Java-written parquet files", len(files))
	}
	appendRows := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := OpenReader(bytesReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var fields []spec.DataField
		for _, f := range r.Schema().Fields() {
			fields = append(fields, spec.DataField{Name: f.Name, Type: paimonTypeOf(t, f)})
		}
		rows := readRows(t, data, fields, nil, 3) // checks count == footer
		if len(rows) == 0 {
			t.Errorf("%s: no rows", p)
		}
		if strings.Contains(p, "parquet_append_table") {
			appendRows += len(rows)
			checkAppendTableRows(t, fields, rows)
		}
	}
	if appendRows != 9 {
		t.Fatalf("parquet_append_table: %d rows, README lists 9", appendRows)
	}
}

// checkAppendTableRows checks values against the table's README: row k (1..9) has f2=30+k,
// f4=300000+k, f5=3000000000+k, f8="s3k", f9="a3k", f11=71000+1000(k-1) ns, f12=80+k, f13=0.9k.
func checkAppendTableRows(t *testing.T, fields []spec.DataField, rows [][]any) {
	t.Helper()
	col := map[string]int{}
	for i, f := range fields {
		col[f.Name] = i
	}
	for _, r := range rows {
		k := r[col["f4"]].(int32) - 300000
		if k < 1 || k > 9 {
			t.Fatalf("unexpected f4 %v", r[col["f4"]])
		}
		want := map[string]any{
			"f2":  int8(30 + k),
			"f5":  int64(3000000000 + int64(k)),
			"f8":  "s3" + string(rune('0'+k)),
			"f9":  []byte("a3" + string(rune('0'+k))),
			"f11": spec.TimestampValue{NanoOfMilli: 70000 + 1000*k},
			"f12": int32(80 + k),
			"f13": decv(string(rune('0'+9)) + string(rune('0'+k))),
		}
		for name, w := range want {
			if !datumEqual(r[col[name]], w) {
				t.Errorf("row k=%d %s: got %#v, want %#v", k, name, r[col[name]], w)
			}
		}
		if k == 1 && r[col["f3"]] != nil {
			t.Errorf("row 1 f3 should be null, got %v", r[col["f3"]])
		}
	}
}
