package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// mainEnv makes the test binary behave as the lakeload binary (see TestMain and TestBinaryExitCodes).
const mainEnv = "LAKELOAD_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		if hwm := os.Getenv(hwmEnv); hwm != "" { // as main, then record the peak RSS (cli_limits_test.go)
			code := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
			writePeakRSS(hwm)
			os.Exit(code)
		}
		main() // os.Args[1:] are the lakeload arguments
		return
	}
	code := m.Run()
	removeSharedInputs()
	os.Exit(code)
}

// result is one lakeload invocation's output and exit code.
type result struct {
	stdout, stderr string
	code           int
}

// lakeload runs one command line in-process through run, exactly as main does.
func lakeload(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return result{out.String(), errb.String(), code}
}

// ok runs a command line that must succeed and returns its stdout.
func ok(t *testing.T, args ...string) string {
	t.Helper()
	r := lakeload(t, args...)
	if r.code != 0 {
		t.Fatalf("lakeload %s: exit %d\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r.stdout
}

// fails runs a command line that must exit with code and a stderr containing every part of want.
func fails(t *testing.T, code int, want []string, args ...string) result {
	t.Helper()
	r := lakeload(t, args...)
	if r.code != code {
		t.Errorf("lakeload %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "lakeload: ") {
		t.Errorf("lakeload %s: stderr %q does not start with \"lakeload: \"", strings.Join(args, " "), r.stderr)
	}
	if n := strings.Count(strings.TrimSuffix(r.stderr, "\n"), "\n"); n > 0 {
		t.Errorf("lakeload %s: the error is %d lines, want one (docs/cli.md): %q", strings.Join(args, " "), n+1, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("lakeload %s: stderr %q does not mention %q", strings.Join(args, " "), r.stderr, w)
		}
	}
	return r
}

// tbl returns the flags naming table db.name in warehouse wh, followed by more.
func tbl(wh, name string, more ...string) []string {
	return append([]string{"--warehouse", wh, "--table", name}, more...)
}

func cmdArgs(cmd []string, rest []string) []string {
	return append(append([]string{}, cmd...), rest...)
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeParquet writes rec to path as a Parquet file.
func writeParquet(t *testing.T, path string, rec arrow.RecordBatch) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, nil, pqarrow.DefaultWriterProps())
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

// canonJSONL re-encodes each JSON object line with sorted keys (numbers kept as written) and sorts the
// lines, so `lakeload scan` output (schema-ordered keys) compares with the oracles' (sorted keys).
func canonJSONL(t *testing.T, lines []string) []string {
	t.Helper()
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("not a JSON object line: %q: %v", l, err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// sameLines fails with both sides when the sorted line sets differ.
func sameLines(t *testing.T, what string, want, got []string) {
	t.Helper()
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("%s differ\nwant (%d):\n  %s\ngot (%d):\n  %s", what, len(want), strings.Join(want, "\n  "),
			len(got), strings.Join(got, "\n  "))
	}
}

// dataFiles lists the Parquet data files under a table directory.
func dataFiles(t *testing.T, tableDir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(tableDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// eventsCSVTable creates table name (id BIGINT, v STRING) in a new warehouse and writes files CSV
// inputs of rows rows each (ids unique across files, v = "f<file>"), named by nameFmt (a %d for the
// file's index). It returns the warehouse and the input directory.
func eventsCSVTable(t *testing.T, name string, files, rows int, nameFmt string) (wh, in string) {
	t.Helper()
	wh, in = t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, name, "--column", "id BIGINT", "--column", "v STRING"))...)
	for f := range files {
		var b strings.Builder
		b.WriteString("id,v\n")
		for r := range rows {
			fmt.Fprintf(&b, "%d,f%d\n", f*rows+r, f)
		}
		writeFile(t, in, fmt.Sprintf(nameFmt, f), b.String())
	}
	return wh, in
}
