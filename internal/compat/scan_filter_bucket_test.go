package compat

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/read"
)

// TestScanFilterBucketPruningOnForeignTables: tables whose buckets Java Paimon and pypaimon chose
// (keys of BIGINT, STRING, DECIMAL and DATE columns) are scanned by lakeload with an equality on every
// bucket-key column: the scan keeps one bucket of each partition and still finds every key's row, so
// lakeload's bucket function is the writers'.
func TestScanFilterBucketPruningOnForeignTables(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	cols := []oracle.Column{{Name: "p", Type: "STRING NOT NULL"}, {Name: "k", Type: "BIGINT NOT NULL"}, {Name: "s", Type: "STRING NOT NULL"},
		{Name: "d", Type: "DECIMAL(10, 2) NOT NULL"}, {Name: "dt", Type: "DATE NOT NULL"}, {Name: "v", Type: "INT"}}
	var rows []string
	type key struct {
		p, s, d, dt string
		k           int
	}
	var keys []key
	for i := 0; i < 40; i++ {
		k := key{p: fmt.Sprint("p", i%2), k: i * 7919, s: fmt.Sprintf("s-%d-é", i), d: fmt.Sprintf("%d.%02d", i-20, i%100), dt: fmt.Sprintf("2024-03-%02d", 1+i%28)}
		keys = append(keys, k)
		rows = append(rows, fmt.Sprintf(`{"p":%q,"k":%d,"s":%q,"d":%q,"dt":%q,"v":%d}`, k.p, k.k, k.s, k.d, k.dt, i))
	}
	writers := []struct {
		name string
		c    *oracle.Client
		spec *oracle.TableSpec
	}{
		{"java-pk", java, &oracle.TableSpec{Columns: cols, PrimaryKeys: []string{"p", "k", "s", "d", "dt"}, PartitionKeys: []string{"p"},
			Options: map[string]string{"bucket": "3"}}},
		{"py-append", py, &oracle.TableSpec{Columns: cols, PartitionKeys: []string{"p"},
			Options: map[string]string{"bucket": "3", "bucket-key": "k,s,d,dt"}}},
	}
	ctx := context.Background()
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			wh := t.TempDir()
			name := "t"
			w.c.Write(tablePath(wh, name), oracle.WriteOpts{Spec: w.spec, Rows: rows})
			tbl := openTable(t, wh, name)
			for i, k := range keys {
				where := fmt.Sprintf("k = %d AND s = '%s' AND d = %s AND dt = '%s'", k.k, k.s, k.d, k.dt)
				p, err := read.ParsePredicate(where, tbl.Schema.Fields)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := read.Scan(ctx, tbl, read.ScanOptions{Filter: p})
				if err != nil {
					t.Fatal(err)
				}
				if plan.Pruned.Buckets == 0 {
					t.Errorf("%s: no bucket pruned (%+v)", where, plan.Pruned)
				}
				_, got, err := read.Rows(ctx, tbl, read.ScanOptions{Filter: p})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 || got[0][5] != int32(i) {
					t.Errorf("%s: read %v, want the row with v = %d (its bucket was pruned?)", where, got, i)
				}
			}
		})
	}
}
