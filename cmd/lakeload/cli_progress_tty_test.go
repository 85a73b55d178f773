package main

import (
	"fmt"
	"os"
	"os/exec"
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
	tmux := needTmux(t)
	wh, in := t.TempDir(), t.TempDir()
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.t", "--column", "id BIGINT", "--column", "name STRING", "--column", "amount BIGINT")
	for f := range 100 {
		writeFile(t, in, fmt.Sprintf("f%03d.csv", f), csvRows(f*4000, 4000, 0))
	}
	watchLineMoves(t, tmux, fmt.Sprintf("load --warehouse %s --table db.t --from '%s/*.csv' --job tty --parallelism 1 --commit-rows 4000", wh, in),
		regexp.MustCompile(`\] +\d+% (\S+)/\S+ rows`))
}

// TestCompactProgressMovesOnATerminal runs `lakeload compact --full` on a table of 32 buckets with 4
// files each in a tmux pane: the line's rows compacted must move between two captures before the
// compaction ends (it used to run silent and print every bucket at the end); the per-bucket lines
// still follow on stdout.
func TestCompactProgressMovesOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("compacts 2M rows")
	}
	tmux := needTmux(t)
	wh, in := t.TempDir(), t.TempDir()
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.t", "--column", "id BIGINT NOT NULL", "--column", "name STRING",
		"--column", "amount BIGINT", "--primary-key", "id", "--option", "bucket=32")
	for round := range 4 {
		p := writeFile(t, in, fmt.Sprintf("r%d.csv", round), csvRows(0, 500_000, round))
		ok(t, "write", "--warehouse", wh, "--table", "db.t", "--from", p)
	}
	pane := watchLineMoves(t, tmux, fmt.Sprintf("compact --warehouse %s --table db.t --full", wh),
		regexp.MustCompile(`compact \[[#.]+\] +\d+% \d+/32 buckets +(\S+)/\S+ rows`))
	t.Logf("while it ran:\n%s", pane)
	end := waitEnded(t, tmux)
	for _, want := range []string{"compact [########################] 100% 32/32 buckets  2.0M/2.0M rows", "bucket-31: 4 files -> 1 at level 5"} {
		if !strings.Contains(end, want) {
			t.Errorf("the pane at the end lacks %q:\n%s", want, end)
		}
	}
}

// tmuxSession is the session of the tmux server of the test watchLineMoves and waitEnded use.
const tmuxSession = "progress"

// tmuxOf returns a runner of tmux commands on the test's own tmux server.
func tmuxOf(t *testing.T, tmux string) func(args ...string) (string, error) {
	socket := "lakeload-test-" + strings.ReplaceAll(t.Name(), "/", "-")
	return func(args ...string) (string, error) {
		out, err := exec.Command(tmux, append([]string{"-L", socket}, args...)...).CombinedOutput()
		return string(out), err
	}
}

// waitEnded waits (10 minutes at most) for the command watchLineMoves started to end and returns the pane.
func waitEnded(t *testing.T, tmux string) string {
	t.Helper()
	tm := tmuxOf(t, tmux)
	var pane string
	for deadline := time.Now().Add(10 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		var err error
		if pane, err = tm("capture-pane", "-p", "-S", "-", "-t", tmuxSession); err != nil { // with the lines scrolled off
			t.Fatalf("tmux capture-pane: %v: %s", err, pane)
		}
		if strings.Contains(pane, "COMMAND-ENDED") {
			return pane
		}
	}
	t.Fatalf("the command did not end in 10 minutes; last pane:\n%s", pane)
	return ""
}

// csvRows renders n rows (id, name, amount) from id first, with a header; round varies the values.
func csvRows(first, n, round int) string {
	var b strings.Builder
	b.WriteString("id,name,amount\n")
	for i := range n {
		id := first + i
		fmt.Fprintf(&b, "%d,name-%d-%d,%d\n", id, id%977, round, id%10007+round)
	}
	return b.String()
}

// needTmux returns the path of tmux, skipping the test without it unless CI is set.
func needTmux(t *testing.T) string {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required under CI for the terminal progress tests")
		}
		t.Skip("tmux not installed")
	}
	return tmux
}

// watchLineMoves runs `lakeload <args>` (a shell command line's arguments) in a tmux pane of 200
// columns and captures it every half second until the first group of progress matches two different
// values before the command ends. It fails if the command ends first or nothing moves within 10
// minutes (generous: the machine may be loaded; only movement is asserted, never speed). It returns
// the last pane captured.
func watchLineMoves(t *testing.T, tmux, args string, progress *regexp.Regexp) string {
	t.Helper()
	tm := tmuxOf(t, tmux)
	t.Cleanup(func() { _, _ = tm("kill-server") })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("env %s=1 %s %s; echo COMMAND-ENDED; sleep 600", mainEnv, self, args)
	if out, err := tm("new-session", "-d", "-s", tmuxSession, "-x", "200", "-y", "10", line); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	var seen []string
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		pane, err := tm("capture-pane", "-p", "-t", tmuxSession)
		if err != nil {
			t.Fatalf("tmux capture-pane: %v: %s", err, pane)
		}
		ended := strings.Contains(pane, "COMMAND-ENDED")
		if m := progress.FindStringSubmatch(pane); m != nil && !ended {
			if len(seen) > 0 && seen[len(seen)-1] != m[1] {
				return pane // the line moved while the command ran
			}
			seen = append(seen, m[1])
		}
		if ended {
			t.Fatalf("lakeload %s ended before its progress line was seen to move (values shown: %v); last pane:\n%s", args, seen, pane)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("the progress line of lakeload %s never moved in 10 minutes (values shown: %v)", args, seen)
	return ""
}
