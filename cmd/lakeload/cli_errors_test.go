package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes: every kind of failure exits with the code exit.go documents and a message naming what
// is at fault (usage 2, input 3, table 4).
func TestExitCodes(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.kv", "--column", "k INT", "--column", "v STRING",
		"--primary-key", "k", "--option", "bucket=1"))...)
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.dv", "--column", "k INT", "--primary-key", "k",
		"--option", "bucket=1", "--option", "deletion-vectors.enabled=true"))...)
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.dyn", "--column", "k INT", "--column", "p INT", "--primary-key", "k", "--partition-key", "p"))...)
	good := writeFile(t, in, "good.csv", "k,v\n1,a\n")
	badInt := writeFile(t, in, "bad.csv", "k,v\n1,a\n2x,b\n")
	badJSON := writeFile(t, in, "bad.jsonl", `{"k":1}`+"\n"+`{"k":"1.5"}`+"\n")

	write := func(table string, more ...string) []string {
		return cmdArgs([]string{"write"}, tbl(wh, table, more...))
	}
	cases := []struct {
		name string
		code int
		want []string
		args []string
	}{
		// usage (2)
		{"bad --table", exitUsage, []string{"--table", `"nodot"`, "<database>.<table>"}, cmdArgs([]string{"scan"}, tbl(wh, "nodot"))},
		{"bad column type", exitUsage, []string{`--column "id BIGINTX"`, "BIGINTX"},
			cmdArgs([]string{"table", "create"}, tbl(wh, "s.x", "--column", "id BIGINTX"))},
		{"column without type", exitUsage, []string{`--column "id"`, "name TYPE"}, cmdArgs([]string{"table", "create"}, tbl(wh, "s.x", "--column", "id"))},
		{"no columns", exitUsage, []string{"--column"}, cmdArgs([]string{"table", "create"}, tbl(wh, "s.x"))},
		{"malformed option", exitUsage, []string{`--option "bucket"`, "key=value"},
			cmdArgs([]string{"table", "create"}, tbl(wh, "s.x", "--column", "k INT", "--option", "bucket"))},
		{"invalid option value", exitUsage, []string{"bucket"},
			cmdArgs([]string{"table", "create"}, tbl(wh, "s.x", "--column", "k INT", "--option", "bucket=many"))},
		{"unknown primary key", exitUsage, []string{"nope"},
			cmdArgs([]string{"table", "create"}, tbl(wh, "s.x", "--column", "k INT", "--primary-key", "nope"))},
		{"missing required flag", exitUsage, []string{`"table" not set`}, []string{"scan", "--warehouse", wh}},
		{"unknown flag", exitUsage, []string{"--bogus", "lakeload scan --help"}, cmdArgs([]string{"scan"}, tbl(wh, "s.kv", "--bogus"))},
		{"unknown command", exitUsage, []string{`unknown command "bogus"`}, []string{"bogus"}},
		{"unknown subcommand", exitUsage, []string{`unknown command "bogus" for "lakeload table"`}, []string{"table", "bogus"}},
		{"stray argument", exitUsage, []string{`"extra"`}, cmdArgs([]string{"scan", "extra"}, tbl(wh, "s.kv"))},
		{"write without --from", exitUsage, []string{"--from is required"}, write("s.kv")},
		{"bad --format", exitUsage, []string{`--format "xml"`}, write("s.kv", "--from", good, "--format", "xml")},
		{"bad --time-zone", exitUsage, []string{`--time-zone "Mars/Base"`}, write("s.kv", "--from", good, "--time-zone", "Mars/Base")},
		{"bad scan --output", exitUsage, []string{`--output "xml"`}, cmdArgs([]string{"scan"}, tbl(wh, "s.kv", "--output", "xml"))},
		{"negative --limit", exitUsage, []string{"--limit"}, cmdArgs([]string{"scan"}, tbl(wh, "s.kv", "--limit", "-1"))},
		{"bad snapshots --output", exitUsage, []string{`--output "csv"`}, cmdArgs([]string{"snapshots"}, tbl(wh, "s.kv", "--output", "csv"))},
		{"bad describe --output", exitUsage, []string{`--output "yaml"`}, cmdArgs([]string{"table", "describe"}, tbl(wh, "s.kv", "--output", "yaml"))},
		// input (3)
		{"bad CSV value", exitInput, []string{"file " + badInt, "line 3", `column "k"`, `bad value "2x"`, "INT"}, write("s.kv", "--from", badInt)},
		{"bad JSONL value", exitInput, []string{"file " + badJSON, "line 2", `column "k"`, `bad value "1.5"`}, write("s.kv", "--from", badJSON)},
		{"no input files", exitInput, []string{"matches no files"}, write("s.kv", "--from", filepath.Join(in, "*.parquet"))},
		{"unknown input column", exitInput, []string{`"zzz"`}, write("s.kv", "--from", writeFile(t, in, "extra.csv", "k,zzz\n1,2\n"))},
		// table (4)
		{"missing table", exitTable, []string{"table does not exist: s.nope"}, cmdArgs([]string{"scan"}, tbl(wh, "s.nope"))},
		{"missing table write", exitTable, []string{"table does not exist: s.nope"}, write("s.nope", "--from", good)},
		{"missing table snapshots", exitTable, []string{"table does not exist: s.nope"}, cmdArgs([]string{"snapshots"}, tbl(wh, "s.nope"))},
		{"table exists", exitTable, []string{"table already exists: s.kv"},
			cmdArgs([]string{"table", "create"}, tbl(wh, "s.kv", "--column", "k INT"))},
		{"refused option: deletion vectors", exitTable, []string{"deletion-vectors.enabled=true"}, write("s.dv", "--from", good, "--ignore-extra-columns")},
		{"refused option: cross-partition dynamic bucket", exitTable, []string{"bucket=-1", "add p to the primary key", "'bucket'='4'"}, write("s.dyn", "--from", good, "--ignore-extra-columns")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { fails(t, c.code, c.want, c.args...) })
	}
}

