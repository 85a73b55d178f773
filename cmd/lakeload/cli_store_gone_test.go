package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIStoreDeletedMidRun (issue 14, finding 8): a `load` whose checkpoint store is deleted while
// the process is stopped after window 1 is published (LAKELOAD_PAUSE_AT, SIGSTOP) stops at the next
// window boundary with exit 7 and a message naming the store and saying what to do; it commits
// nothing more and does not re-create the store. Before the fix it exited 6 claiming another
// runner had overtaken it.
func TestCLIStoreDeletedMidRun(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	name := "db.events"
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, name, "--column", "id BIGINT"))...)
	for f := range 3 {
		writeFile(t, in, fmt.Sprintf("in-%d.csv", f), fmt.Sprintf("id\n%d\n", f))
	}
	load := cmdArgs([]string{"load"}, tbl(wh, name, "--from", filepath.Join(in, "*.csv"), "--job", "j",
		"--commit-rows", "1", "--parallelism", "1", "--compaction", "off"))
	store := filepath.Join(wh, ".lakeload", "jobs", "db", "events", "j")

	a := startPaused(t, load, "after-publish:1")
	if err := os.RemoveAll(store); err != nil {
		t.Fatal(err)
	}
	code, stderr := a.resume(t)
	if code != exitAttention {
		t.Errorf("exit %d, want %d\nstderr: %s", code, exitAttention, stderr)
	}
	for _, want := range []string{"checkpoint store vanished", store, "Restore the store"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "once the cause is fixed") {
		t.Errorf("stderr advises running again as is (that starts a new job loading all input again):\n%s", stderr)
	}
	if snaps := lines(ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, name, "--output", "jsonl"))...)); len(snaps) != 1 {
		t.Errorf("%d snapshots after the deletion, want window 1's only", len(snaps))
	}
	if _, err := os.Stat(store); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted store was re-created (%v)", err)
	}
}
