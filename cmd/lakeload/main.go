// Command lakeload loads files into Apache Paimon tables, exactly once.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/lakeload/lakeload/fileio"
	_ "github.com/lakeload/lakeload/fileio/s3" // registers s3:// and s3a:// locations
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfiles := startProfiles() // only with $LAKELOAD_CPUPROFILE / $LAKELOAD_MEMPROFILE (profile_env.go)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfiles()
	stop()
	os.Exit(code)
}

// run executes one lakeload command line and returns its exit code (see exit.go); errors are printed
// to stderr as "lakeload: MESSAGE", every URL in them redacted (user info and query, fileio.RedactText).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "lakeload: "+fileio.RedactText(err.Error()))
	}
	return exitCode(ctx, err)
}
