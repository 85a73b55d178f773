package killsoak

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFirstWindowPinnedBeforeItIsAssigned is a pause soak finding: a fresh job's runner stopped right
// after it recorded its first window as assigned (snapshotSeen = S), other writers commit twice and
// `lakeload expire` (which honours consumers) runs. The job had no pin yet (the pin was written after
// the assigned record), so expiry removed S+1, and the runner and every rerun stopped with exit 7
// ("cannot be verified … check the table by hand") for a window that was never committed, although a
// live job's lookups are meant to be pinned (docs/protocol.md, "Paused runners and expiry", 2). The
// runner is stopped as soon as the assigned record appears: on the old code that is before the pin
// almost always; three tries.
func TestFirstWindowPinnedBeforeItIsAssigned(t *testing.T) {
	for try := range 3 {
		wh, in := t.TempDir(), t.TempDir()
		runToEnd(t, []string{"table", "create", "--warehouse", wh, "--table", "db.events", "--column", "id BIGINT", "--column", "v STRING"})
		write := func(i int) {
			csv := filepath.Join(in, fmt.Sprintf("w-%d.csv", i))
			writeCSV(t, csv, fmt.Sprintf("id,v\n%d,w\n", 100+i))
			runToEnd(t, []string{"write", "--warehouse", wh, "--table", "db.events", "--from", csv})
		}
		write(0) // snapshot 1: the window's snapshotSeen
		for f := range 3 {
			writeCSV(t, filepath.Join(in, fmt.Sprintf("in-%d.csv", f)), fmt.Sprintf("id,v\n%d,a\n%d,b\n", 2*f, 2*f+1))
		}
		load := []string{"load", "--warehouse", wh, "--table", "db.events", "--from", filepath.Join(in, "in-*.csv"), "--job", "j",
			"--commit-rows", "1", "--parallelism", "1", "--compaction", "off"}
		a, err := startChild(load)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = a.cmd.Process.Kill() })
		assigned := filepath.Join(jobStore(wh, "db", "events", "j"), "windows", "1", "assigned")
		for !fileExists(assigned) && !a.hasExited() {
			time.Sleep(50 * time.Microsecond)
		}
		if !a.stop() {
			t.Fatalf("try %d: the load ended before it was stopped\n%s", try, a.output(5))
		}
		pinned := fileExists(filepath.Join(wh, "db.db", "events", "consumer", "consumer-lakeload-j"))
		write(1)
		write(2)
		runToEnd(t, []string{"expire", "--warehouse", wh, "--table", "db.events", "--retain-min", "1", "--older-than", "0s"})
		a.cont()
		<-a.exited
		if code := a.exitCode(); code != 0 {
			t.Fatalf("try %d: the runner stopped once its first window was assigned (pin present: %v), after two writes and an expiry: exit %d, want 0\n%s",
				try, pinned, code, a.output(3))
		}
		if out := runToEnd(t, load); !strings.Contains(out, "already finished") {
			t.Errorf("try %d: a rerun printed %q, want \"already finished\"", try, out)
		}
	}
}
