package source

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

func fields(t *testing.T, cols ...string) []spec.DataField {
	t.Helper()
	var out []spec.DataField
	for i, c := range cols {
		name, typ, _ := strings.Cut(c, " ")
		dt, err := spec.ParseType(typ)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, spec.DataField{ID: i, Name: name, Type: dt})
	}
	return out
}

func TestParseRowKind(t *testing.T) {
	for in, want := range map[string]spec.RowKind{"+I": 0, "insert": 0, "-u": 1, "UPDATE_BEFORE": 1, "+U": 2, "update": 2,
		"Update_After": 2, "-D": 3, "delete": 3} {
		if got, ok := ParseRowKind(in); !ok || got != want {
			t.Errorf("ParseRowKind(%q) = %d,%v want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "I", "+X", " +I", "upsert", "0"} {
		if _, ok := ParseRowKind(in); ok {
			t.Errorf("ParseRowKind(%q) accepted", in)
		}
	}
}

func TestValueErrorAndTruncate(t *testing.T) {
	e := &ValueError{File: "f.csv", Line: 7, Row: -1, Column: "c", Value: Truncate(strings.Repeat("é", 100)), Expected: "INT"}
	s := e.Error()
	if !strings.HasPrefix(s, `file f.csv, line 7, column "c": bad value "`) || !strings.HasSuffix(s, `…": expected INT`) {
		t.Errorf("message %q", s)
	}
	if v := Truncate(strings.Repeat("é", 100)); len(v) > MaxValueInError+len("…") || !strings.HasSuffix(v, "…") {
		t.Errorf("Truncate = %q", v)
	}
	p := (&ValueError{File: "f.parquet", Row: 0, Column: "c", Value: "v", Expected: "x"}).Error()
	if !strings.Contains(p, "f.parquet, row 1, column") { // Row is 0-based, messages 1-based
		t.Errorf("parquet message %q", p)
	}
	if m := (&ValueError{File: "f.csv", Line: 9, Row: 7, Column: "c", Value: "v", Expected: "x"}).Error(); !strings.Contains(m, "f.csv, row 8 (line 9), column") {
		t.Errorf("text message with row %q", m)
	}
}

func TestCheckFingerprint(t *testing.T) {
	mt := time.Unix(100, 5)
	s := Split{Path: "/a", Size: 10, ModTimeUnixNano: mt.UnixNano()}
	if err := s.CheckFingerprint(fileio.FileInfo{Size: 10, ModTime: mt}); err != nil {
		t.Error(err)
	}
	if err := s.CheckFingerprint(fileio.FileInfo{Size: 11, ModTime: mt}); err == nil || !strings.Contains(err.Error(), "/a") {
		t.Errorf("size change: %v", err)
	}
	if err := s.CheckFingerprint(fileio.FileInfo{Size: 10, ModTime: mt.Add(1)}); err == nil {
		t.Error("mod time change accepted")
	}
	if err := (Split{Path: "/a"}).CheckFingerprint(fileio.FileInfo{Size: 3}); err != nil {
		t.Errorf("no fingerprint: %v", err)
	}
}

func TestMapColumns(t *testing.T) {
	fs := fields(t, "id BIGINT NOT NULL", "Name STRING", "x INT")
	cm, err := MapColumns("f", []string{"op", "name", "id"}, fs, MappingOptions{OpColumn: "OP"})
	if err != nil {
		t.Fatal(err)
	}
	if cm.Input[0] != 2 || cm.Input[1] != 1 || cm.Input[2] != -1 || cm.Op != 0 {
		t.Errorf("map = %+v", cm)
	}
	cm, err = MapColumns("f", []string{"id", "junk"}, fs, MappingOptions{IgnoreExtra: true})
	if err != nil || len(cm.Ignored) != 1 || cm.Ignored[0] != "junk" {
		t.Errorf("ignored = %+v, %v", cm, err)
	}
}

// TestArrowMappingInt64ToDecimal covers value-checked int→decimal casts and int op columns.
func TestArrowMappingInt64ToDecimal(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	in := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "k", Type: arrow.PrimitiveTypes.Int8}}, nil)
	m, err := NewArrowMapping("f.parquet", in, fields(t, "v DECIMAL(4, 2)"), MappingOptions{OpColumn: "k"}, mem)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := array.RecordFromJSON(mem, in, strings.NewReader(`[{"v":-99,"k":3},{"v":null,"k":0},{"v":12,"k":2}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	out, kinds, err := m.Apply(rec, 40)
	if err != nil {
		t.Fatal(err)
	}
	d := out.Column(0).(*array.Decimal128)
	if d.Value(0).ToString(2) != "-99.00" || !d.IsNull(1) || d.Value(2).ToString(2) != "12.00" || kinds[0] != 3 || kinds[2] != 2 {
		t.Errorf("out = %v kinds %v", out, kinds)
	}
	out.Release()
	rec2, _, _ := array.RecordFromJSON(mem, in, strings.NewReader(`[{"v":1,"k":0},{"v":100,"k":0}]`))
	defer rec2.Release()
	if _, _, err := m.Apply(rec2, 40); err == nil || !strings.Contains(err.Error(), "row 42") || !strings.Contains(err.Error(), `"100"`) {
		t.Errorf("overflow error = %v", err)
	}
	rec3, _, _ := array.RecordFromJSON(mem, in, strings.NewReader(`[{"v":1,"k":4}]`))
	defer rec3.Release()
	if _, _, err := m.Apply(rec3, 0); err == nil || !strings.Contains(err.Error(), `column "k"`) {
		t.Errorf("bad kind error = %v", err)
	}
}
