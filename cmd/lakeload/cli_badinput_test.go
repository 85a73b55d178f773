package main

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

var updateBadInput = flag.Bool("update-bad-input", false, "rewrite the generated table of docs/bad-input.md")

const badInputDoc = "../../docs/bad-input.md"

// badTableCols is the table every bad-input case loads into (bucket=1, primary key id).
var badTableCols = []string{"id INT NOT NULL", "name VARCHAR(5)", "c CHAR(3)", "amt DECIMAL(5, 2)", "d DATE", "ts TIMESTAMP(3)", "s STRING"}

const (
	badHeader = "id,name,c,amt,d,ts,s\n"
	goodRow1  = "1,ann,abc,1.50,2024-01-01,2024-01-01 10:00:00,x\n"
	goodRow2  = "2,bob,de,2.25,2024-01-02,2024-01-02 11:00:00,y\n"
)

// badCase is one bad input: what is written, the failure the user must see, and the fix.
type badCase struct {
	name  string
	setup func(t *testing.T, dir string) // writes the bad input
	fix   func(t *testing.T, dir string) // writes the fixed input; nil: nothing to fix in the input
	from  string                         // glob under dir
	args  []string                       // more load flags
	table []string                       // more table create flags
	cols  []string                       // the table's columns; nil: badTableCols
	code  int
	want  []string // message parts; {in} is the input directory
	// snapshots is the table's snapshot count after the failure (windows of good files before the bad one).
	snapshots int
	rows      []string // id:name of every row after the fix and resume
}

func textFile(name, content string) func(*testing.T, string) {
	return func(t *testing.T, dir string) { writeFile(t, dir, name, content) }
}

func both(fs ...func(*testing.T, string)) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		for _, f := range fs {
			f(t, dir)
		}
	}
}

// badParquet writes rows (JSON) with an Arrow schema as Parquet, snappy-compressed.
func badParquet(name string, schema *arrow.Schema, rows string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(rows))
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy)), pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// invalidUTF8Parquet writes two rows whose second "s" holds the bytes ff fe (a Parquet STRING column
// is not validated by the writer).
func invalidUTF8Parquet(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		b := array.NewRecordBuilder(memory.DefaultAllocator, pqSchema)
		defer b.Release()
		b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
		b.Field(1).(*array.StringBuilder).AppendValues([]string{"ann", "bob"}, nil)
		b.Field(2).(*array.StringBuilder).AppendValues([]string{"x", string([]byte{0xff, 0xfe})}, nil)
		rec := b.NewRecordBatch()
		defer rec.Release()
		writeParquet(t, filepath.Join(dir, name), rec)
	}
}

// damage rewrites a file: keep(b) returns the damaged bytes.
func damage(name string, keep func([]byte) []byte) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, keep(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	pqSchema = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	pqSchema64 = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	pqRows     = `[{"id":1,"name":"ann","s":"x"},{"id":2,"name":"bob","s":"y"}]`
)

// damagedCases are the damaged Parquet files (footer, page data, truncation): the first rows of
// docs/bad-input.md, and cases of the hostile corpus that held before issue 14.
func damagedCases() []badCase {
	pqGood := badParquet("in.parquet", pqSchema, pqRows)
	return []badCase{
		{name: "corrupt Parquet (damaged footer)", setup: both(pqGood, damage("in.parquet", func(b []byte) []byte {
			for i := len(b) - 40; i < len(b)-8; i++ {
				b[i] = 0xee
			}
			return b
		})), fix: pqGood, from: "in.parquet", code: exitInput,
			want: []string{"file {in}/in.parquet", "byte", "Parquet", "re-export"}, rows: []string{"1:ann", "2:bob"}},
		{name: "corrupt Parquet (damaged page data)", setup: both(pqGood, damage("in.parquet", func(b []byte) []byte {
			for i := 8; i < 40; i++ {
				b[i] ^= 0x5a
			}
			return b
		})), fix: pqGood, from: "in.parquet", code: exitInput,
			want: []string{"file {in}/in.parquet", "rows from 1", "row group 0", "bytes", "re-export"}, rows: []string{"1:ann", "2:bob"}},
		{name: "truncated Parquet", setup: both(pqGood, damage("in.parquet", func(b []byte) []byte { return b[:len(b)/2] })),
			fix: pqGood, from: "in.parquet", code: exitInput,
			want: []string{"file {in}/in.parquet", "byte", "Parquet", "re-export"}, rows: []string{"1:ann", "2:bob"}},
	}
}

