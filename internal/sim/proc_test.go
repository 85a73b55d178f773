package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/lakeload/lakeload/fileio"
)

// errCrash is what a dead process sees from every storage call and hook.
var errCrash = errors.New("sim: process crashed")

// mode says what happens to the storage mutation a process dies at.
type mode int

const (
	lost   mode = iota // not applied
	landed             // applied, then reported failed
)

func (m mode) String() string {
	if m == landed {
		return "landed"
	}
	return "lost"
}

// resumeMode says what a paused zombie does once resumed.
type resumeMode int

const (
	resumeContinue resumeMode = iota // run on to its own end (SIGCONT)
	resumeLandDie                    // apply the paused write, then die (a write in flight lands late)
)

// fault is the fate of one process: at most one death and at most one pause.
type fault struct {
	hook     int  // die at the hook-th hook call (0: never)
	op       int  // die at the op-th storage mutation (0: never)
	opMode   mode // with op
	pauseAt  int  // pause at the pauseAt-th hook call (pauseOp false) or storage mutation (pauseOp true)
	pauseOp  bool
	onResume resumeMode
}

func (f fault) String() string {
	var parts []string
	if f.hook > 0 {
		parts = append(parts, fmt.Sprintf("crash@hook#%d", f.hook))
	}
	if f.op > 0 {
		parts = append(parts, fmt.Sprintf("crash@op#%d(%s)", f.op, f.opMode))
	}
	if f.pauseAt > 0 {
		what := "hook"
		if f.pauseOp {
			what = "op"
		}
		then := "continue"
		if f.onResume == resumeLandDie {
			then = "land+die"
		}
		parts = append(parts, fmt.Sprintf("pause@%s#%d→%s", what, f.pauseAt, then))
	}
	if len(parts) == 0 {
		return "clean"
	}
	return strings.Join(parts, ",")
}

// proc is one simulated process: its view of the shared storage (counting mutations) and its hook.
// A proc serves one job.Run.
type proc struct {
	base   fileio.FileIO
	f      fault
	cancel context.CancelFunc
	// before, if set, runs before each hook call (hook true) and each storage mutation with its
	// 1-based number among them (the harness uses it to resume a zombie at a chosen moment of this
	// process).
	before func(hook bool, n int)

	mu     sync.Mutex
	ops    int
	hooks  int
	dead   bool
	diedAt string        // what the process was doing when it died
	trace  []string      // every mutation and hook, for messages
	paused chan struct{} // closed when the process pauses
	resume chan struct{} // closed by the harness to resume it
}

func newProc(base fileio.FileIO, f fault) *proc {
	return &proc{base: base, f: f, paused: make(chan struct{}), resume: make(chan struct{})}
}

// die marks the process dead; every later call fails. Callers hold p.mu.
func (p *proc) dieLocked(at string) {
	if !p.dead {
		p.dead, p.diedAt = true, at
		if p.cancel != nil {
			p.cancel()
		}
	}
}

// crashed reports whether the process died and where.
func (p *proc) crashed() (bool, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dead, p.diedAt
}

func (p *proc) alive() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead {
		return errCrash
	}
	return nil
}

// pause blocks the calling goroutine until the harness resumes the process.
func (p *proc) pause() {
	close(p.paused)
	<-p.resume
}

// hook is the job's Config.Hook.
func (p *proc) hook(point string, w int64) error {
	p.mu.Lock()
	if p.dead {
		p.mu.Unlock()
		return errCrash
	}
	p.hooks++
	n := p.hooks
	what := fmt.Sprintf("hook#%d %s(w%d)", n, point, w)
	p.trace = append(p.trace, what)
	if before := p.before; before != nil {
		p.mu.Unlock()
		before(true, n)
		p.mu.Lock()
	}
	if n == p.f.hook {
		p.dieLocked(what)
		p.mu.Unlock()
		return errCrash
	}
	pause := !p.f.pauseOp && n == p.f.pauseAt
	p.mu.Unlock()
	if pause {
		p.pause()
		if p.f.onResume == resumeLandDie {
			p.mu.Lock()
			p.dieLocked(what + " (zombie)")
			p.mu.Unlock()
			return errCrash
		}
	}
	return nil
}

