package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// envDefaults are the environment variables that give a flag its value when the command line does
// not set it; a flag on the command line always wins. They spare repeating --warehouse and --table on
// every command of a session.
var envDefaults = map[string]string{
	"warehouse":  "LAKELOAD_WAREHOUSE",
	"table":      "LAKELOAD_TABLE",
	"checkpoint": "LAKELOAD_CHECKPOINT",
}

// documentEnvDefaults adds "(env VAR)" to the usage of every flag of c's tree that has an
// environment default, so --help and docs/cli.md say so.
func documentEnvDefaults(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if env, ok := envDefaults[f.Name]; ok && !strings.Contains(f.Usage, env) {
			f.Usage += "; env " + env
		}
	})
	for _, sub := range c.Commands() {
		documentEnvDefaults(sub)
	}
}

// applyEnvDefaults sets each flag of c that has an environment default, is not on the command line
// and whose variable is set and not empty. It runs before required flags are checked.
func applyEnvDefaults(c *cobra.Command) error {
	for _, name := range slices.Sorted(maps.Keys(envDefaults)) {
		env := envDefaults[name]
		f := c.Flags().Lookup(name)
		v := os.Getenv(env)
		if f == nil || f.Changed || v == "" {
			continue
		}
		if err := c.Flags().Set(name, v); err != nil {
			return usageError{fmt.Errorf("$%s (the default of --%s): %w", env, name, err)}
		}
	}
	return nil
}