func badInputCases() []badCase {
	good := textFile("in.csv", badHeader+goodRow1+goodRow2)
	csvCase := func(name, badRow string, want ...string) badCase {
		return badCase{name: name, setup: textFile("in.csv", badHeader+goodRow1+badRow), fix: good, from: "in.csv",
			code: exitInput, want: append([]string{"file {in}/in.csv", "row 2 (line 3)"}, want...), rows: []string{"1:ann", "2:bob"}}
	}
	// Three one-row files, one window each: the third drifts, the first two stay committed.
	drift := func(name, third string, fixed string, want ...string) badCase {
		return badCase{name: name,
			setup: both(textFile("f1.csv", badHeader+goodRow1), textFile("f2.csv", badHeader+goodRow2), textFile("f3.csv", third)),
			fix:   textFile("f3.csv", fixed), from: "f*.csv", args: []string{"--commit-rows", "1"}, code: exitInput,
			want: append([]string{"file {in}/f3.csv"}, want...), snapshots: 2, rows: []string{"1:ann", "2:bob", "3:cy"}}
	}
	cases := append(damagedCases(), []badCase{
		csvCase("CSV row with the wrong column count", "2,bob\n", `column "(row)"`, "2 fields but the header has 7", "fix the row"),
		{name: "JSONL value of the wrong type", setup: textFile("in.jsonl", `{"id":1,"name":"ann"}`+"\n"+`{"id":"two","name":"bob"}`+"\n"),
			fix: textFile("in.jsonl", `{"id":1,"name":"ann"}`+"\n"+`{"id":2,"name":"bob"}`+"\n"), from: "in.jsonl", code: exitInput,
			want: []string{"file {in}/in.jsonl", "row 2 (line 2)", `column "id"`, `bad value "two"`, "expected INT"}, rows: []string{"1:ann", "2:bob"}},
		drift("schema drift: column renamed in file 3", "id,nm\n3,cy\n", "id,name\n3,cy\n", `input column "nm" matches no table column`, "--ignore-extra-columns"),
		drift("schema drift: NOT NULL column missing in file 3", "name\ncy\n", "id,name\n3,cy\n", `"id"`, "NOT NULL"),
		{name: "schema drift: column type changed in file 3",
			setup: both(textFile("f1.csv", badHeader+goodRow1), textFile("f2.csv", badHeader+goodRow2),
				badParquet("f3.parquet", pqSchema64, `[{"id":3,"name":"cy"}]`)),
			fix: badParquet("f3.parquet", pqSchema, `[{"id":3,"name":"cy"}]`), from: "f*", args: []string{"--commit-rows", "1"}, code: exitInput,
			want:      []string{"file {in}/f3.parquet", `column "id"`, "int64", "INT", "convert the input column or change the table column type"},
			snapshots: 2, rows: []string{"1:ann", "2:bob", "3:cy"}},
		csvCase("null in a primary-key column", ",bob,de,2.25,2024-01-02,2024-01-02 11:00:00,y\n", `column "id"`, "NOT NULL"),
		csvCase("INT overflow", "3000000000,bob,de,2.25,2024-01-02,2024-01-02 11:00:00,y\n", `column "id"`, `"3000000000"`, "-2147483648 to 2147483647"),
		csvCase("DECIMAL precision", "2,bob,de,1234.5,2024-01-02,2024-01-02 11:00:00,y\n", `column "amt"`, `"1234.5"`, "DECIMAL(5, 2)", "at most 3 integer"),
		csvCase("VARCHAR(5) too long", "2,bobby-joe,de,2.25,2024-01-02,2024-01-02 11:00:00,y\n", `column "name"`, "at most 5 characters", "VARCHAR(5)"),
		csvCase("CHAR(3) too long", "2,bob,defg,2.25,2024-01-02,2024-01-02 11:00:00,y\n", `column "c"`, "at most 3 characters", "CHAR(3)"),
		csvCase("bad date", "2,bob,de,2.25,2024-02-30,2024-01-02 11:00:00,y\n", `column "d"`, `"2024-02-30"`, "YYYY-MM-DD"),
		csvCase("bad timestamp", "2,bob,de,2.25,2024-01-02,2024-01-02 25:00:00,y\n", `column "ts"`, `"2024-01-02 25:00:00"`, "TIMESTAMP(3)"),
		csvCase("invalid UTF-8 in a STRING column (CSV)", "2,bob,de,2.25,2024-01-02,2024-01-02 11:00:00,\xff\xfe\n", `column "s"`, "UTF-8"),
		{name: "invalid UTF-8 in a STRING column (Parquet)", setup: invalidUTF8Parquet("in.parquet"),
			fix: badParquet("in.parquet", pqSchema, pqRows), from: "in.parquet", code: exitInput,
			want: []string{"file {in}/in.parquet", "row 2", `column "s"`, "UTF-8"}, rows: []string{"1:ann", "2:bob"}},
		{name: "zero-byte CSV file", setup: textFile("in.csv", ""), fix: good, from: "in.csv", code: exitInput,
			want: []string{"file {in}/in.csv", "empty", "header"}, rows: []string{"1:ann", "2:bob"}},
		{name: "missing file", setup: func(*testing.T, string) {}, fix: good, from: "in.csv", code: exitInput,
			want: []string{"{in}/in.csv", "matches no files"}, rows: []string{"1:ann", "2:bob"}},
		{name: "glob matching nothing", setup: func(*testing.T, string) {}, fix: good, from: "*.csv", code: exitInput,
			want: []string{"{in}/*.csv", "matches no files", "check the pattern"}, rows: []string{"1:ann", "2:bob"}},
		{name: "unknown column", setup: textFile("in.csv", "id,name,zzz\n1,ann,q\n"), fix: textFile("in.csv", "id,name\n1,ann\n"),
			from: "in.csv", code: exitInput, want: []string{"file {in}/in.csv", `"zzz"`, "--ignore-extra-columns"}, rows: []string{"1:ann"}},
		{name: "table lakeload cannot write: changelog-producer=input", setup: good, from: "in.csv",
			table: []string{"--option", "changelog-producer=input"}, code: exitTable, want: []string{"changelog-producer=input", "use 'none'"}},
		{name: "table lakeload cannot write: file.format=orc", setup: good, from: "in.csv",
			table: []string{"--option", "file.format=orc"}, code: exitTable, want: []string{"file.format=orc", "'file.format'='parquet'"}},
	}...)
	cases = append(cases, hostileCases()...)
	if os.Geteuid() != 0 {
		cases = append(cases, badCase{name: "unreadable file", setup: both(good, func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "in.csv"), 0); err != nil {
				t.Fatal(err)
			}
		}), fix: func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "in.csv"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, from: "in.csv", code: exitInput, want: []string{"{in}/in.csv", "permission denied"}, rows: []string{"1:ann", "2:bob"}})
	}
	return cases
}

