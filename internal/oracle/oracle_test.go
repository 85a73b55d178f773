package oracle

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/spec"
)

func repoPath(t *testing.T, rel ...string) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(append([]string{root}, rel...)...)
}

func fixture(t *testing.T, name string) string {
	return repoPath(t, "testdata", "java-written", name+".db", name)
}

func TestCanonicalVectorsAgreeAcrossOracles(t *testing.T) {
	vectors := repoPath(t, "internal", "canon", "testdata", "vectors.jsonl")
	for _, c := range []*Client{Java(t), Py(t)} {
		passed, failed, err := c.SelfTest(vectors)
		if err != nil {
			t.Fatal(err)
		}
		if len(failed) > 0 || passed < 1000 {
			t.Errorf("%s: %d passed, %d failed, first: %v", c.p.name, passed, len(failed), failed[:min(3, len(failed))])
		}
	}
}

// TestJavaReadsFixtureAsDocumented checks the Java oracle against rows written down in the fixtures' READMEs.
func TestJavaReadsFixtureAsDocumented(t *testing.T) {
	j := Java(t)
	t0 := time.Now()
	got := j.Read(fixture(t, "append_09"), ReadOpts{Snapshot: 1})
	t.Logf("java startup %v, first read %v", j.StartupTime(), time.Since(t0))
	want := []string{
		`{"f0":"Alice","f1":10,"f2":1,"f3":11.1}`,
		`{"f0":"Bob","f1":10,"f2":0,"f3":12.1}`,
		`{"f0":"Emily","f1":10,"f2":0,"f3":13.1}`,
		`{"f0":"Lucy","f1":20,"f2":1,"f3":14.1}`,
		`{"f0":"Tony","f1":10,"f2":0,"f3":14.1}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("append_09@1:\n got %q\nwant %q", got, want)
	}
	got = j.Read(fixture(t, "pk_table_partial_update"), ReadOpts{Snapshot: 2})
	want = []string{
		`{"k0":0,"k1":1,"v0":100.0,"v1":true,"v2":"new_apple"}`,
		`{"k0":1,"k1":0,"v0":2.0,"v1":false,"v2":null}`,
		`{"k0":1,"k1":1,"v0":133.3,"v1":false,"v2":"banana"}`,
		`{"k0":2,"k1":1,"v0":144.4,"v1":true,"v2":"orange"}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pk_table_partial_update@2:\n got %q\nwant %q", got, want)
	}
	snaps := j.Snapshots(fixture(t, "append_09"))
	if len(snaps) != 5 || snaps[4]["commitKind"] != "COMPACT" || snaps[0]["totalRecordCount"] != int64(5) ||
		snaps[0]["commitIdentifier"] != int64(9223372036854775807) {
		t.Errorf("append_09 snapshots: %v", snaps)
	}
}

// TestGoldensMatchJava re-reads every golden snapshot: a drift means the goldens or the oracle changed.
func TestGoldensMatchJava(t *testing.T) {
	j := Java(t)
	files, _ := filepath.Glob(repoPath(t, "testdata", "golden", "*", "snapshot-*.jsonl"))
	if len(files) < 30 {
		t.Fatalf("only %d golden files; run `make golden`", len(files))
	}
	if testing.Short() {
		files = files[:5]
	}
	t0 := time.Now()
	for _, f := range files {
		table := filepath.Base(filepath.Dir(f))
		var id int64
		if _, err := fmt.Sscanf(filepath.Base(f), "snapshot-%d.jsonl", &id); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(b) == 0 {
			want = []string{}
		}
		got := j.Read(fixture(t, table), ReadOpts{Snapshot: id})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s@%d differs from %s:\n got %q\nwant %q", table, id, f, got, want)
		}
	}
	t.Logf("%d golden reads in %v (%v per read)", len(files), time.Since(t0), time.Since(t0)/time.Duration(len(files)))
}

// pyReadable are the fixtures pypaimon 2.1.0 can read (see testdata/golden/README.md).
var pyReadable = []string{"pk_table_scan_and_read_dv", "pk_table_scan_and_read_first_row",
	"pk_table_scan_and_read_mor", "pk_table_with_mor"}

