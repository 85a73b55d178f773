package parquet

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/paimon/spec"
)

type leafWant struct {
	path     string
	phys     parquet.Type
	logical  schema.LogicalType
	id       int32
	required bool
	length   int
}

func TestFooterPhysicalLayout(t *testing.T) {
	fields := allTypesFields()
	data, _ := writeRows(t, fields, allTypesRows(50), 50, WriterOptions{})
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	sc := r.File().MetaData().Schema
	if sc.Root().Name() != RootName {
		t.Fatalf("root %q", sc.Root().Name())
	}
	none := schema.NoLogicalType{}
	str := schema.StringLogicalType{}
	ms := func(utc bool) schema.LogicalType { return schema.NewTimestampLogicalType(utc, schema.TimeUnitMillis) }
	us := func(utc bool) schema.LogicalType { return schema.NewTimestampLogicalType(utc, schema.TimeUnitMicros) }
	want := []leafWant{
		{"bool", parquet.Types.Boolean, none, 0, false, 0},
		{"i8", parquet.Types.Int32, schema.NewIntLogicalType(8, true), 1, false, 0},
		{"i16", parquet.Types.Int32, schema.NewIntLogicalType(16, true), 2, false, 0},
		{"i32", parquet.Types.Int32, none, 3, false, 0},
		{"i64", parquet.Types.Int64, none, 4, false, 0},
		{"f32", parquet.Types.Float, none, 5, false, 0},
		{"f64", parquet.Types.Double, none, 6, false, 0},
		{"d9", parquet.Types.Int32, schema.NewDecimalLogicalType(9, 2), 7, false, 0},
		{"d18", parquet.Types.Int64, schema.NewDecimalLogicalType(18, 4), 8, false, 0},
		{"d38", parquet.Types.FixedLenByteArray, schema.NewDecimalLogicalType(38, 10), 9, false, 16},
		{"chr", parquet.Types.ByteArray, str, 10, false, 0},
		{"str", parquet.Types.ByteArray, str, 11, false, 0},
		{"bin", parquet.Types.ByteArray, none, 12, false, 0},
		{"bytes", parquet.Types.ByteArray, none, 13, false, 0},
		{"date", parquet.Types.Int32, schema.DateLogicalType{}, 14, false, 0},
		{"time", parquet.Types.Int32, schema.NewTimeLogicalType(true, schema.TimeUnitMillis), 15, false, 0},
		{"ts0", parquet.Types.Int64, ms(false), 16, false, 0},
		{"ts3", parquet.Types.Int64, ms(false), 17, false, 0},
		{"ts6", parquet.Types.Int64, us(false), 18, false, 0},
		{"ts9", parquet.Types.Int96, none, 19, false, 0},
		{"ltz3", parquet.Types.Int64, ms(true), 20, false, 0},
		{"ltz6", parquet.Types.Int64, us(true), 21, false, 0},
		{"ltz9", parquet.Types.Int96, none, 22, false, 0},
		{"nn_i64", parquet.Types.Int64, none, 23, true, 0},
		{"nn_str", parquet.Types.ByteArray, str, 24, true, 0},
		{"arr.list.element", parquet.Types.Int32, none, 536870911 + 25*1024 + 1, false, 0},
		{"map.key_value.key", parquet.Types.ByteArray, str, 536870911 - 26*1024 - 1, true, 0},
		{"map.key_value.value", parquet.Types.Int64, none, 536870911 + 26*1024 + 1, false, 0},
		{"row.a", parquet.Types.Int32, none, 100, false, 0},
		{"row.b", parquet.Types.ByteArray, str, 101, false, 0},
		{"nested.list.element.list.element", parquet.Types.ByteArray, str, 536870911 + 28*1024 + 2, false, 0},
		{"mset.key_value.key", parquet.Types.ByteArray, str, 536870911 - 29*1024 - 1, true, 0},
		{"mset.key_value.value", parquet.Types.Int32, none, 536870911 + 29*1024 + 1, true, 0},
	}
	if sc.NumColumns() != len(want) {
		t.Fatalf("%d leaf columns, want %d", sc.NumColumns(), len(want))
	}
	for i, w := range want {
		c := sc.Column(i)
		if c.Path() != w.path || c.PhysicalType() != w.phys || !c.LogicalType().Equals(w.logical) ||
			c.SchemaNode().FieldID() != w.id ||
			(c.SchemaNode().RepetitionType() == parquet.Repetitions.Required) != w.required {
			t.Errorf("column %d: got %s %s %s id=%d rep=%s, want %+v", i, c.Path(), c.PhysicalType(),
				c.LogicalType(), c.SchemaNode().FieldID(), c.SchemaNode().RepetitionType(), w)
		}
		if w.length != 0 && c.TypeLength() != w.length {
			t.Errorf("column %s: type length %d, want %d", w.path, c.TypeLength(), w.length)
		}
	}
	// group ids: the LIST/MAP/ROW groups carry the field id, the element of the outer list of
	// "nested" carries Java's element id.
	root := sc.Root()
	for i, f := range fields {
		if got := root.Field(i).FieldID(); got != int32(f.ID) {
			t.Errorf("top-level %s id %d, want %d", f.Name, got, f.ID)
		}
	}
	outerElem := root.Field(28).(*schema.GroupNode).Field(0).(*schema.GroupNode).Field(0)
	if outerElem.FieldID() != 536870911+28*1024+1 || !outerElem.LogicalType().Equals(schema.NewListLogicalType()) {
		t.Errorf("nested outer element: id %d logical %s", outerElem.FieldID(), outerElem.LogicalType())
	}
	assertJavaReadableEncodings(t, r.File())
}

