package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/metrics"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/spf13/cobra"
)

// jobFlags name a job and where it is: --job and --checkpoint bind to spec (load binds the job's
// options there too: spec_flags.go), the table and catalog are tableFlags'.
type jobFlags struct {
	tableFlags
	spec job.Spec
}

func (f *jobFlags) register(c *cobra.Command) {
	f.tableFlags.register(c)
	c.Flags().StringVar(&f.spec.Name, "job", "", "job name, unique per table (required)")
	c.Flags().StringVar(&f.spec.Checkpoint, "checkpoint", "", "checkpoint store directory, local or s3://bucket/prefix (default: <warehouse>/.lakeload/jobs/<db>/<table>/<job>)")
	_ = c.MarkFlagRequired("job")
}

// jobSpec is the job's Spec: the bound flags, with the catalog and table of tableFlags.
func (f *jobFlags) jobSpec() job.Spec {
	s := f.spec
	s.Catalog, s.Warehouse, s.TableName = f.cat.kind, f.warehouse, f.table
	return s
}

// openJob opens the catalog and the job's checkpoint store: the common opening of the commands on
// one job (load, status, job abort / forget).
func (f *jobFlags) openJob() (*catalog.Catalog, catalog.Identifier, *checkpoint.Store, error) {
	cat, id, err := f.open()
	if err != nil {
		return nil, id, nil, err
	}
	store, err := f.jobSpec().OpenStore(cat, id)
	return cat, id, store, err
}

// loadFlags are load's flags of this run (not of the job: those are jf.spec's).
type loadFlags struct {
	logFormat        string
	metricsAddr      string
	progressInterval time.Duration
	temporal         temporalFlags
}

func newLoadCommand() *cobra.Command { return loadCommand(runLoad) }

