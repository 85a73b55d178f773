package job

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// Spec is the one description of a load job: where its table, checkpoint store and input are, and
// every option of the job. It is plain data, serialisable as JSON: the CLI binds its flags to the
// fields of a Spec (cmd/lakeload spec_flags.go), the Temporal workflow carries it to the workers
// (job/temporal), and Config embeds it beside the opened table, store and hooks of one run. A new
// option is one field here (and one flag binding), read where the job uses it.
//
// Validate checks a Spec once, for every caller; its errors name the CLI flags and wrap
// ErrInvalidSpec.
type Spec struct {
	// Where the job is. Open (open.go) opens them; a library caller giving Config.Table and
	// Config.Store directly may leave them empty.
	Name       string `json:"job"`                  // --job: unique per table; part of the store location and snapshot markers
	Catalog    string `json:"catalog,omitempty"`    // --catalog: "" or "filesystem", "rest"
	Warehouse  string `json:"warehouse,omitempty"`  // --warehouse
	TableName  string `json:"table,omitempty"`      // --table: <database>.<table>
	Checkpoint string `json:"checkpoint,omitempty"` // --checkpoint: store location ("" = <warehouse>/.lakeload/jobs/<db>/<table>/<job>)

	Input // --from, --format and the column mapping (flattened in JSON)

	// IDColumn turns on row-id mode: the table column (integer or string type) holding a unique id
	// per input row. Ids are stored with each attempt's results and published with the committed
	// attempt; duplicates are refused when a window is assigned. "" = off.
	IDColumn string `json:"idColumn,omitempty"`
	// Overwrite replaces data instead of appending: "partitions" replaces the partitions the input
	// touches, "table" the whole table; "" appends. Windows are staged (written, stored, not
	// committed) and one OVERWRITE snapshot replaces the data after the last (overwrite.go). A
	// result-changing option: a job keeps the mode it was created with.
	Overwrite string `json:"overwrite,omitempty"`
	// Incremental lets a finished job load the files that appeared under From since its last
	// generation, as a new generation (incremental.go); files already loaded that changed or
	// vanished are reported, never reloaded. Without it a finished job does nothing.
	Incremental bool `json:"incremental,omitempty"`
	// BadRows says what happens to a row that fails row-level validation: BadRowsFail (default, "")
	// stops the load; BadRowsQuarantine leaves the row out and lists it in the attempt's quarantine
	// file (see QuarantinePath). File-level problems always stop the load.
	BadRows string `json:"badRows,omitempty"`

	CommitRows  int64         `json:"commitRows,omitempty"`  // rows per window (default 1,000,000)
	CommitEvery time.Duration `json:"commitEvery,omitempty"` // target duration of a window, sized from measured throughput (0: off)
	Parallelism int           `json:"parallelism,omitempty"` // readers and flushes (or tasks) running at once (default: number of CPUs)
	// SplitTasks runs Parallelism write tasks per window, each over a contiguous group of splits with
	// writers of its own (the task model a distributed executor uses: every task stores its own
	// result). By default a window is one task whose splits are read in parallel and whose rows go to
	// one writer per (partition, bucket), flushed in parallel — fewer, larger files.
	SplitTasks bool `json:"splitTasks,omitempty"`
	// Compaction is CompactionAuto ("" = auto: compact as the job goes; deletion-vector and
	// first-row tables before each window is published) or CompactionOff (compact.go).
	Compaction string `json:"compaction,omitempty"`
	// EvolveSchema "add-columns" (EvolveAddColumns) adds input columns the table lacks as nullable
	// columns in a new schema before the window that first holds them is written (evolve.go).
	// "" = off: such columns are an error. Needs the file source.
	EvolveSchema     string  `json:"evolveSchema,omitempty"`
	RecomputeWindows []int64 `json:"recomputeWindows,omitempty"` // windows rolled back by hand to recompute as new windows
	Takeover         bool    `json:"takeover,omitempty"`         // take the lease from a live runner (it must be stopped)
	DryRun           bool    `json:"dryRun,omitempty"`           // plan and check, write nothing
}

