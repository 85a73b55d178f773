package file

import (
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/source"
)

// TestTextValueErrors checks that each bad value is reported with file, line, column, value and form.
func TestTextValueErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		typ, csv, json, form string
		good                 string // x of the valid first row; "" = null
	}{
		{"BOOLEAN", "yes", `"yes"`, "true, false, 1 or 0", ""},
		{"TINYINT", "128", `128`, "from -128 to 127", ""},
		{"SMALLINT", "1.0", `1.0`, "decimal integer", ""},
		{"INT", "2147483648", `"2147483648"`, "from -2147483648 to 2147483647", ""},
		{"BIGINT", "1e3", `1e3`, "decimal integer", ""},
		{"FLOAT", "1e39", `1e39`, "float32 range", ""},
		{"DOUBLE", "abc", `true`, "DOUBLE", ""},
		{"DECIMAL(5, 2)", "1.234", `1.234`, "at most 3 integer and 2 fraction digits", ""},
		{"DECIMAL(5, 2)", "1234.5", `"1234.5"`, "no rounding", ""},
		{"STRING", "", `5`, "STRING", ""},
		{"BYTES", "not base64!", `"AQI"`, "base64", ""},
		{"DATE", "2023-02-29", `"2023/01/01"`, "YYYY-MM-DD", ""},
		{"TIME(3)", "24:00:00", `"12:00:00.0001"`, "HH:MM:SS", ""},
		{"TIMESTAMP(3)", "2024-01-01 00:00:00Z", `"2024-01-01 00:00:00+01:00"`, "no offset", ""},
		{"TIMESTAMP(3)", "2024-01-01 00:00:00.1234", `"2024-01-01"`, "at most 3 significant fraction digits", ""},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", "2024-01-01 00:00:00+25:00", `"2024-01-01T00:00"`, "TIMESTAMP_LTZ(3)", ""},
		{"INT NOT NULL", `\N`, `null`, "NOT NULL", "5"},
	}
	for i, c := range cases {
		tbl := table(t, "id INT", "x "+c.typ)
		csvCell := c.csv
		if c.typ == "STRING" {
			csvCell = "\"\xff\"" // invalid UTF-8
		}
		csvName := "v" + string(rune('a'+i)) + ".csv"
		_, err := readAll(t, split(t, writeFile(t, dir, csvName, "id,x\n1,"+c.good+"\n2,"+csvCell+"\n")), tbl, source.MappingOptions{})
		wantErr(t, err, csvName, "line 3", `column "x"`, c.form)
		var ve *source.ValueError
		if !errors.As(err, &ve) || ve.Line != 3 {
			t.Errorf("%s: not a *ValueError at line 3: %v", c.typ, err)
		} else if c.typ != "STRING" && ve.Value != c.csv {
			t.Errorf("%s: value %q, want %q", c.typ, ve.Value, c.csv)
		}
		jsonName := "v" + string(rune('a'+i)) + ".jsonl"
		_, err = readAll(t, split(t, writeFile(t, dir, jsonName, `{"id":1,"x":`+orNull(c.good)+"}\n"+`{"id":2,"x":`+c.json+"}\n")), tbl, source.MappingOptions{})
		wantErr(t, err, jsonName, "line 2", `column "x"`, c.form)
	}
}

func TestLongValuesAreTruncated(t *testing.T) {
	long := strings.Repeat("9", 500)
	_, err := readAll(t, split(t, writeFile(t, t.TempDir(), "l.csv", "x\n"+long+"\n")), table(t, "x INT"), source.MappingOptions{})
	wantErr(t, err, "l.csv", "line 2", "…")
	if len(err.Error()) > 400 {
		t.Errorf("error not truncated (%d bytes)", len(err.Error()))
	}
}

func TestMalformedText(t *testing.T) {
	dir := t.TempDir()
	tbl := table(t, "a INT", "b STRING")
	cases := []struct {
		name, content string
		frags         []string
	}{
		{"w.csv", "a,b\n1,x\n2,y,z\n", []string{"line 3", "3 fields but the header has 2"}},
		{"q.csv", "a,b\n1,\"x\n", []string{"line 2", "not closed"}},
		{"bare.csv", "a,b\n1,x\"y\n", []string{"line 2", "quote inside an unquoted field"}},
		{"after.csv", "a,b\n1,\"x\"y\n", []string{"line 2", "after a closing quote"}},
		{"blank.csv", "a,b\n1,x\n\n2,y\n", []string{"line 3", "1 fields but the header has 2"}},
		{"empty.csv", "", []string{"empty CSV file"}},
		{"m.jsonl", "{\"a\":1}\n{\"a\":2,\n", []string{"line 2", "well-formed JSON"}},
		{"arr.jsonl", "[1,2]\n", []string{"line 1", "a JSON object per line"}},
		{"two.jsonl", "{\"a\":1} {\"a\":2}\n", []string{"line 1", "after the JSON value"}},
		{"dup.jsonl", "{\"a\":1,\"a\":2}\n", []string{"line 1", "duplicate key"}},
		{"blank.jsonl", "{\"a\":1}\n\n{\"a\":2}\n", []string{"line 2", "empty lines"}},
		{"utf.jsonl", "{\"b\":\"\xff\"}\n", []string{"line 1", "UTF-8"}},
		{"extra.jsonl", "{\"a\":1}\n{\"a\":1,\"c\":2}\n", []string{"line 2", `"c"`, "matches no table column"}},
	}
	for _, c := range cases {
		_, err := readAll(t, split(t, writeFile(t, dir, c.name, c.content)), tbl, source.MappingOptions{})
		wantErr(t, err, append([]string{c.name}, c.frags...)...)
	}
}