// assertJavaReadableEncodings checks every page: data page v1, values PLAIN or dictionary, levels RLE.
func assertJavaReadableEncodings(t *testing.T, pf *file.Reader) {
	t.Helper()
	ok := map[parquet.Encoding]bool{parquet.Encodings.Plain: true, parquet.Encodings.PlainDict: true,
		parquet.Encodings.RLEDict: true, parquet.Encodings.RLE: true}
	pages := 0
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := pf.RowGroup(g)
		for c := 0; c < pf.MetaData().Schema.NumColumns(); c++ {
			md, err := rg.MetaData().ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range md.Encodings() {
				if !ok[e] {
					t.Errorf("column %d uses encoding %s", c, e)
				}
			}
			pr, err := rg.GetColumnPageReader(c)
			if err != nil {
				t.Fatal(err)
			}
			for pr.Next() {
				p := pr.Page()
				switch p.Type() {
				case file.PageTypeDataPage:
					pages++
					dp := p.(*file.DataPageV1)
					if e := parquet.Encoding(p.Encoding()); e != parquet.Encodings.Plain && e != parquet.Encodings.RLEDict && e != parquet.Encodings.PlainDict {
						t.Errorf("column %d data page value encoding %s", c, e)
					}
					if dp.DefinitionLevelEncoding() != parquet.Encodings.RLE || dp.RepetitionLevelEncoding() != parquet.Encodings.RLE {
						t.Errorf("column %d level encodings %s/%s", c, dp.DefinitionLevelEncoding(), dp.RepetitionLevelEncoding())
					}
				case file.PageTypeDictionaryPage:
				default:
					t.Errorf("column %d has page type %v", c, p.Type())
				}
			}
			if err := pr.Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if pages == 0 {
		t.Fatal("no data pages seen")
	}
}

// TestSchemaMatchesJavaFile builds the Parquet schema of a Java-written table (see its
// schema-0) and compares it node by node with the footer Java wrote.
func TestSchemaMatchesJavaFile(t *testing.T) {
	row := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
		{ID: 10, Name: "f0", Type: typ(spec.Boolean, true)},
		{ID: 11, Name: "f1", Type: typ(spec.BigInt, true)},
	}}
	strT := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}
	bytesT := spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxLength}
	fields := []spec.DataField{
		{ID: 0, Name: "f1", Type: typ(spec.Boolean, true)},
		{ID: 1, Name: "f2", Type: typ(spec.TinyInt, true)},
		{ID: 2, Name: "f3", Type: typ(spec.SmallInt, true)},
		{ID: 3, Name: "f4", Type: typ(spec.Int, true)},
		{ID: 4, Name: "f5", Type: typ(spec.BigInt, true)},
		{ID: 5, Name: "f6", Type: typ(spec.Float, true)},
		{ID: 6, Name: "f7", Type: typ(spec.Double, true)},
		{ID: 7, Name: "f8", Type: strT},
		{ID: 8, Name: "f9", Type: bytesT},
		{ID: 9, Name: "f10", Type: spec.DataType{Root: spec.Map, Nullable: true,
			Elem:  ptr(spec.DataType{Root: spec.Array, Nullable: true, Elem: ptr(typ(spec.Float, true))}),
			Value: ptr(row)}},
		{ID: 12, Name: "f11", Type: ts(spec.Timestamp, 9)},
		{ID: 13, Name: "f12", Type: typ(spec.Date, true)},
		{ID: 14, Name: "f13", Type: dec(2, 2)},
	}
	ours, err := ParquetSchema(fields)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "..", "testdata", "java-written", "parquet_append_table.db",
		"parquet_append_table", "bucket-0", "data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-0.parquet")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	compareNodes(t, r.File().MetaData().Schema.Root(), ours.Root())
}