// Input says which files a job reads and how their columns map onto the table's. (Options of the
// input formats — CSV dialect, directory inputs — belong here, beside Format.)
type Input struct {
	// From lists the input files or globs. Each pattern is planned in turn and the files are
	// concatenated in that order; a file matched by more than one pattern is planned once, where it
	// is first matched (planFiles). Ignored when Config.Splits is set.
	From        []string `json:"from,omitempty"`
	Format      string   `json:"format,omitempty"`      // parquet, csv, jsonl or "" (by extension)
	OpColumn    string   `json:"opColumn,omitempty"`    // input column holding row kinds (+I, -U, +U, -D); "" = all +I
	IgnoreExtra bool     `json:"ignoreExtra,omitempty"` // drop input columns the table does not have
	TimeZone    string   `json:"timeZone,omitempty"`    // IANA zone of TIMESTAMP_LTZ text without an offset ("" = UTC)
	// Limits bound what one hostile record or file can make a reader hold; zero fields take their
	// defaults. The Parquet decode budget of a worker is its own memory limit's.
	Limits source.Limits `json:"limits,omitzero"`
}

// ErrInvalidSpec is wrapped by the errors of Spec.Validate: an option of the job is wrong or two
// options conflict (the CLI exits with its usage code).
var ErrInvalidSpec = errors.New("job: invalid job options")

// specError is a Validate error: its message (naming the flag) alone, matching ErrInvalidSpec.
type specError struct{ err error }

func (e specError) Error() string        { return e.err.Error() }
func (e specError) Unwrap() error        { return e.err }
func (e specError) Is(target error) bool { return target == ErrInvalidSpec }

func invalid(format string, args ...any) error { return specError{fmt.Errorf(format, args...)} }

// Validate checks every option of s and their combinations, as a Run of s would, before anything
// is opened. It fills nothing in.
func (s Spec) Validate() error { return s.validate(true) }

// validate is Validate; needFrom is false for a Config with pre-planned Splits.
func (s Spec) validate(needFrom bool) error {
	if s.Name == "" {
		return invalid("--job is required: a job name, unique per table")
	}
	if err := CheckName(s.Name); err != nil {
		return specError{fmt.Errorf("--job: %w", err)}
	}
	if err := s.Input.validate(needFrom); err != nil {
		return err
	}
	switch s.BadRows {
	case "", BadRowsFail, BadRowsQuarantine:
	default:
		return invalid("--bad-rows %q: use %s or %s", s.BadRows, BadRowsFail, BadRowsQuarantine)
	}
	switch s.Overwrite {
	case "", checkpoint.OverwritePartitions, checkpoint.OverwriteTable:
	default:
		return invalid("--overwrite %q: use %q (replace the partitions the input touches) or %q (replace the whole table)",
			s.Overwrite, checkpoint.OverwritePartitions, checkpoint.OverwriteTable)
	}
	if s.Overwrite != "" && s.Incremental {
		return invalid("--overwrite and --incremental cannot be combined: an overwrite replaces data once; load later files with a new overwrite job")
	}
	if s.Overwrite != "" && len(s.RecomputeWindows) > 0 {
		return invalid("--recompute-window does not apply to an overwrite job (its windows are committed together); " +
			"forget the job and run the overwrite again")
	}
	switch s.Compaction {
	case "", CompactionAuto, CompactionOff:
	default:
		return invalid("--compaction %q is not supported: use %q (compact as the load goes; the default) or %q", s.Compaction, CompactionAuto, CompactionOff)
	}
	switch s.EvolveSchema {
	case "", EvolveAddColumns:
	default:
		return invalid("--evolve-schema %q is not supported: use %q or leave it off", s.EvolveSchema, EvolveAddColumns)
	}
	switch s.Catalog {
	case "", "filesystem":
	case "rest":
		if s.EvolveSchema != "" {
			return invalid("--evolve-schema is not supported with --catalog rest yet: add the columns first with 'lakeload table alter --catalog rest … --add-column', then load")
		}
	default:
		return invalid("--catalog %q: use filesystem or rest", s.Catalog)
	}
	return nil // CommitRows and Parallelism of 0 or less take their defaults (Config.fill), as they always did
}

