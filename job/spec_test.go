package job

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/source"
)

// TestSpecValidateNamesFlags: every invalid option or combination is refused by Spec.Validate —
// the one check for the CLI, the worker and library callers — with an error naming the CLI flag
// and matching ErrInvalidSpec (the CLI's usage exit code).
func TestSpecValidateNamesFlags(t *testing.T) {
	good := Spec{Name: "j", Input: Input{From: []string{"in/*.csv"}}}
	if err := good.Validate(); err != nil {
		t.Fatalf("a valid spec: %v", err)
	}
	for _, c := range []struct {
		want string
		edit func(*Spec)
	}{
		{"--job is required", func(s *Spec) { s.Name = "" }},
		{"--job: invalid job name", func(s *Spec) { s.Name = "a/b" }},
		{"--from is required", func(s *Spec) { s.From = nil }},
		{`--from ""`, func(s *Spec) { s.From = []string{"in/*.csv", ""} }},
		{`--format "xml"`, func(s *Spec) { s.Format = "xml" }},
		{`--time-zone "Mars/Base"`, func(s *Spec) { s.TimeZone = "Mars/Base" }},
		{"--max-json-depth -1", func(s *Spec) { s.Limits.MaxJSONDepth = -1 }},
		{"--max-record-bytes -1", func(s *Spec) { s.Limits.MaxRecordBytes = -1 }},
		{`--bad-rows "skip"`, func(s *Spec) { s.BadRows = "skip" }},
		{`--overwrite "all"`, func(s *Spec) { s.Overwrite = "all" }},
		{"--overwrite and --incremental cannot be combined", func(s *Spec) { s.Overwrite, s.Incremental = checkpoint.OverwriteTable, true }},
		{"--recompute-window does not apply to an overwrite job", func(s *Spec) { s.Overwrite, s.RecomputeWindows = checkpoint.OverwriteTable, []int64{2} }},
		{`--compaction "never"`, func(s *Spec) { s.Compaction = "never" }},
		{`--evolve-schema "drop-columns"`, func(s *Spec) { s.EvolveSchema = "drop-columns" }},
		{"--evolve-schema is not supported with --catalog rest", func(s *Spec) { s.Catalog, s.EvolveSchema = "rest", EvolveAddColumns }},
	} {
		s := good
		s.From = []string{"in/*.csv"}
		c.edit(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalidSpec) {
			t.Errorf("%s: Validate = %v", c.want, err)
		}
	}
}

// TestSpecJSON: a Spec is plain data — what the Temporal workflow carries to the workers comes back
// equal, with the field names the wire has always used for the options it carried.
func TestSpecJSON(t *testing.T) {
	s := Spec{Name: "j", Catalog: "filesystem", Warehouse: "s3://b/wh", TableName: "db.t", Checkpoint: "s3://b/ck",
		Input: Input{From: []string{"s3://b/in/*.csv", "s3://b/more/*.csv"}, Format: "csv", OpColumn: "op", IgnoreExtra: true,
			TimeZone: "Europe/Paris", Limits: source.Limits{MaxJSONDepth: 3, MaxRecordBytes: 99, AllowNonRegular: true}},
		IDColumn: "id", Overwrite: "", Incremental: true, BadRows: BadRowsQuarantine, CommitRows: 5, CommitEvery: time.Minute,
		Parallelism: 3, SplitTasks: true, Compaction: CompactionOff, EvolveSchema: EvolveAddColumns, RecomputeWindows: []int64{2},
		Takeover: true, DryRun: true}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip\n%+v\nwant\n%+v", back, s)
	}
	for _, k := range []string{`"job":"j"`, `"table":"db.t"`, `"from":["s3://b/in/*.csv"`, `"opColumn":"op"`, `"parallelism":3`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON %s lacks %s", b, k)
		}
	}
}

// TestSpecAbsolute: local locations a driver sends to workers are absolute; object-store and
// file: locations are sent as given.
func TestSpecAbsolute(t *testing.T) {
	t.Chdir(t.TempDir())
	s := Spec{Name: "j", Warehouse: "wh", TableName: "db.t", Checkpoint: "s3://b/ckpt", Input: Input{From: []string{"in/*.csv", "s3://b/x/*.csv"}, OpColumn: "op"}, IDColumn: "id"}
	abs, err := s.Absolute()
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(abs.Warehouse) || !filepath.IsAbs(abs.From[0]) || filepath.Base(abs.Warehouse) != "wh" || abs.From[1] != "s3://b/x/*.csv" {
		t.Fatalf("warehouse %q, from %q: want absolute local paths", abs.Warehouse, abs.From)
	}
	if abs.Checkpoint != "s3://b/ckpt" || abs.Name != "j" || abs.TableName != "db.t" || abs.OpColumn != "op" || abs.IDColumn != "id" {
		t.Fatalf("spec %+v", abs)
	}
	if s.From[0] != "in/*.csv" {
		t.Fatal("Absolute changed its receiver's patterns")
	}
	s.Warehouse = "file:///data/wh"
	if abs, _ = s.Absolute(); abs.Warehouse != "file:///data/wh" {
		t.Fatalf("warehouse %q: a file: URI must be sent as given", abs.Warehouse)
	}
}

