package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
)

func newSnapshotsCommand() *cobra.Command {
	var (
		tf     tableFlags
		output string
	)
	c := &cobra.Command{
		Use:   "snapshots",
		Short: "List a table's snapshots with their commit user, identifier, kind and properties",
		Example: `  lakeload snapshots --warehouse /data/wh --table shop.orders
  lakeload snapshots --warehouse /data/wh --table shop.orders --output jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if output != "jsonl" && output != "table" {
				return usageError{fmt.Errorf("--output %q: use table or jsonl", output)}
			}
			_, _, t, err := tf.openTable(ctx)
			if err != nil {
				return err
			}
			snaps := t.Snapshots()
			ids, err := snaps.IDs(ctx)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			if output == "table" {
				fmt.Fprintln(tw, "ID\tSCHEMA\tKIND\tCOMMIT USER\tIDENTIFIER\tTIME\tTOTAL ROWS\tDELTA ROWS\tPROPERTIES")
			}
			for _, sid := range ids {
				s, err := snaps.Get(ctx, sid)
				if err != nil {
					return err
				}
				if output == "jsonl" {
					b, err := json.Marshal(map[string]any{
						"id": s.ID, "schemaId": s.SchemaID, "commitKind": s.CommitKind, "commitUser": s.CommitUser,
						"commitIdentifier": s.CommitIdentifier, "timeMillis": s.TimeMillis,
						"totalRecordCount": s.TotalRecordCount, "deltaRecordCount": s.DeltaRecordCount,
						"properties": s.Properties,
					})
					if err != nil {
						return err
					}
					fmt.Fprintln(out, string(b))
					continue
				}
				var props []string
				for k, v := range s.Properties {
					props = append(props, k+"="+v)
				}
				sort.Strings(props)
				fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", s.ID, s.SchemaID, s.CommitKind, s.CommitUser,
					s.CommitIdentifier, time.UnixMilli(s.TimeMillis).UTC().Format(time.RFC3339), optInt(s.TotalRecordCount),
					optInt(s.DeltaRecordCount), strings.Join(props, ","))
			}
			return tw.Flush()
		},
	}
	tf.register(c)
	c.Flags().StringVar(&output, "output", "table", "output format: table or jsonl")
	return c
}

func optInt(p *int64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}
