package job

import (
	"context"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

func TestSmoke(t *testing.T) {
	for _, fx := range loadtest.All(1, 8, 60) {
		in := loadtest.TempDir(t)
		e := newLoadEnv(t, fx, fx.WriteInputs(t, in))
		start := time.Now()
		res, err := Run(context.Background(), e.config(100))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v in %v", fx.Name, res, time.Since(start))
		for _, ws := range e.state(t).Windows() {
			t.Logf("  window %d splits %v", ws.Window, ws.Assigned.Splits)
		}
		if p := e.checkFinished(t); p != "" {
			t.Error(p)
		}
	}
}