// loadCommand is the load command calling run with its parsed flags.
func loadCommand(run func(*cobra.Command, jobFlags, loadFlags) error) *cobra.Command {
	var (
		jf jobFlags
		lf loadFlags
	)
	c := &cobra.Command{
		Use:   "load",
		Short: "Load files into a table exactly once; run the same command again to resume",
		Long: `Load writes the input in windows (every --commit-rows rows or --commit-every), committing each window
as one Paimon snapshot marked with the job's commit user and the window number, and only then recording
the window's input as done. If the process dies — Ctrl-C, kill -9, a crash inside a commit — running the
same command again finishes the job: committed windows are published, complete ones committed, the rest
recomputed; no row is lost or applied twice. After the job finished, the command does nothing and says so.

The job's progress lives in a checkpoint store (default: <warehouse>/.lakeload/jobs/<db>/<table>/<job>).
Input files must not change while a job uses them; 'lakeload status' shows a job's windows.`,
		Example: `  lakeload load --warehouse /data/wh --table shop.orders --from 'in/*.parquet' --job backfill-2024
  lakeload load --warehouse /data/wh --table shop.orders --from 'cdc/*.csv' --op-column op --job cdc --commit-rows 500000
  lakeload load --warehouse /data/wh --table shop.orders --from 'in/*.parquet' --job backfill-2024 --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, jf, lf)
		},
	}
	jf.register(c)
	bindSpec(c.Flags(), &jf.spec)
	c.Flags().StringVar(&lf.logFormat, "log-format", "text", "log format on stderr: text or json")
	c.Flags().DurationVar(&lf.progressInterval, "progress-interval", 10*time.Second,
		"when stderr is not a terminal, also log the live progress this often between windows (0: only after each window)")
	c.Flags().StringVar(&lf.metricsAddr, "metrics-addr", "", "serve Prometheus metrics on http://HOST:PORT/metrics while the load runs; :PORT is 127.0.0.1:PORT, 0.0.0.0:PORT every interface (docs/metrics.md)")
	lf.temporal.register(c, "run the job on 'lakeload worker' processes through the Temporal frontend at HOST:PORT: its driver as the job's workflow, its window tasks as activities; this process follows it (docs/scale-out.md)")
	lf.temporal.registerTiming(c)
	return c
}

// runLoad runs (or follows, with --temporal) the job of jf's Spec and prints its outcome.
func runLoad(cmd *cobra.Command, jf jobFlags, lf loadFlags) error {
	ctx := cmd.Context()
	spec := jf.jobSpec()
	onTemporal := lf.temporal.hostPort != "" && !spec.DryRun
	if err := spec.Validate(); err != nil {
		return err
	}
	if err := jf.cat.refuseForREST(lf.temporal.hostPort != ""); err != nil {
		return err
	}
	if lf.logFormat != "text" && lf.logFormat != "json" {
		return usageError{fmt.Errorf("--log-format %q: use text or json", lf.logFormat)}
	}
	cat, id, err := jf.open()
	if err != nil {
		return err
	}
	cfg, err := job.Open(ctx, spec, cat)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	cfg.Logger = newLogger(stderr, lf.logFormat)
	if isTerminal(stderr) && lf.logFormat == "text" {
		cfg.Logger = newLogger(io.Discard, lf.logFormat) // the progress bar replaces per-window log lines
	}
	cfg.Hook = faultHook(stderr)
	reg := metrics.NewRegistry()
	cfg.Metrics = metrics.NewLoad(reg, spec.Name) // also the live counters of the progress display
	if lf.metricsAddr != "" {
		stop, err := serveMetrics(lf.metricsAddr, reg, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}
	live := newLiveProgress(stderr, cfg.Logger, cfg.Metrics, lf.progressInterval)
	cfg.Progress = live.report
	stopLive := func() {}
	if !spec.DryRun {
		stopLive = live.start()
	}
	defer stopLive()
	var res job.Result
	if onTemporal {
		// The driver runs as the job's workflow on the workers; this process follows it (temporal_driver.go).
		res, err = lf.temporal.runJobWorkflow(ctx, cfg, stderr)
	} else {
		res, err = job.Run(ctx, cfg)
	}
	stopLive()
	if isTerminal(stderr) {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		var ie *job.InputError
		if errors.As(err, &ie) {
			err = inputError{err}
		}
		if ctx.Err() != nil && onTemporal {
			return err // the job goes on in its workflow; the message says so
		}
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; run the same command again to resume job %s: %w", spec.Name, ctx.Err())
		}
		return loadError(spec.Name, spec.DryRun, err)
	}
	return printLoadResult(cmd.OutOrStdout(), spec, id, cfg.Store, res)
}

// printLoadResult prints the outcome of a load that ended well.
func printLoadResult(out io.Writer, spec job.Spec, id catalog.Identifier, store *checkpoint.Store, res job.Result) error {
	switch {
	case res.DryRun != nil:
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "INPUT\tFORMAT\tSPLITS\tROWS (EST.)")
		for _, f := range res.DryRun.Inputs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\n", f.Path, f.Format, f.Splits, f.EstimatedRows)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "dry run of job %s into %s: %s; nothing written\n", spec.Name, id, res.DryRun)
	case res.AlreadyDone:
		if spec.Incremental {
			fmt.Fprintf(out, "job %s already finished (%s, generation %d); no new input files under --from; nothing to do.\n", spec.Name, count(res.Windows, "window"), res.Generation)
		} else {
			fmt.Fprintf(out, "job %s already finished (%s); nothing to do. Pass --incremental to load files added under --from since, "+
				"or use 'lakeload job forget' to start it anew.\n", spec.Name, count(res.Windows, "window"))
		}
	default:
		fmt.Fprintf(out, "job %s finished: %s, %s written by this run, %s; last snapshot %d of %s\n",
			spec.Name, count(res.Windows, "window"), count(res.RowsWritten, "row"), count(res.Recovered, "recovery action"), res.LastSnapshotID, id)
		if res.Generation > 1 {
			fmt.Fprintf(out, "incremental generation %d finished (%d new input files planned by this run)\n", res.Generation, res.NewFiles)
		}
		if res.OverwriteSnapshot > 0 {
			fmt.Fprintf(out, "overwrite (%s) committed as snapshot %d\n", spec.Overwrite, res.OverwriteSnapshot)
		}
		if res.Compactions > 0 {
			fmt.Fprintf(out, "compactions committed by this run: %d\n", res.Compactions)
		}
		if res.RowsQuarantined > 0 {
			fmt.Fprintf(out, "rows quarantined by this run: %d (see %s; 'lakeload status' lists the files)\n", res.RowsQuarantined, task.QuarantineDir(store))
		}
	}
	for _, c := range res.Changed {
		fmt.Fprintf(out, "warning: input file %s, already loaded by job %s, is %s since; it is not loaded again (listed by 'lakeload status')\n",
			c.Path, spec.Name, c.Change)
	}
	return nil
}

func newLogger(w io.Writer, format string) *slog.Logger {
	opts := &slog.HandlerOptions{ReplaceAttr: redactAttr}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// redactAttr redacts the URLs in a log line's message and in its string and error values
// (fileio.RedactText: user info and query strings).
func redactAttr(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value.Resolve(); {
	case v.Kind() == slog.KindString:
		a.Value = slog.StringValue(fileio.RedactText(v.String()))
	case v.Kind() == slog.KindAny:
		if err, isErr := v.Any().(error); isErr {
			a.Value = slog.StringValue(fileio.RedactText(err.Error()))
		}
	}
	return a
}

// faultHook wires the crash-test environment variables (docs/testing.md):
// LAKELOAD_CRASH_AT=point[:window] kills the process with SIGKILL there; LAKELOAD_PAUSE_AT=point[:window]
// prints "lakeload: paused at point window W" on stderr and stops the whole process with SIGSTOP (state
// T), so a harness can let the world move on and resume it with SIGCONT, as a GC stall or a frozen VM
// would; LAKELOAD_HOLD_AT=point[:window] prints "lakeload: held at point window W" and blocks that
// step for ever while the rest of the process runs on (heartbeats, metrics) until it is killed.
func faultHook(stderr io.Writer) func(string, int64) error {
	crash, pause, hold := parsePoint(os.Getenv("LAKELOAD_CRASH_AT")), parsePoint(os.Getenv("LAKELOAD_PAUSE_AT")), parsePoint(os.Getenv("LAKELOAD_HOLD_AT"))
	if crash == nil && pause == nil && hold == nil {
		return nil
	}
	return func(point string, w int64) error {
		if hold != nil && hold(point, w) {
			fmt.Fprintf(stderr, "lakeload: held at %s window %d\n", point, w)
			select {}
		}
		if pause != nil && pause(point, w) {
			fmt.Fprintf(stderr, "lakeload: paused at %s window %d\n", point, w)
			stopHere()
			fmt.Fprintf(stderr, "lakeload: resumed at %s window %d\n", point, w)
		}
		if crash != nil && crash(point, w) {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
}

// stopHere stops the whole process with SIGSTOP and returns after SIGCONT. The signal goes to the
// calling thread (tgkill), which takes it before it returns to this goroutine: kill(getpid) lets
// another thread take it, and the caller ran on past the hook point until the group stop caught it
// (internal/killsoak TestPauseHookStopsAtItsPoint).
func stopHere() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = syscall.Tgkill(os.Getpid(), syscall.Gettid(), syscall.SIGSTOP)
}

func parsePoint(v string) func(string, int64) bool {
	if v == "" {
		return nil
	}
	name, win, hasWin := strings.Cut(v, ":")
	w, _ := strconv.ParseInt(win, 10, 64)
	return func(point string, window int64) bool {
		return point == name && (!hasWin || window == w)
	}
}
