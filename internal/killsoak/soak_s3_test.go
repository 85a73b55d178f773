package killsoak

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/internal/s3test"
)

// TestKillSoakS3 is the kill -9 soak with --warehouse and --checkpoint on S3 (versitygw): the
// children reach the server through the standard AWS variables, so every snapshot, store record and
// lease version they publish is a conditional PUT, and a SIGKILL can land between any two requests.
// The same checks as TestKillSoak: Java and pypaimon read exactly the expected rows, one APPEND
// snapshot per window, a further run says the job finished. In `go test` one table with kills aimed
// at the commit and publish points (s3Mode); LAKELOAD_SOAK=long (`make soak S3=1`) the long sizes
// over every point.
func TestKillSoakS3(t *testing.T) {
	if testing.Short() {
		t.Skip("the S3 kill -9 soak takes about 15 s; run without -short")
	}
	java, py := oracle.Java(t), oracle.Py(t)
	srv := s3test.Start(t)
	srv.Setenv(t) // inherited by every child
	m := s3Mode()
	seed := uint64(time.Now().UnixNano())
	t.Logf("mode %s, kill-timing seed %d", m.name, seed)
	rng := rand.New(rand.NewPCG(seed, 0x53))
	root := t.TempDir()
	st := &killStats{aimed: map[string]int{}, missed: map[string]int{}}
	sched := &scheduler{queue: append([]string(nil), s3Points...)}
	if m.name != "s3-short" {
		sched.queue = nil // cycle through every point
	}
	t0 := time.Now()
	var results []tableResult
	for i, ts := range soakTables(m) {
		if m.aimed[i]+m.random[i] == 0 {
			continue
		}
		pl := s3Place(srv, ts.name)
		r := soakTable(t, m, i, ts, root, pl, sched, st, rng)
		results = append(results, verifyTable(t, r, filepath.Join(pl.oracleWH, soakDB+".db", ts.name), java, py))
	}
	t.Log(summarize(m, results, st, time.Since(t0)))
	want := s3Points
	if m.name != "s3-short" {
		want = points
	}
	for _, p := range want {
		if st.aimed[p] == 0 {
			t.Errorf("no kill landed at %s (missed: %v)", p, st.missed)
		}
	}
}