func compareNodes(t *testing.T, java, ours schema.Node) {
	t.Helper()
	where := java.Path()
	if java.Name() != ours.Name() || java.RepetitionType() != ours.RepetitionType() || java.FieldID() != ours.FieldID() ||
		java.Type() != ours.Type() {
		t.Errorf("%s: java %s/%s id %d, ours %s/%s id %d", where, java.Name(), java.RepetitionType(), java.FieldID(),
			ours.Name(), ours.RepetitionType(), ours.FieldID())
		return
	}
	// Java marks key_value with the legacy MAP_KEY_VALUE converted type, which carries no meaning.
	if java.Name() != "key_value" && !java.LogicalType().Equals(ours.LogicalType()) {
		t.Errorf("%s: java logical %s, ours %s", where, java.LogicalType(), ours.LogicalType())
	}
	switch j := java.(type) {
	case *schema.PrimitiveNode:
		o := ours.(*schema.PrimitiveNode)
		if j.PhysicalType() != o.PhysicalType() || j.TypeLength() != o.TypeLength() && j.PhysicalType() == parquet.Types.FixedLenByteArray {
			t.Errorf("%s: java %s(%d), ours %s(%d)", where, j.PhysicalType(), j.TypeLength(), o.PhysicalType(), o.TypeLength())
		}
	case *schema.GroupNode:
		o := ours.(*schema.GroupNode)
		if j.NumFields() != o.NumFields() {
			t.Errorf("%s: java %d children, ours %d", where, j.NumFields(), o.NumFields())
			return
		}
		for i := 0; i < j.NumFields(); i++ {
			compareNodes(t, j.Field(i), o.Field(i))
		}
	}
}

func TestDecimalBytesMatchesJava(t *testing.T) {
	// Java computeMinBytesForDecimalPrecision values (2^(8n-1) >= 10^p).
	want := map[int]int{1: 1, 2: 1, 3: 2, 9: 4, 10: 5, 18: 8, 19: 9, 20: 9, 28: 12, 37: 16, 38: 16}
	for p, n := range want {
		if got := decimalBytes(p); got != n {
			t.Errorf("decimalBytes(%d) = %d, want %d", p, got, n)
		}
	}
}
