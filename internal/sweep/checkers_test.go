package sweep

import (
	"context"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/read"
)

// TestCheckersCatchDamage is the negative control of the sweep's checks: each damage done to a
// finished load must be reported.
func TestCheckersCatchDamage(t *testing.T) {
	ctx := context.Background()
	l := newLoad(t, loadtest.Dedup(13, 3, 12), 12)
	finished := func() *world {
		w := l.newWorld(t)
		if out := w.run(nil, 0, false); out.err != nil {
			t.Fatal(out.err)
		}
		if err := w.checkFinal(ctx); err != nil {
			t.Fatalf("undamaged load: %v", err)
		}
		return w
	}

	t.Run("missing data file", func(t *testing.T) {
		w := finished()
		tbl, _ := w.openTable(ctx)
		plan, err := read.Scan(ctx, tbl, read.ScanOptions{})
		if err != nil || len(plan.Splits) == 0 {
			t.Fatalf("scan: %v", err)
		}
		s := plan.Splits[0]
		p, _ := tbl.NewPaths().DataFile(s.Partition, s.Bucket, s.Files[0].FileName, s.Files[0].ExternalPath)
		if err := w.fs.Delete(ctx, p); err != nil {
			t.Fatal(err)
		}
		if err := w.checkFiles(ctx); err == nil || !strings.Contains(err.Error(), p) {
			t.Fatalf("checkFiles after deleting %s: %v", p, err)
		}
	})

	t.Run("claimed window not in the table", func(t *testing.T) {
		w := finished()
		snapDir := fileio.Join(l.tablePath(), "snapshot")
		infos, err := w.fs.List(ctx, snapDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, fi := range infos { // drop the last snapshot and the hints
			if fi.Name == "LATEST" || fi.Name == "EARLIEST" || fi.Name == infos[len(infos)-1].Name {
				_ = w.fs.Delete(ctx, fi.Path)
			}
		}
		if _, err := w.checkClaims(ctx); err == nil {
			t.Fatal("checkClaims accepted a store claiming a snapshot the table lacks")
		}
	})

	t.Run("table differs from the model", func(t *testing.T) {
		w := finished()
		short := *l
		short.expected = l.expected[1:]
		w.l = &short
		if err := w.checkFinal(ctx); err == nil || !strings.Contains(err.Error(), "differs from the model") {
			t.Fatalf("checkFinal with a row removed from the model: %v", err)
		}
	})
}
