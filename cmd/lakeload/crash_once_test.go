package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestCrashOnceCrashesOneProcess: LAKELOAD_CRASH_AT with LAKELOAD_CRASH_ONCE=file kills only the first
// of several processes reaching the point (it records "pid point window" in file); the others run
// on. Without LAKELOAD_CRASH_ONCE every process reaching the point is killed.
func TestCrashOnceCrashesOneProcess(t *testing.T) {
	if os.Getenv("LAKELOAD_TEST_CRASH_CHILD") == "1" {
		if err := faultHook(os.Stderr)("after-commit", 3); err != nil {
			os.Exit(3)
		}
		os.Exit(0) // the hook let this process run on
	}
	once := filepath.Join(t.TempDir(), "crashed")
	child := func(extra ...string) (killed bool, pid int) {
		c := exec.Command(os.Args[0], "-test.run", "^TestCrashOnceCrashesOneProcess$")
		c.Env = append(os.Environ(), append([]string{"LAKELOAD_TEST_CRASH_CHILD=1", "LAKELOAD_CRASH_AT=after-commit:3"}, extra...)...)
		err := c.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		ws := c.ProcessState.Sys().(syscall.WaitStatus)
		if !ws.Signaled() && ws.ExitStatus() != 0 {
			t.Fatalf("child: %v", err)
		}
		return ws.Signaled() && ws.Signal() == syscall.SIGKILL, c.ProcessState.Pid()
	}
	first, pid := child("LAKELOAD_CRASH_ONCE=" + once)
	if !first {
		t.Fatal("the first process reaching after-commit:3 with LAKELOAD_CRASH_ONCE was not killed")
	}
	if b, err := os.ReadFile(once); err != nil || string(b) != fmt.Sprintf("%d after-commit 3\n", pid) {
		t.Fatalf("%s: %q, %v; want the crashed process's pid, point and window", once, b, err)
	}
	for range 2 {
		if killed, _ := child("LAKELOAD_CRASH_ONCE=" + once); killed {
			t.Fatal("a second process was killed: LAKELOAD_CRASH_ONCE crashes one process only")
		}
	}
	if killed, _ := child(); !killed {
		t.Fatal("without LAKELOAD_CRASH_ONCE the process reaching the point was not killed")
	}
}
