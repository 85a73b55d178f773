package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadCSVDialectFlags (issue 15, finding 4): --csv-delimiter (incl. tab), --csv-quote and
// --csv-header=false load the files they describe; the dialect is recorded with the job, so a rerun
// with another one is refused with exit 2 before anything is written; bad values are usage errors.
func TestLoadCSVDialectFlags(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.t", "--column", "id INT NOT NULL", "--column", "name STRING",
		"--primary-key", "id", "--option", "bucket=1"))...)
	semi := writeFile(t, in, "semi.csv", "id;name\n1;'a;b'\n2;'it''s\nmultiline'\n")
	tab := writeFile(t, in, "tab.csv", "3\t\"x,y\"\n4\tz\n")
	load := func(job, from string, extra ...string) []string {
		return cmdArgs([]string{"load"}, tbl(wh, "s.t", append([]string{"--from", from, "--job", job}, extra...)...))
	}
	ok(t, load("semi", semi, "--csv-delimiter", ";", "--csv-quote", "'")...)
	ok(t, load("tab", tab, "--csv-delimiter", `\t`, "--csv-header=false")...)
	got := idNames(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--output", "jsonl"))...))
	want := []string{"1:a;b", "2:it's\nmultiline", "3:x,y", "4:z"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows %q, want %q", got, want)
	}
	// The same job with another dialect: refused (exit 2), naming the option.
	for _, other := range [][]string{
		{"--csv-delimiter", ","}, {"--csv-delimiter", ";"}, {"--csv-delimiter", ";", "--csv-quote", `"`},
	} {
		fails(t, exitUsage, []string{"job semi was created with option csv-"}, load("semi", semi, other...)...)
	}
	fails(t, exitUsage, []string{"csv-header"}, load("tab", tab, "--csv-delimiter", "tab")...)
	ok(t, load("tab", tab, "--csv-delimiter", "tab", "--csv-header=false")...) // "tab" = `\t`: the same job, done
	for _, bad := range [][]string{{"--csv-delimiter", ";;"}, {"--csv-quote", ""}, {"--csv-delimiter", "\n"}, {"--csv-delimiter", "'", "--csv-quote", "'"}} {
		r := lakeload(t, load("bad", semi, bad...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--csv-") {
			t.Errorf("%q: exit %d, %q; want a usage error naming the flag", bad, r.code, r.stderr)
		}
	}
}

// TestLoadDirectoryInput (issue 15, finding 4): --from a directory loads every file under it
// (formats by extension, hidden files skipped), a ** glob the files it matches; a file whose
// format the extension does not tell is an error naming it and --format.
func TestLoadDirectoryInput(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.t", "--column", "id INT NOT NULL", "--column", "name STRING",
		"--primary-key", "id", "--option", "bucket=1"))...)
	for p, c := range map[string]string{
		"a.csv": "id,name\n1,a\n", "d1/b.jsonl": `{"id":2,"name":"b"}` + "\n", "d1/d2/c.csv": "id,name\n3,c\n",
		"_SUCCESS": "", "d1/.c.csv.crc": "junk", "_tmp/x.csv": "id,name\n9,x\n",
	} {
		if err := os.MkdirAll(filepath.Join(in, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, in, p, c)
	}
	ok(t, cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", in, "--job", "dir"))...)
	got := idNames(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--output", "jsonl"))...))
	if want := "1:a|2:b|3:c"; strings.Join(got, "|") != want {
		t.Errorf("rows %q, want %s", got, want)
	}
	writeFile(t, in, "d1/notes.txt", "hello")
	fails(t, exitInput, []string{"d1/notes.txt", "cannot tell its format", "--format"},
		cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", in+"/**", "--job", "star"))...)
}

// TestLoadORCInput (issue 15, finding 4): an ORC file written by pyarrow loads by its extension
// into a primary-key table (one split per file, its rows exact from the footer) and
// scans back with its values.
func TestLoadORCInput(t *testing.T) {
	wh := t.TempDir()
	fixture, err := filepath.Abs("../../source/file/testdata/orders.orc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.o", "--column", "id INT NOT NULL", "--column", "name STRING",
		"--column", "amt DECIMAL(10, 2)", "--column", "ts TIMESTAMP(3)", "--primary-key", "id", "--option", "bucket=2"))...)
	out := ok(t, cmdArgs([]string{"load"}, tbl(wh, "s.o", "--from", fixture, "--job", "orc", "--ignore-extra-columns"))...)
	if !strings.Contains(out, "1500 rows written") {
		t.Errorf("load: %q", out)
	}
	rows := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.o", "--output", "jsonl"))...))
	if len(rows) != 1500 {
		t.Fatalf("%d rows scanned, want 1500", len(rows))
	}
	want := map[string]bool{
		`{"id":0,"name":null,"amt":"0.00","ts":"2024-03-01T12:00:00.000000000"}`:            true,
		`{"id":1234,"name":"name-1234","amt":"12.34","ts":"2024-03-01T12:20:34.234000000"}`: true,
	}
	for _, r := range rows {
		delete(want, r)
	}
	if len(want) != 0 {
		t.Errorf("rows %v not scanned; first rows %q", want, rows[:2])
	}
	fails(t, exitUsage, []string{`--format "avro"`, "orc"}, cmdArgs([]string{"load"}, tbl(wh, "s.o", "--from", fixture, "--job", "x", "--format", "avro"))...)
}