// TestBadInput runs every bad input of docs/bad-input.md through `lakeload load`: the exit code, a
// message naming the file, row, column and what to do, no new snapshot for the failing window, and
// — after fixing the input — the same command resumes and the table holds exactly the expected rows.
// As root the chmod-000 case cannot fail (root reads it anyway), so it runs only for other users; the
// unreadable-file error path is covered by the errorfs sweep (internal/sweep). Regenerate the doc
// table with `go test ./cmd/lakeload -run TestBadInput -update-bad-input`.
func TestBadInput(t *testing.T) {
	var doc strings.Builder
	for i, c := range badInputCases() {
		t.Run(c.name, func(t *testing.T) {
			wh, in := t.TempDir(), t.TempDir()
			create := []string{"table", "create"}
			create = append(create, tbl(wh, "s.t")...)
			cols := badTableCols
			if c.cols != nil {
				cols = c.cols
			}
			for _, col := range cols {
				create = append(create, "--column", col)
			}
			create = append(create, "--primary-key", "id", "--option", "bucket=1")
			ok(t, append(create, c.table...)...)
			c.setup(t, in)
			args := cmdArgs([]string{"load"}, tbl(wh, "s.t", append([]string{"--from", filepath.Join(in, c.from), "--job", fmt.Sprintf("case%d", i)}, c.args...)...))
			want := make([]string, len(c.want))
			for k, w := range c.want {
				want[k] = strings.ReplaceAll(w, "{in}", in)
			}
			r := lakeload(t, args...)
			if r.code != c.code {
				t.Errorf("exit %d, want %d\nstderr: %s", r.code, c.code, r.stderr)
			}
			_, msg, found := strings.Cut(r.stderr, "lakeload: ") // after the progress log lines
			if !found {
				t.Fatalf("no error message in stderr %q", r.stderr)
			}
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not mention %q", msg, w)
				}
			}
			msg = strings.SplitN(strings.ReplaceAll(strings.ReplaceAll(msg, in, "in"), wh, "wh"), "\n", 2)[0]
			msg = strings.TrimSuffix(msg, "; "+rerunAdvice+" to resume once the cause is fixed") // said once above the table
			fmt.Fprintf(&doc, "| %s | %d | `%s` |\n", c.name, c.code, strings.ReplaceAll(msg, "|", `\|`))
			if n := len(lines(ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "s.t", "--output", "jsonl"))...))); n != c.snapshots {
				t.Errorf("%d snapshots after the failure, want %d (the failing window must commit nothing)", n, c.snapshots)
			}
			if c.fix == nil {
				return
			}
			unlinkShared(t, in) // the fix must not write through a link to a cached input
			c.fix(t, in)
			ok(t, args...)
			sameLines(t, "rows after the fix", c.rows, idNames(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--output", "jsonl"))...)))
		})
	}
	checkGenerated(t, badInputDoc, "bad-input", doc.String(), *updateBadInput, "go test ./cmd/lakeload -run TestBadInput -update-bad-input")
}

