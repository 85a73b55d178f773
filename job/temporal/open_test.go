package temporal

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
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
