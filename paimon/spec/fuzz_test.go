package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func addFixtureSeeds(f *testing.F, kind string) {
	for _, p := range javaFiles(f, kind) {
		if filepath.Base(p) == kind+"-EARLIEST" || filepath.Base(p) == kind+"-LATEST" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzParseSchema(f *testing.F) {
	addFixtureSeeds(f, "schema")
	f.Add([]byte(`{"id":0,"fields":[],"highestFieldId":-1,"partitionKeys":[],"primaryKeys":[],"options":{}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSchema(b)
		if err != nil {
			return
		}
		out, err := s.JSON()
		if err != nil {
			t.Fatalf("JSON of parsed schema: %v", err)
		}
		back, err := ParseSchema(out)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(s, back) {
			t.Fatalf("unstable:\n%+v\n%+v", s, back)
		}
		again, _ := back.JSON()
		if string(again) != string(out) {
			t.Fatalf("JSON not stable:\n%s\n%s", out, again)
		}
	})
}

func FuzzParseSnapshot(f *testing.F) {
	addFixtureSeeds(f, "snapshot")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSnapshot(b)
		if err != nil {
			return
		}
		out, err := s.JSON()
		if err != nil {
			t.Fatalf("JSON of parsed snapshot: %v", err)
		}
		back, err := ParseSnapshot(out)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(s, back) {
			t.Fatalf("unstable:\n%+v\n%+v", s, back)
		}
	})
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"INT NOT NULL", "DECIMAL(10, 2)", "STRING", "BYTES", "TIMESTAMP(6) WITH LOCAL TIME ZONE",
		"CHAR(3)", "TIME(0)", "varchar(2147483647)", "INT ARRAY", "MAP<STRING, ROW<a INT, `b` DOUBLE COMMENT 'x'>>",
		"MULTISET<DATE NOT NULL> NOT NULL", "TIMESTAMP_LTZ(3)", "DOUBLE PRECISION"} {
		f.Add(s)
	}
	for _, p := range javaFiles(f, "schema") {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if s, err := ParseSchema(b); err == nil {
			for _, fld := range s.Fields {
				f.Add(fld.Type.String())
			}
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		typ, err := ParseType(sql)
		if err != nil {
			return
		}
		again, err := ParseType(typ.String())
		if err != nil || !reflect.DeepEqual(again, typ) {
			t.Fatalf("String round trip of %q: %q → %#v, %v", sql, typ.String(), again, err)
		}
		js, err := json.Marshal(typ)
		if err != nil {
			t.Fatalf("marshal %s: %v", typ, err)
		}
		var back DataType
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", js, err)
		}
		// JSON keeps ROW field ids, so it must reproduce the type exactly.
		if !reflect.DeepEqual(back, typ) {
			t.Fatalf("JSON round trip of %q: %s → %#v", sql, js, back)
		}
	})
}