// TestResultOptionsAsBefore: the result options a job records (and every later run compares, exit 2
// on a difference) are, for one --from pattern, exactly those lakeload recorded before From became a
// list — so a job store written by an earlier lakeload resumes. Several patterns are recorded as
// their JSON list, which no single pattern equals.
func TestResultOptionsAsBefore(t *testing.T) {
	tz, _ := time.LoadLocation("Europe/Paris")
	for _, c := range []struct {
		spec Spec
		want map[string]string
	}{
		// What `lakeload load --from in/*.csv` recorded (the CLI's time zone defaulted to UTC).
		{Spec{Name: "j", Input: Input{From: []string{"in/*.csv"}}},
			map[string]string{"format": "", "op-column": "", "ignore-extra-columns": "false", "from": "in/*.csv", "time-zone": "UTC"}},
		{Spec{Name: "j", Input: Input{From: []string{"in/*.csv"}, Format: "csv", OpColumn: "op", IgnoreExtra: true, TimeZone: tz.String()},
			IDColumn: "id", Overwrite: checkpoint.OverwriteTable, BadRows: BadRowsQuarantine},
			map[string]string{"format": "csv", "op-column": "op", "ignore-extra-columns": "true", "from": "in/*.csv", "time-zone": "Europe/Paris",
				"id-column": "id", "overwrite": "table", "bad-rows": "quarantine"}},
		{Spec{Name: "j", Input: Input{From: []string{"a/*.csv", "b/*.csv"}}},
			map[string]string{"format": "", "op-column": "", "ignore-extra-columns": "false", "from": `["a/*.csv","b/*.csv"]`, "time-zone": "UTC"}},
	} {
		cfg := Config{Spec: c.spec, Table: loadtest.Append(1, 1, 1).Create(t, t.TempDir()), Store: checkpoint.NewStore(local.New(), t.TempDir())}
		if err := cfg.defaults(); err != nil {
			t.Fatal(err)
		}
		d := &driver{cfg: cfg}
		if got := d.resultOptions(); !maps.Equal(got, c.want) {
			t.Errorf("from %q: result options %v, want %v", c.spec.From, got, c.want)
		}
	}
}

// TestFromPatternsPlannedInOrderOnce: the patterns of From are planned in order and concatenated; a
// file two patterns match is planned once, where first matched, so it is loaded once.
func TestFromPatternsPlannedInOrderOnce(t *testing.T) {
	fx := loadtest.Append(31, 4, 30)
	dir := loadtest.TempDir(t)
	fx.WriteInputs(t, dir)
	in := Input{From: []string{filepath.Join(dir, "in-02.*"), filepath.Join(dir, "in-*"), filepath.Join(dir, "in-0[01].*")}}
	files, err := PlanFiles(context.Background(), local.New(), in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f.Path))
	}
	want := []string{fx.Files[2].Name, fx.Files[0].Name, fx.Files[1].Name, fx.Files[3].Name}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("planned %v, want %v", got, want)
	}
	// A pattern matching nothing is an input error, as a single pattern's is.
	in.From = append(in.From, filepath.Join(dir, "none-*"))
	if _, err := PlanFiles(context.Background(), local.New(), in); err == nil || !strings.Contains(err.Error(), "none-*") {
		t.Fatalf("a pattern matching nothing: %v", err)
	}

	// End to end: overlapping patterns load every row once.
	e := newLoadEnv(t, fx, filepath.Join(dir, "in-*"))
	cfg := e.config(25)
	cfg.From = []string{filepath.Join(dir, "in-0[12].*"), filepath.Join(dir, "in-*")}
	if _, err := e.run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
}

// TestOneFromResumesAndOthersAreRefused: a job created with one --from resumes with that same
// single --from, and a run with another list of patterns is refused as a changed job (exit 2).
func TestOneFromResumesAndOthersAreRefused(t *testing.T) {
	fx := loadtest.Append(32, 3, 30)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	e := newLoadEnv(t, fx, glob)
	cfg := e.config(20)
	cfg.Hook = func(p string, w int64) error {
		if p == PointAfterPublish && w == 1 {
			return errCrash
		}
		return nil
	}
	if _, err := e.run(context.Background(), cfg); !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v", err)
	}
	other := e.config(20)
	other.From = []string{glob, glob}
	if _, err := e.run(context.Background(), other); !errors.Is(err, checkpoint.ErrJobChanged) || !strings.Contains(err.Error(), "option from") {
		t.Fatalf("a run with two patterns: %v, want the job-changed refusal naming option from", err)
	}
	if _, err := e.run(context.Background(), e.config(20)); err != nil {
		t.Fatalf("resume with the same --from: %v", err)
	}
	if p := e.checkFinished(t); p != "" {
		t.Fatal(p)
	}
}