func TestJavaAndPyAgreeOnFixtures(t *testing.T) {
	j, p := Java(t), Py(t)
	t.Logf("py startup %v", p.StartupTime())
	t0, reads := time.Now(), 0
	defer func() { t.Logf("%d java+py read pairs in %v", reads, time.Since(t0)) }()
	for _, name := range pyReadable {
		tbl := fixture(t, name)
		js, ps := j.Snapshots(tbl), p.Snapshots(tbl)
		if !reflect.DeepEqual(js, ps) {
			t.Errorf("%s snapshots differ:\njava %v\npy   %v", name, js, ps)
		}
		for _, s := range js {
			id := s["id"].(int64)
			jr, pr := j.Read(tbl, ReadOpts{Snapshot: id}), p.Read(tbl, ReadOpts{Snapshot: id})
			reads++
			if !reflect.DeepEqual(jr, pr) {
				t.Errorf("%s@%d:\njava %q\npy   %q", name, id, jr, pr)
			}
		}
	}
}

// filterCase pairs a filter with an independent Go predicate over the decoded canonical row.
type filterCase struct {
	f    Filter
	pred func(r map[string]any) bool
}

func num(v any) float64 {
	f, _ := v.(json.Number).Float64()
	return f
}

func TestFiltersAndProjectionAreExact(t *testing.T) {
	j, p := Java(t), Py(t)
	tbl := fixture(t, "pk_table_scan_and_read_mor")
	all := j.Read(tbl, ReadOpts{})
	cases := []filterCase{
		{Eq("f0", "Alice"), func(r map[string]any) bool { return r["f0"] == "Alice" }},
		{Ne("f1", 10), func(r map[string]any) bool { return num(r["f1"]) != 10 }},
		{Gt("f3", 14.1), func(r map[string]any) bool { return num(r["f3"]) > 14.1 }},
		{Le("f3", 14.1), func(r map[string]any) bool { return num(r["f3"]) <= 14.1 }},
		{And(Eq("f1", 10), Lt("f3", 13)), func(r map[string]any) bool { return num(r["f1"]) == 10 && num(r["f3"]) < 13 }},
		{Or(In("f0", "Bob", "Lucy", "nobody"), Ge("f3", 21.1)), func(r map[string]any) bool {
			return r["f0"] == "Bob" || r["f0"] == "Lucy" || num(r["f3"]) >= 21.1
		}},
		{IsNull("f3"), func(r map[string]any) bool { return r["f3"] == nil }},
		{IsNotNull("f3"), func(r map[string]any) bool { return r["f3"] != nil }},
	}
	for _, c := range cases {
		var want []string
		for _, line := range all {
			var r map[string]any
			dec := json.NewDecoder(strings.NewReader(line))
			dec.UseNumber()
			if err := dec.Decode(&r); err != nil {
				t.Fatal(err)
			}
			if c.pred(r) {
				want = append(want, line)
			}
		}
		if want == nil {
			want = []string{}
		}
		for _, o := range []*Client{j, p} {
			if got := o.Read(tbl, ReadOpts{Filter: c.f}); !reflect.DeepEqual(got, want) {
				t.Errorf("%s filter %v:\n got %q\nwant %q", o.p.name, c.f, got, want)
			}
		}
	}
	proj := ReadOpts{Projection: []string{"f3", "f0"}, Filter: Eq("f2", 1)}
	jr, pr := j.Read(tbl, proj), p.Read(tbl, proj)
	if !reflect.DeepEqual(jr, pr) || len(jr) == 0 || !strings.HasPrefix(jr[0], `{"f0":`) || strings.Contains(jr[0], `"f1"`) {
		t.Errorf("projection:\njava %q\npy   %q", jr, pr)
	}
}

