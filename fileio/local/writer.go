package local

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/uuid"

	"github.com/lakeload/lakeload/fileio"
)

// Create starts writing path via a hidden temp file in the same directory; Close fsyncs it and
// renames it over path, Abort removes it. Parent directories are created.
func (*FS) Create(ctx context.Context, path string) (fileio.Writer, error) {
	p, err := osPath(ctx, path)
	if err != nil {
		return nil, err
	}
	f, err := createTemp(p)
	if err != nil {
		return nil, err
	}
	return &writer{final: p, f: f, buf: bufio.NewWriterSize(f, 64<<10)}, nil
}

// tempName returns the staging name for final: ".<base>.<uuid>.tmp" in the same directory, the
// pattern Java Paimon uses (hidden from prefix listings).
func tempName(final string) string {
	return filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+"."+uuid.NewString()+".tmp")
}

// createTemp creates the parent directories and a fresh temp file for final.
func createTemp(final string) (*os.File, error) {
	if err := mkdirAll(filepath.Dir(final)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(tempName(final), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("fileio/local: create temp for %s: %w", final, err)
	}
	return f, nil
}

// writer stages a Create in a temp file.
type writer struct {
	final string
	f     *os.File
	buf   *bufio.Writer
	done  bool // Close or Abort was called
}

var errWriterDone = errors.New("writer already closed or aborted")

// Write appends to the staged file.
func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("fileio/local: write %s: %w", w.final, errWriterDone)
	}
	n, err := w.buf.Write(p)
	if err != nil {
		return n, fmt.Errorf("fileio/local: write %s: %w", w.final, err)
	}
	return n, nil
}

// Close flushes and fsyncs the temp file, renames it over the target and fsyncs the directory.
// On error the temp file is removed and the target is unchanged (unless only the final directory
// sync failed).
func (w *writer) Close() error {
	if w.done {
		return fmt.Errorf("fileio/local: close %s: %w", w.final, errWriterDone)
	}
	w.done = true
	tmp := w.f.Name()
	if err := finishTemp(w.f, w.buf); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("fileio/local: close %s: %w", w.final, err)
	}
	if err := os.Rename(tmp, w.final); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("fileio/local: publish %s: %w", w.final, err)
	}
	return syncDir(filepath.Dir(w.final))
}

// Abort discards the staged file. Abort after a Close is a no-op, so `defer w.Abort()` is safe.
func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	_ = w.f.Close()
	if err := os.Remove(w.f.Name()); err != nil {
		return fmt.Errorf("fileio/local: abort %s: %w", w.final, err)
	}
	return nil
}

// finishTemp flushes buf (may be nil), fsyncs and closes f; f is closed in every case.
func finishTemp(f *os.File, buf *bufio.Writer) error {
	var err error
	if buf != nil {
		err = buf.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
