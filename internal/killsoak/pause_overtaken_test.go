package killsoak

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOvertakenRunnerExits6 is the pause soak's first finding as a deterministic test: a runner
// stopped at a point and overtaken by a takeover must stop with exit 6 ("overtaken … nothing is
// lost", docs/cli.md) and commit nothing, whatever step it wakes in. It exited 1 ("unexpected
// failure") at planned, after-commit, before-publish and after-publish, where its next write-once
// record (assigned, committed, published) already existed; and at after-commit, when the takeover
// had published the window (moving the pin past its marker) and was killed, and an expiry removed
// the marker, it said "window 1 has 0 snapshots … stop and inspect the table".
func TestOvertakenRunnerExits6(t *testing.T) {
	for _, c := range []struct {
		point  string
		killB  string // "": the takeover runs to its end; else it is killed at this point
		expire bool   // two writes and an expiry after the takeover
	}{
		{point: "planned"}, {point: "assigned:1"}, {point: "inside-commit:1"}, {point: "after-commit:1"},
		{point: "after-commit:1", killB: "after-publish:1", expire: true}, {point: "before-publish:1"}, {point: "after-publish:1"},
	} {
		name := c.point
		if c.killB != "" {
			name += "+takeover-killed-at-" + c.killB
		}
		if c.expire {
			name += "+expire"
		}
		t.Run(name, func(t *testing.T) {
			wh, in := t.TempDir(), t.TempDir()
			runToEnd(t, []string{"table", "create", "--warehouse", wh, "--table", "db.events", "--column", "id BIGINT", "--column", "v STRING"})
			for f := range 4 {
				var b strings.Builder
				b.WriteString("id,v\n")
				for r := range 50 {
					fmt.Fprintf(&b, "%d,f%d\n", f*50+r, f)
				}
				writeCSV(t, filepath.Join(in, fmt.Sprintf("in-%d.csv", f)), b.String())
			}
			load := []string{"load", "--warehouse", wh, "--table", "db.events", "--from", filepath.Join(in, "*.csv"), "--job", "j",
				"--commit-rows", "1", "--parallelism", "1", "--compaction", "off"}
			snapshots := []string{"snapshots", "--warehouse", wh, "--table", "db.events", "--output", "jsonl"}
			a := startStopped(t, load, c.point)
			if c.killB == "" {
				runToEnd(t, append(load, "--takeover"))
			} else if err := startStopped(t, append(load, "--takeover"), c.killB).kill(); err != nil {
				t.Fatal(err)
			}
			if c.expire {
				for i := range 2 {
					csv := filepath.Join(in, fmt.Sprintf("extra-%d.csv", i))
					writeCSV(t, csv, fmt.Sprintf("id,v\n%d,w\n", 1000+i))
					runToEnd(t, []string{"write", "--warehouse", wh, "--table", "db.events", "--from", csv})
				}
				runToEnd(t, []string{"expire", "--warehouse", wh, "--table", "db.events", "--retain-min", "1", "--older-than", "0s"})
			}
			before := runToEnd(t, snapshots)
			a.cont()
			<-a.exited
			if code := a.exitCode(); code != 6 {
				t.Errorf("runner A woken at %s after a takeover: exit %d, want 6 (overtaken)\n%s", c.point, code, a.output(4))
			}
			if after := runToEnd(t, snapshots); after != before {
				t.Errorf("runner A woken at %s changed the snapshots:\nbefore %s\nafter  %s", c.point, before, after)
			}
		})
	}
}

// TestTakeoverGoesOnAfterOvertakenRunnerWakes: runner A stopped at before-publish:1 (window 1
// committed, not published), takeover B stopped before its first recovery action (publish window 1),
// A resumed first, then B. A must stop (exit 6) without recording anything, and B must go on to the
// end (exit 0). Before, A published window 1 after waking (the publish had no lease check) and B
// then failed with exit 1: "window 1 was recorded as published by another runner … meanwhile".
func TestTakeoverGoesOnAfterOvertakenRunnerWakes(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	runToEnd(t, []string{"table", "create", "--warehouse", wh, "--table", "db.events", "--column", "id BIGINT", "--column", "v STRING"})
	for f := range 3 {
		writeCSV(t, filepath.Join(in, fmt.Sprintf("in-%d.csv", f)), fmt.Sprintf("id,v\n%d,a\n%d,b\n", 2*f, 2*f+1))
	}
	load := []string{"load", "--warehouse", wh, "--table", "db.events", "--from", filepath.Join(in, "*.csv"), "--job", "j",
		"--commit-rows", "1", "--parallelism", "1", "--compaction", "off"}
	a := startStopped(t, load, "before-publish:1")
	b := startStopped(t, append(load, "--takeover"), "recovery-action")
	a.cont()
	<-a.exited
	if code := a.exitCode(); code != 6 {
		t.Errorf("runner A (overtaken at before-publish:1): exit %d, want 6\n%s", code, a.output(4))
	}
	if fileExists(filepath.Join(jobStore(wh, "db", "events", "j"), "windows", "1", "published")) {
		t.Errorf("runner A published window 1 after it was overtaken")
	}
	b.cont()
	<-b.exited
	if code := b.exitCode(); code != 0 {
		t.Errorf("takeover B, resumed after A: exit %d, want 0\n%s", code, b.output(4))
	}
	if out := runToEnd(t, load); !strings.Contains(out, "already finished") {
		t.Errorf("a run after B: %q, want \"already finished\"", out)
	}
}

// startStopped starts lakeload args with LAKELOAD_PAUSE_AT=point and returns once it stopped there.
func startStopped(t *testing.T, args []string, point string) *child {
	t.Helper()
	c, err := startChild(args, "LAKELOAD_PAUSE_AT="+point)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.cmd.Process.Kill() })
	select {
	case <-c.paused:
	case <-c.exited:
		t.Fatalf("lakeload ended before it paused at %s:\n%s", point, c.output(10))
	}
	if !c.waitStopped() {
		t.Fatalf("lakeload ended instead of stopping at %s", point)
	}
	return c
}

func writeCSV(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
