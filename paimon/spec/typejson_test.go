package spec

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func nn(t DataType) DataType { t.Nullable = false; return t }

func TestAtomicTypeJSONRoundTrip(t *testing.T) {
	cases := []struct {
		typ  DataType
		json string
	}{
		{DataType{Root: Boolean, Nullable: true}, `"BOOLEAN"`},
		{DataType{Root: TinyInt, Nullable: true}, `"TINYINT"`},
		{DataType{Root: SmallInt}, `"SMALLINT NOT NULL"`},
		{DataType{Root: Int}, `"INT NOT NULL"`},
		{DataType{Root: BigInt, Nullable: true}, `"BIGINT"`},
		{DataType{Root: Float, Nullable: true}, `"FLOAT"`},
		{DataType{Root: Double, Nullable: true}, `"DOUBLE"`},
		{DataType{Root: Date, Nullable: true}, `"DATE"`},
		{DataType{Root: Decimal, Precision: 10, Scale: 2, Nullable: true}, `"DECIMAL(10, 2)"`},
		{DataType{Root: Decimal, Precision: 38, Scale: 0}, `"DECIMAL(38, 0) NOT NULL"`},
		{DataType{Root: Char, Length: 3, Nullable: true}, `"CHAR(3)"`},
		{DataType{Root: VarChar, Length: 20, Nullable: true}, `"VARCHAR(20)"`},
		{DataType{Root: VarChar, Length: MaxLength}, `"STRING NOT NULL"`},
		{DataType{Root: Binary, Length: 16, Nullable: true}, `"BINARY(16)"`},
		{DataType{Root: VarBinary, Length: 20, Nullable: true}, `"VARBINARY(20)"`},
		{DataType{Root: VarBinary, Length: MaxLength, Nullable: true}, `"BYTES"`},
		{DataType{Root: Time, Precision: 0, Nullable: true}, `"TIME(0)"`},
		{DataType{Root: Time, Precision: 3}, `"TIME(3) NOT NULL"`},
		{DataType{Root: Timestamp, Precision: 6, Nullable: true}, `"TIMESTAMP(6)"`},
		{DataType{Root: Timestamp, Precision: 9, Nullable: true}, `"TIMESTAMP(9)"`},
		{DataType{Root: TimestampLTZ, Precision: 6, Nullable: true}, `"TIMESTAMP(6) WITH LOCAL TIME ZONE"`},
		{DataType{Root: TimestampLTZ, Precision: 3}, `"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL"`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.typ)
		if err != nil || string(got) != c.json {
			t.Errorf("marshal %#v = %s, %v; want %s", c.typ, got, err, c.json)
		}
		var back DataType
		if err := json.Unmarshal([]byte(c.json), &back); err != nil || !reflect.DeepEqual(back, c.typ) {
			t.Errorf("unmarshal %s = %#v, %v; want %#v", c.json, back, err, c.typ)
		}
	}
}

