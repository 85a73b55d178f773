package file

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

func readColumns(t *testing.T, sp source.Split) (*InputColumns, error) {
	t.Helper()
	return ReadColumns(context.Background(), osFS{}, sp)
}

// columnTypes renders columns as "name TYPE" or "name !why" for comparison.
func columnTypes(c *InputColumns) string {
	var out []string
	for _, col := range c.Columns {
		if col.Why != nil {
			out = append(out, col.Name+" !"+col.Why.Error())
		} else {
			out = append(out, col.Name+" "+col.Type.String())
		}
	}
	return strings.Join(out, "; ")
}

func TestReadColumnsParquet(t *testing.T) {
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "z", Type: arrow.PrimitiveTypes.Int32},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "half", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	p := writeParquet(t, dir, "c.parquet", schema, `[{"z":1,"ts":5,"s":"a","half":1.5,"l":[1]}]`, 10)
	c, err := readColumns(t, split(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != source.FormatParquet || c.Arrow == nil || c.Arrow.NumFields() != 5 {
		t.Fatalf("format %q, arrow schema %v", c.Format, c.Arrow)
	}
	// Every type is nullable (a new column); a NOT NULL input column still becomes a nullable one.
	got := columnTypes(c)
	for _, want := range []string{"z INT;", "ts TIMESTAMP(6);", "s STRING;", "half !its input type float16 has no Paimon type", "l ARRAY<BIGINT>"} {
		if !strings.Contains(got, want) {
			t.Errorf("columns %q lack %q", got, want)
		}
	}
	if strings.Join(c.Names(), ",") != "z,ts,s,half,l" {
		t.Errorf("names %v not in input order", c.Names())
	}
}

// TestReadColumnsSameErrorsAsReader: damaged Parquet, empty and malformed CSV headers fail with the
// reader's own messages (file, line or byte range, what to do).
func TestReadColumnsSameErrorsAsReader(t *testing.T) {
	dir := t.TempDir()
	good := writeParquet(t, dir, "g.parquet", arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil), `[{"a":1}]`, 10)
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tail := append([]byte{}, b...)
	copy(tail[len(tail)-4:], "XXXX")
	footer := append([]byte{}, b...)
	for i := len(footer) - 30; i < len(footer)-8; i++ {
		footer[i] = 0xee
	}
	cases := []struct {
		name, content string
		frags         []string
	}{
		{"marker.parquet", string(tail), []string{"bytes", "PAR1", "re-export"}},
		{"footer.parquet", string(footer), []string{"bytes", "re-export"}},
		{"short.parquet", "PAR1", []string{"4 bytes", "re-export"}},
		{"empty.csv", "", []string{"empty CSV file", "header"}},
		{"quote.csv", "a,\"b\n", []string{"line 1", "not closed"}},
		{"noname.csv", "a,,c\n", []string{"line 1", "header field 2 is empty"}},
		{"dup.csv", "a,a\n", []string{`"a" appears twice`}},
	}
	tbl := table(t, "a INT")
	for _, c := range cases {
		// Planning a damaged Parquet file fails already: the split is made by hand.
		path := writeFile(t, dir, c.name, c.content)
		sp := source.Split{Path: path, Format: strings.TrimPrefix(filepath.Ext(path), "."), RowCount: -1}
		_, err := readColumns(t, sp)
		wantErr(t, err, append([]string{filepath.Join(dir, c.name)}, c.frags...)...)
		if strings.HasSuffix(c.name, ".parquet") && c.name != "footer.parquet" && !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("%s: %v does not wrap spec.ErrCorrupt", c.name, err)
		}
		// The reader opening the same split says the same.
		if _, rerr := readAll(t, sp, tbl, source.MappingOptions{IgnoreExtra: true}); rerr == nil || rerr.Error() != err.Error() {
			t.Errorf("%s: ReadColumns says %q, the reader %q", c.name, err, rerr)
		}
	}
}

func TestReadColumnsCSV(t *testing.T) {
	p := writeFile(t, t.TempDir(), "h.csv", "\xEF\xBB\xBFb,\"a,x\",c\r\n1,2,3\n")
	c, err := readColumns(t, split(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if got := columnTypes(c); got != "b STRING; a,x STRING; c STRING" || c.Format != source.FormatCSV || c.Arrow != nil {
		t.Fatalf("columns %q (format %q)", got, c.Format)
	}
}

func TestReadColumnsJSONL(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "k.jsonl", strings.Join([]string{
		`{"i": 1, "f": 1, "s": "a", "n": null}`,
		`{"f": 2.5, "b": true, "i": -3}`,
		`not json {"bad": 1}`, // the reader reports it; its keys are not columns
		`{"mix": 1, "nest": {"a": 1}}`,
		`{"mix": "x", "e": 1e3}`,
		`{"late": 1}`,
	}, "\n")+"\n")
	c, err := readColumns(t, split(t, p))
	if err != nil {
		t.Fatal(err)
	}
	want := "i BIGINT; f DOUBLE; s STRING; n STRING; b BOOLEAN; " +
		"mix !it holds values of different JSON types (strings, numbers, booleans) (first seen on line 4); " +
		"nest !it holds JSON objects or arrays, whose column type cannot be derived (first seen on line 4); e DOUBLE; late BIGINT"
	if got := columnTypes(c); got != want {
		t.Fatalf("columns\n got %q\nwant %q", got, want)
	}
	lines := map[string]int64{}
	for _, col := range c.Columns {
		lines[col.Name] = col.Line
	}
	if lines["i"] != 1 || lines["b"] != 2 || lines["e"] != 5 || lines["late"] != 6 {
		t.Errorf("first lines %v", lines)
	}
	// A row range sees only its own rows (rows 1..2: lines 2 and 3), with lines counted in the file.
	sp := split(t, p)
	sp.RowStart, sp.RowCount = 1, 2
	if c, err = readColumns(t, sp); err != nil {
		t.Fatal(err)
	}
	if got := columnTypes(c); got != "f DOUBLE; b BOOLEAN; i BIGINT" || c.Columns[0].Line != 2 {
		t.Fatalf("row range columns %q, first line %d", got, c.Columns[0].Line)
	}
}

func TestReadColumnsFileProblems(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.csv", "a\n1\n")
	sp := split(t, p)
	writeFile(t, dir, "a.csv", "a,b\n1,2\n")
	_, err := readColumns(t, sp)
	wantErr(t, err, p, "changed since it was planned")
	_, err = readColumns(t, source.Split{Path: filepath.Join(dir, "gone.csv"), Format: source.FormatCSV, RowCount: -1})
	wantErr(t, err, "input file "+filepath.Join(dir, "gone.csv"))
	_, err = readColumns(t, source.Split{Path: p, Format: "avro", RowCount: -1})
	wantErr(t, err, p, `unknown format "avro"`)
	_, err = readColumns(t, source.Split{Path: p, Format: source.FormatORC, RowCount: -1})
	wantErr(t, err, p, "not a readable ORC file")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadColumns(ctx, osFS{}, source.Split{Path: writeFile(t, dir, "c.jsonl", "{}\n"), Format: source.FormatJSONL, RowCount: -1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
