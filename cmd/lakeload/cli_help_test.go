package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandHasExamples walks the whole command tree (including cobra's help and completion
// commands) and checks that `lakeload PATH --help` exits 0 and prints a non-empty Examples section that
// starts with "lakeload" invocations.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(c *cobra.Command, path []string)
	n := 0
	walk = func(c *cobra.Command, path []string) {
		n++
		t.Run(strings.Join(append([]string{"lakeload"}, path...), " "), func(t *testing.T) {
			out := ok(t, append(append([]string{}, path...), "--help")...)
			_, ex, found := strings.Cut(out, "\nExamples:\n")
			if !found {
				t.Fatalf("no Examples section in --help:\n%s", out)
			}
			first := strings.Fields(ex)
			if len(first) == 0 || (first[0] != "lakeload" && first[0] != "source") {
				t.Errorf("Examples section does not start with a lakeload command: %q", ex)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(newRootCommand(), nil)
	// Command groups without a subcommand print their help and succeed.
	for _, group := range [][]string{nil, {"table"}, {"completion"}} {
		if out := ok(t, group...); !strings.Contains(out, "Available Commands:") {
			t.Errorf("lakeload %v printed %q, want its help", group, out)
		}
	}
	if n < 13 {
		t.Errorf("walked only %d commands", n)
	}
}
