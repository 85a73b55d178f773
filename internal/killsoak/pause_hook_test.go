package killsoak

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPauseHookStopsAtItsPoint checks the premise of the pause soak: LAKELOAD_PAUSE_AT stops the
// process at the point, not somewhat after it. A runner paused at planned (job and plan written)
// must do nothing more until SIGCONT: no "resumed" line, no window assigned, no pin. With
// kill(getpid, SIGSTOP) the signal was taken by another thread, and the calling goroutine ran on
// until the group stop caught it: it printed "resumed", assigned window 1 and pinned the job (the
// pause soak saw a runner "paused at planned" re-create the pin of a job another runner had finished).
func TestPauseHookStopsAtItsPoint(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	runToEnd(t, []string{"table", "create", "--warehouse", wh, "--table", "db.events", "--column", "id BIGINT", "--column", "v STRING"})
	for f := range 2 {
		writeCSV(t, filepath.Join(in, fmt.Sprintf("in-%d.csv", f)), fmt.Sprintf("id,v\n%d,a\n", f))
	}
	for try := range 8 {
		job := fmt.Sprintf("j%d", try)
		load := []string{"load", "--warehouse", wh, "--table", "db.events", "--from", filepath.Join(in, "*.csv"), "--job", job,
			"--commit-rows", "1", "--parallelism", "2"}
		c := startStopped(t, load, "planned")
		time.Sleep(200 * time.Millisecond) // what a goroutine that ran on would have done by now
		c.mu.Lock()
		out := strings.Join(c.stderr, "\n")
		c.mu.Unlock()
		windows := filepath.Join(jobStore(wh, "db", "events", job), "windows")
		if strings.Contains(out, "resumed at") || fileExists(windows) ||
			fileExists(filepath.Join(wh, "db.db", "events", "consumer", "consumer-lakeload-"+job)) {
			ents, _ := os.ReadDir(windows)
			t.Fatalf("try %d: the runner paused at planned went on before SIGCONT (window entries %d):\n%s", try, len(ents), out)
		}
		_ = c.kill()
	}
}