func TestErrorsComeBackAndProcessSurvives(t *testing.T) {
	for _, c := range []*Client{Java(t), Py(t)} {
		_, err := c.TryRead(filepath.Join(t.TempDir(), "no.db", "such"), ReadOpts{})
		if err == nil || !IsOracleError(err) {
			t.Errorf("%s: reading a missing table: err=%v", c.p.name, err)
		}
		_, err = c.TryRead(fixture(t, "pk_table_with_mor"), ReadOpts{Filter: Eq("nope", 1)})
		if err == nil || !strings.Contains(err.Error(), "nope") {
			t.Errorf("%s: filter on unknown column: err=%v", c.p.name, err)
		}
		if rows := c.Read(fixture(t, "pk_table_with_mor"), ReadOpts{Snapshot: 1}); len(rows) != 6 {
			t.Errorf("%s: after errors got %d rows, want 6", c.p.name, len(rows))
		}
	}
}

func ptr(v int64) *int64 { return &v }

// TestPyWriteJavaRead builds rows as Go datums, renders them with internal/canon, writes them with
// pypaimon and reads them back with both oracles: the three canonical implementations must agree.
func TestPyWriteJavaRead(t *testing.T) {
	j, p := Java(t), Py(t)
	tbl := filepath.Join(t.TempDir(), "wh", "db.db", "all_types")
	i32 := spec.DataType{Root: spec.Int, Nullable: true}
	f64 := spec.DataType{Root: spec.Double, Nullable: true}
	str := spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}
	arrT := spec.DataType{Root: spec.Array, Elem: &i32, Nullable: true}
	fields := []spec.DataField{
		{ID: 0, Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{ID: 1, Name: "b", Type: spec.DataType{Root: spec.Boolean, Nullable: true}},
		{ID: 2, Name: "ti", Type: spec.DataType{Root: spec.TinyInt, Nullable: true}},
		{ID: 3, Name: "si", Type: spec.DataType{Root: spec.SmallInt, Nullable: true}},
		{ID: 4, Name: "i", Type: i32},
		{ID: 5, Name: "f", Type: spec.DataType{Root: spec.Float, Nullable: true}},
		{ID: 6, Name: "d", Type: f64},
		{ID: 7, Name: "dec", Type: spec.DataType{Root: spec.Decimal, Precision: 20, Scale: 4, Nullable: true}},
		{ID: 8, Name: "s", Type: str},
		{ID: 9, Name: "bin", Type: spec.DataType{Root: spec.VarBinary, Length: spec.MaxLength, Nullable: true}},
		{ID: 10, Name: "dt", Type: spec.DataType{Root: spec.Date, Nullable: true}},
		{ID: 11, Name: "ts", Type: spec.DataType{Root: spec.Timestamp, Precision: 6, Nullable: true}},
		{ID: 12, Name: "ltz", Type: spec.DataType{Root: spec.TimestampLTZ, Precision: 3, Nullable: true}},
		{ID: 13, Name: "arr", Type: arrT},
		{ID: 14, Name: "m", Type: spec.DataType{Root: spec.Map, Elem: &str, Value: &f64, Nullable: true}},
		{ID: 15, Name: "r", Type: spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
			{ID: 16, Name: "x", Type: i32}, {ID: 17, Name: "y", Type: arrT}}}},
	}
	cols := []Column{{"id", "BIGINT NOT NULL"}, {"b", "BOOLEAN"}, {"ti", "TINYINT"}, {"si", "SMALLINT"}, {"i", "INT"},
		{"f", "FLOAT"}, {"d", "DOUBLE"}, {"dec", "DECIMAL(20, 4)"}, {"s", "STRING"}, {"bin", "BYTES"}, {"dt", "DATE"},
		{"ts", "TIMESTAMP(6)"}, {"ltz", "TIMESTAMP(3) WITH LOCAL TIME ZONE"}, {"arr", "ARRAY<INT>"},
		{"m", "MAP<STRING, DOUBLE>"}, {"r", "ROW<x INT, y ARRAY<INT>>"}}
	row := func(id int64, s string, d float64) []any {
		return []any{id, id%2 == 0, int8(-id), int16(300 * id), int32(id * 1000), float32(1.1) * float32(id), d,
			spec.DecimalValue{Unscaled: big.NewInt(-123456789 * id)}, s, []byte{byte(id), 0xff},
			int32(19000 + id), spec.TimestampValue{Millis: 1700000000123 + id, NanoOfMilli: 456000},
			spec.TimestampValue{Millis: -1000 * id}, []any{int32(id), nil},
			[]spec.MapEntry{{Key: "z", Value: 0.1}, {Key: "a", Value: nil}},
			[]any{int32(id), []any{}}}
	}
	nulls := []any{int64(3), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
	first, err := canon.Rows(fields, [][]any{row(1, "one \"quoted\" ☃", 1e16), row(2, "two\n", -0.0), nulls})
	if err != nil {
		t.Fatal(err)
	}
	spec := &TableSpec{Columns: cols, PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"}}
	t0 := time.Now()
	id := p.Write(tbl, WriteOpts{Spec: spec, Rows: first, CommitUser: "lakeload-test", CommitIdentifier: ptr(7),
		Properties: map[string]string{"k": "v"}})
	t.Logf("py write %v", time.Since(t0))
	if id != 1 {
		t.Fatalf("first write made snapshot %d, want 1", id)
	}
	for _, o := range []*Client{j, p} {
		if got := o.Read(tbl, ReadOpts{}); !reflect.DeepEqual(got, first) {
			t.Errorf("%s read of pypaimon-written rows:\n got %q\nwant %q", o.p.name, got, first)
		}
	}
	// second commit upserts id 2 (PK dedup) and adds id 4
	second, err := canon.Rows(fields, [][]any{row(2, "TWO", 2.5), row(4, "four", 1.5e-7)})
	if err != nil {
		t.Fatal(err)
	}
	if id := p.Write(tbl, WriteOpts{Rows: second}); id != 2 {
		t.Fatalf("second write made snapshot %d, want 2", id)
	}
	want := append([]string{first[0], first[2]}, second...)
	sort.Strings(want)
	for _, o := range []*Client{j, p} {
		if got := o.Read(tbl, ReadOpts{}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s latest:\n got %q\nwant %q", o.p.name, got, want)
		}
		if got := o.Read(tbl, ReadOpts{Snapshot: 1}); !reflect.DeepEqual(got, first) {
			t.Errorf("%s time travel to 1:\n got %q\nwant %q", o.p.name, got, first)
		}
	}
	js, ps := j.Snapshots(tbl), p.Snapshots(tbl)
	if !reflect.DeepEqual(js, ps) || len(js) != 2 {
		t.Fatalf("snapshots differ:\njava %v\npy   %v", js, ps)
	}
	s1 := js[0]
	if s1["commitUser"] != "lakeload-test" || s1["commitIdentifier"] != int64(7) ||
		!reflect.DeepEqual(s1["properties"], map[string]any{"k": "v"}) || s1["totalRecordCount"] != int64(3) {
		t.Errorf("snapshot 1 = %v", s1)
	}
}

// TestPyWriteRowKinds deletes through pypaimon's rowkind.field and checks both readers drop the row.
func TestPyWriteRowKinds(t *testing.T) {
	j, p := Java(t), Py(t)
	tbl := filepath.Join(t.TempDir(), "db.db", "kinds")
	spec := &TableSpec{Columns: []Column{{"id", "INT"}, {"v", "STRING"}, {"kind", "STRING"}},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1", "rowkind.field": "kind"}}
	p.Write(tbl, WriteOpts{Spec: spec, Rows: []string{`{"id":1,"v":"a","_kind":"+I"}`, `{"id":2,"v":"b","_kind":"+I"}`}})
	p.Write(tbl, WriteOpts{Rows: []string{`{"id":1,"v":"a","_kind":"-D"}`, `{"id":2,"v":"B","_kind":"+U"}`}})
	want := []string{`{"id":2,"kind":"+U","v":"B"}`}
	for _, o := range []*Client{j, p} {
		if got := o.Read(tbl, ReadOpts{}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q want %q", o.p.name, got, want)
		}
	}
	if _, err := p.TryWrite(filepath.Join(t.TempDir(), "db.db", "nokind"), WriteOpts{
		Spec: &TableSpec{Columns: []Column{{"id", "INT"}}}, Rows: []string{`{"id":1,"_kind":"-D"}`}}); err == nil {
		t.Error("_kind without rowkind.field was accepted")
	}
}
