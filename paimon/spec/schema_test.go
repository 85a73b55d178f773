package spec

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func col(name, typ string) DataField {
	t, err := ParseType(typ)
	if err != nil {
		panic(err)
	}
	return DataField{ID: 99, Name: name, Type: t}
}

func fieldIDs(fields []DataField) map[string]int {
	out := map[string]int{}
	var walk func(prefix string, t DataType)
	walk = func(prefix string, t DataType) {
		if t.Elem != nil {
			walk(prefix, *t.Elem)
		}
		if t.Value != nil {
			walk(prefix, *t.Value)
		}
		for _, f := range t.Fields {
			out[prefix+f.Name] = f.ID
			walk(prefix+f.Name+".", f.Type)
		}
	}
	walk("", DataType{Root: Row, Fields: fields})
	return out
}

func TestNewSchemaFieldIDsJavaExample(t *testing.T) {
	// paimon-format.md §2: a INT, b ROW<x INT, y INT>, c INT → a=0, b=1, x=2, y=3, c=4, highest 4.
	s, err := NewSchema([]DataField{col("a", "INT"), col("b", "ROW<x INT, y INT>"), col("c", "INT")}, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a": 0, "b": 1, "b.x": 2, "b.y": 3, "c": 4}
	if got := fieldIDs(s.Fields); !reflect.DeepEqual(got, want) {
		t.Errorf("ids = %v, want %v", got, want)
	}
	if s.HighestFieldID != 4 || s.Version != 3 || s.ID != 0 || s.TimeMillis == 0 {
		t.Errorf("schema header = %+v", s)
	}
}

func TestNewSchemaFieldIDsDeepNesting(t *testing.T) {
	// Java's ReassignFieldId numbers a nested field's own ROW children before the field itself.
	s, err := NewSchema([]DataField{
		col("b", "ROW<x ROW<p INT, q INT>, y INT>"),
		col("m", "MAP<STRING, ARRAY<ROW<k INT>>>"),
	}, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"b": 0, "b.x.p": 1, "b.x.q": 2, "b.x": 3, "b.y": 4, "m": 5, "m.k": 6}
	if got := fieldIDs(s.Fields); !reflect.DeepEqual(got, want) {
		t.Errorf("ids = %v, want %v", got, want)
	}
	if s.HighestFieldID != 6 {
		t.Errorf("highestFieldId = %d", s.HighestFieldID)
	}
}

func TestNewSchemaPrimaryKeyNotNullAndJSON(t *testing.T) {
	s, err := NewSchema([]DataField{col("k", "INT"), col("v", "STRING"), col("dt", "STRING")},
		[]string{"dt"}, []string{"dt", "k"}, map[string]string{"bucket": "4"}, ptr("a table"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Fields[0].Type.Nullable || !s.Fields[1].Type.Nullable || s.Fields[2].Type.Nullable {
		t.Errorf("PK columns must be NOT NULL, others unchanged: %v", s.Fields)
	}
	if got := s.TrimmedPrimaryKeys(); !reflect.DeepEqual(got, []string{"k"}) {
		t.Errorf("TrimmedPrimaryKeys = %v", got)
	}
	out, err := s.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"type" : "INT NOT NULL"`) || !strings.Contains(string(out), `"comment" : "a table"`) {
		t.Errorf("JSON:\n%s", out)
	}
	back, err := ParseSchema(out)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestNewSchemaKeysFromOptions(t *testing.T) {
	s, err := NewSchema([]DataField{col("k", "INT"), col("p", "INT")}, nil, nil,
		map[string]string{"primary-key": "k, p", "partition": "p", "bucket": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.PrimaryKeys, []string{"k", "p"}) || !reflect.DeepEqual(s.PartitionKeys, []string{"p"}) {
		t.Errorf("keys = %v / %v", s.PrimaryKeys, s.PartitionKeys)
	}
	if _, ok := s.Options["primary-key"]; ok {
		t.Error("primary-key option must be removed")
	}
}

func TestNewSchemaValidation(t *testing.T) {
	f := []DataField{col("k", "INT"), col("v", "STRING"), col("p", "STRING")}
	cases := []struct {
		name      string
		fields    []DataField
		part, pk  []string
		opts      map[string]string
		wantInErr string
	}{
		{"duplicate column", []DataField{col("a", "INT"), col("a", "INT")}, nil, nil, nil, "duplicate column names [a]"},
		{"duplicate nested", []DataField{col("r", "ARRAY<ROW<x INT, x INT>>")}, nil, nil, nil, `column "r": duplicate nested field names [x]`},
		{"unknown PK", f, nil, []string{"nope"}, nil, `primary key column "nope"`},
		{"unknown partition", f, []string{"zz"}, nil, nil, `partition key column "zz"`},
		{"duplicate PK", f, nil, []string{"k", "k"}, nil, "duplicate columns [k]"},
		{"PK only partition", f, []string{"p"}, []string{"p"}, map[string]string{"bucket": "1"}, "only of partition keys"},
		{"bucket-key with -1", f, nil, []string{"k"}, map[string]string{"bucket-key": "k"}, `"bucket-key" cannot be set with bucket = -1`},
		{"bucket-key outside PK", f, nil, []string{"k"}, map[string]string{"bucket": "2", "bucket-key": "v"}, `column "v" is not in the primary key`},
		{"bucket-key is partition", f, []string{"p"}, []string{"k", "p"}, map[string]string{"bucket": "2", "bucket-key": "p"}, `column "p" is a partition key`},
		{"bucket-key unknown", f, nil, nil, map[string]string{"bucket": "2", "bucket-key": "k, v"}, `column " v" is not a table column`},
		{"append needs bucket-key", f, nil, nil, map[string]string{"bucket": "3"}, `"bucket-key" must be set for a bucketed append table`},
		{"bad bucket number", f, nil, []string{"k"}, map[string]string{"bucket": "0"}, `option "bucket": 0 is invalid`},
		{"bucket not int", f, nil, []string{"k"}, map[string]string{"bucket": "four"}, `option "bucket": "four" is not an int`},
		{"cross partition fixed bucket", f, []string{"p"}, []string{"k"}, map[string]string{"bucket": "2"}, `include partition column "p"`},
		{"sequence field unknown", f, nil, []string{"k"}, map[string]string{"bucket": "1", "sequence.field": "v,ts"}, `"sequence.field": column "ts"`},
		{"bad memory size", f, nil, []string{"k"}, map[string]string{"bucket": "1", "target-file-size": "12 parsecs"}, `option "target-file-size"`},
		{"pk twice", f, nil, []string{"k"}, map[string]string{"primary-key": "k"}, `option "primary-key" conflicts`},
	}
	for _, c := range cases {
		_, err := NewSchema(c.fields, c.part, c.pk, c.opts, nil)
		if err == nil || !strings.Contains(err.Error(), c.wantInErr) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.wantInErr)
		}
	}
	// Valid combinations.
	ok := []struct {
		part, pk []string
		opts     map[string]string
	}{
		{nil, []string{"k"}, nil}, // dynamic-bucket PK table
		{nil, nil, nil},           // unaware append table
		{nil, nil, map[string]string{"bucket": "2", "bucket-key": "k"}}, // bucketed append
		{[]string{"p"}, []string{"p", "k"}, map[string]string{"bucket": "2", "bucket-key": "k"}},
		{[]string{"p"}, []string{"k"}, nil},                     // cross-partition, dynamic bucket
		{nil, []string{"k"}, map[string]string{"bucket": "-2"}}, // postpone bucket
	}
	for i, c := range ok {
		if _, err := NewSchema(f, c.part, c.pk, c.opts, nil); err != nil {
			t.Errorf("valid case %d: %v", i, err)
		}
	}
}

func TestParseSchemaVersionDefaults(t *testing.T) {
	base := `"id":0,"fields":[{"id":0,"name":"a","type":"INT"}],"highestFieldId":0,"partitionKeys":[],"primaryKeys":[]`
	cases := []struct {
		json        string
		wantVersion int
		wantOpts    map[string]string
	}{
		{`{` + base + `,"options":{}}`, 1, map[string]string{"bucket": "1", "file.format": "orc"}},
		{`{"version":1,` + base + `,"options":{"bucket":"5"}}`, 1, map[string]string{"bucket": "5", "file.format": "orc"}},
		{`{"version":2,` + base + `,"options":{}}`, 2, map[string]string{"file.format": "orc"}},
		{`{"version":2,` + base + `,"options":{"file.format":"parquet"}}`, 2, map[string]string{"file.format": "parquet"}},
		{`{"version":3,` + base + `,"options":{}}`, 3, map[string]string{}},
	}
	for _, c := range cases {
		s, err := ParseSchema([]byte(c.json))
		if err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		if s.Version != c.wantVersion || !reflect.DeepEqual(s.Options, c.wantOpts) || s.TimeMillis != 0 {
			t.Errorf("%s: version %d options %v time %d", c.json, s.Version, s.Options, s.TimeMillis)
		}
	}
}

func TestParseSchemaCorrupt(t *testing.T) {
	good := `{"version":3,"id":0,"fields":[{"id":0,"name":"a","type":"INT"}],"highestFieldId":0,"partitionKeys":[],"primaryKeys":[],"options":{},"timeMillis":1}`
	if _, err := ParseSchema([]byte(good)); err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{
		"not json":      `{`,
		"null":          `null`,
		"no id":         strings.Replace(good, `"id":0,"fields"`, `"fields"`, 1),
		"no fields":     strings.Replace(good, `"fields":[{"id":0,"name":"a","type":"INT"}],`, ``, 1),
		"bad type":      strings.Replace(good, `"INT"`, `"INTT"`, 1),
		"fields object": strings.Replace(good, `[{"id":0,"name":"a","type":"INT"}]`, `{}`, 1),
		"no options":    strings.Replace(good, `"options":{},`, ``, 1),
		"option number": strings.Replace(good, `"options":{}`, `"options":{"bucket":1}`, 1),
		"id string":     strings.Replace(good, `"id":0,"fields"`, `"id":"0","fields"`, 1),
		"pk not array":  strings.Replace(good, `"primaryKeys":[]`, `"primaryKeys":"a"`, 1),
		"comment num":   strings.Replace(good, `"timeMillis"`, `"comment":3,"timeMillis"`, 1),
	}
	for name, b := range bad {
		if _, err := ParseSchema([]byte(b)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestSchemaFieldLookup(t *testing.T) {
	s, err := NewSchema([]DataField{col("a", "INT"), col("b", "STRING")}, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f, i, ok := s.Field("b"); !ok || i != 1 || f.ID != 1 {
		t.Errorf("Field(b) = %v %d %v", f, i, ok)
	}
	if _, _, ok := s.Field("zz"); ok {
		t.Error("Field(zz) found")
	}
	fs, err := s.FieldsByName([]string{"b", "a"})
	if err != nil || fs[0].Name != "b" || fs[1].Name != "a" {
		t.Errorf("FieldsByName = %v, %v", fs, err)
	}
	if _, err := s.FieldsByName([]string{"a", "zz"}); err == nil || !strings.Contains(err.Error(), `"zz"`) {
		t.Errorf("FieldsByName unknown: %v", err)
	}
	if s.CoreOptions().FileFormat() != "parquet" {
		t.Error("CoreOptions not wired")
	}
}
