package main

import (
	"strings"
	"testing"
)

// TestEnvDefaults: LAKELOAD_WAREHOUSE and LAKELOAD_TABLE stand in for --warehouse and --table; a
// flag on the command line wins; --help names the variables.
func TestEnvDefaults(t *testing.T) {
	wh := t.TempDir()
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.t", "--column", "id BIGINT")
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.u", "--column", "name STRING")
	t.Setenv("LAKELOAD_WAREHOUSE", wh)
	t.Setenv("LAKELOAD_TABLE", "db.t")
	if out := ok(t, "table", "describe"); !strings.Contains(out, "id") || strings.Contains(out, "name") {
		t.Errorf("describe with the env defaults printed %q, want table db.t", out)
	}
	if out := ok(t, "table", "describe", "--table", "db.u"); !strings.Contains(out, "name") {
		t.Errorf("describe --table db.u printed %q: the flag must win over $LAKELOAD_TABLE", out)
	}
	t.Setenv("LAKELOAD_TABLE", "")
	fails(t, 2, []string{`required flag(s) "table" not set`}, "table", "describe")
	if help := ok(t, "scan", "--help"); !strings.Contains(help, "env LAKELOAD_WAREHOUSE") || !strings.Contains(help, "env LAKELOAD_TABLE") {
		t.Errorf("scan --help does not name the env defaults:\n%s", help)
	}
}
