package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestProgressBarMovesOnATerminal runs `lakeload load` in a tmux pane, as a person would, and
// captures the pane every half second: the bar's row count must move between two captures before
// the load ends (live progress between commits, not only at them). Skipped without tmux unless CI
// is set.
func TestProgressBarMovesOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a load of 400k rows")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required under CI for the terminal progress test")
		}
		t.Skip("tmux not installed")
	}
	wh, in := t.TempDir(), t.TempDir()
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.t", "--column", "id BIGINT", "--column", "name STRING", "--column", "amount BIGINT")
	for f := range 100 {
		var b strings.Builder
		b.WriteString("id,name,amount\n")
		for i := range 4000 {
			id := f*4000 + i
			fmt.Fprintf(&b, "%d,name-%d,%d\n", id, id%977, id%10007)
		}
		writeFile(t, in, fmt.Sprintf("f%03d.csv", f), b.String())
	}
	socket := "lakeload-test-" + filepath.Base(t.TempDir())
	session := "progress"
	tm := func(args ...string) (string, error) {
		out, err := exec.Command(tmux, append([]string{"-L", socket}, args...)...).CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { _, _ = tm("kill-server") })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("env %s=1 %s load --warehouse %s --table db.t --from '%s/*.csv' --job tty --parallelism 1 --commit-rows 4000; echo LOAD-ENDED; sleep 600",
		mainEnv, self, wh, in)
	if out, err := tm("new-session", "-d", "-s", session, "-x", "200", "-y", "10", line); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	bar := regexp.MustCompile(`\] +\d+% (\S+)/\S+ rows`)
	var seen []string
	deadline := time.Now().Add(10 * time.Minute) // generous: the machine may be loaded
	for time.Now().Before(deadline) {
		pane, err := tm("capture-pane", "-p", "-t", session)
		if err != nil {
			t.Fatalf("tmux capture-pane: %v: %s", err, pane)
		}
		if m := bar.FindStringSubmatch(pane); m != nil && !strings.Contains(pane, "LOAD-ENDED") {
			if len(seen) > 0 && seen[len(seen)-1] != m[1] {
				return // the bar moved while the load ran
			}
			seen = append(seen, m[1])
		}
		if strings.Contains(pane, "LOAD-ENDED") {
			t.Fatalf("the load ended before the bar was seen to move (rows shown: %v); last pane:\n%s", seen, pane)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("the bar never moved in 10 minutes (rows shown: %v)", seen)
}
