package main

import (
	"errors"
	"fmt"
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
}

func (f *inputFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.from, "from", "", "input file or glob, e.g. 'in/*.parquet' or 's3://bucket/in/*.parquet' (required)")
	c.Flags().StringVar(&f.format, "format", "", "input format: parquet, csv or jsonl (default: from the file extension)")
	c.Flags().StringVar(&f.opColumn, "op-column", "", "input column holding row kinds (+I, -U, +U, -D)")
	c.Flags().BoolVar(&f.ignoreExtra, "ignore-extra-columns", false, "ignore input columns the table does not have")
	c.Flags().StringVar(&f.timeZone, "time-zone", "", "time zone for TIMESTAMP WITH LOCAL TIME ZONE text without an offset (default UTC)")
	c.Flags().IntVar(&f.limits.MaxJSONDepth, "max-json-depth", source.DefaultMaxJSONDepth, "deepest nesting of JSON arrays and objects in a JSON line or CSV field; deeper is a row error")
	c.Flags().Int64Var(&f.limits.MaxRecordBytes, "max-record-bytes", source.DefaultMaxRecordBytes,
		fmt.Sprintf("largest CSV record or JSON line in bytes (each field or JSON value also counts %d); larger is a row error", source.ValueCost))
	c.Flags().BoolVar(&f.limits.AllowNonRegular, "allow-non-regular-input", false,
		"accept local inputs that are not regular files (devices, FIFOs, sockets); they must give the same bytes every time they are opened")
}

// mapping validates the flags and returns the column-mapping options; errors are usage errors.
func (f *inputFlags) mapping() (source.MappingOptions, error) {
	if f.from == "" {
		return source.MappingOptions{}, usageError{errors.New("--from is required: a file or glob of input files")}
	}
	switch f.format {
	case "", source.FormatParquet, source.FormatCSV, source.FormatJSONL:
	default:
		return source.MappingOptions{}, usageError{fmt.Errorf("--format %q: use parquet, csv or jsonl", f.format)}
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
	return source.MappingOptions{OpColumn: f.opColumn, IgnoreExtra: f.ignoreExtra, TimeZone: loc, Limits: f.limits}, nil
}
