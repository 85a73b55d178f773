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

// jobStorePath is the default checkpoint store of a job: beside the databases of the warehouse, in
// a directory no Paimon reader or orphan-file cleaner looks at.
func jobStorePath(cat *catalog.Catalog, id catalog.Identifier, name string) string {
	return fileio.Join(jobsDir(cat, id), name)
}

func jobsDir(cat *catalog.Catalog, id catalog.Identifier) string {
	return fileio.Join(cat.Warehouse, ".lakeload", "jobs", id.Database, id.Table)
}

// seqReservationsDir is where every lakeload job of the table reserves its windows' sequence
// ranges (job.Config.SeqReservations): beside the job stores, outside every table directory.
func seqReservationsDir(cat *catalog.Catalog, id catalog.Identifier) string {
	return fileio.Join(cat.Warehouse, ".lakeload", "tables", id.Database, id.Table)
}

type jobFlags struct {
	tableFlags
	name       string
	checkpoint string
}

func (f *jobFlags) register(c *cobra.Command) {
	f.tableFlags.register(c)
	c.Flags().StringVar(&f.name, "job", "", "job name, unique per table (required)")
	c.Flags().StringVar(&f.checkpoint, "checkpoint", "", "checkpoint store directory, local or s3://bucket/prefix (default: <warehouse>/.lakeload/jobs/<db>/<table>/<job>)")
	_ = c.MarkFlagRequired("job")
}

func (f *jobFlags) store(cat *catalog.Catalog, id catalog.Identifier) (*checkpoint.Store, error) {
	if err := job.CheckName(f.name); err != nil {
		return nil, usageError{fmt.Errorf("--job: %w", err)}
	}
	if f.checkpoint == "" {
		return checkpoint.NewStore(cat.FS, jobStorePath(cat, id, f.name)), nil
	}
	fs, path, err := fileio.Open(f.checkpoint)
	if err != nil {
		return nil, usageError{fmt.Errorf("--checkpoint: %w", err)}
	}
	return checkpoint.NewStore(fs, path), nil
}