// mutate runs one storage mutation described by what through the process's fate.
func (p *proc) mutate(what string, apply func() error) error {
	p.mu.Lock()
	if p.dead {
		p.mu.Unlock()
		return errCrash
	}
	p.ops++
	n := p.ops
	desc := fmt.Sprintf("op#%d %s", n, what)
	p.trace = append(p.trace, desc)
	before := p.before
	pause := p.f.pauseOp && n == p.f.pauseAt
	die := n == p.f.op
	p.mu.Unlock()
	if before != nil {
		before(false, n)
	}
	if pause {
		p.pause()
		err := apply()
		if p.f.onResume == resumeLandDie {
			p.mu.Lock()
			p.dieLocked(desc + " (zombie, landed late)")
			p.mu.Unlock()
			return errCrash
		}
		return err
	}
	if die {
		if p.f.opMode == landed {
			_ = apply()
		}
		p.mu.Lock()
		p.dieLocked(desc + " (" + p.f.opMode.String() + ")")
		p.mu.Unlock()
		return errCrash
	}
	return apply()
}

// mutations returns the number of storage mutations so far.
func (p *proc) mutations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ops
}

// hookCalls returns the number of hook calls so far.
func (p *proc) hookCalls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hooks
}

var _ fileio.FileIO = (*proc)(nil)

// Open implements fileio.FileIO.
func (p *proc) Open(ctx context.Context, path string) (fileio.File, error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	return p.base.Open(ctx, path)
}

// ReadFile implements fileio.FileIO.
func (p *proc) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	return p.base.ReadFile(ctx, path)
}

// Create implements fileio.FileIO; the mutation is the writer's Close.
func (p *proc) Create(ctx context.Context, path string) (fileio.Writer, error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	w, err := p.base.Create(ctx, path)
	if err != nil {
		return nil, err
	}
	return &procWriter{p: p, w: w, path: path}, nil
}

// WriteIfAbsent implements fileio.FileIO.
func (p *proc) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	return p.mutate("write-if-absent "+path, func() error { return p.base.WriteIfAbsent(context.WithoutCancel(ctx), path, data) })
}

// Stat implements fileio.FileIO.
func (p *proc) Stat(ctx context.Context, path string) (fileio.FileInfo, error) {
	if err := p.alive(); err != nil {
		return fileio.FileInfo{}, err
	}
	return p.base.Stat(ctx, path)
}

// List implements fileio.FileIO.
func (p *proc) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	return p.base.List(ctx, dir)
}

// Delete implements fileio.FileIO.
func (p *proc) Delete(ctx context.Context, path string) error {
	return p.mutate("delete "+path, func() error { return p.base.Delete(context.WithoutCancel(ctx), path) })
}

// DeleteAll implements fileio.FileIO.
func (p *proc) DeleteAll(ctx context.Context, path string) error {
	return p.mutate("delete-all "+path, func() error { return p.base.DeleteAll(context.WithoutCancel(ctx), path) })
}

// procWriter counts a Create as one mutation, at Close.
type procWriter struct {
	p    *proc
	w    fileio.Writer
	path string
}

// Write buffers b (nothing is visible before Close).
func (w *procWriter) Write(b []byte) (int, error) {
	if err := w.p.alive(); err != nil {
		return 0, err
	}
	return w.w.Write(b)
}

// Close publishes the file: the process's storage mutation.
func (w *procWriter) Close() error {
	return w.p.mutate("create "+w.path, func() error { return w.w.Close() })
}

// Abort discards the file.
func (w *procWriter) Abort() error { return w.w.Abort() }
