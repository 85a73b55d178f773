package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestConfigFileSetsFlags: a TOML file given by --config or $LAKELOAD_CONFIG sets any command's
// flags (top-level keys for every command, [scan] and [table.create] tables for one); precedence is
// flags > environment > config file > defaults.
func TestConfigFileSetsFlags(t *testing.T) {
	wh, dir := t.TempDir(), t.TempDir()
	cfg := writeFile(t, dir, "lakeload.toml", `# shared settings
warehouse = "`+wh+`"
table = "db.t"
commit-rows = 10 # a flag of load only: ignored by the other commands

[scan]
output = "csv"
limit = 2

["table create"]
column = ["id BIGINT", "name STRING"]
partition-key = []
`)
	ok(t, "table", "create", "--config", cfg)
	in := t.TempDir()
	ok(t, "write", "--config", cfg, "--from", writeFile(t, in, "a.jsonl", `{"id":1,"name":"a"}`+"\n"+`{"id":2,"name":"b"}`+"\n"+`{"id":3,"name":"c"}`+"\n"))
	if got := lines(ok(t, "scan", "--config", cfg)); len(got) != 3 || got[0] != "id,name" {
		t.Errorf("scan with [scan] output=csv limit=2 printed %q, want a csv header and 2 rows", got)
	}
	if got := lines(ok(t, "scan", "--config", cfg, "--output", "jsonl", "--limit", "0")); len(got) != 3 || !strings.HasPrefix(got[0], "{") {
		t.Errorf("flags must win over the config file: printed %q", got)
	}
	// The environment wins over the file, the file over the defaults; $LAKELOAD_CONFIG names the file.
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.u", "--column", "other INT")
	t.Setenv("LAKELOAD_CONFIG", cfg)
	if got := lines(ok(t, "scan")); len(got) != 3 {
		t.Errorf("scan with $LAKELOAD_CONFIG printed %q, want header + 2 rows", got)
	}
	t.Setenv("LAKELOAD_TABLE", "db.u")
	if got := lines(ok(t, "scan")); len(got) != 1 || got[0] != "other" {
		t.Errorf("$LAKELOAD_TABLE must win over the file's table: printed %q", got)
	}
	t.Setenv("LAKELOAD_TABLE", "")
	other := writeFile(t, dir, "other.toml", "warehouse = \""+wh+"\"\ntable = \"db.u\"\n")
	if got := lines(ok(t, "scan", "--config", other)); len(got) != 0 {
		t.Errorf("--config must win over $LAKELOAD_CONFIG (db.u is empty): printed %q", got)
	}
	if help := ok(t, "scan", "--help"); !strings.Contains(help, "--config") || !strings.Contains(help, "env LAKELOAD_CONFIG") {
		t.Errorf("scan --help does not show --config:\n%s", help)
	}
	// A broken file never hides help.
	t.Setenv("LAKELOAD_CONFIG", writeFile(t, dir, "broken.toml", "nonsense = = 1\n"))
	ok(t, "help", "scan")
	ok(t, "table")
	fails(t, exitUsage, []string{"broken.toml: line 1"}, "scan", "--table", "db.t")
}

// TestConfigFileErrors: unknown keys and tables name the file, the line and the key with a "did you
// mean"; a value of the wrong type names the key, the flag and the type expected; all are usage errors.
func TestConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := func(body string) string { return writeFile(t, dir, "c.toml", body) }
	cases := []struct {
		body string
		want []string
	}{
		{"warehous = \"/x\"\n", []string{"c.toml: line 1: unknown key \"warehous\"", "no command has a flag --warehous", `did you mean "warehouse"?`}},
		{"table = \"a.b\"\n\n[scan]\ncolums = \"a\"\n", []string{"line 4: [scan] unknown key \"colums\"", "not a flag of 'lakeload scan'", `did you mean "columns"?`}},
		{"[scna]\nlimit = 1\n", []string{"line 1: unknown table [scna]", `"scna" is not a command of 'lakeload'`, `did you mean "scan"?`}},
		{"[table.craete]\ncolumn = [\"a INT\"]\n", []string{"line 1: unknown table [table.craete]", `did you mean "create"?`}},
		{"[scan]\nlimit = \"two\"\n", []string{"line 2: [scan] key \"limit\": expected an integer (flag --limit of 'lakeload scan' takes int64), got a string"}},
		{"[compact]\nfull = \"yes\"\n", []string{`[compact] key "full": expected true or false`, "got a string"}},
		{"[scan]\noutput = 3\n", []string{`key "output": expected a string`, "got an integer"}},
		{"[scan]\nsnapshot = -1\nlimit = 1.5\n", []string{`line 3: [scan] key "limit": expected an integer`, "got a float"}},
		{"[table.create]\ncolumn = [1, 2]\n", []string{`key "column": expected an array of strings`}},
		{"config = \"other.toml\"\n", []string{`key "config" cannot be set in a config file`}},
		{"limit = \n", []string{"c.toml: line 1:"}},
	}
	for _, tc := range cases {
		path := cfg(tc.body)
		fails(t, exitUsage, tc.want, "scan", "--config", path, "--warehouse", dir, "--table", "a.b")
	}
	fails(t, exitUsage, []string{"--config " + filepath.Join(dir, "missing.toml"), "no such file"}, "scan", "--config", filepath.Join(dir, "missing.toml"))
	t.Setenv("LAKELOAD_CONFIG", filepath.Join(dir, "missing.toml"))
	fails(t, exitUsage, []string{"$LAKELOAD_CONFIG (" + filepath.Join(dir, "missing.toml") + ")"}, "scan", "--table", "a.b")
}

