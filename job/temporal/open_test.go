package temporal

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/source"
)

// TestOpenTaskCarriesBadRows: a job's --bad-rows=quarantine reaches the workers' input mapping
// through the Spec, so workers leave bad rows out (and list them) as in-process tasks do; the
// default leaves the mapping strict. The worker opens everything from the Spec alone.
func TestOpenTaskCarriesBadRows(t *testing.T) {
	fx := loadtest.Append(5, 1, 1)
	wh := loadtest.TempDir(t)
	fx.Create(t, wh)
	for _, badRows := range []string{"", job.BadRowsFail, job.BadRowsQuarantine} {
		spec := job.Spec{Name: "j", Warehouse: wh, TableName: loadtest.Database + "." + fx.Name,
			Input: job.Input{From: []string{filepath.Join(wh, "*.csv")}, OpColumn: "op"}, BadRows: badRows, IDColumn: "id"}
		env, err := OpenTask(WorkerHooks{})(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		if skip := badRows == job.BadRowsQuarantine; env.Mapping.SkipBadRows != skip || env.Mapping.OpColumn != "op" || env.IDColumn != "id" ||
			env.Table == nil || env.Store == nil || env.Source == nil {
			t.Fatalf("--bad-rows %q: worker task env %+v", badRows, env)
		}
	}
}

// TestOpenTaskCarriesCSVDialect: a job's CSV dialect reaches the workers' input mapping through the
// Spec (JSON, as the workflow carries it), so workers parse CSV splits as the driver cut them; a
// Spec without one is RFC 4180 with a header.
func TestOpenTaskCarriesCSVDialect(t *testing.T) {
	fx := loadtest.Append(5, 1, 1)
	wh := loadtest.TempDir(t)
	fx.Create(t, wh)
	for _, d := range []source.CSVDialect{{}, {Delimiter: ';', Quote: '\'', NoHeader: true}, {Delimiter: '\t'}} {
		spec := job.Spec{Name: "j", Warehouse: wh, TableName: loadtest.Database + "." + fx.Name,
			Input: job.Input{From: []string{filepath.Join(wh, "*.csv")}, CSV: d}}
		b, err := json.Marshal(TaskActivityInput{Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		var wire TaskActivityInput
		if err := json.Unmarshal(b, &wire); err != nil {
			t.Fatal(err)
		}
		env, err := OpenTask(WorkerHooks{})(context.Background(), wire.Spec)
		if err != nil {
			t.Fatal(err)
		}
		if env.Mapping.CSV != d {
			t.Errorf("Spec dialect %+v: worker dialect %+v (wire %s)", d, env.Mapping.CSV, b)
		}
	}
}