func TestNestedTypeJSONRoundTrip(t *testing.T) {
	intT := DataType{Root: Int, Nullable: true}
	str := DataType{Root: VarChar, Length: MaxLength, Nullable: true}
	row := DataType{Root: Row, Nullable: true, Fields: []DataField{
		{ID: 10, Name: "f0", Type: DataType{Root: Boolean, Nullable: true}, Description: ptr("first")},
		{ID: 11, Name: "f1", Type: nn(intT), DefaultValue: ptr("7")},
	}}
	cases := []struct {
		typ  DataType
		json string
	}{
		{DataType{Root: Array, Nullable: true, Elem: &intT}, `{"type":"ARRAY","element":"INT"}`},
		{DataType{Root: Array, Elem: &str}, `{"type":"ARRAY NOT NULL","element":"STRING"}`},
		{DataType{Root: Multiset, Nullable: true, Elem: &str}, `{"type":"MULTISET","element":"STRING"}`},
		{DataType{Root: Map, Nullable: true, Elem: ptr(nn(str)), Value: &row},
			`{"type":"MAP","key":"STRING NOT NULL","value":{"type":"ROW","fields":[` +
				`{"id":10,"name":"f0","type":"BOOLEAN","description":"first"},` +
				`{"id":11,"name":"f1","type":"INT NOT NULL","defaultValue":"7"}]}}`},
		{DataType{Root: Row, Fields: []DataField{}}, `{"type":"ROW NOT NULL","fields":[]}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.typ)
		if err != nil || string(got) != c.json {
			t.Errorf("marshal = %s, %v; want %s", got, err, c.json)
		}
		var back DataType
		if err := json.Unmarshal([]byte(c.json), &back); err != nil || !reflect.DeepEqual(back, c.typ) {
			t.Errorf("unmarshal %s = %#v, %v; want %#v", c.json, back, err, c.typ)
		}
	}
}

func TestParseTypeTolerance(t *testing.T) {
	cases := map[string]string{
		"VARCHAR(2147483647)":                 "STRING",
		"varbinary(2147483647) not null":      "BYTES NOT NULL",
		"  decimal( 10 ,2 )  NOT   NULL ":     "DECIMAL(10, 2) NOT NULL",
		"Integer":                             "INT",
		"int null":                            "INT",
		"DECIMAL":                             "DECIMAL(10, 0)",
		"NUMERIC(5)":                          "DECIMAL(5, 0)",
		"DEC(38, 38)":                         "DECIMAL(38, 38)",
		"CHAR":                                "CHAR(1)",
		"VARCHAR":                             "VARCHAR(1)",
		"BINARY":                              "BINARY(1)",
		"TIME":                                "TIME(0)",
		"TIME(3) WITHOUT TIME ZONE":           "TIME(3)",
		"TIMESTAMP":                           "TIMESTAMP(6)",
		"timestamp(3) without time zone":      "TIMESTAMP(3)",
		"TIMESTAMP WITH LOCAL TIME ZONE":      "TIMESTAMP(6) WITH LOCAL TIME ZONE",
		"TIMESTAMP_LTZ(3)":                    "TIMESTAMP(3) WITH LOCAL TIME ZONE",
		"DOUBLE PRECISION NOT NULL":           "DOUBLE NOT NULL",
		"INT ARRAY":                           "ARRAY<INT>",
		"INT NOT NULL ARRAY NOT NULL":         "ARRAY<INT NOT NULL> NOT NULL",
		"STRING MULTISET":                     "MULTISET<STRING>",
		"array<map<string, bigint not null>>": "ARRAY<MAP<STRING, BIGINT NOT NULL>>",
		"ROW<a INT, `b c` STRING COMMENT 'it''s'>": "ROW<`a` INT, `b c` STRING COMMENT 'it''s'>",
		"ROW<>": "ROW<>",
	}
	for in, want := range cases {
		got, err := ParseType(in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", in, err)
			continue
		}
		if got.String() != want {
			t.Errorf("ParseType(%q) = %s, want %s", in, got, want)
		}
		again, err := ParseType(got.String())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("ParseType(String()) of %q = %#v, %v", in, again, err)
		}
	}
}

func TestParseTypeErrors(t *testing.T) {
	cases := map[string]string{
		"":                     "unexpected end",
		"DECIMAL(39, 0)":       "precision",
		"DECIMAL(5, 6)":        "scale",
		"TIME(10)":             "precision",
		"TIMESTAMP(10)":        "precision",
		"CHAR(0)":              "length",
		"VARIANT":              "unsupported type VARIANT",
		"FOO":                  "unsupported type FOO",
		"INT INT":              "unexpected",
		"ROW<a INT":            "expected",
		"DECIMAL(99999999999)": "out of range",
		"`x":                   "unterminated",
		"MAP<INT>":             `expected ","`,
	}
	for in, want := range cases {
		_, err := ParseType(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseType(%q) error = %v, want it to mention %q", in, err, want)
		}
	}
}

func TestTypeJSONErrorsAreCorrupt(t *testing.T) {
	bad := []string{`5`, `"NOPE"`, `{"type":"ARRAY"}`, `{"type":"MAP","key":"INT"}`, `{"type":"ROW"}`,
		`{"type":"VECTOR","element":"FLOAT","length":3}`, `{"type":7}`, `{"type":"ROW","fields":[{"name":"x","type":"INT"}]}`,
		`{"type":"ROW","fields":[{"id":"1","name":"x","type":"INT"}]}`, `[`}
	for _, b := range bad {
		var dt DataType
		if err := json.Unmarshal([]byte(b), &dt); err == nil || !errors.Is(err, ErrCorrupt) {
			// json.Unmarshal reports syntax errors itself before calling UnmarshalJSON.
			var se *json.SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("unmarshal %s: err = %v, want ErrCorrupt", b, err)
			}
		}
	}
}

func TestNestedTypeString(t *testing.T) {
	typ, err := ParseType("MAP<STRING NOT NULL, ROW<x INT, y ARRAY<DOUBLE>>> NOT NULL")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := typ.String(), "MAP<STRING NOT NULL, ROW<`x` INT, `y` ARRAY<DOUBLE>>> NOT NULL"; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}
