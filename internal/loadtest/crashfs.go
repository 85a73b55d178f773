package loadtest

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/lakeload/lakeload/fileio"
)

// Crash is the panic value CrashFS raises: the simulated death of the process at Path.
type Crash struct{ Op, Path string }

func (c Crash) String() string { return fmt.Sprintf("simulated crash at %s %s", c.Op, c.Path) }

// CrashFS wraps a FileIO and panics with Crash on the first Create or WriteIfAbsent of a path that
// Match accepts while the wrapper is armed — the process "dies" exactly before that write. It
// disarms itself when it fires.
type CrashFS struct {
	fileio.FileIO
	Match func(path string) bool
	armed atomic.Bool
	fired atomic.Int32
}

// Arm makes the next matching write panic.
func (c *CrashFS) Arm() { c.armed.Store(true) }

// Fired reports how many times the wrapper crashed.
func (c *CrashFS) Fired() int { return int(c.fired.Load()) }

func (c *CrashFS) check(op, path string) {
	if c.Match(path) && c.armed.CompareAndSwap(true, false) {
		c.fired.Add(1)
		panic(Crash{op, path})
	}
}

// Create panics when armed and path matches, else delegates.
func (c *CrashFS) Create(ctx context.Context, path string) (fileio.Writer, error) {
	c.check("create", path)
	return c.FileIO.Create(ctx, path)
}

// WriteIfAbsent panics when armed and path matches, else delegates.
func (c *CrashFS) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	c.check("write-if-absent", path)
	return c.FileIO.WriteIfAbsent(ctx, path, data)
}

// Disarm cancels a pending crash.
func (c *CrashFS) Disarm() { c.armed.Store(false) }