// TestEmptyInputLoadsNothing: a CSV file with a header only, and an empty JSON Lines file, load no rows
// without an error and create no snapshot.
func TestEmptyInputLoadsNothing(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.t", "--column", "id INT NOT NULL", "--column", "name STRING",
		"--primary-key", "id", "--option", "bucket=1"))...)
	writeFile(t, in, "a.csv", "id,name\n")
	writeFile(t, in, "b.jsonl", "")
	for i, f := range []string{"a.csv", "b.jsonl"} {
		out := ok(t, cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", filepath.Join(in, f), "--job", fmt.Sprintf("e%d", i)))...)
		if !strings.Contains(out, "0 rows written") {
			t.Errorf("%s: %q", f, out)
		}
	}
	if s := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "s.t", "--output", "jsonl"))...); s != "" {
		t.Errorf("empty input made snapshots: %s", s)
	}
}

// idNames returns "id:name" of every scanned row, sorted.
func idNames(t *testing.T, out string) []string {
	t.Helper()
	var res []string
	for _, l := range lines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("scan line %q: %v", l, err)
		}
		res = append(res, fmt.Sprintf("%v:%v", m["id"], m["name"]))
	}
	slices.Sort(res)
	return res
}

// checkGenerated compares the section between "<!-- generated:name -->" and "<!-- end:name -->" of a
// doc with body, rewriting it when update is set.
func checkGenerated(t *testing.T, path, name, body string, update bool, how string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	begin, end := "<!-- generated:"+name+" -->\n", "<!-- end:"+name+" -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the markers %q ... %q", path, begin, end)
	}
	want := doc[:i+len(begin)] + body + doc[j:]
	if want == doc {
		return
	}
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	t.Errorf("%s is out of date: run %s", path, how)
}

