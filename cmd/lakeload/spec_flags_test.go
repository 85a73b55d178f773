package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/temporal"
	"github.com/lakeload/lakeload/source"
)

// parseLoad parses args as the load command's and returns the job's Spec as load hands it to the job.
func parseLoad(t *testing.T, args ...string) job.Spec {
	t.Helper()
	var got job.Spec
	c := loadCommand(func(_ *cobra.Command, jf jobFlags, _ loadFlags) error { got = jf.jobSpec(); return nil })
	c.SetArgs(args)
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSpecReachesTheWorker: every option of the load command lands in the job's Spec, and a worker
// driving the job (temporal.OpenDriver, from the Spec the job workflow carries as JSON) builds a
// Config with that same Spec — one description end to end, nothing copied field by field.
func TestSpecReachesTheWorker(t *testing.T) {
	wh := t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.t", "--column", "id BIGINT NOT NULL", "--column", "v STRING",
		"--primary-key", "id", "--option", "bucket=2"))...)
	spec := parseLoad(t, cmdArgs(nil, tbl(wh, "db.t", "--job", "j", "--from", wh+"/*.csv", "--from", wh+"/more/*.csv",
		"--format", "csv", "--op-column", "op", "--ignore-extra-columns", "--time-zone", "Europe/Paris",
		"--max-json-depth", "9", "--max-record-bytes", "1234", "--allow-non-regular-input",
		"--id-column", "id", "--bad-rows", "quarantine", "--commit-rows", "7", "--commit-every", "1m", "--parallelism", "3",
		"--compaction", "off", "--incremental", "--evolve-schema", "add-columns", "--recompute-window", "4", "--takeover"))...)
	want := job.Spec{Name: "j", Catalog: "filesystem", Warehouse: wh, TableName: "db.t",
		Input: job.Input{From: []string{wh + "/*.csv", wh + "/more/*.csv"}, Format: "csv", OpColumn: "op", IgnoreExtra: true,
			TimeZone: "Europe/Paris", Limits: source.Limits{MaxJSONDepth: 9, MaxRecordBytes: 1234, AllowNonRegular: true}},
		IDColumn: "id", BadRows: job.BadRowsQuarantine, CommitRows: 7, CommitEvery: time.Minute, Parallelism: 3,
		Compaction: job.CompactionOff, Incremental: true, EvolveSchema: job.EvolveAddColumns, RecomputeWindows: []int64{4}, Takeover: true}
	if !reflect.DeepEqual(spec, want) {
		t.Fatalf("flags gave spec\n%+v\nwant\n%+v", spec, want)
	}
	if err := spec.Validate(); err != nil {
		t.Fatal(err)
	}
	abs, err := spec.Absolute()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(temporal.JobInput{Spec: abs})
	if err != nil {
		t.Fatal(err)
	}
	var wire temporal.JobInput
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	got, err := temporal.OpenDriver(workerHooks(nil))(context.Background(), wire.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Spec, abs) {
		t.Fatalf("worker config spec\n%+v\nwant\n%+v", got.Spec, abs)
	}
	if got.Table == nil || got.Store == nil || got.InputFS == nil || got.SeqReservations == "" {
		t.Fatalf("worker config opened table %v, store %v, input %v, reservations %q", got.Table, got.Store, got.InputFS, got.SeqReservations)
	}
}

// TestLoadDefaultsInSpec: a load with only the required flags gives the flag defaults, and
// one --from is a list of one pattern (the job record keeps it as the pattern itself).
func TestLoadDefaultsInSpec(t *testing.T) {
	spec := parseLoad(t, "--warehouse", "wh", "--table", "db.t", "--job", "j", "--from", "in/*.csv")
	want := job.Spec{Name: "j", Catalog: "filesystem", Warehouse: "wh", TableName: "db.t",
		Input:      job.Input{From: []string{"in/*.csv"}, Limits: source.Limits{MaxJSONDepth: source.DefaultMaxJSONDepth, MaxRecordBytes: source.DefaultMaxRecordBytes}},
		BadRows:    job.BadRowsFail,
		CommitRows: 1_000_000, Compaction: job.CompactionAuto}
	if !reflect.DeepEqual(spec, want) {
		t.Fatalf("spec %+v, want %+v", spec, want)
	}
	if abs, err := spec.Absolute(); err != nil || !filepath.IsAbs(abs.Warehouse) || !filepath.IsAbs(abs.From[0]) {
		t.Fatalf("absolute spec %+v, %v", abs, err)
	}
}

// TestLoadRepeatedFrom: --from is repeatable; overlapping patterns load every file once, and the
// job resumes (here: finds itself finished) only with the same patterns.
func TestLoadRepeatedFrom(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.kv", "--column", "k INT NOT NULL", "--column", "v STRING", "--primary-key", "k", "--option", "bucket=1"))...)
	a := writeFile(t, in, "a.csv", "k,v\n1,a\n2,a\n")
	writeFile(t, in, "b.csv", "k,v\n3,b\n")
	both := filepath.Join(in, "*.csv")
	load := func(from ...string) []string {
		args := tbl(wh, "s.kv", "--job", "two")
		for _, f := range from {
			args = append(args, "--from", f)
		}
		return cmdArgs([]string{"load"}, args)
	}
	out := ok(t, load(a, both)...)
	if !strings.Contains(out, "3 rows written") {
		t.Fatalf("load of a.csv and *.csv: %s", out)
	}
	if got := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.kv"))...)); len(got) != 3 {
		t.Fatalf("scan: %v, want 3 rows (a.csv once)", got)
	}
	fails(t, exitUsage, []string{"option from", "use the original settings"}, load(both)...)
	if out := ok(t, load(a, both)...); !strings.Contains(out, "already finished") {
		t.Fatalf("rerun with the same patterns: %s", out)
	}
	fails(t, exitUsage, []string{"different file systems"}, cmdArgs([]string{"load"}, tbl(wh, "s.kv", "--job", "mixed", "--from", a, "--from", "s3://b/x/*.csv"))...)
}

// TestLoadRESTRefusals: options a REST catalog cannot honour are refused before the catalog is
// reached (exit 2): schema evolution by the job's Spec.Validate, the Temporal engine by the command.
func TestLoadRESTRefusals(t *testing.T) {
	rest := []string{"load", "--catalog", "rest", "--catalog-uri", "http://127.0.0.1:1/", "--table", "s.t", "--job", "j", "--from", "x.csv"}
	fails(t, exitUsage, []string{"--evolve-schema is not supported with --catalog rest"}, append(rest, "--evolve-schema", "add-columns")...)
	fails(t, exitUsage, []string{"--temporal is not supported with --catalog rest"}, append(rest, "--temporal", "127.0.0.1:1")...)
}
