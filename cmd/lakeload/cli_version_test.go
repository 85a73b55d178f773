package main

import (
	"strings"
	"testing"
)

// TestVersionNamesTheBuild: --version prints the -X version (or the module version) followed by the
// build's revision when known and the Go version, never a bare "dev".
func TestVersionNamesTheBuild(t *testing.T) {
	out := ok(t, "--version")
	if !strings.HasPrefix(out, "lakeload version ") || !strings.Contains(out, "(go1.") {
		t.Errorf("--version printed %q, want the version and the Go version", out)
	}
	old := version
	t.Cleanup(func() { version = old })
	version = "v1.2.3"
	if got := versionString(); !strings.HasPrefix(got, "v1.2.3 (") {
		t.Errorf("versionString() = %q with -X main.version=v1.2.3", got)
	}
}

// TestUnknownSubcommandSuggests: a mistyped subcommand exits 2 and names the command it resembles.
func TestUnknownSubcommandSuggests(t *testing.T) {
	fails(t, 2, []string{`unknown command "creat" for "lakeload table"`, "did you mean create?"}, "table", "creat")
	fails(t, 2, []string{`unknown command "snapshot" for "lakeload"`, "did you mean snapshots?"}, "snapshot")
}
