package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/spf13/cobra"
)

func newScanCommand() *cobra.Command {
	var (
		tf       tableFlags
		snapshot int64
		output   string
		limit    int64
		columns  string
		where    string
	)
	c := &cobra.Command{
		Use:   "scan",
		Short: "Print a table's rows (merge-on-read for primary-key tables)",
		Long: `Scan prints the rows of a table at its latest snapshot or at --snapshot N (time travel).
jsonl prints one JSON object per row with column names as keys; values use lakeload's canonical text
forms: DECIMAL as a string with all scale digits, BYTES as hex, DATE "YYYY-MM-DD", TIMESTAMP
"YYYY-MM-DDTHH:MM:SS.nnnnnnnnn".
arrow writes an Arrow IPC stream (schema, then record batches) and parquet one Parquet file, both with
the table's column names and Arrow types (STRING→utf8, DECIMAL→decimal128, TIMESTAMP(p)→timestamp ms/us/ns,
TIMESTAMP_LTZ with time zone UTC); they are meant for piping into other tools and are the fastest
outputs (files that need no merge are copied column by column).
--columns a,b prints only those columns, in that order; from data files only the columns the output,
the filter and a primary-key merge need are decoded. --where filters rows with comparisons (=, !=, <,
<=, >, >=), IN (...), NOT IN (...), IS [NOT] NULL, AND, OR, NOT and parentheses; values are numbers,
'strings' (cast to the column's type: DATE '2024-03-01', TIMESTAMP '2024-03-01 10:00:00', a number for
a numeric column), TRUE and FALSE. The filter skips partitions, buckets (equality on every bucket-key
column, hashed as the writer does) and data files whose statistics rule it out, then is applied to
every row; in primary-key tables it sees the merged rows. --limit N stops reading after N rows.
When stdout is a file or a pipe and stderr a terminal, the rows written so far (of at most the rows the
table's files hold), the rate and an ETA are a line on stderr redrawn every second.`,
		Example: `  lakeload scan --warehouse /data/wh --table shop.orders
  lakeload scan --warehouse /data/wh --table shop.orders --snapshot 3 --output jsonl
  lakeload scan --warehouse /data/wh --table shop.orders --output csv > orders.csv
  lakeload scan --warehouse /data/wh --table shop.orders --columns id,amount --where "dt = '2024-03-01' AND id > 5" --limit 10
  lakeload scan --warehouse /data/wh --table shop.orders --output arrow | python3 -c 'import pyarrow as pa, sys; print(pa.ipc.open_stream(sys.stdin.buffer).read_all().num_rows)'
  lakeload scan --warehouse /data/wh --table shop.orders --output parquet > orders.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			columnar := output == "arrow" || output == "parquet"
			if output != "jsonl" && output != "csv" && output != "table" && !columnar {
				return usageError{fmt.Errorf("--output %q: use jsonl, csv, table, arrow or parquet", output)}
			}
			if snapshot < 0 || limit < 0 {
				return usageError{fmt.Errorf("--snapshot and --limit must not be negative")}
			}
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			t, err := cat.LoadTable(ctx, id)
			if err != nil {
				return err
			}
			if snapshot > 0 {
				if _, err := t.Snapshots().Get(ctx, snapshot); errors.Is(err, fileio.ErrNotExist) {
					return usageError{fmt.Errorf("--snapshot %d: table %s has no such snapshot (list them with 'lakeload snapshots')", snapshot, id)}
				}
			}
			schema, err := read.SchemaAt(ctx, t, snapshot)
			if err != nil {
				return err
			}
			q, err := parseScanQuery(schema, columns, where)
			if err != nil {
				return err
			}
			plan, err := read.Scan(ctx, t, read.ScanOptions{SnapshotID: snapshot, Filter: q.filter})
			if err != nil {
				return err
			}
			live := newScanLive(plan)
			if display := scanDisplay(cmd.OutOrStdout(), cmd.ErrOrStderr(), live); display != nil {
				display.start()
				defer display.finish(true)
			}
			if columnar {
				bw := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<20)
				if err := writeColumnarScan(ctx, t, plan, bw, output, limit, q, &live.rows); err != nil {
					return err
				}
				return bw.Flush()
			}
			r, err := read.NewReader(t, plan.Schema)
			if err != nil {
				return err
			}
			if err := r.Where(q.filter); err != nil {
				return err
			}
			if err := r.Select(q.cols); err != nil {
				return err
			}
			bw := bufio.NewWriter(cmd.OutOrStdout())
			defer bw.Flush()
			p, err := newPrinter(bw, output, q.fields(plan.Schema.Fields))
			if err != nil {
				return err
			}
			out := q.projector()
			var n int64
			errLimit := fmt.Errorf("limit")
			for _, s := range plan.Splits {
				err := r.ReadSplit(ctx, s, func(row []any) error {
					if limit > 0 && n >= limit {
						return errLimit
					}
					n++
					if n&1023 == 0 {
						live.rows.Store(n)
					}
					return p.row(out(row))
				})
				if err == errLimit {
					break
				}
				if err != nil {
					return err
				}
			}
			live.rows.Store(n)
			return p.close()
		},
	}
	tf.register(c)
	c.Flags().Int64Var(&snapshot, "snapshot", 0, "snapshot id to read (default: latest)")
	c.Flags().StringVar(&output, "output", "jsonl", "output format: jsonl, csv, table, arrow (Arrow IPC stream) or parquet")
	c.Flags().Int64Var(&limit, "limit", 0, "print at most this many rows (0 = all); reading stops there")
	c.Flags().StringVar(&columns, "columns", "", "print only these columns, comma-separated, in this order (default: all)")
	c.Flags().StringVar(&where, "where", "", "print only rows matching this filter, e.g. \"dt = '2024-03-01' AND id > 5\" (see above)")
	return c
}

type printer struct {
	w      io.Writer
	format string
	fields []spec.DataField
	keys   [][]byte // jsonl: each field's `"name":` (or `,"name":`), encoded once
	line   []byte   // jsonl: the row being built, reused
	csv    *csv.Writer
	tab    *tabwriter.Writer
}

func newPrinter(w io.Writer, format string, fields []spec.DataField) (*printer, error) {
	p := &printer{w: w, format: format, fields: fields}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
		key, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			key = append([]byte{','}, key...)
		}
		p.keys = append(p.keys, append(key, ':'))
	}
	switch format {
	case "csv":
		p.csv = csv.NewWriter(w)
		return p, p.csv.Write(names)
	case "table":
		p.tab = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		_, err := fmt.Fprintln(p.tab, strings.Join(names, "\t"))
		return p, err
	}
	return p, nil
}

// text renders a value for csv/table output: canonical text without JSON quoting, empty for null.
func text(t spec.DataType, v any) (string, error) {
	if v == nil {
		return "", nil
	}
	b, err := canon.Value(t, v)
	if err != nil {
		return "", err
	}
	if len(b) > 0 && b[0] == '"' {
		var out string
		err := json.Unmarshal(b, &out)
		return out, err
	}
	return string(b), nil
}

func (p *printer) row(row []any) error {
	switch p.format {
	case "jsonl":
		p.line = append(p.line[:0], '{')
		for i, f := range p.fields {
			p.line = append(p.line, p.keys[i]...)
			b, err := canon.Value(f.Type, row[i])
			if err != nil {
				return fmt.Errorf("column %s: %w", f.Name, err)
			}
			p.line = append(p.line, b...)
		}
		p.line = append(p.line, '}', '\n')
		_, err := p.w.Write(p.line)
		return err
	}
	cells := make([]string, len(row))
	for i, f := range p.fields {
		s, err := text(f.Type, row[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", f.Name, err)
		}
		cells[i] = s
	}
	if p.csv != nil {
		return p.csv.Write(cells)
	}
	_, err := fmt.Fprintln(p.tab, strings.Join(cells, "\t"))
	return err
}

func (p *printer) close() error {
	if p.csv != nil {
		p.csv.Flush()
		return p.csv.Error()
	}
	if p.tab != nil {
		return p.tab.Flush()
	}
	return nil
}
