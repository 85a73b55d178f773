package job

import (
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
)

func TestTmpProbeTies(t *testing.T) {
	concStorages(t, func(t *testing.T, s concStorage) {
		if s.name != "local" {
			t.Skip()
		}
		createConcTable(t, s)
		fa, fb := concFiles("p", "a", 1, 30), concFiles("p", "b", 1, 30)
		a, b := concJob(t, s, "job-a", writeConcInput(t, fa)), concJob(t, s, "job-b", writeConcInput(t, fb))
		bar := newBarrier(2)
		for _, cfg := range []*Config{&a, &b} {
			cfg.Hook = func(p string, w int64) error {
				if p == PointAssigned {
					bar.wait(5e9)
				}
				return nil
			}
		}
		runBoth(t, a, b)
		got := loadtest.Lines(t, openConcTable(t, s))
		path := filepath.Join(s.localRoot, "wh", "db.db", "t")
		j := oracle.Java(t).Read(path, oracle.ReadOpts{})
		p := oracle.Py(t).Read(path, oracle.ReadOpts{})
		t.Logf("java vs lakeload: %s", loadtest.Diff(j, got))
		t.Logf("py vs lakeload: %s", loadtest.Diff(p, got))
		t.Logf("lakeload: %v", got[:3])
	})
}
