package main

import (
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
)

// TestScanWhereMatchesOracles: `scan --where … --columns …` prints the rows Java Paimon and pypaimon
// return for the same filter and projection (written in the oracles' JSON form, NOT spelled out by
// De Morgan), on a partitioned, bucketed append table and on a primary-key table whose updated key
// matched the filter before the update.
func TestScanWhereMatchesOracles(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	wh := whereTable(t)
	pk := twoSnapshots(t)
	cases := []struct {
		wh, table, path string
		snapshot        string
		where           string
		columns         []string
		filter          oracle.Filter
	}{
		{wh, "s.e", "s.db/e", "", "dt = '2024-03-01' AND id > 5", []string{"id", "name"},
			oracle.And(oracle.Eq("dt", "2024-03-01"), oracle.Gt("id", 5))},
		{wh, "s.e", "s.db/e", "", "id IN (3, 104) OR name IS NULL", []string{"name", "dt"},
			oracle.Or(oracle.In("id", 3, 104), oracle.IsNull("name"))},
		{wh, "s.e", "s.db/e", "", "NOT (id < 50 OR dt != '2024-03-02') AND name IS NOT NULL", []string{"id"},
			oracle.And(oracle.Ge("id", 50), oracle.Eq("dt", "2024-03-02"), oracle.IsNotNull("name"))},
		{wh, "s.e", "s.db/e", "", "id >= 100 AND id <= 110 AND name != 'n105'", nil,
			oracle.And(oracle.Ge("id", 100), oracle.Le("id", 110), oracle.Ne("name", "n105"))},
		{pk, "s.t", "s.db/t", "", "s = 'two' OR d > 0.75", []string{"k", "s"},
			oracle.Or(oracle.Eq("s", "two"), oracle.Gt("d", 0.75))},
		{pk, "s.t", "s.db/t", "1", "s = 'two' OR d > 0.75", []string{"k", "s"},
			oracle.Or(oracle.Eq("s", "two"), oracle.Gt("d", 0.75))},
	}
	for _, tc := range cases {
		args := []string{"--where", tc.where}
		if tc.columns != nil {
			cols := ""
			for i, c := range tc.columns {
				if i > 0 {
					cols += ","
				}
				cols += c
			}
			args = append(args, "--columns", cols)
		}
		var snap int64
		if tc.snapshot != "" {
			args = append(args, "--snapshot", tc.snapshot)
			snap = 1
		}
		got := canonJSONL(t, lines(ok(t, cmdArgs([]string{"scan"}, tbl(tc.wh, tc.table, args...))...)))
		if len(got) == 0 {
			t.Fatalf("%s: no rows; the case shows nothing", tc.where)
		}
		opts := oracle.ReadOpts{Snapshot: snap, Filter: tc.filter, Projection: tc.columns}
		path := filepath.Join(tc.wh, filepath.FromSlash(tc.path))
		sameLines(t, "Java: "+tc.where, canonJSONL(t, java.Read(path, opts)), got)
		sameLines(t, "pypaimon: "+tc.where, canonJSONL(t, py.Read(path, opts)), got)
	}
}
