package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/oracle"
)

// TestCLIPausedRunnerTakeoverExpiry is the paused-runner scenario as a person would run it: an
// append table loaded from 12 CSV files in windows of one file (--commit-rows 1), runner A frozen with SIGSTOP
// (LAKELOAD_PAUSE_AT) as soon as window 3 is assigned; B runs the same command with --takeover and
// finishes the job; two `lakeload write` commits and `lakeload expire --retain-min 1 --older-than 0s`
// follow; then A gets SIGCONT. A must exit 6 (overtaken) having changed nothing: Java Paimon and
// pypaimon read every input row exactly once plus the writes, `status` is true, and the job's pin is
// not re-created.
func TestCLIPausedRunnerTakeoverExpiry(t *testing.T) {
	const files, rows = 12, 500
	name := "db.events"
	wh, in := eventsCSVTable(t, name, files, rows, "in-%02d.csv")
	load := cmdArgs([]string{"load"}, tbl(wh, name, "--from", filepath.Join(in, "*.csv"), "--job", "backfill",
		"--commit-rows", "1", "--parallelism", "1", "--compaction", "off"))

	a := startPaused(t, load, "assigned:3")
	if _, errs, code := runChild(t, nil, append(load, "--takeover")...); code != 0 {
		t.Fatalf("runner B (--takeover): exit %d\n%s", code, errs)
	}
	for i := range 2 {
		csv := writeFile(t, in, fmt.Sprintf("extra-%d.csv", i), fmt.Sprintf("id,v\n%d,w%d\n%d,w%d\n", 100000+2*i, i, 100001+2*i, i))
		ok(t, cmdArgs([]string{"write"}, tbl(wh, name, "--from", csv))...)
	}
	ok(t, cmdArgs([]string{"expire"}, tbl(wh, name, "--retain-min", "1", "--older-than", "0s"))...)
	snapsBefore := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, name, "--output", "jsonl"))...)

	code, stderr := a.resume(t)
	if code != exitBusy || !strings.Contains(stderr, "overtaken") {
		t.Fatalf("runner A after SIGCONT: exit %d, want %d (overtaken)\nstderr: %s", code, exitBusy, stderr)
	}
	if got := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, name, "--output", "jsonl"))...); got != snapsBefore {
		t.Fatalf("runner A changed the snapshots after waking:\nbefore %s\nafter  %s", snapsBefore, got)
	}
	path := filepath.Join(wh, "db.db", "events")
	if _, err := os.Stat(filepath.Join(path, "consumer", "consumer-lakeload-backfill")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("runner A re-created the finished job's pin (%v)", err)
	}
	want := files*rows + 4
	for _, rd := range []struct {
		name string
		read func() []string
	}{
		{"lakeload scan", func() []string {
			return lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, name, "--output", "jsonl"))...))
		}},
		{"Java Paimon", func() []string { return oracle.Java(t).Read(path, oracle.ReadOpts{}) }},
		{"pypaimon", func() []string { return oracle.Py(t).Read(path, oracle.ReadOpts{}) }},
	} {
		got := rd.read()
		ids := map[string]bool{}
		for _, l := range got {
			var row struct{ ID json.Number }
			if err := json.Unmarshal([]byte(l), &row); err != nil {
				t.Fatalf("%s: row %q: %v", rd.name, l, err)
			}
			ids[row.ID.String()] = true
		}
		if len(got) != want || len(ids) != want {
			t.Errorf("%s reads %d rows with %d distinct ids, want %d of each", rd.name, len(got), len(ids), want)
		}
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "backfill", "--output", "json"))...)), &st); err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.RowsPublished != files*rows {
		t.Errorf("status: done %v, %d rows published, want done with %d", st.Done, st.RowsPublished, files*rows)
	}
}

// pausedChild is a lakeload process stopped by itself (SIGSTOP) at a LAKELOAD_PAUSE_AT point.
type pausedChild struct {
	cmd    *exec.Cmd
	stderr strings.Builder
	done   chan struct{}
}

// startPaused starts lakeload args with LAKELOAD_PAUSE_AT=point and returns once the process says it
// paused and the kernel reports it stopped (state T).
func startPaused(t *testing.T, args []string, point string) *pausedChild {
	t.Helper()
	return startPausedCmd(t, exec.Command(os.Args[0], args...), point)
}

// startPausedCmd is startPaused for a command that runs lakeload (e.g. through a shell setting a ulimit).
func startPausedCmd(t *testing.T, cmd *exec.Cmd, point string) *pausedChild {
	t.Helper()
	c := &pausedChild{cmd: cmd, done: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), mainEnv+"=1", "LAKELOAD_PAUSE_AT="+point)
	pipe, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.cmd.Process.Kill(); <-c.done })
	paused := make(chan struct{})
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			c.stderr.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(sc.Text(), "lakeload: paused at ") {
				close(paused)
			}
		}
	}()
	select {
	case <-paused:
	case <-c.done:
		t.Fatalf("lakeload ended before it paused at %s:\n%s", point, c.stderr.String())
	}
	for !stopped(t, c.cmd.Process.Pid) { // the message is printed just before SIGSTOP
		time.Sleep(5 * time.Millisecond)
	}
	return c
}

// resume sends SIGCONT and waits for the process to end; it returns the exit code and stderr.
func (c *pausedChild) resume(t *testing.T) (int, string) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	<-c.done
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), c.stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, c.stderr.String()
}

// stopped reports whether process pid is in state T (stopped by a signal), from /proc/PID/stat.
func stopped(t *testing.T, pid int) bool {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "T"
}