// TestBadRowsQuarantine: with --bad-rows=quarantine the good rows load, each bad row (CSV and JSONL,
// several kinds of row-level problem) is listed once in the committed attempt's quarantine file with
// its file, row, column, reason and raw text, `lakeload status` shows the count and the files (text
// and JSON), a file-level problem still fails, and a bad --bad-rows value is a usage error.
func TestBadRowsQuarantine(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	create := cmdArgs([]string{"table", "create"}, tbl(wh, "s.t"))
	for _, col := range badTableCols {
		create = append(create, "--column", col)
	}
	ok(t, append(create, "--primary-key", "id", "--option", "bucket=1")...)
	writeFile(t, in, "a.csv", badHeader+goodRow1+"2,bob\n"+",nul,de,2.25,2024-01-02,2024-01-02 11:00:00,y\n"+
		"3,cy,de,2.25,2024-01-02,2024-01-02 11:00:00,\xff\n"+"4,dee,de,2.25,2024-01-02,2024-01-02 11:00:00,z\n")
	writeFile(t, in, "b.jsonl", `{"id":5,"name":"eve"}`+"\n"+`{"id":"six"}`+"\n"+`{"id":7,"name":"toolongname"}`+"\n"+`not json`+"\n"+`{"id":8,"name":"fay"}`+"\n")
	load := cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", filepath.Join(in, "*"), "--job", "q", "--bad-rows", "quarantine"))
	out := ok(t, load...)
	if !strings.Contains(out, "rows quarantined by this run: 6") {
		t.Errorf("load output %q lacks the quarantine count", out)
	}
	sameLines(t, "rows", []string{"1:ann", "4:dee", "5:eve", "8:fay"}, idNames(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--output", "jsonl"))...)))

	var st struct {
		RowsQuarantined int64    `json:"rowsQuarantined"`
		QuarantineFiles []string `json:"quarantineFiles"`
	}
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, "s.t", "--job", "q", "--output", "json"))...)), &st); err != nil {
		t.Fatal(err)
	}
	if st.RowsQuarantined != 6 || len(st.QuarantineFiles) != 1 {
		t.Fatalf("status json: %+v", st)
	}
	text := ok(t, cmdArgs([]string{"status"}, tbl(wh, "s.t", "--job", "q"))...)
	if !strings.Contains(text, "rows quarantined: 6 (see "+st.QuarantineFiles[0]+")") {
		t.Errorf("status text lacks the quarantine line:\n%s", text)
	}
	b, err := os.ReadFile(st.QuarantineFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines(string(b)) {
		var r struct {
			File, Column, Reason, Raw, RawBase64 string
			Row                                  int64
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("quarantine line %q: %v", l, err)
		}
		if r.Reason == "" || r.Raw == "" {
			t.Errorf("quarantine entry without reason or raw text: %s", l)
		}
		e := fmt.Sprintf("%s:%d:%s:%s", filepath.Base(r.File), r.Row, r.Column, r.Raw)
		if r.RawBase64 != "" {
			raw, err := base64.StdEncoding.DecodeString(r.RawBase64)
			if err != nil {
				t.Fatal(err)
			}
			e += " raw bytes " + string(raw)
		}
		got = append(got, e)
	}
	sameLines(t, "quarantine entries", []string{
		"a.csv:2:(row):2,bob",
		"a.csv:3:id:,nul,de,2.25,2024-01-02,2024-01-02 11:00:00,y",
		"a.csv:4:s:3,cy,de,2.25,2024-01-02,2024-01-02 11:00:00,\ufffd raw bytes 3,cy,de,2.25,2024-01-02,2024-01-02 11:00:00,\xff",
		`b.jsonl:2:id:{"id":"six"}`,
		`b.jsonl:3:name:{"id":7,"name":"toolongname"}`,
		"b.jsonl:4:(line):not json",
	}, got)

	// File-level problems still fail; a bad flag value is a usage error.
	writeFile(t, in, "c.csv", "id,zzz\n9,q\n")
	fails(t, exitInput, []string{"c.csv", `"zzz"`}, cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", filepath.Join(in, "c.csv"), "--job", "q2", "--bad-rows", "quarantine"))...)
	fails(t, exitUsage, []string{`--bad-rows "skip"`}, cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", filepath.Join(in, "c.csv"), "--job", "q3", "--bad-rows", "skip"))...)
}
