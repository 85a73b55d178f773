package sim

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain lets the heap grow further between collections (up to a soft limit): each simulated run
// allocates and drops large compression buffers, and collecting after every few runs dominated the
// test's time.
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(256 << 20)
	os.Exit(m.Run())
}