func newLoadCommand() *cobra.Command {
	var (
		jf               jobFlags
		in               inputFlags
		idColumn         string
		overwrite        string
		incremental      bool
		commitEvery      time.Duration
		commitRows       int64
		parallelism      int
		dryRun           bool
		takeover         bool
		recompute        []int64
		logFormat        string
		evolve           string
		metricsAddr      string
		progressInterval time.Duration
		badRows          string
		compaction       string
		temporalF        temporalFlags
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
			ctx := cmd.Context()
			cat, id, err := jf.open()
			if err != nil {
				return err
			}
			mapping, err := in.mapping()
			if err != nil {
				return err
			}
			if err := jf.cat.refuseForREST(evolve != "", temporalF.hostPort != ""); err != nil {
				return err
			}
			if badRows != job.BadRowsFail && badRows != job.BadRowsQuarantine {
				return usageError{fmt.Errorf("--bad-rows %q: use fail or quarantine", badRows)}
			}
			if overwrite != "" && overwrite != checkpoint.OverwritePartitions && overwrite != checkpoint.OverwriteTable {
				return usageError{fmt.Errorf("--overwrite %q: use partitions (replace the partitions the input touches) or table (replace the whole table)", overwrite)}
			}
			if overwrite != "" && incremental {
				return usageError{fmt.Errorf("--overwrite and --incremental cannot be combined: load later files with a new overwrite job")}
			}
			if compaction != job.CompactionAuto && compaction != job.CompactionOff {
				return usageError{fmt.Errorf("--compaction %q: use auto (compact as the load goes) or off", compaction)}
			}
			if logFormat != "text" && logFormat != "json" {
				return usageError{fmt.Errorf("--log-format %q: use text or json", logFormat)}
			}
			store, err := jf.store(cat, id)
			if err != nil {
				return err
			}
			t, err := cat.LoadTable(ctx, id)
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			logger := newLogger(stderr, logFormat)
			if isTerminal(stderr) && logFormat == "text" {
				logger = newLogger(io.Discard, logFormat) // the progress bar replaces per-window log lines
			}
			inFS, err := in.fileIO()
			if err != nil {
				return err
			}
			cfg := job.Config{
				Name: jf.name, Table: t, InputFS: inFS, From: in.from, Format: in.format, Store: store,
				Mapping:    mapping,
				IDColumn:   idColumn,
				BadRows:    badRows,
				CommitRows: commitRows, CommitEvery: commitEvery, Parallelism: parallelism,
				Takeover: takeover, RecomputeWindows: recompute, DryRun: dryRun, Logger: logger,
				Hook: faultHook(stderr),
			}
			cfg.Overwrite, cfg.Incremental = overwrite, incremental
			cfg.EvolveSchema = evolve
			cfg.Compaction = compaction
			cfg.SeqReservations = seqReservationsDir(cat, id)
			reg := metrics.NewRegistry()
			cfg.Metrics = metrics.NewLoad(reg, jf.name) // also the live counters of the progress display
			if metricsAddr != "" {
				stop, err := serveMetrics(metricsAddr, reg, stderr)
				if err != nil {
					return err
				}
				defer stop()
			}
			live := newLiveProgress(stderr, logger, cfg.Metrics, progressInterval)
			cfg.Progress = live.report
			stopLive := func() {}
			if !dryRun {
				stopLive = live.start()
			}
			defer stopLive()
			var res job.Result
			if temporalF.hostPort != "" && !dryRun {
				// The driver runs as the job's workflow on the workers; this process follows it (temporal_driver.go).
				ref, rerr := fullJobRef(&jf, &in, cfg)
				if rerr != nil {
					return rerr
				}
				res, err = temporalF.runJobWorkflow(ctx, cfg, ref, stderr)
			} else {
				res, err = job.Run(ctx, cfg)
			}
			stopLive()
			if isTerminal(stderr) {
				fmt.Fprintln(stderr)
			}
			out := cmd.OutOrStdout()
			if err != nil {
				var ie *job.InputError
				if errors.As(err, &ie) {
					err = inputError{err}
				}
				if ctx.Err() != nil && temporalF.hostPort != "" && !dryRun {
					return err // the job goes on in its workflow; the message says so
				}
				if ctx.Err() != nil {
					return fmt.Errorf("interrupted; run the same command again to resume job %s: %w", jf.name, ctx.Err())
				}
				return loadError(jf.name, dryRun, err)
			}
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
				fmt.Fprintf(out, "dry run of job %s into %s: %s; nothing written\n", jf.name, id, res.DryRun)
			case res.AlreadyDone:
				if incremental {
					fmt.Fprintf(out, "job %s already finished (%s, generation %d); no new input files under --from; nothing to do.\n", jf.name, count(res.Windows, "window"), res.Generation)
				} else {
					fmt.Fprintf(out, "job %s already finished (%s); nothing to do. Pass --incremental to load files added under --from since, "+
						"or use 'lakeload job forget' to start it anew.\n", jf.name, count(res.Windows, "window"))
				}
			default:
				fmt.Fprintf(out, "job %s finished: %s, %s written by this run, %s; last snapshot %d of %s\n",
					jf.name, count(res.Windows, "window"), count(res.RowsWritten, "row"), count(res.Recovered, "recovery action"), res.LastSnapshotID, id)
				if res.Generation > 1 {
					fmt.Fprintf(out, "incremental generation %d finished (%d new input files planned by this run)\n", res.Generation, res.NewFiles)
				}
				if res.OverwriteSnapshot > 0 {
					fmt.Fprintf(out, "overwrite (%s) committed as snapshot %d\n", overwrite, res.OverwriteSnapshot)
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
					c.Path, jf.name, c.Change)
			}
			return nil
		},
	}
	jf.register(c)
	in.register(c)
	c.Flags().StringVar(&overwrite, "overwrite", "", "replace instead of append: 'partitions' (the partitions the input touches) or 'table'; committed as one OVERWRITE snapshot after the last window")
	c.Flags().BoolVar(&incremental, "incremental", false, "on a finished job, load the files added under --from since its last run (a new generation); changed or removed files are reported, not reloaded")
	c.Flags().StringVar(&idColumn, "id-column", "", "row-id mode: table column (integer or string) with a unique id per row; ids are checkpointed, duplicates refused")
	c.Flags().DurationVar(&commitEvery, "commit-every", 0, "target duration of a window, e.g. 5m (sized from measured throughput)")
	c.Flags().Int64Var(&commitRows, "commit-rows", 1_000_000, "rows per window (the first window's size with --commit-every)")
	c.Flags().IntVar(&parallelism, "parallelism", 0, "write tasks per window (default: number of CPUs)")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "plan, check the column mapping on a sample of each file, write nothing")
	c.Flags().BoolVar(&takeover, "takeover", false, "take the job over from a runner that holds its lease (stop that runner first)")
	c.Flags().Int64SliceVar(&recompute, "recompute-window", nil, "recompute windows whose snapshots were rolled back by hand")
	c.Flags().StringVar(&logFormat, "log-format", "text", "log format on stderr: text or json")
	c.Flags().StringVar(&compaction, "compaction", job.CompactionAuto, "auto: compact the table as the load goes (in the background once a bucket has more sorted runs than num-sorted-run.compaction-trigger, waiting for it above num-sorted-run.stop-trigger; deletion-vector and first-row tables before each window is published); off: never")
	c.Flags().StringVar(&evolve, "evolve-schema", "", "add-columns: add input columns the table lacks as nullable columns (a new schema) instead of failing")
	c.Flags().DurationVar(&progressInterval, "progress-interval", 10*time.Second,
		"when stderr is not a terminal, also log the live progress this often between windows (0: only after each window)")
	c.Flags().StringVar(&metricsAddr, "metrics-addr", "", "serve Prometheus metrics on http://HOST:PORT/metrics while the load runs; :PORT is 127.0.0.1:PORT, 0.0.0.0:PORT every interface (docs/metrics.md)")
	temporalF.register(c, "run the job on 'lakeload worker' processes through the Temporal frontend at HOST:PORT: its driver as the job's workflow, its window tasks as activities; this process follows it (docs/scale-out.md)")
	temporalF.registerTiming(c)
	c.Flags().StringVar(&badRows, "bad-rows", job.BadRowsFail, "a row failing validation: fail (stop the load) or quarantine (leave it out, list it in <checkpoint>/quarantine; see docs/bad-input.md)")
	return c
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
