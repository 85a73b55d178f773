package mem

import (
	"bytes"
	"fmt"
	"io/fs"
)

// file reads one immutable version of a file.
type file struct {
	r      *bytes.Reader
	path   string
	closed bool
}

func (f *file) check(op string) error {
	if f.closed {
		return fmt.Errorf("fileio/mem: %w", &fs.PathError{Op: op, Path: f.path, Err: fs.ErrClosed})
	}
	return nil
}

// Read reads from the current offset.
func (f *file) Read(p []byte) (int, error) {
	if err := f.check("read"); err != nil {
		return 0, err
	}
	return f.r.Read(p)
}

// ReadAt reads at an absolute offset.
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	if err := f.check("read"); err != nil {
		return 0, err
	}
	return f.r.ReadAt(p, off)
}

// Seek sets the offset for Read.
func (f *file) Seek(off int64, whence int) (int64, error) {
	if err := f.check("seek"); err != nil {
		return 0, err
	}
	return f.r.Seek(off, whence)
}

// Size returns the file size.
func (f *file) Size() int64 { return f.r.Size() }

// Close releases the file; later reads fail.
func (f *file) Close() error {
	if err := f.check("close"); err != nil {
		return err
	}
	f.closed = true
	return nil
}
