package job_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/maintain"
)

// The pause soak's findings about a live runner's own commit (internal/killsoak, TestPauseSoak): the
// runner is not overtaken, it is only stopped in the middle of committing a window while another
// writer commits and expiry (honouring the job's pin) runs. Its commit builds on the window's
// snapshotSeen S (the latest when the window was assigned), and the pin named S+1, so expiry was free
// to remove S, the commit's base.

// stopFS runs moveOn once, inside the job's commit of window 2 (armed by the before-commit hook),
// just before the first read of a path matching beforeRead, or just after the first create of a
// snapshot file (afterCreate): a runner stopped there.
type stopFS struct {
	fileio.FileIO
	mu          sync.Mutex
	armed       bool
	beforeRead  string // path fragment; "" = stop after the snapshot create instead
	moveOn      func()
	stoppedOnce bool
}

func (f *stopFS) hook(p string, w int64) error {
	if p == job.PointBeforeCommit && w == 2 {
		f.mu.Lock()
		f.armed = true
		f.mu.Unlock()
	}
	return nil
}

func (f *stopFS) take(hit bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.armed || f.stoppedOnce || !hit {
		return false
	}
	f.stoppedOnce = true
	return true
}

func (f *stopFS) Open(ctx context.Context, p string) (fileio.File, error) {
	if f.beforeRead != "" && f.take(strings.Contains(p, f.beforeRead)) {
		f.moveOn()
	}
	return f.FileIO.Open(ctx, p)
}

func (f *stopFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if f.beforeRead != "" && f.take(strings.Contains(p, f.beforeRead)) {
		f.moveOn()
	}
	return f.FileIO.ReadFile(ctx, p)
}

func (f *stopFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	err := f.FileIO.WriteIfAbsent(ctx, p, data)
	if err == nil && f.beforeRead == "" && f.take(strings.Contains(p, "/snapshot/snapshot-")) {
		f.moveOn()
	}
	return err
}

// TestStoppedCommitKeepsItsBase: runner A, the job's only runner, is stopped inside the commit of
// window 2 — reading its base's manifest list, or right after creating its snapshot N — while
// another writer commits (N+1 on top of A's N in the second case) and expiry honouring the job's pin
// runs. A must finish the job: every window once, the other writer's rows kept.
//
// With the pin at S+1, expiry removed the base S: reading it failed ("open manifest list …: no
// such file", exit 1), or the check after the create took the missing base for a reused id and
// deleted A's snapshot N — whose files the other writer's N+1 already carried — so the window's
// marker was gone, the lookup range looked expired, and the job stopped for good (exit 7, "check
// the table by hand") with the window's rows in the table.
func TestStoppedCommitKeepsItsBase(t *testing.T) {
	for _, c := range []struct {
		name       string
		beforeRead string
	}{{"reading-the-base", "/manifest/manifest-list-"}, {"after-the-snapshot-create", ""}} {
		t.Run(c.name, func(t *testing.T) {
			fx := parquetFiles(loadtest.Append(13, 4, 40))
			e := newScEnv(t, fx)
			foreign := appendRows(10_000, 5)
			fs := &stopFS{FileIO: local.New(), beforeRead: c.beforeRead}
			fs.moveOn = func() {
				e.foreignCommit("other-writer", 1, foreign)
				if _, err := maintain.Expire(context.Background(), e.table(), pausedExpiry); err != nil {
					t.Error(err)
				}
			}
			cfg := e.cfg(40, 1, fs.hook)
			cfg.Table = e.fx.Open(t, e.wh, fs)
			if _, err := job.Run(context.Background(), cfg); err != nil {
				t.Fatalf("the job's runner, stopped inside its commit of window 2: %v", err)
			}
			if !fs.stoppedOnce {
				t.Fatal("the runner was never stopped inside its commit of window 2")
			}
			e.checkFinished(asFile(foreign))
		})
	}
}

// pinStallFS blocks the first write of the job's consumer file (a runner stopped inside its pin,
// after its last lease check) until release is closed.
type pinStallFS struct {
	fileio.FileIO
	once    sync.Once
	stalled chan struct{}
	release chan struct{}
}

func (f *pinStallFS) Create(ctx context.Context, p string) (fileio.Writer, error) {
	if strings.Contains(p, "/consumer/consumer-lakeload-") {
		f.once.Do(func() {
			close(f.stalled)
			<-f.release
		})
	}
	return f.FileIO.Create(ctx, p)
}

// TestStoppedPinWriteLeavesNoPin: runner A is stopped inside the pin of its first window, after its
// lease check; B takes the job over and finishes it (dropping the job's pin); A wakes and its pin
// write lands. A must stop as overtaken and leave no pin: the pin of a finished job would hold
// snapshot expiry back for good (the pause soak found such a pin after a runner stopped there).
func TestStoppedPinWriteLeavesNoPin(t *testing.T) {
	fx := parquetFiles(loadtest.Append(17, 3, 40))
	e := newScEnv(t, fx)
	fs := &pinStallFS{FileIO: local.New(), stalled: make(chan struct{}), release: make(chan struct{})}
	a := e.cfg(40, 1, nil)
	a.Table = e.fx.Open(t, e.wh, fs)
	errA := make(chan error, 1)
	go func() { _, err := job.Run(context.Background(), a); errA <- err }()
	select {
	case <-fs.stalled:
	case err := <-errA:
		t.Fatalf("runner A ended before its first pin: %v", err)
	}
	b := e.cfg(40, 1, nil)
	b.Takeover = true
	e.mustRun(b)
	if n := e.consumerNext(); n != 0 {
		t.Fatalf("the finished job still has a pin (nextSnapshot %d) before A wakes", n)
	}
	close(fs.release)
	if err := <-errA; !errors.Is(err, job.ErrOvertaken) {
		t.Fatalf("runner A after waking: %v, want it overtaken", err)
	}
	if n := e.consumerNext(); n != 0 {
		t.Fatalf("runner A left the finished job's pin (nextSnapshot %d): expiry could never pass it", n)
	}
	e.checkFinished()
}
