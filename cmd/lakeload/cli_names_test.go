package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/job"
)

// TestBadNamesRefused: `table create` refuses database, table and column names that could point
// outside the warehouse or hide in it, or that carry control characters (exit 4, the name quoted), and
// creates nothing.
func TestBadNamesRefused(t *testing.T) {
	wh := t.TempDir()
	create := func(table string, cols ...string) []string {
		args := cmdArgs([]string{"table", "create"}, tbl(wh, table))
		for _, c := range cols {
			args = append(args, "--column", c)
		}
		return args
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"database with a control character", create("d\x01b.t", "k INT"), `database name "d\x01b"`},
		{"database with a leading dot", create(".hidden.t", "k INT"), "invalid name"},
		{"table with a newline", create("db.t\nx", "k INT"), `table name "t\nx"`},
		{"table with a slash", create("db.a/b", "k INT"), `table name "a/b"`},
		{"column with a slash", create("db.t", "k INT", "a/b INT"), `column name "a/b"`},
		{"column with ..", create("db.t", "k INT", "a..b INT"), `column name "a..b"`},
		{"column with a leading dot", create("db.t", "k INT", ".x INT"), `column name ".x"`},
		{"column with a control character", create("db.t", "k INT", "a\x7fb INT"), `column name "a\x7fb"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := lakeload(t, c.args...)
			if r.code != exitTable && r.code != exitUsage {
				t.Errorf("exit %d, want %d (or %d when the command line parser refuses it)\nstderr: %s", r.code, exitTable, exitUsage, r.stderr)
			}
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr %q does not name %q", r.stderr, c.want)
			}
		})
	}
	entries, _ := os.ReadDir(wh)
	for _, e := range entries {
		if ok, _ := filepath.Glob(filepath.Join(wh, e.Name(), "*", "schema")); len(ok) > 0 {
			t.Errorf("a table was created under %s", e.Name())
		}
	}
}

// TestPartitionValuesStayInTable: a load whose partition values hold '/', '..', '=', '%', control
// characters and newlines writes every file inside the table directory (Java's partition path
// escaping), lakeload scans the values back unchanged, and Java Paimon reads the same rows. pypaimon
// reads the rows whose values need no escaping (it cannot place escaped values, see
// internal/compat partition_escaping).
func TestPartitionValuesStayInTable(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.p", "--column", "p STRING", "--column", "v INT",
		"--partition-key", "p"))...)
	values := []string{"../../../escape", "..", "a/b", "x=y", "50%", "ctl\x01z", "new\nline", ".hidden", "plain"}
	var b strings.Builder
	b.WriteString("p,v\n")
	for i, v := range values {
		b.WriteString(`"` + strings.ReplaceAll(v, `"`, `""`) + `",` + string(rune('0'+i)) + "\n")
	}
	writeFile(t, in, "in.csv", b.String())
	ok(t, cmdArgs([]string{"load"}, tbl(wh, "db.p", "--from", filepath.Join(in, "in.csv"), "--job", "esc"))...)

	tableDir := filepath.Join(wh, "db.db", "p")
	err := filepath.WalkDir(wh, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasPrefix(p, tableDir+"/") && !strings.HasPrefix(p, filepath.Join(wh, ".lakeload")+"/") {
			t.Errorf("file outside the table directory and the job store: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	parts, _ := os.ReadDir(tableDir)
	for _, e := range parts {
		if strings.HasPrefix(e.Name(), "p=") && strings.ContainsAny(e.Name()[2:], "/\n\x01=") {
			t.Errorf("partition directory %q is not escaped", e.Name())
		}
	}
	got := canonJSONL(t, lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "db.p", "--output", "jsonl"))...)))
	if len(got) != len(values) {
		t.Fatalf("scan printed %d rows, want %d: %v", len(got), len(values), got)
	}
	for _, v := range values {
		if !strings.Contains(strings.Join(got, "\n"), `"p":`+jsonString(t, v)) {
			t.Errorf("value %q not scanned back: %v", v, got)
		}
	}
	sameLines(t, "Java vs lakeload scan", canonJSONL(t, oracle.Java(t).Read(tableDir, oracle.ReadOpts{})), got)
	pyRows := canonJSONL(t, oracle.Py(t).Read(tableDir, oracle.ReadOpts{Filter: oracle.Eq("p", "plain")}))
	sameLines(t, "pypaimon vs lakeload scan (unescaped partition)", pyRows, []string{`{"p":"plain","v":8}`})
}

