package main

import (
	"fmt"

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
	fl.StringArrayVar(&in.From, "from", nil, "input file or glob `pattern`, e.g. 'in/*.parquet' or 's3://bucket/in/*.parquet' (required; repeatable: "+
		"the patterns are planned in order, a file matched twice is loaded once; all on one file system)")
	fl.StringVar(&in.Format, "format", "", "input format: parquet, csv or jsonl (default: from the file extension)")
	fl.StringVar(&in.OpColumn, "op-column", "", "input column holding row kinds (+I, -U, +U, -D)")
	fl.BoolVar(&in.IgnoreExtra, "ignore-extra-columns", false, "ignore input columns the table does not have")
	fl.StringVar(&in.TimeZone, "time-zone", "", "time zone for TIMESTAMP WITH LOCAL TIME ZONE text without an offset (default UTC)")
	fl.IntVar(&in.Limits.MaxJSONDepth, "max-json-depth", source.DefaultMaxJSONDepth, "deepest nesting of JSON arrays and objects in a JSON line or CSV field; deeper is a row error")
	fl.Int64Var(&in.Limits.MaxRecordBytes, "max-record-bytes", source.DefaultMaxRecordBytes,
		fmt.Sprintf("largest CSV record or JSON line in bytes (each field or JSON value also counts %d); larger is a row error", source.ValueCost))
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