func TestCSVQuotingAndLines(t *testing.T) {
	dir := t.TempDir()
	// BOM, CRLF, quoted comma, doubled quote, embedded newline (lines shift), quoted \N is text.
	p := writeFile(t, dir, "q.csv", "\xEF\xBB\xBFa,b\r\n1,\"x,\"\"y\"\"\nz\"\r\n2,\"\\N\"\n3,\\N\n4,bad\"\n")
	_, err := readAll(t, split(t, p), table(t, "a INT", "b STRING"), source.MappingOptions{})
	wantErr(t, err, "line 6") // the multi-line field makes record 4 start on line 6
	p = writeFile(t, dir, "ok.csv", "\xEF\xBB\xBFa,b\r\n1,\"x,\"\"y\"\"\nz\"\r\n2,\"\\N\"\n3,\\N")
	b := readOne(t, p, table(t, "a INT", "b STRING"), source.MappingOptions{})
	s := col(t, b, "b")
	if got := s.ValueStr(0); got != "x,\"y\"\nz" {
		t.Errorf("b[0] = %q", got)
	}
	if s.IsNull(1) || s.ValueStr(1) != `\N` || !s.IsNull(2) {
		t.Errorf("\\N handling: %v", s)
	}
}

func TestNestedText(t *testing.T) {
	dir := t.TempDir()
	tbl := table(t, "tags ARRAY<INT>", "attrs MAP<STRING, DECIMAL(4, 1)>", "addr ROW<city STRING, zip INT NOT NULL>")
	p := writeFile(t, dir, "n.jsonl", `{"tags":[1,null,"3"],"attrs":{"a":1.5,"b":null},"Addr":{"CITY":"Oslo","zip":150}}`+"\n"+`{}`)
	b := readOne(t, p, tbl, source.MappingOptions{})
	if got := col(t, b, "tags").ValueStr(0); got != "[1,null,3]" {
		t.Errorf("tags = %s", got)
	}
	if got := col(t, b, "addr").ValueStr(0); got != `{"city":"Oslo","zip":150}` {
		t.Errorf("addr = %s", got)
	}
	for _, c := range []string{"tags", "attrs", "addr"} {
		if !col(t, b, c).IsNull(1) {
			t.Errorf("%s row 1 not null", c)
		}
	}
	pc := writeFile(t, dir, "n.csv", "tags,attrs,addr\n\"[1,2]\",\"{\"\"k\"\":\"\"2.5\"\"}\",\"{\"\"city\"\":null,\"\"zip\"\":1}\"\n")
	b = readOne(t, pc, tbl, source.MappingOptions{})
	if got := col(t, b, "tags").ValueStr(0); got != "[1,2]" {
		t.Errorf("csv tags = %s", got)
	}
	_, err := readAll(t, split(t, writeFile(t, dir, "bad.jsonl", `{"tags":[1,"x"]}`)), tbl, source.MappingOptions{})
	wantErr(t, err, "bad.jsonl", "line 1", `column "tags[1]"`, `"x"`)
	_, err = readAll(t, split(t, writeFile(t, dir, "bad2.jsonl", `{"addr":{"city":"x"}}`)), tbl, source.MappingOptions{})
	wantErr(t, err, "bad2.jsonl", "line 1", `column "addr.zip"`, "NOT NULL")
	_, err = readAll(t, split(t, writeFile(t, dir, "bad3.jsonl", `{"attrs":{"k":1.25}}`)), tbl, source.MappingOptions{})
	wantErr(t, err, "bad3.jsonl", `column "attrs[\"k\"]"`, "1.25")
	_, err = readAll(t, split(t, writeFile(t, dir, "bad4.csv", "tags\n\"[1,\"\n")), tbl, source.MappingOptions{})
	wantErr(t, err, "bad4.csv", "line 2", `column "tags"`, "JSON")
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
