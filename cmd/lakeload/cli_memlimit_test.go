package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestParseMemoryLimit(t *testing.T) {
	for in, want := range map[string]int64{
		"448MiB": 448 << 20, "1 GiB": 1 << 30, "2 gb": 2 << 30, "512m": 512 << 20, "off": math.MaxInt64, "0": math.MaxInt64,
		"67108864": 64 << 20,
	} {
		if got, err := parseMemoryLimit(in); err != nil || got != want {
			t.Errorf("parseMemoryLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "1.5GiB", "-1", "10MiB", "1 PiB"} {
		if n, err := parseMemoryLimit(in); err == nil {
			t.Errorf("parseMemoryLimit(%q) = %d, want an error", in, n)
		}
	}
}

// TestMemoryLimitFlag: load/write/compact set the Go soft memory limit from --memory-limit (default
// 448MiB, which yields to $GOMEMLIMIT), and refuse a bad value as a usage error naming the flag.
func TestMemoryLimitFlag(t *testing.T) {
	orig := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(orig) })
	wh := t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.kv", "--column", "id BIGINT", "--column", "v STRING",
		"--primary-key", "id", "--option", "bucket=1"))...)
	limit := func() int64 { return debug.SetMemoryLimit(-1) }

	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	ok(t, cmdArgs([]string{"compact"}, tbl(wh, "db.kv"))...)
	if got := limit(); got != 448<<20 {
		t.Errorf("default limit %d, want 448MiB", got)
	}
	ok(t, cmdArgs([]string{"compact"}, tbl(wh, "db.kv", "--memory-limit", "1GiB"))...)
	if got := limit(); got != 1<<30 {
		t.Errorf("--memory-limit 1GiB set %d", got)
	}
	t.Setenv("GOMEMLIMIT", "3GiB")
	debug.SetMemoryLimit(12345 << 20)
	ok(t, cmdArgs([]string{"compact"}, tbl(wh, "db.kv"))...)
	if got := limit(); got != 12345<<20 {
		t.Errorf("with $GOMEMLIMIT set the default changed the limit to %d", got)
	}
	ok(t, cmdArgs([]string{"compact"}, tbl(wh, "db.kv", "--memory-limit", "off"))...)
	if got := limit(); got != math.MaxInt64 {
		t.Errorf("--memory-limit off set %d", got)
	}
	fails(t, exitUsage, []string{"--memory-limit", "lots", "448MiB"}, cmdArgs([]string{"write"}, tbl(wh, "db.kv", "--from", "x.csv", "--memory-limit", "lots"))...)
}
