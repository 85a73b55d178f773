package file

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

func TestMissingAndExtraColumns(t *testing.T) {
	dir := t.TempDir()
	tbl := table(t, "id BIGINT NOT NULL", "name STRING", "note STRING")
	inputs := map[string]string{
		"m.csv":   "ID,name\n1,a\n",
		"m.jsonl": `{"ID":1,"name":"a"}`,
	}
	for name, content := range inputs {
		b := readOne(t, writeFile(t, dir, name, content), tbl, source.MappingOptions{})
		if col(t, b, "id").(*array.Int64).Value(0) != 1 || col(t, b, "name").(*array.String).Value(0) != "a" || !col(t, b, "note").IsNull(0) {
			t.Errorf("%s: case-insensitive match or null fill failed", name)
		}
	}

	missing := map[string]string{"r.csv": "name\na\n", "r.jsonl": `{"name":"a"}`}
	for name, content := range missing {
		_, err := readAll(t, split(t, writeFile(t, dir, name, content)), tbl, source.MappingOptions{})
		wantErr(t, err, name, `"id"`, "NOT NULL")
	}

	extra := map[string]string{"e.csv": "id,name,color\n1,a,red\n", "e.jsonl": `{"id":1,"name":"a","color":"red"}`}
	for name, content := range extra {
		p := writeFile(t, dir, name, content)
		_, err := readAll(t, split(t, p), tbl, source.MappingOptions{})
		wantErr(t, err, name, `"color"`, "matches no table column", "--ignore-extra-columns")
		b := readOne(t, p, tbl, source.MappingOptions{IgnoreExtra: true})
		if b.Record.NumCols() != 3 || col(t, b, "id").(*array.Int64).Value(0) != 1 {
			t.Errorf("%s: IgnoreExtra result wrong: %v", name, b.Record)
		}
	}

	// Two input columns for one field, ambiguous case-insensitive match, duplicate header.
	_, err := readAll(t, split(t, writeFile(t, dir, "d.csv", "id,Id\n1,2\n")), tbl, source.MappingOptions{})
	wantErr(t, err, "d.csv", `"id"`, `"Id"`, "both match")
	amb := table(t, "Ab INT", "aB INT")
	_, err = readAll(t, split(t, writeFile(t, dir, "a.csv", "ab\n1\n")), amb, source.MappingOptions{})
	wantErr(t, err, "a.csv", `"ab"`, "case-insensitively")
	_, err = readAll(t, split(t, writeFile(t, dir, "h.csv", "name,name\na,b\n")), tbl, source.MappingOptions{IgnoreExtra: true})
	wantErr(t, err, "h.csv", "appears twice")
}

func TestOpColumn(t *testing.T) {
	dir := t.TempDir()
	tbl := table(t, "id INT NOT NULL", "v STRING")
	want := []spec.RowKind{0, 1, 2, 3, 0, 1, 2, 2, 3}
	csv := "id,op,v\n1,+I,a\n1,-U,a\n1,+U,b\n1,-D,b\n2,INSERT,c\n2,update_before,c\n2,Update,d\n2,update_after,d\n2,delete,d\n"
	jsonl := `{"id":1,"op":"+i","v":"a"}
{"id":1,"op":"-u","v":"a"}
{"id":1,"op":"+U","v":"b"}
{"id":1,"op":"-D","v":"b"}
{"id":2,"op":"insert","v":"c"}
{"id":2,"op":"UPDATE_BEFORE","v":"c"}
{"id":2,"op":"update","v":"d"}
{"id":2,"op":"Update_After","v":"d"}
{"id":2,"op":"DELETE","v":"d"}`
	in := arrowOpFixture(t, dir)
	for _, p := range []string{writeFile(t, dir, "o.csv", csv), writeFile(t, dir, "o.jsonl", jsonl), in} {
		b := readOne(t, p, tbl, source.MappingOptions{OpColumn: "op"})
		if b.Record.NumCols() != 2 {
			t.Errorf("%s: op column not removed: %s", p, b.Record.Schema())
		}
		if len(b.Kinds) != len(want) {
			t.Fatalf("%s: kinds %v", p, b.Kinds)
		}
		for i := range want {
			if b.Kinds[i] != want[i] {
				t.Errorf("%s: kind[%d] = %d, want %d", p, i, b.Kinds[i], want[i])
			}
		}
	}
	// Without an op column every row is +I (nil kinds) and "op" is an extra column.
	b := readOne(t, writeFile(t, dir, "noop.csv", "id,v\n1,a\n"), tbl, source.MappingOptions{})
	if b.Kinds != nil {
		t.Errorf("kinds = %v, want nil", b.Kinds)
	}
	_, err := readAll(t, split(t, writeFile(t, dir, "bad.csv", "id,op,v\n1,+I,a\n1,upsert,a\n")), tbl, source.MappingOptions{OpColumn: "op"})
	wantErr(t, err, "bad.csv", "line 3", `column "op"`, `"upsert"`, "+I, -U")
	_, err = readAll(t, split(t, writeFile(t, dir, "bad.jsonl", `{"id":1,"op":"+I"}`+"\n"+`{"id":1}`)), tbl, source.MappingOptions{OpColumn: "op"})
	wantErr(t, err, "bad.jsonl", "line 2", `column "op"`, "(missing)")
	_, err = readAll(t, split(t, writeFile(t, dir, "none.csv", "id,v\n1,a\n")), tbl, source.MappingOptions{OpColumn: "op"})
	wantErr(t, err, "none.csv", `op column "op" not found`)
	_, err = readAll(t, split(t, writeFile(t, dir, "clash.csv", "id,v\n1,a\n")), tbl, source.MappingOptions{OpColumn: "V"})
	wantErr(t, err, "clash.csv", "also table column")
}

func TestLTZTimeZone(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	dir := t.TempDir()
	tbl := table(t, "t TIMESTAMP(3) WITH LOCAL TIME ZONE", "n TIMESTAMP(3)")
	p := writeFile(t, dir, "z.csv", "t,n\n2024-07-01 12:00:00,2024-07-01 12:00:00\n2024-07-01 12:00:00-01:30,2024-01-01 00:00:00\n")
	b := readOne(t, p, tbl, source.MappingOptions{TimeZone: berlin})
	ts := col(t, b, "t").(*array.Timestamp)
	noon := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	if got := int64(ts.Value(0)); got != noon-2*3600*1000 {
		t.Errorf("Berlin summer noon = %d, want %d", got, noon-2*3600*1000)
	}
	if got := int64(ts.Value(1)); got != noon+90*60*1000 {
		t.Errorf("offset -01:30 = %d, want %d", got, noon+90*60*1000)
	}
	if got := int64(col(t, b, "n").(*array.Timestamp).Value(0)); got != noon {
		t.Errorf("TIMESTAMP ignores the zone: %d, want %d", got, noon)
	}
	_, err = readAll(t, split(t, writeFile(t, dir, "gap.csv", "t,n\n2024-03-31 02:30:00,\n")), tbl, source.MappingOptions{TimeZone: berlin})
	wantErr(t, err, "gap.csv", "line 2", `column "t"`, "daylight saving gap")
}
