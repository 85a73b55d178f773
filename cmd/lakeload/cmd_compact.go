package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/spf13/cobra"
)

func newCompactCommand() *cobra.Command {
	var (
		tf        tableFlags
		partition string
		full      bool
		lf        logFlags
	)
	c := &cobra.Command{
		Use:   "compact",
		Short: "Compact a table's data files into a COMPACT snapshot (needed for deletion-vector and first-row tables)",
		Long: `compact merges the data files of each bucket with the table's merge engine and commits the result
as one COMPACT snapshot under a commit user of its own (lakeload-compact-<uuid>); readers see the same rows
before and after. Buckets are picked with Paimon's universal compaction (num-sorted-run.compaction-trigger,
compaction.max-size-amplification-percent, compaction.size-ratio); --full rewrites every bucket into the
highest level. For deletion-vector and first-row tables, whose level-0 files Java's batch reads skip, every
bucket with level-0 files is rewritten in full, which makes its rows visible. Append tables: small files are
merged once there are compaction.min.file-num of them. If another writer changes the same files meanwhile,
compact starts again from a fresh scan (exit code 5 after 3 conflicts).

While it works, the progress (buckets and rows compacted of the total, per partition, bytes read and
written, rate, ETA) is a line on stderr redrawn every second on a terminal, otherwise a log line every
--progress-interval and one at the end. The buckets compacted are listed on stdout at the end.`,
		Example: `  lakeload compact --warehouse /data/wh --table shop.orders
  lakeload compact --warehouse /data/wh --table shop.orders --partition dt=2024-06-12 --full`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if err := lf.check(); err != nil {
				return err
			}
			parts, err := parsePartitionSpec(partition)
			if err != nil {
				return usageError{err}
			}
			_, id, t, err := tf.openTable(ctx)
			if err != nil {
				return err
			}
			for k := range parts {
				if !slices.Contains(t.Schema.PartitionKeys, k) {
					return usageError{fmt.Errorf("--partition: %s is not a partition key of %s (partition keys: %s)",
						k, id, strings.Join(t.Schema.PartitionKeys, ", "))}
				}
			}
			var live compactLive
			display := lf.display(cmd.ErrOrStderr(), live.line, live.attrs)
			display.start()
			r, err := compact.Run(ctx, t, compact.Options{Partition: parts, Full: full, Progress: func(p compact.Progress) {
				live.report(p)
				display.poke()
			}})
			display.finish(err == nil)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if r.SnapshotID == 0 {
				if r.BaseID == 0 {
					fmt.Fprintln(out, "nothing to compact: the table has no snapshot")
				} else {
					fmt.Fprintf(out, "nothing to compact at snapshot %d (%d files)\n", r.BaseID, r.FilesBefore)
				}
				return nil
			}
			fmt.Fprintf(out, "snapshot %d (COMPACT, commit user %s): %d files before, %d after\n",
				r.SnapshotID, r.CommitUser, r.FilesBefore, r.FilesAfter)
			for _, b := range r.Buckets {
				fmt.Fprintf(out, "  %sbucket-%d: %d files -> %d at level %d\n", b.Partition, b.Bucket, b.Inputs, b.Outputs, b.OutputLevel)
			}
			return nil
		},
	}
	tf.register(c)
	c.Flags().StringVar(&partition, "partition", "", "compact only this partition, as column=value[,column=value…] (values as in directory names)")
	c.Flags().BoolVar(&full, "full", false, "rewrite every bucket into the highest level")
	lf.register(c)
	return c
}

// parsePartitionSpec parses "k=v,k2=v2" (empty: no filter).
func parsePartitionSpec(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--partition %q: %q is not column=value; write e.g. --partition dt=2024-06-12,region=eu", s, kv)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("--partition %q: column %s given twice", s, k)
		}
		out[k] = v
	}
	return out, nil
}
