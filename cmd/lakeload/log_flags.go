package main

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/spf13/cobra"
)

// logFlags are the logging flags of the commands that work for a while (compact, write, expire,
// clean-orphans), as load's: --log-format and --progress-interval.
type logFlags struct {
	format   string
	interval time.Duration
}

func (f *logFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.format, "log-format", "text", "log format on stderr: text or json")
	c.Flags().DurationVar(&f.interval, "progress-interval", 10*time.Second,
		"when stderr is not a terminal (or with --log-format json), log the progress this often and once at the end (0: only at the end)")
}

// check refuses a bad --log-format or --progress-interval.
func (f *logFlags) check() error {
	if f.format != "text" && f.format != "json" {
		return usageError{fmt.Errorf("--log-format %q: use text or json", f.format)}
	}
	if f.interval < 0 {
		return usageError{fmt.Errorf("--progress-interval %s: use a duration of 0 or more", f.interval)}
	}
	return nil
}

// display returns the live display of a command writing its progress to stderr: a redrawn line
// when stderr is a terminal and the log format is text, otherwise log lines in the chosen format.
func (f *logFlags) display(stderr io.Writer, line func(time.Duration) string, attrs func(time.Duration) []any) *liveDisplay {
	return newLiveDisplay(stderr, isTerminal(stderr) && f.format == "text", f.logger(stderr), f.interval, line, attrs)
}

func (f *logFlags) logger(stderr io.Writer) *slog.Logger { return newLogger(stderr, f.format) }
