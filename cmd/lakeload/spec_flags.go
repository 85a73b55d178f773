package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/source"
)

// The flags of a job's options, bound straight to the fields of its job.Spec: the one table of
// them. `load` binds them all (bindSpec); `write` the input's (bindInput). A flag parsed is the Spec
// field set, so the job validates what the command line said (job.Spec.Validate), the Temporal
// workflow carries it to the workers as it is, and a new option is a Spec field and a line here.

// bindInput binds the input flags (shared by write and load) to in.
func bindInput(fl *pflag.FlagSet, in *job.Input) {
	fl.StringArrayVar(&in.From, "from", nil, "input file, directory (every file under it) or glob `pattern`, e.g. 'in/*.parquet', 'in/**/*.csv' or 's3://bucket/in/' "+
		"(required; repeatable: the patterns are planned in order, a file matched twice is loaded once; all on one file system)")
	fl.StringVar(&in.Format, "format", "", "input format: parquet, orc, csv or jsonl (default: from each file's extension)")
	fl.StringVar(&in.OpColumn, "op-column", "", "input column holding row kinds (+I, -U, +U, -D)")
	fl.BoolVar(&in.IgnoreExtra, "ignore-extra-columns", false, "ignore input columns the table does not have")
	fl.StringVar(&in.TimeZone, "time-zone", "", "time zone for TIMESTAMP WITH LOCAL TIME ZONE text without an offset (default UTC)")
	fl.IntVar(&in.Limits.MaxJSONDepth, "max-json-depth", source.DefaultMaxJSONDepth, "deepest nesting of JSON arrays and objects in a JSON line or CSV field; deeper is a row error")
	fl.Int64Var(&in.Limits.MaxRecordBytes, "max-record-bytes", source.DefaultMaxRecordBytes,
		fmt.Sprintf("largest CSV record or JSON line in bytes (each field or JSON value also counts %d); larger is a row error", source.ValueCost))
	fl.Var(csvChar{&in.CSV.Delimiter, ','}, "csv-delimiter", `CSV field delimiter: one character, or \t or "tab" for a tab`)
	fl.Var(csvChar{&in.CSV.Quote, '"'}, "csv-quote", "CSV quote character (doubled inside a quoted field)")
	fl.Var(csvHeader{&in.CSV.NoHeader}, "csv-header", "CSV files start with a header naming the columns; false: fields by position, the table's columns in order (then the --op-column)")
	fl.Lookup("csv-header").NoOptDefVal = "true"
	fl.BoolVar(&in.Limits.AllowNonRegular, "allow-non-regular-input", false,
		"accept local inputs that are not regular files (devices, FIFOs, sockets); they must give the same bytes every time they are opened")
}

// bindSpec binds the options of a load job to s (its name, checkpoint and table are jobFlags').
func bindSpec(fl *pflag.FlagSet, s *job.Spec) {
	bindInput(fl, &s.Input)
	fl.StringVar(&s.Overwrite, "overwrite", "", "replace instead of append: 'partitions' (the partitions the input touches) or 'table'; committed as one OVERWRITE snapshot after the last window")
	fl.BoolVar(&s.Incremental, "incremental", false, "on a finished job, load the files added under --from since its last run (a new generation); changed or removed files are reported, not reloaded")
	fl.StringVar(&s.IDColumn, "id-column", "", "row-id mode: table column (integer or string) with a unique id per row; ids are checkpointed, duplicates refused")
	fl.DurationVar(&s.CommitEvery, "commit-every", 0, "target duration of a window, e.g. 5m (sized from measured throughput)")
	fl.Int64Var(&s.CommitRows, "commit-rows", 1_000_000, "rows per window (the first window's size with --commit-every)")
	fl.IntVar(&s.Parallelism, "parallelism", 0, "write tasks per window (default: number of CPUs)")
	fl.BoolVar(&s.DryRun, "dry-run", false, "plan, check the column mapping on a sample of each file, write nothing")
	fl.BoolVar(&s.Takeover, "takeover", false, "take the job over from a runner that holds its lease (stop that runner first)")
	fl.Int64SliceVar(&s.RecomputeWindows, "recompute-window", nil, "recompute windows whose snapshots were rolled back by hand")
	fl.StringVar(&s.Compaction, "compaction", job.CompactionAuto, "auto: compact the table as the load goes (in the background once a bucket has more sorted runs than num-sorted-run.compaction-trigger, waiting for it above num-sorted-run.stop-trigger; deletion-vector and first-row tables before each window is published); off: never")
	fl.StringVar(&s.EvolveSchema, "evolve-schema", "", "add-columns: add input columns the table lacks as nullable columns (a new schema) instead of failing")
	fl.StringVar(&s.BadRows, "bad-rows", job.BadRowsFail, "a row failing validation: fail (stop the load) or quarantine (leave it out, list it in <checkpoint>/quarantine; see docs/bad-input.md)")
}

// csvChar is a --csv-delimiter or --csv-quote flag bound to a source.CSVDialect character (0 = def,
// the default, also when given): one ASCII character, or a tab written as a tab, \t or "tab". Which characters the
// dialect accepts is job.Spec.Validate's check; an empty or longer value is refused here.
type csvChar struct {
	dst *byte
	def byte
}

func (f csvChar) Set(v string) error {
	switch strings.ToLower(v) {
	case "":
		return errors.New("empty: give one character, e.g. ';' or '|'")
	case "\t", `\t`, "tab":
		*f.dst = '\t'
		return nil
	}
	if len(v) != 1 {
		return errors.New("give one character, e.g. ';' or '|' (a tab: \\t or tab)")
	}
	*f.dst = v[0]
	if v[0] == f.def {
		*f.dst = 0 // the default is the zero dialect, as a Spec without the flag has it
	}
	return nil
}

func (f csvChar) String() string {
	if f.dst == nil || *f.dst == 0 {
		return string(f.def)
	}
	return string(*f.dst)
}

func (csvChar) Type() string { return "string" }

// csvHeader is --csv-header bound to source.CSVDialect.NoHeader (its negation).
type csvHeader struct{ noHeader *bool }

func (f csvHeader) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	*f.noHeader = !b
	return nil
}

func (f csvHeader) String() string { return strconv.FormatBool(f.noHeader == nil || !*f.noHeader) }
func (csvHeader) Type() string     { return "bool" }
func (csvHeader) IsBoolFlag() bool { return true }
