package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/spf13/cobra"
)

// windowStatus is one window as status reports it.
type windowStatus struct {
	Window     int64  `json:"window"`
	State      string `json:"state"` // assigned, staged (overwrite jobs), committed, published, voided
	Splits     int    `json:"splits"`
	Attempts   int    `json:"attempts"`
	SnapshotID int64  `json:"snapshotId,omitempty"`
	Rows       int64  `json:"rows,omitempty"`
}

// jobStatus is the report of `lakeload status`.
type jobStatus struct {
	Job           string          `json:"job"`
	Table         string          `json:"table"`
	CommitUser    string          `json:"commitUser"`
	State         string          `json:"state"` // finished, aborted, running or interrupted (runnerState), with what to do
	Done          bool            `json:"done"`
	Aborted       bool            `json:"aborted,omitempty"`
	SplitsTotal   int             `json:"splitsTotal"`
	SplitsDone    int             `json:"splitsDone"`
	RowsPublished int64           `json:"rowsPublished"`
	RowsLeft      int64           `json:"rowsLeftEstimate"` // exact for Parquet input, estimated from size for text
	Windows       []windowStatus  `json:"windows"`
	Lease         *leaseStatus    `json:"lease,omitempty"`
	Temporal      *temporalStatus `json:"temporal,omitempty"` // with --temporal (status_temporal.go)
	// RowsQuarantined counts rows left out by --bad-rows=quarantine in published windows; their
	// entries are in QuarantineFiles (the committed attempts' files).
	RowsQuarantined int64    `json:"rowsQuarantined"`
	QuarantineFiles []string `json:"quarantineFiles,omitempty"`
	// Metrics are the load metrics the checkpoint store can tell (docs/metrics.md); NotStored names the others.
	Metrics job.StoredMetrics `json:"metrics"`
	// Overwrite is the job's overwrite mode ("" for appends); Generation its current incremental
	// generation; Changed the already-loaded input files later generations found changed or gone.
	Overwrite  string                  `json:"overwrite,omitempty"`
	Generation int                     `json:"generation,omitempty"`
	Changed    []checkpoint.FileChange `json:"changedInputs,omitempty"`
}

type leaseStatus struct {
	Host      string `json:"host"`
	PID       int    `json:"pid"`
	Heartbeat string `json:"heartbeat"`
	Released  bool   `json:"released"`
	LastError string `json:"lastError,omitempty"` // why the last run ended, if it failed
}

