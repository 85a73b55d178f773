package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/spf13/cobra"
)

func newTableCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "table",
		Short: "Create, describe or drop a Paimon table",
		Example: `  lakeload table create --warehouse /data/wh --table shop.events --column "id BIGINT" --column "payload STRING"
  lakeload table describe --warehouse /data/wh --table shop.events
  lakeload table drop --warehouse /data/wh --table shop.events`,
	}
	c.AddCommand(newTableCreateCommand(), newTableDescribeCommand(), newTableDropCommand(), newTableAddColumnCommand())
	return c
}

func newTableCreateCommand() *cobra.Command {
	var (
		tf          tableFlags
		columns     []string
		primaryKey  []string
		partitionBy []string
		options     []string
		comment     string
		ifNotExists bool
	)
	c := &cobra.Command{
		Use:   "create",
		Short: "Create a table (writes schema/schema-0 in the warehouse)",
		Long: `Create a Paimon table in a filesystem warehouse. Columns are given as "name TYPE" with Paimon SQL
types: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), CHAR(n), VARCHAR(n), STRING,
BINARY(n), VARBINARY(n), BYTES, DATE, TIME(p), TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE, ARRAY<T>,
MAP<K, V>, ROW<a T, …>, each optionally followed by NOT NULL. Primary-key columns become NOT NULL.
Primary-key tables take a fixed bucket count (--option bucket=N, several writers at once) or dynamic
buckets (bucket=-1, Paimon's default: one writer at a time, and the primary key must include every
partition key).`,
		Example: `  lakeload table create --warehouse /data/wh --table shop.orders \
      --column "id BIGINT" --column "customer STRING" --column "amount DECIMAL(12, 2)" --column "dt STRING" \
      --primary-key dt,id --partition-key dt --option bucket=4
  lakeload table create --warehouse /data/wh --table shop.events \
      --column "ts TIMESTAMP(3)" --column "payload STRING"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tf.creating = true
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			fields, err := parseColumnFlags(columns, "id BIGINT NOT NULL")
			if err != nil {
				return err
			}
			opts := map[string]string{}
			for _, o := range options {
				k, v, ok := strings.Cut(o, "=")
				if !ok || strings.TrimSpace(k) == "" {
					return usageError{fmt.Errorf("--option %q: write it as key=value, e.g. bucket=4", o)}
				}
				opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			var cm *string
			if comment != "" {
				cm = &comment
			}
			s, err := spec.NewSchema(fields, partitionBy, primaryKey, opts, cm)
			if err != nil {
				return usageError{err}
			}
			if ifNotExists {
				if exists, err := cat.TableExists(cmd.Context(), id); err != nil {
					return err
				} else if exists {
					fmt.Fprintf(cmd.OutOrStdout(), "table %s already exists; nothing created\n", id)
					return nil
				}
			}
			if err := cat.CreateTable(cmd.Context(), id, s, ifNotExists); err != nil {
				return err
			}
			where := cat.TablePath(id)
			if cat.Meta != nil {
				t, err := cat.LoadTable(cmd.Context(), id)
				if err != nil {
					return fmt.Errorf("created table %s in %s, but loading it failed: %w", id, cat.Meta, err)
				}
				where = fmt.Sprintf("%s in %s", t.Path, cat.Meta)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created table %s at %s\n", id, where)
			return nil
		},
	}
	tf.register(c)
	c.Flags().StringArrayVar(&columns, "column", nil, `column as "name TYPE" (repeat for each column, in order)`)
	c.Flags().StringSliceVar(&primaryKey, "primary-key", nil, "primary-key columns, comma separated")
	c.Flags().StringSliceVar(&partitionBy, "partition-key", nil, "partition columns, comma separated")
	c.Flags().StringArrayVar(&options, "option", nil, "table option key=value (repeatable), e.g. bucket=4")
	c.Flags().StringVar(&comment, "comment", "", "table comment")
	c.Flags().BoolVar(&ifNotExists, "if-not-exists", false, "succeed without change if the table exists")
	return c
}

func newTableDescribeCommand() *cobra.Command {
	var (
		tf     tableFlags
		output string
	)
	c := &cobra.Command{
		Use:     "describe",
		Short:   "Show a table's schema, options and latest snapshot",
		Example: `  lakeload table describe --warehouse /data/wh --table shop.orders --output json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, id, t, err := tf.openTable(cmd.Context())
			if err != nil {
				return err
			}
			latest, err := t.Snapshots().Latest(cmd.Context())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch output {
			case "json":
				b, err := t.Schema.JSON()
				if err != nil {
					return err
				}
				var schema any
				if err := json.Unmarshal(b, &schema); err != nil {
					return err
				}
				doc := map[string]any{"table": id.String(), "path": t.Path, "schema": schema}
				if latest != nil {
					doc["latestSnapshot"] = latest.ID
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(doc)
			case "table", "":
				return describeText(out, id.String(), t.Path, t.Schema, latest)
			default:
				return usageError{fmt.Errorf("--output %q: use table or json", output)}
			}
		},
	}
	tf.register(c)
	c.Flags().StringVar(&output, "output", "table", "output format: table or json")
	return c
}

