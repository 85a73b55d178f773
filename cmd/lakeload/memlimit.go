package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/spf13/cobra"
)

// defaultMemoryLimit is the soft memory limit of the commands that write data (load, write, compact).
// Their buffers (one window's Arrow batches, one record batch per merged run, one row group per
// output file) stay well below it; the limit makes the Go runtime collect garbage before the heap
// doubles, so the peak RSS does not grow with the input.
const defaultMemoryLimit = "448MiB"

// withMemoryLimit adds --memory-limit to c and applies it (runtime/debug.SetMemoryLimit) before c runs.
// The default yields to $GOMEMLIMIT when that is set; an explicit --memory-limit overrides both.
func withMemoryLimit(c *cobra.Command) *cobra.Command {
	var limit string
	c.Flags().StringVar(&limit, "memory-limit", defaultMemoryLimit,
		"soft limit of the Go heap (runtime/debug.SetMemoryLimit), e.g. 448MiB, 1GiB, 2 gb; 'off' for none; "+
			"the default yields to $GOMEMLIMIT when it is set. A soft limit: exceeding it costs CPU (more garbage collection), never fails the command; "+
			"it is also the Parquet decode budget (more decoded at once is an input error, see Input limits)")
	run := c.RunE
	if run == nil {
		panic("withMemoryLimit: command " + c.Name() + " has no RunE")
	}
	c.RunE = func(cmd *cobra.Command, args []string) error {
		explicit := cmd.Flags().Changed("memory-limit")
		if !explicit && os.Getenv("GOMEMLIMIT") != "" {
			return run(cmd, args)
		}
		n, err := parseMemoryLimit(limit)
		if err != nil {
			return usageError{fmt.Errorf("--memory-limit: %w; see '%s --help'", err, cmd.CommandPath())}
		}
		debug.SetMemoryLimit(n)
		return run(cmd, args)
	}
	return c
}

// parseMemoryLimit reads a --memory-limit value: 'off' (or 0) for no limit, otherwise a size with an
// optional binary unit (B, KiB/KB/K, MiB/MB/M, GiB/GB/G, TiB/TB/T; powers of 1024, spaces allowed).
func parseMemoryLimit(s string) (int64, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "off" || v == "none" || v == "0" {
		return math.MaxInt64, nil
	}
	for _, u := range []string{"kib", "mib", "gib", "tib"} { // Go's GOMEMLIMIT spelling
		if strings.HasSuffix(v, u) {
			v = strings.TrimSuffix(v, u) + u[:1] + "b"
			break
		}
	}
	n, err := spec.ParseMemorySize(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: use e.g. 448MiB, 1GiB or 'off'", s)
	}
	if n < 64<<20 {
		return 0, fmt.Errorf("%q is below 64MiB, too little to load anything: use at least 64MiB, or 'off'", s)
	}
	return n, nil
}
