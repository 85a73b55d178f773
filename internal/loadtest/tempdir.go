package loadtest

import (
	"os"
	"testing"
)

// TempDir returns a fresh directory removed when the test ends, on a RAM file system (/dev/shm)
// when the machine has one, else t.TempDir(). Every publish on local disk fsyncs; the crash tests
// simulate the death of a process, not of the machine, so durability costs them time and proves
// nothing.
func TempDir(t testing.TB) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "lakeload-test-"); err == nil {
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
