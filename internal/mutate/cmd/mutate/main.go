// Command mutate runs lakeload's mutation tests (`make mutate`, docs/testing.md): every mutant of
// the lists in internal/mutate/mutants must be killed by the tests the list names.
//
// Usage: go run ./internal/mutate/cmd/mutate [-short] [-j N] [-only REGEXP] [-list DIR]
//
// It prints one line per mutant and exits 1 if any mutant survives or the list is wrong (a snippet
// that does not occur exactly once, a mutant that does not build, a killer other than the named
// one), 2 if the harness cannot run (the unmutated tests fail, bad flags).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"github.com/lakeload/lakeload/internal/mutate"
)

func main() {
	short := flag.Bool("short", false, "run only each mutant's killing test (the CI form)")
	jobs := flag.Int("j", max(1, runtime.NumCPU()/2), "mutants run at once")
	only := flag.String("only", "", "run only mutants whose id matches this regexp")
	list := flag.String("list", "internal/mutate/mutants", "directory of *.txt mutant lists, relative to the module root")
	timeout := flag.Duration("timeout", 2*time.Minute, "go test -timeout per mutant")
	flag.Parse()
	root, err := moduleRoot()
	if err != nil {
		fatal(2, err)
	}
	ms, err := mutate.LoadDir(filepath.Join(root, *list))
	if err != nil {
		fatal(2, err)
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fatal(2, fmt.Errorf("-only: %w", err))
		}
		var keep []mutate.Mutant
		for _, m := range ms {
			if re.MatchString(m.ID) {
				keep = append(keep, m)
			}
		}
		ms = keep
	}
	if len(ms) == 0 {
		fatal(2, fmt.Errorf("no mutants selected"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mode := "full"
	if *short {
		mode = "short (killing test only)"
	}
	fmt.Printf("mutate: %d mutants, %s, %d at once\n", len(ms), mode, *jobs)
	start := time.Now()
	rs, err := mutate.Run(ctx, ms, mutate.Options{Root: root, Short: *short, Jobs: *jobs, Timeout: *timeout, Log: os.Stdout})
	if err != nil {
		fatal(2, err)
	}
	count := map[mutate.Outcome]int{}
	for _, r := range rs {
		count[r.Outcome]++
	}
	fmt.Printf("mutate: %d killed, %d survived, %d list errors in %.0fs\n",
		count[mutate.Killed], count[mutate.Survived], count[mutate.ListErr], time.Since(start).Seconds())
	if count[mutate.Killed] != len(rs) {
		os.Exit(1)
	}
}

func fatal(code int, err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(code)
}

// moduleRoot is the nearest directory at or above the working directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod at or above the working directory")
		}
		dir = parent
	}
}