// TestCheckpointStoreOfAnotherJob: a checkpoint store belongs to one table and one input: reusing it
// (--checkpoint) for another table or another --from is refused with a message naming the field and
// saying what to do, and commits nothing.
func TestCheckpointStoreOfAnotherJob(t *testing.T) {
	wh, in, store := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "store")
	for _, name := range []string{"db.a", "db.b"} {
		ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, name, "--column", "k INT"))...)
	}
	one := writeFile(t, in, "1.csv", "k\n1\n")
	two := writeFile(t, in, "2.csv", "k\n2\n")
	ok(t, cmdArgs([]string{"load"}, tbl(wh, "db.a", "--from", one, "--job", "j", "--checkpoint", store))...)
	r := lakeload(t, cmdArgs([]string{"load"}, tbl(wh, "db.b", "--from", one, "--job", "j", "--checkpoint", store))...)
	if r.code == exitOK || !strings.Contains(r.stderr, "table path") || !strings.Contains(r.stderr, filepath.Join(wh, "db.db", "a")) ||
		!strings.Contains(r.stderr, "start a new job") {
		t.Errorf("another table with the store: exit %d, stderr %q", r.code, r.stderr)
	}
	r = lakeload(t, cmdArgs([]string{"load"}, tbl(wh, "db.a", "--from", two, "--job", "j", "--checkpoint", store))...)
	if r.code == exitOK || !strings.Contains(r.stderr, "option from") || !strings.Contains(r.stderr, "start a new job") {
		t.Errorf("another input with the store: exit %d, stderr %q", r.code, r.stderr)
	}
	if s := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "db.b", "--output", "jsonl"))...); s != "" {
		t.Errorf("refused run committed to db.b: %s", s)
	}
	if n := len(lines(ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "db.a", "--output", "jsonl"))...))); n != 1 {
		t.Errorf("db.a has %d snapshots, want 1", n)
	}
}

// jsonString is v as a JSON string literal, the way canonJSONL encodes it.
func jsonString(t *testing.T, v string) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUnsafeNamesRefused (issue 14, finding 8): job names with newlines, quotes or bidi overrides
// (which forged or disguised lines of `jobs list`) are refused by load and the other job commands
// (exit 2, the name quoted so control characters show, the allowed set named) before anything is
// written; a table name with a right-to-left override is refused like one with a control
// character (exit 2: --table is refused as it is parsed). A store directory such a name left (made
// by hand or by an older lakeload) is listed quoted, on one line.
func TestUnsafeNamesRefused(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.t", "--column", "k INT"))...)
	from := writeFile(t, in, "in.csv", "k\n1\n")
	for _, name := range []string{"a\nb", `x" finished 3`, "evil\u202etxt", "tab\tx", "a\x00b"} {
		for _, cmd := range []struct{ words, more []string }{{[]string{"load"}, []string{"--from", from}},
			{[]string{"status"}, nil}, {[]string{"job", "forget"}, nil}} {
			args := cmdArgs(cmd.words, tbl(wh, "db.t", append([]string{"--job", name}, cmd.more...)...))
			fails(t, exitUsage, []string{"invalid job name " + strconv.Quote(name), job.NameRule}, args...)
		}
	}
	if _, err := os.Stat(filepath.Join(wh, ".lakeload", "jobs")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused job name left a store (%v)", err)
	}
	fails(t, exitUsage, []string{`table name "evil\u202etxt"`, "bidi"},
		cmdArgs([]string{"table", "create"}, tbl(wh, "db.evil\u202etxt", "--column", "k INT"))...)

	ok(t, cmdArgs([]string{"load"}, tbl(wh, "db.t", "--from", from, "--job", "good"))...)
	forged := "x\nforged  finished  9"
	if err := os.MkdirAll(filepath.Join(wh, ".lakeload", "jobs", "db", "t", forged), 0o755); err != nil {
		t.Fatal(err)
	}
	out := lines(ok(t, cmdArgs([]string{"jobs", "list"}, tbl(wh, "db.t"))...))
	if len(out) != 3 || !strings.HasPrefix(out[1], "good ") || !strings.HasPrefix(out[2], strconv.Quote(forged)+" ") {
		t.Errorf("jobs list:\n%s", strings.Join(out, "\n"))
	}
}