func describeText(out io.Writer, name, path string, s *spec.TableSchema, latest *spec.Snapshot) error {
	fmt.Fprintf(out, "Table:      %s\nPath:       %s\nSchema id:  %d\n", name, path, s.ID)
	if len(s.PrimaryKeys) > 0 {
		fmt.Fprintf(out, "Primary key: %s\n", strings.Join(s.PrimaryKeys, ", "))
	}
	if len(s.PartitionKeys) > 0 {
		fmt.Fprintf(out, "Partitioned by: %s\n", strings.Join(s.PartitionKeys, ", "))
	}
	if latest != nil {
		fmt.Fprintf(out, "Latest snapshot: %d\n", latest.ID)
	} else {
		fmt.Fprintln(out, "Latest snapshot: none")
	}
	fmt.Fprintln(out, "\nColumns:")
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  ID\tNAME\tTYPE")
	for _, f := range s.Fields {
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", f.ID, f.Name, f.Type)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		fmt.Fprintln(out, "\nOptions:")
		for _, k := range keys {
			fmt.Fprintf(out, "  %s = %s\n", k, s.Options[k])
		}
	}
	return nil
}

func newTableDropCommand() *cobra.Command {
	var (
		tf       tableFlags
		ifExists bool
		withJobs bool
	)
	c := &cobra.Command{
		Use:   "drop",
		Short: "Drop a table and delete all its files",
		Long: `Drop deletes the table's directory with all its files. A load job is bound to the table it loads, so a
table that still has jobs (in the default checkpoint location, see 'lakeload jobs list') is not dropped unless
--with-jobs is given, which first removes them like 'lakeload job forget' (their checkpoint stores and snapshot
pins; it refuses if one of them is running), and the table's sequence-range reservations. A job whose store is
elsewhere (--checkpoint) is not seen here; if the table is created again, that job refuses to run.`,
		Example: `  lakeload table drop --warehouse /data/wh --table shop.orders
  lakeload table drop --warehouse /data/wh --table shop.orders --with-jobs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			exists, err := cat.TableExists(ctx, id)
			if err != nil {
				return err
			}
			if !exists && ifExists {
				fmt.Fprintf(cmd.OutOrStdout(), "table %s does not exist; nothing dropped\n", id)
				return nil
			}
			var forgot []string
			if exists {
				if forgot, err = forgetTableJobs(ctx, cmd.OutOrStdout(), cat, id, withJobs); err != nil {
					return err
				}
			}
			if err := cat.DropTable(ctx, id, ifExists); err != nil {
				return err
			}
			if err := fileio.DeleteAllWithin(ctx, cat.FS, job.SeqReservationsDir(cat, id), fileio.Join(cat.Warehouse, ".lakeload", "tables")); err != nil {
				return fmt.Errorf("dropped table %s, but not its sequence reservations %s: %w", id, job.SeqReservationsDir(cat, id), err)
			}
			if len(forgot) > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "dropped table %s and its load jobs %s\n", id, strings.Join(forgot, ", "))
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "dropped table %s\n", id)
			}
			return nil
		},
	}
	tf.register(c)
	c.Flags().BoolVar(&ifExists, "if-exists", false, "succeed if the table does not exist")
	c.Flags().BoolVar(&withJobs, "with-jobs", false, "also remove the table's load jobs (checkpoint stores and snapshot pins), as 'lakeload job forget' does")
	return c
}

// forgetTableJobs removes the load jobs of table id (withJobs), refusing before it removes anything
// if one of them is running; without withJobs it refuses if there are any. It returns the names of
// the jobs removed.
func forgetTableJobs(ctx context.Context, out io.Writer, cat *catalog.Catalog, id catalog.Identifier, withJobs bool) ([]string, error) {
	jobs, err := tableJobs(ctx, cat, id)
	if err != nil || len(jobs) == 0 {
		return nil, err
	}
	var names []string
	for _, fi := range jobs {
		names = append(names, fi.Name)
	}
	if !withJobs {
		return nil, fmt.Errorf("table %s not dropped: %w %s (their checkpoint stores are in %s), which would stay bound to "+
			"a table that no longer exists; remove them first with 'lakeload job forget --job NAME', or pass --with-jobs to "+
			"remove them with the table", id, errTableHasJobs, strings.Join(names, ", "), job.JobsDir(cat, id))
	}
	for _, fi := range jobs {
		if err := job.CheckIdle(ctx, checkpoint.NewStore(cat.FS, fi.Path), fi.Name); err != nil {
			return nil, fmt.Errorf("%w; nothing was dropped", err)
		}
	}
	t, err := cat.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, fi := range jobs {
		if err := checkpoint.NewStore(cat.FS, fi.Path).CheckRemovable(ctx, fi.Name, t.Path); err != nil && !errors.Is(err, checkpoint.ErrNoJob) {
			return nil, fmt.Errorf("table %s not dropped: its job %s: %w", id, fi.Name, err)
		}
	}
	for _, fi := range jobs {
		store := checkpoint.NewStore(cat.FS, fi.Path)
		removal, err := job.Forget(ctx, t, t.Path, store, fi.Name)
		if errors.Is(err, checkpoint.ErrNoJob) {
			continue // an empty directory: nothing to forget
		}
		if err != nil {
			return nil, fmt.Errorf("table %s not dropped: removing its job %s: %w", id, fi.Name, err)
		}
		printLeft(out, store.Root(), removal.Left)
	}
	_ = fileio.DeleteWithin(ctx, cat.FS, job.JobsDir(cat, id), fileio.Join(cat.Warehouse, ".lakeload", "jobs")) // best effort: only if empty, a new job may have started since
	return names, nil
}