func newStatusCommand() *cobra.Command {
	var (
		jf        jobFlags
		output    string
		temporalF temporalFlags
	)
	c := &cobra.Command{
		Use:   "status",
		Short: "Show a load job's windows, snapshots and progress",
		Example: `  lakeload status --warehouse /data/wh --table shop.orders --job backfill-2024
  lakeload status --warehouse /data/wh --table shop.orders --job backfill-2024 --output json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if output != "table" && output != "json" {
				return usageError{fmt.Errorf("--output %q: use table or json", output)}
			}
			cat, id, store, err := jf.openJob()
			if err != nil {
				return err
			}
			st, err := store.Load(ctx)
			if err != nil {
				return err
			}
			jr, ok := st.Job()
			if !ok {
				return noJobError(jf.spec.Name, id.String(), store.Root(), "")
			}
			if err := checkJobTable(ctx, cat.FS, jr); err != nil {
				return err // what the store says was loaded is not in the table
			}
			rep := jobStatus{Job: jr.JobID, Table: id.String(), CommitUser: jr.CommitUser, Metrics: job.MetricsFromStore(st)}
			rep.Overwrite, rep.Generation = jr.Options["overwrite"], st.Generation()
			for _, g := range st.Generations() {
				rep.Changed = append(rep.Changed, g.Changed...)
			}
			dr, done := st.Done()
			rep.Done, rep.Aborted = done && !dr.Aborted, dr.Aborted
			splits, err := plan.Stored(st)
			if err != nil {
				return err
			}
			dropped := map[int]bool{} // splits of files re-planned before they were assigned
			for _, i := range st.Dropped() {
				dropped[i] = true
			}
			rep.SplitsTotal = len(splits) - len(dropped)
			published := map[int]bool{}
			for _, ws := range st.Windows() {
				w := windowStatus{Window: ws.Window, State: "assigned", Splits: len(ws.Assigned.Splits), Attempts: len(ws.Attempts)}
				if rep.Overwrite != "" && ws.Committed == nil && slices.ContainsFunc(ws.Attempts, func(a checkpoint.AttemptState) bool {
					return checkpoint.CheckCover(ws.Assigned.Splits, a.Results).Status == checkpoint.CoverExact
				}) {
					w.State = "staged" // written and stored; committed with the other windows after the last one
				}
				if ws.Committed != nil {
					w.State, w.SnapshotID = "committed", ws.Committed.SnapshotID
				}
				if ws.Published != nil {
					w.State, w.Rows = "published", ws.Published.Rows
					rep.SplitsDone += len(ws.Published.Splits)
					rep.RowsPublished += ws.Published.Rows
					rep.addQuarantine(store, ws)
					for _, i := range ws.Published.Splits {
						published[i] = true
					}
				}
				if ws.Voided != nil {
					w.State = "voided"
				}
				rep.Windows = append(rep.Windows, w)
			}
			for i, sp := range splits {
				if !published[i] && !dropped[i] {
					rep.RowsLeft += job.EstimatedRows(sp)
				}
			}
			if l, ok, err := store.CurrentLease(ctx); err == nil && ok {
				rep.Lease = &leaseStatus{Host: l.Owner.Host, PID: l.Owner.PID, Heartbeat: l.Heartbeat.UTC().Format("2006-01-02T15:04:05Z"),
					Released: l.Released, LastError: l.LastError}
			}
			switch {
			case rep.Aborted:
				rep.State = "aborted"
			case rep.Done:
				rep.State = "finished"
			default:
				rep.State = runnerState(ctx, store)
			}
			out := cmd.OutOrStdout()
			if temporalF.hostPort != "" {
				if rep.Temporal, err = temporalF.gatherTemporal(ctx, &jf, st, newLogger(cmd.ErrOrStderr(), "text")); err != nil {
					return err
				}
			}
			if output == "json" {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			fmt.Fprintf(out, "Job:        %s\nState:      %s\nTable:      %s\nCommit user: %s\nProgress:   %d of %d splits, %d rows published, about %d rows left, %s\n",
				rep.Job, rep.State, rep.Table, rep.CommitUser, rep.SplitsDone, rep.SplitsTotal, rep.RowsPublished, rep.RowsLeft, count(len(rep.Windows), "window"))
			if rep.RowsQuarantined > 0 {
				fmt.Fprintf(out, "Quarantine: rows quarantined: %d (see %s)\n", rep.RowsQuarantined, strings.Join(rep.QuarantineFiles, ", "))
			}
			if rep.Overwrite != "" {
				fmt.Fprintf(out, "Overwrite:  %s (windows are staged, then committed together as one OVERWRITE snapshot)\n", rep.Overwrite)
			}
			if rep.Generation > 1 {
				fmt.Fprintf(out, "Generation: %d (incremental)\n", rep.Generation)
			}
			for _, c := range rep.Changed {
				fmt.Fprintf(out, "Changed:    %s is %s since it was loaded (not reloaded) %s\n", c.Path, c.Change, c.Detail)
			}
			if rep.Lease != nil && rep.Lease.LastError != "" {
				fmt.Fprintf(out, "Last error: %s\n", rep.Lease.LastError)
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "\nWINDOW\tSTATE\tSPLITS\tATTEMPTS\tSNAPSHOT\tROWS")
			for _, w := range rep.Windows {
				fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\n", w.Window, w.State, w.Splits, w.Attempts, w.SnapshotID, w.Rows)
			}
			if err := tw.Flush(); err != nil || rep.Temporal == nil {
				return err
			}
			return printTemporal(out, rep.Temporal)
		},
	}
	jf.register(c)
	temporalF.register(c, "also show the job's workflow on this Temporal frontend (HOST:PORT): the worker running its driver segment, and the running tasks of its windows (worker, try, last heartbeat)")
	c.Flags().StringVar(&output, "output", "table", "output format: table or json")
	return c
}

func newJobsCommand() *cobra.Command {
	c := &cobra.Command{Use: "jobs", Short: "List load jobs of a table",
		Example: `  lakeload jobs list --warehouse /data/wh --table shop.orders`, Args: cobra.NoArgs}
	var tf tableFlags
	list := &cobra.Command{
		Use:     "list",
		Short:   "List the load jobs of a table (in the default checkpoint location)",
		Example: `  lakeload jobs list --warehouse /data/wh --table shop.orders`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			jobs, err := tableJobs(ctx, cat, id)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "JOB\tSTATE\tWINDOWS")
			for _, fi := range jobs {
				state, windows := jobState(ctx, cat.FS, fi.Path)
				fmt.Fprintf(tw, "%s\t%s\t%d\n", listedJobName(fi.Name), state, windows)
			}
			return tw.Flush()
		},
	}
	tf.register(list)
	c.AddCommand(list)
	return c
}

// printLeft reports the files `job forget` left in a store because its layout does not name them.
func printLeft(out io.Writer, root string, left []string) {
	if len(left) == 0 {
		return
	}
	fmt.Fprintf(out, "left %d entries in %s that are not checkpoint records (not deleted; remove them by hand if they are not needed):\n", len(left), root)
	for _, p := range left {
		fmt.Fprintf(out, "  %s\n", p)
	}
}

func newJobCommand() *cobra.Command {
	c := &cobra.Command{Use: "job", Short: "End a load job: abort or forget it",
		Example: `  lakeload job abort --warehouse /data/wh --table shop.orders --job backfill-2024
  lakeload job forget --warehouse /data/wh --table shop.orders --job backfill-2024`, Args: cobra.NoArgs}
	var (
		af            jobFlags
		takeover      bool
		abortWaitFlag time.Duration
		atf           temporalFlags
	)
	abort := &cobra.Command{
		Use:   "abort",
		Short: "End an unfinished job: release its snapshot pin and mark it aborted (its store stays for inspection)",
		Long: `Abort ends a job that will not be finished. Windows already committed stay in the table; the job's
Paimon consumer (the pin that keeps snapshot expiry from removing its markers) is released, and the job is
recorded as aborted, so running the load command again refuses instead of continuing. 'lakeload status'
still shows what was loaded; 'lakeload job forget' removes the store.`,
		Example: `  lakeload job abort --warehouse /data/wh --table shop.orders --job backfill-2024`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cat, id, store, err := af.openJob()
			if err != nil {
				return err
			}
			t, err := cat.LoadTable(ctx, id)
			if err != nil {
				return err
			}
			abortJob := func() error { return job.Abort(ctx, t, store, af.spec.Name, takeover) }
			if atf.hostPort != "" { // terminate the job's workflow first (abort_temporal.go)
				spec, err := af.jobSpec().Absolute()
				if err != nil {
					return err
				}
				if err := atf.abortTemporalJob(ctx, spec, store, abortWaitFlag, newLogger(cmd.ErrOrStderr(), "text"), abortJob); err != nil {
					return err
				}
			} else if err := abortJob(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "aborted job %s of %s; committed windows stay in the table\n", af.spec.Name, id)
			return nil
		},
	}
	af.register(abort)
	abort.Flags().BoolVar(&takeover, "takeover", false, "abort even if a runner holds the job's lease (stop it first)")
	abort.Flags().DurationVar(&abortWaitFlag, "wait", defaultAbortWait, "with --temporal: how long to wait for the workflow's driver segment to let go of the lease "+
		"(at least its heartbeat period + 15 s) before refusing with exit 6; a 'load --temporal' follower waits for the abort record only as long as the default allows")
	atf.register(abort, "first terminate the job's workflow on this Temporal frontend (HOST:PORT; a job run by 'load --temporal'), then abort")
	c.AddCommand(abort)
	var jf jobFlags
	forget := &cobra.Command{
		Use:   "forget",
		Short: "Delete a job's checkpoint store and release its snapshot pin (committed data stays in the table)",
		Long: `Forget removes what lakeload keeps about a job: its checkpoint store and its Paimon consumer (the pin
that keeps snapshot expiry from removing its markers). Windows already committed stay in the table. Running
the same load command afterwards starts a new job that loads all input again. Stop the job first.
Only a directory whose job.json names this job and table (or that holds nothing but a lease, left by a run
stopped before it created the job) is removed, and only the files a checkpoint store holds: anything else in
it is left and listed. Any other directory (a mistyped --checkpoint) is refused with exit 2.`,
		Example: `  lakeload job forget --warehouse /data/wh --table shop.orders --job backfill-2024`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cat, id, store, err := jf.openJob()
			if err != nil {
				return err
			}
			t, err := cat.LoadTable(ctx, id)
			if err != nil {
				t = nil // the table is gone: forget the store only
			}
			removal, err := job.Forget(ctx, t, cat.TablePath(id), store, jf.spec.Name)
			switch {
			case errors.Is(err, checkpoint.ErrNoJob):
				return noJobError(jf.spec.Name, id.String(), store.Root(), "nothing to forget; ")
			case errors.Is(err, checkpoint.ErrNotJobStore):
				return usageError{err}
			case err != nil:
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "forgot job %s of %s\n", jf.spec.Name, id)
			printLeft(cmd.OutOrStdout(), store.Root(), removal.Left)
			return nil
		},
	}
	jf.register(forget)
	c.AddCommand(forget)
	return c
}

// noJobError is the error of a command naming a job that has no job record (exit 4), with what to
// check.
func noJobError(name, table, root, what string) error {
	return checkpoint.NoJobError("no job %s for table %s (store %s): %scheck --job and --checkpoint ('lakeload jobs list' shows "+
		"the table's jobs in the default location)", name, table, root, what)
}
