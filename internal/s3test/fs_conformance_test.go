package s3test_test

import (
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/fiotest"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/s3test"
)

// TestConformance runs the fileio behaviour spec against versitygw.
func TestConformance(t *testing.T) {
	srv := s3test.Start(t)
	fs := newFS(t, srv, nil)
	fiotest.RunWith(t, func(t *testing.T) (fileio.FileIO, string) {
		return fs, freshRoot(srv)
	}, fiotest.Options{FlatNamespace: true})
}

const (
	raceProcs = 4
	raceKeys  = 60
)

// TestRaceChild is the child side of the cross-process races; it skips in normal runs.
func TestRaceChild(t *testing.T) {
	fiotest.RaceChild(t, func(mode string) (fileio.FileIO, error) {
		o, err := s3fs.EnvOptions()
		if err != nil {
			return nil, err
		}
		o.OmitIfNoneMatch = mode == "check-then-put"
		return s3fs.New(ctx, o)
	})
}

// TestWriteIfAbsentAcrossProcesses races processes on the same keys: exactly one winner per key,
// whose bytes are stored.
func TestWriteIfAbsentAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	srv := s3test.Start(t)
	fs := newFS(t, srv, nil)
	if p := fiotest.RaceProcesses(t, fs, "TestRaceChild", "conditional", freshRoot(srv), raceProcs, raceKeys, srv.Env()); len(p) > 0 {
		t.Fatalf("%d problems, first: %s", len(p), strings.Join(p[:min(5, len(p))], "; "))
	}
}

// TestCheckThenPutLosesRace is the negative control: the same race with If-None-Match stripped
// (HEAD, then a plain PUT) must be caught with double winners or overwritten content. A clean run
// is retried; three clean runs mean the harness does not race and proves nothing.
func TestCheckThenPutLosesRace(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	srv := s3test.Start(t)
	fs := newFS(t, srv, nil)
	for a := 1; a <= 3; a++ {
		if p := fiotest.RaceProcesses(t, fs, "TestRaceChild", "check-then-put", freshRoot(srv), raceProcs, raceKeys, srv.Env()); len(p) > 0 {
			t.Logf("attempt %d: harness caught %d/%d broken keys, e.g. %s", a, len(p), raceKeys, p[0])
			return
		}
	}
	t.Fatal("check-then-put produced no double winner in 3 runs: the processes do not overlap, so the race test proves nothing")
}