// TestConfigFileIsGenericOverFlags: the config file sets flags of any type on any command, with no
// code knowing them: a command built here with float, duration, int slice and string array flags.
func TestConfigFileIsGenericOverFlags(t *testing.T) {
	var (
		ratio float64
		wait  time.Duration
		ids   []int64
		tags  []string
		on    bool
		n     int32
	)
	root := &cobra.Command{Use: "lakeload"}
	registerConfigFlag(root)
	group := &cobra.Command{Use: "grp"}
	sub := &cobra.Command{Use: "new", RunE: func(*cobra.Command, []string) error { return nil }}
	sub.Flags().Float64Var(&ratio, "ratio", 0, "")
	sub.Flags().DurationVar(&wait, "wait", 0, "")
	sub.Flags().Int64SliceVar(&ids, "id", nil, "")
	sub.Flags().StringArrayVar(&tags, "tag", nil, "")
	sub.Flags().BoolVar(&on, "on", false, "")
	sub.Flags().Int32Var(&n, "n", 0, "")
	group.AddCommand(sub)
	root.AddCommand(group)
	path := writeFile(t, t.TempDir(), "g.toml", "ratio = 2\n[grp]\nwait = \"90s\"\n[grp.new]\nid = [3, 4]\ntag = [\"x\", \"y\"]\non = true\nn = 7\nratio = 0.25\n")
	if err := root.ParseFlags(nil); err != nil {
		t.Fatal(err)
	}
	if err := sub.ParseFlags([]string{"--config", path, "--n", "9"}); err != nil {
		t.Fatal(err)
	}
	if err := applyConfigFile(sub); err != nil {
		t.Fatal(err)
	}
	if ratio != 0.25 || wait != 90*time.Second || len(ids) != 2 || ids[1] != 4 || strings.Join(tags, ",") != "x,y" || !on || n != 9 {
		t.Errorf("got ratio=%v wait=%v ids=%v tags=%v on=%v n=%v; want 0.25 (the [grp.new] table wins), 90s ([grp] applies to its subcommands), [3 4], [x y], true, 9 (the flag wins)",
			ratio, wait, ids, tags, on, n)
	}
}

// TestConfigFileDocExample: the TOML example of docs/cli.md is a valid config file (with the
// warehouse overridden by the flag): scan then prints its [scan] output format.
func TestConfigFileDocExample(t *testing.T) {
	b, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, block, found := strings.Cut(string(b), "```toml\n")
	if !found {
		t.Fatal("docs/cli.md has no toml example")
	}
	block, _, _ = strings.Cut(block, "```")
	var body strings.Builder
	for _, l := range strings.Split(block, "\n") {
		body.WriteString(strings.TrimSpace(l) + "\n")
	}
	wh := t.TempDir()
	ok(t, "table", "create", "--warehouse", wh, "--table", "shop.orders", "--column", "id BIGINT")
	path := writeFile(t, t.TempDir(), "doc.toml", body.String())
	if out := ok(t, "scan", "--config", path, "--warehouse", wh); strings.TrimSpace(out) != "id" {
		t.Errorf("scan with the doc's config printed %q, want the table output's header", out)
	}
}
