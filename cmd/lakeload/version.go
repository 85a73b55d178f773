package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise versionString takes it
// from the build information Go records in the binary.
var version = ""

// versionString is what `lakeload --version` prints: the -X version, or the module version of a
// `go install …@v1.2.3` build, followed by the VCS revision and whether the tree was modified, and the
// Go version — enough to tell which code a user runs. A build without either says "dev".
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	v := version
	if v == "" && ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	if v == "" {
		v = "dev"
	}
	if !ok {
		return v
	}
	var rev, modified, at string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		case "vcs.time":
			at = ", " + s.Value
		}
	}
	var parts []string
	if rev != "" && !strings.Contains(v, rev[:min(len(rev), 12)]) {
		parts = append(parts, fmt.Sprintf("revision %s%s%s", rev[:min(len(rev), 12)], at, modified))
	}
	parts = append(parts, info.GoVersion)
	return fmt.Sprintf("%s (%s)", v, strings.Join(parts, ", "))
}
