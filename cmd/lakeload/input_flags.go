package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lakeload/lakeload/source"
	"github.com/spf13/cobra"
)

// inputFlags are the flags describing input files, shared by write and load.
type inputFlags struct {
	from        string
	format      string
	opColumn    string
	ignoreExtra bool
	timeZone    string
	limits      source.Limits
	// The CSV dialect: --csv-delimiter and --csv-quote as given ("" = the default), --csv-header.
	// A worker's flags are not registered: it takes csvNoHeader from the job (registered is false).
	csvDelimiter, csvQuote string
	csvHeader, csvNoHeader bool
	registered             bool
}

func (f *inputFlags) register(c *cobra.Command) {
	f.registered = true
	c.Flags().StringVar(&f.from, "from", "", "input file, directory (every file under it) or glob, e.g. 'in/*.parquet', 'in/**/*.csv' or 's3://bucket/in/' (required)")
	c.Flags().StringVar(&f.format, "format", "", "input format: parquet, orc, csv or jsonl (default: from each file's extension)")
	c.Flags().StringVar(&f.opColumn, "op-column", "", "input column holding row kinds (+I, -U, +U, -D)")
	c.Flags().BoolVar(&f.ignoreExtra, "ignore-extra-columns", false, "ignore input columns the table does not have")
	c.Flags().StringVar(&f.timeZone, "time-zone", "", "time zone for TIMESTAMP WITH LOCAL TIME ZONE text without an offset (default UTC)")
	c.Flags().IntVar(&f.limits.MaxJSONDepth, "max-json-depth", source.DefaultMaxJSONDepth, "deepest nesting of JSON arrays and objects in a JSON line or CSV field; deeper is a row error")
	c.Flags().Int64Var(&f.limits.MaxRecordBytes, "max-record-bytes", source.DefaultMaxRecordBytes,
		fmt.Sprintf("largest CSV record or JSON line in bytes (each field or JSON value also counts %d); larger is a row error", source.ValueCost))
	c.Flags().StringVar(&f.csvDelimiter, "csv-delimiter", ",", `CSV field delimiter: one character, or \t or "tab" for a tab`)
	c.Flags().StringVar(&f.csvQuote, "csv-quote", `"`, "CSV quote character (doubled inside a quoted field)")
	c.Flags().BoolVar(&f.csvHeader, "csv-header", true, "CSV files start with a header naming the columns; false: fields by position, the table's columns in order (then the --op-column)")
	c.Flags().BoolVar(&f.limits.AllowNonRegular, "allow-non-regular-input", false,
		"accept local inputs that are not regular files (devices, FIFOs, sockets); they must give the same bytes every time they are opened")
}

// mapping validates the flags and returns the column-mapping options; errors are usage errors.
func (f *inputFlags) mapping() (source.MappingOptions, error) {
	if f.from == "" {
		return source.MappingOptions{}, usageError{errors.New("--from is required: a file or glob of input files")}
	}
	switch f.format {
	case "", source.FormatParquet, source.FormatORC, source.FormatCSV, source.FormatJSONL:
	default:
		return source.MappingOptions{}, usageError{fmt.Errorf("--format %q: use parquet, orc, csv or jsonl", f.format)}
	}
	loc := time.UTC
	if f.timeZone != "" {
		var err error
		if loc, err = time.LoadLocation(f.timeZone); err != nil {
			return source.MappingOptions{}, usageError{fmt.Errorf("--time-zone %q: %w", f.timeZone, err)}
		}
	}
	if f.limits.MaxJSONDepth < 0 || f.limits.MaxRecordBytes < 0 { // 0 = the default (a worker's flags are not registered)
		return source.MappingOptions{}, usageError{fmt.Errorf("--max-json-depth %d, --max-record-bytes %d: use positive values", f.limits.MaxJSONDepth, f.limits.MaxRecordBytes)}
	}
	csv, err := f.dialect()
	if err != nil {
		return source.MappingOptions{}, err
	}
	return source.MappingOptions{OpColumn: f.opColumn, IgnoreExtra: f.ignoreExtra, TimeZone: loc, Limits: f.limits, CSV: csv}, nil
}

// dialect is the CSV dialect of the flags; errors are usage errors.
func (f *inputFlags) dialect() (source.CSVDialect, error) {
	var d source.CSVDialect
	var err error
	if d.Delimiter, err = csvChar("--csv-delimiter", f.csvDelimiter, f.registered); err != nil {
		return d, err
	}
	if d.Quote, err = csvChar("--csv-quote", f.csvQuote, f.registered); err != nil {
		return d, err
	}
	d.NoHeader = f.csvNoHeader || f.registered && !f.csvHeader
	if err := d.Check(); err != nil {
		return d, usageError{fmt.Errorf("--csv-delimiter %q, --csv-quote %q: %w", f.csvDelimiter, f.csvQuote, err)}
	}
	return d, nil
}

// csvChar parses a --csv-delimiter or --csv-quote value: one ASCII character, or a tab written as
// a tab, \t or "tab"; "" is the default (0) in a job's JobRef, and an error on the command line.
func csvChar(flag, v string, cmdLine bool) (byte, error) {
	switch strings.ToLower(v) {
	case "":
		if cmdLine {
			return 0, usageError{fmt.Errorf("%s is empty: give one character, e.g. ';' or '|'", flag)}
		}
		return 0, nil
	case "\t", `\t`, "tab":
		return '\t', nil
	}
	if len(v) != 1 {
		return 0, usageError{fmt.Errorf("%s %q: give one character, e.g. ';' or '|' (a tab: \\t or tab)", flag, v)}
	}
	return v[0], nil
}