// TestBinaryExitCodes runs the test binary as the real lakeload binary (main, os.Exit): the process exit
// status is the documented code and errors go to stderr, output to stdout.
func TestBinaryExitCodes(t *testing.T) {
	wh := t.TempDir()
	runBin := func(args ...string) (string, string, int) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), 0
	}
	if out, errs, code := runBin(cmdArgs([]string{"table", "create"}, tbl(wh, "s.t", "--column", "k INT"))...); code != 0 ||
		!strings.HasPrefix(out, "created table s.t") || errs != "" {
		t.Errorf("create: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, errs, code := runBin(cmdArgs([]string{"scan"}, tbl(wh, "s.nope"))...); code != exitTable ||
		out != "" || !strings.HasPrefix(errs, "lakeload: table does not exist: s.nope") {
		t.Errorf("scan of a missing table: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, errs, code := runBin("scan", "--warehouse", wh); code != exitUsage || !strings.Contains(errs, "required flag") {
		t.Errorf("missing flag: exit %d, stderr %q", code, errs)
	}
}

// TestInterruptedWrite: a write whose context is cancelled (Ctrl-C / SIGTERM in main) exits 130 and
// commits nothing.
func TestInterruptedWrite(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.kv", "--column", "k INT", "--column", "v STRING"))...)
	good := writeFile(t, in, "good.csv", "k,v\n1,a\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	if code := run(ctx, cmdArgs([]string{"write"}, tbl(wh, "s.kv", "--from", good)), &out, &errb); code != exitInterrupted {
		t.Errorf("cancelled write: exit %d, want %d (stdout %q, stderr %q)", code, exitInterrupted, out.String(), errb.String())
	}
	if s := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "s.kv", "--output", "jsonl"))...); s != "" {
		t.Errorf("cancelled write committed: %s", s)
	}
}
