package local_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/fiotest"
	"github.com/lakeload/lakeload/fileio/local"
)

// The cross-process race re-executes this test binary (fiotest.RaceProcesses): TestRaceChild does
// the work in children.
const (
	raceProcs = 4
	raceKeys  = 100
)

// naiveFS is the local backend with the broken check-then-rename protocol (what Java's LocalFileIO
// does, safe only inside one JVM). It exists to show the harness catches double winners.
type naiveFS struct{ fileio.FileIO }

func (naiveFS) WriteIfAbsent(_ context.Context, path string, data []byte) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("naive: %s: %w", path, fileio.ErrExist)
	}
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d.tmp", filepath.Base(path), os.Getpid()))
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	_ = f.Sync()
	_ = f.Close()
	return os.Rename(tmp, path)
}

// TestRaceChild is the child side of the cross-process race; it is skipped in normal runs.
func TestRaceChild(t *testing.T) {
	fiotest.RaceChild(t, func(mode string) (fileio.FileIO, error) {
		if mode == "naive" {
			return naiveFS{local.New()}, nil
		}
		return local.New(), nil
	})
}

// TestWriteIfAbsentAcrossProcesses races processes on the same keys: exactly one winner per key,
// whose bytes are stored, and no temp file left behind.
func TestWriteIfAbsentAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	if p := fiotest.RaceProcesses(t, local.New(), "TestRaceChild", "atomic", t.TempDir(), raceProcs, raceKeys, nil); len(p) > 0 {
		t.Fatalf("%d problems, first: %s", len(p), strings.Join(p[:min(5, len(p))], "; "))
	}
}

// TestNaiveWriteIfAbsentLosesRace is the negative control: the same harness must catch the
// check-then-rename protocol publishing twice (on the dev machine 85-100 of 100 keys break per
// run). A run without collisions is retried; three clean runs mean the harness does not race.
func TestNaiveWriteIfAbsentLosesRace(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const attempts = 3
	for a := 1; a <= attempts; a++ {
		if p := fiotest.RaceProcesses(t, local.New(), "TestRaceChild", "naive", t.TempDir(), raceProcs, raceKeys, nil); len(p) > 0 {
			t.Logf("attempt %d: harness caught %d/%d broken keys, e.g. %s", a, len(p), raceKeys, p[0])
			return
		}
	}
	t.Fatalf("naive check-then-rename produced no double winner in %d runs: the children do not overlap, so the race test proves nothing", attempts)
}