// Validate checks the input options; needFrom: at least one --from pattern is required.
func (in Input) Validate() error { return in.validate(true) }

func (in Input) validate(needFrom bool) error {
	if needFrom && len(in.From) == 0 {
		return invalid("--from is required: a file or glob of input files")
	}
	for _, p := range in.From {
		if p == "" {
			return invalid("--from \"\": give a file or glob of input files")
		}
	}
	switch in.Format {
	case "", source.FormatParquet, source.FormatCSV, source.FormatJSONL:
	default:
		return invalid("--format %q: use parquet, csv or jsonl", in.Format)
	}
	if _, err := in.location(); err != nil {
		return err
	}
	if l := in.Limits; l.MaxJSONDepth < 0 || l.MaxRecordBytes < 0 {
		return invalid("--max-json-depth %d, --max-record-bytes %d: use positive values", l.MaxJSONDepth, l.MaxRecordBytes)
	}
	return nil
}

func (in Input) location() (*time.Location, error) {
	if in.TimeZone == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(in.TimeZone)
	if err != nil {
		return nil, specError{fmt.Errorf("--time-zone %q: %w", in.TimeZone, err)}
	}
	return loc, nil
}

// MappingOptions returns the column-mapping options of the input (SkipBadRows is the job's:
// Config sets it from BadRows). It fails only on an unknown time zone.
func (in Input) MappingOptions() (source.MappingOptions, error) {
	loc, err := in.location()
	if err != nil {
		return source.MappingOptions{}, err
	}
	return source.MappingOptions{OpColumn: in.OpColumn, IgnoreExtra: in.IgnoreExtra, TimeZone: loc, Limits: in.Limits}, nil
}

// MappingOptions returns the column-mapping options of the job's input, bad rows included.
func (s Spec) MappingOptions() (source.MappingOptions, error) {
	m, err := s.Input.MappingOptions()
	m.SkipBadRows = s.BadRows == BadRowsQuarantine
	return m, err
}

// fromOption is the "from" result option of the job record: the pattern itself for one pattern (as
// jobs recorded it before From was a list), else the JSON list of patterns.
func (in Input) fromOption() string {
	switch len(in.From) {
	case 0:
		return ""
	case 1:
		return in.From[0]
	}
	b, _ := json.Marshal(in.From)
	return string(b)
}

// Absolute returns s with its local locations (warehouse, checkpoint, input patterns) made absolute,
// as another process with another working directory must see them (a Temporal worker);
// object-store and file: locations are kept as given.
func (s Spec) Absolute() (Spec, error) {
	abs := func(flag, v string) (string, error) {
		if v == "" || fileio.Scheme(v) != "file" || filepath.IsAbs(v) || strings.HasPrefix(v, "file:") {
			return v, nil
		}
		a, err := filepath.Abs(v)
		if err != nil {
			return v, invalid("%s %q: %w", flag, v, err)
		}
		return a, nil
	}
	var err error
	if s.Warehouse, err = abs("--warehouse", s.Warehouse); err != nil {
		return s, err
	}
	if s.Checkpoint, err = abs("--checkpoint", s.Checkpoint); err != nil {
		return s, err
	}
	from := make([]string, len(s.From))
	for i, p := range s.From {
		if from[i], err = abs("--from", p); err != nil {
			return s, err
		}
	}
	if s.From != nil {
		s.From = from
	}
	s.RecomputeWindows = append([]int64(nil), s.RecomputeWindows...)
	if len(s.RecomputeWindows) == 0 {
		s.RecomputeWindows = nil
	}
	return s, nil
}
