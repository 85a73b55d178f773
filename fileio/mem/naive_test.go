package mem_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/fiotest"
	"github.com/lakeload/lakeload/fileio/mem"
)

// naiveFS breaks WriteIfAbsent into check-then-write, the bug the conformance race must catch.
type naiveFS struct{ *mem.FS }

func (n naiveFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	if ok, err := fileio.Exists(ctx, n.FS, p); err != nil || ok {
		return fmt.Errorf("naive %s: %w", p, fileio.ErrExist)
	}
	runtime.Gosched() // the window between check and write that real I/O would open
	time.Sleep(50 * time.Microsecond)
	return fileio.WriteFile(ctx, n.FS, p, data)
}

// TestRaceHarnessCatchesNaive is the negative control for fiotest's in-process race.
func TestRaceHarnessCatchesNaive(t *testing.T) {
	// A loaded machine can serialise the goroutines by chance; the control must catch the bug in one
	// of a few runs.
	var problems []string
	for try := 0; try < 5 && len(problems) == 0; try++ {
		var err error
		if problems, err = fiotest.RaceWriteIfAbsent(naiveFS{mem.New()}, "/race", 8, 200); err != nil {
			t.Fatal(err)
		}
	}
	if len(problems) == 0 {
		t.Fatal("the race harness did not catch a check-then-write WriteIfAbsent in 5 runs")
	}
	t.Logf("caught %d broken keys, e.g. %s", len(problems), problems[0])
}
