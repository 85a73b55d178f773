package main

import (
	"fmt"
	"time"

	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/spf13/cobra"
)

func newExpireCommand() *cobra.Command {
	var (
		tf         tableFlags
		retainMin  int
		retainMax  int
		olderThan  time.Duration
		maxDeletes int
		dryRun     bool
		lf         logFlags
	)
	c := &cobra.Command{
		Use:   "expire",
		Short: "Expire old snapshots and delete the files only they reference (as Paimon's expire_snapshots)",
		Long: `Expire removes the oldest snapshots of a table, as Java Paimon does after each commit: it keeps at least
--retain-min snapshots, at most --retain-max, and every snapshot younger than --older-than; it expires at most
--max-deletes snapshots per run and never passes a consumer's next snapshot (a running 'lakeload load' keeps one,
so expiry never removes what the job still needs). Defaults come from the table options snapshot.num-retained.min
(10), snapshot.num-retained.max (unlimited), snapshot.time-retained (1h) and snapshot.expire.limit (50). Consumers
not updated for consumer.expiration-time (if set) are deleted first. Data files are deleted only when a later
snapshot removed them and no retained snapshot or tag uses them. Time travel to an expired snapshot fails.
If it is interrupted, run it again: it finishes the work. While it works, the progress (the step, its
snapshots done of the total, files examined and deleted) is a line on stderr redrawn every second on a
terminal, otherwise a log line every --progress-interval and one at the end.`,
		Example: `  lakeload expire --warehouse /data/wh --table shop.orders --dry-run
  lakeload expire --warehouse /data/wh --table shop.orders --retain-min 3 --older-than 24h`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			flags := cmd.Flags()
			if err := lf.check(); err != nil {
				return err
			}
			switch {
			case flags.Changed("retain-min") && retainMin < 1:
				return usageError{fmt.Errorf("--retain-min %d: keep at least 1 snapshot", retainMin)}
			case flags.Changed("retain-max") && retainMax < 1:
				return usageError{fmt.Errorf("--retain-max %d: keep at least 1 snapshot", retainMax)}
			case flags.Changed("older-than") && olderThan < 0:
				return usageError{fmt.Errorf("--older-than %s: use a duration of 0 or more", olderThan)}
			case flags.Changed("max-deletes") && maxDeletes < 1:
				return usageError{fmt.Errorf("--max-deletes %d: use 1 or more", maxDeletes)}
			}
			_, id, t, err := tf.openTable(ctx)
			if err != nil {
				return err
			}
			o, err := maintain.ExpireOptionsOf(t)
			if err != nil {
				return err
			}
			if flags.Changed("retain-min") {
				o.RetainMin = retainMin
			}
			if flags.Changed("retain-max") {
				o.RetainMax = retainMax
			}
			if flags.Changed("older-than") {
				o.TimeRetained = olderThan
			}
			if flags.Changed("max-deletes") {
				o.MaxDeletes = maxDeletes
			}
			if o.RetainMax < o.RetainMin {
				return usageError{fmt.Errorf("the maximum number of snapshots to keep (%d) is below the minimum (%d): "+
					"set --retain-max to at least --retain-min", o.RetainMax, o.RetainMin)}
			}
			o.DryRun = dryRun
			live := &maintainLive{command: "expire", dryRun: dryRun}
			display := lf.display(cmd.ErrOrStderr(), live.line, live.attrs)
			o.Progress = func(p maintain.Progress) { live.report(p); display.poke() }
			display.start()
			res, err := maintain.Expire(ctx, t, o)
			display.finish(err == nil)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			verb, del := "expired", "deleted"
			if dryRun {
				verb, del = "would expire", "would delete"
				for _, f := range res.Files {
					fmt.Fprintf(out, "%-15s %s\n", f.Kind, f.Path)
				}
			}
			for _, c := range res.Consumers {
				fmt.Fprintf(out, "consumer %s not updated for %s: %s\n", c, o.ConsumerExpiration, del)
			}
			if len(res.Expired) == 0 {
				fmt.Fprintf(out, "nothing to expire in %s: snapshots %d..%d are retained\n", id, res.Earliest, res.Latest)
				return nil
			}
			counts := map[string]int{}
			for _, f := range res.Files {
				counts[f.Kind]++
			}
			fmt.Fprintf(out, "%s snapshots %d..%d of %s (%d snapshots; %d..%d remain); %s %d data, %d manifest, %d manifest-list, %d index files\n",
				verb, res.Begin, res.End-1, id, len(res.Expired), res.End, res.Latest, del,
				counts[maintain.KindData]+counts[maintain.KindChangelog], counts[maintain.KindManifest],
				counts[maintain.KindManifestList], counts[maintain.KindIndex]+counts[maintain.KindIndexManifest])
			return nil
		},
	}
	tf.register(c)
	f := c.Flags()
	f.IntVar(&retainMin, "retain-min", 0, "keep at least this many snapshots (default: table option snapshot.num-retained.min)")
	f.IntVar(&retainMax, "retain-max", 0, "keep at most this many snapshots (default: table option snapshot.num-retained.max, unlimited)")
	f.DurationVar(&olderThan, "older-than", 0, "expire only snapshots older than this (default: table option snapshot.time-retained)")
	f.IntVar(&maxDeletes, "max-deletes", 0, "expire at most this many snapshots in this run (default: table option snapshot.expire.limit)")
	f.BoolVar(&dryRun, "dry-run", false, "list what would be expired and deleted, change nothing")
	lf.register(c)
	return c
}
