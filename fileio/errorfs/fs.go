package errorfs

import (
	"context"
	"sync"

	"github.com/lakeload/lakeload/fileio"
)

// FS wraps a fileio.FileIO, numbering its operations and failing those its Injector selects.
// Safe for concurrent use; the numbering follows the order calls reach the wrapper.
type FS struct {
	inner fileio.FileIO
	inj   Injector
	mode  Mode

	mu       sync.Mutex
	n        int64
	record   bool
	log      []Op
	injected []Op
}

var _ fileio.FileIO = (*FS)(nil)

// Wrap returns a wrapper over inner failing the operations in selects with the given mode
// (nil in: count only).
func Wrap(inner fileio.FileIO, in Injector, mode Mode) *FS {
	if in == nil {
		in = Never
	}
	return &FS{inner: inner, inj: in, mode: mode}
}

// Record makes the wrapper keep every operation for Log.
func (f *FS) Record() *FS {
	f.mu.Lock()
	f.record = true
	f.mu.Unlock()
	return f
}

// Ops returns the number of operations so far.
func (f *FS) Ops() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// Log returns the recorded operations (see Record), in index order.
func (f *FS) Log() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.log...)
}

// Injected returns the operations that were failed so far.
func (f *FS) Injected() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.injected...)
}

// step numbers one operation and returns its injected error, or nil when it proceeds.
func (f *FS) step(kind OpKind, path string) (Op, *InjectedError) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	op := Op{Index: f.n, Kind: kind, Path: path}
	if f.record {
		f.log = append(f.log, op)
	}
	if !f.inj.Inject(op) {
		return op, nil
	}
	f.injected = append(f.injected, op)
	mode := f.mode
	if (mode == ModeTorn && !kind.Tearable()) || (mode == ModeLanded && !kind.Mutates()) {
		mode = ModeError
	}
	return op, &InjectedError{Op: op, Mode: mode}
}

// Open implements fileio.FileIO.
func (f *FS) Open(ctx context.Context, path string) (fileio.File, error) {
	if _, ie := f.step(OpOpen, path); ie != nil {
		return nil, ie
	}
	file, err := f.inner.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return &errFile{fs: f, f: file, path: path}, nil
}

// ReadFile implements fileio.FileIO.
func (f *FS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if _, ie := f.step(OpReadFile, path); ie != nil {
		return nil, ie
	}
	return f.inner.ReadFile(ctx, path)
}

// Create implements fileio.FileIO; the returned Writer buffers until Close.
func (f *FS) Create(ctx context.Context, path string) (fileio.Writer, error) {
	if _, ie := f.step(OpCreate, path); ie != nil {
		return nil, ie
	}
	w, err := f.inner.Create(ctx, path)
	if err != nil {
		return nil, err
	}
	return &errWriter{fs: f, w: w, path: path}, nil
}

// WriteIfAbsent implements fileio.FileIO; a torn fault stores the first half of data, then fails.
func (f *FS) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	_, ie := f.step(OpWriteIfAbsent, path)
	if ie == nil {
		return f.inner.WriteIfAbsent(ctx, path, data)
	}
	switch ie.Mode {
	case ModeTorn:
		_ = f.inner.WriteIfAbsent(ctx, path, data[:len(data)/2])
	case ModeLanded:
		_ = f.inner.WriteIfAbsent(ctx, path, data)
	}
	return ie
}

// Stat implements fileio.FileIO.
func (f *FS) Stat(ctx context.Context, path string) (fileio.FileInfo, error) {
	if _, ie := f.step(OpStat, path); ie != nil {
		return fileio.FileInfo{}, ie
	}
	return f.inner.Stat(ctx, path)
}

// List implements fileio.FileIO.
func (f *FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	if _, ie := f.step(OpList, dir); ie != nil {
		return nil, ie
	}
	return f.inner.List(ctx, dir)
}

// Delete implements fileio.FileIO.
func (f *FS) Delete(ctx context.Context, path string) error {
	_, ie := f.step(OpDelete, path)
	if ie == nil {
		return f.inner.Delete(ctx, path)
	}
	if ie.Mode == ModeLanded {
		_ = f.inner.Delete(ctx, path)
	}
	return ie
}

// DeleteAll implements fileio.FileIO.
func (f *FS) DeleteAll(ctx context.Context, path string) error {
	_, ie := f.step(OpDeleteAll, path)
	if ie == nil {
		return f.inner.DeleteAll(ctx, path)
	}
	if ie.Mode == ModeLanded {
		_ = f.inner.DeleteAll(ctx, path)
	}
	return ie
}
