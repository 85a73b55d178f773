// Package fileio is lakeload's storage seam: a small interface over local disks and object stores.
//
// Invariants:
//   - WriteIfAbsent is the only publish primitive the commit path needs: it creates a file with the
//     given content only if no file exists at that path, atomically with respect to every other
//     writer (processes included). No rename is needed anywhere in the commit path.
//   - Create writes a whole file; readers never observe a partial file under the final name once
//     Close returned nil (implementations may stage the bytes elsewhere).
//   - Paths are slash-separated strings; a local path is absolute (or file:///abs), an object store
//     path carries its scheme (s3://bucket/key).
package fileio

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"
)

// ErrExist is returned (wrapped) by WriteIfAbsent when the target exists. errors.Is(err, fs.ErrExist) holds too.
var ErrExist = fs.ErrExist

// ErrNotExist is returned (wrapped) when a path does not exist. errors.Is(err, fs.ErrNotExist) holds too.
var ErrNotExist = fs.ErrNotExist

// FileInfo describes one file or directory.
type FileInfo struct {
	Path    string // full path
	Name    string // last path element
	Size    int64
	ModTime time.Time
	IsDir   bool
	// Type holds type bits (fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeDir, …; 0 for a regular file).
	// In List results they are the entry's own, not following a symbolic link, while IsDir, Size and
	// ModTime describe a link's target; Stat follows links. Backends without links or special files
	// (object stores, mem) set only fs.ModeDir or 0.
	Type fs.FileMode
}

// Regular reports whether the entry is a regular file itself (not a link, directory or special file).
// Listings for deletion delete only regular files.
func (fi FileInfo) Regular() bool { return !fi.IsDir && fi.Type&^fs.ModeDir == 0 }

// RealDir reports whether the entry is a directory itself, not a symbolic link to one. Listings for
// deletion descend only into real directories.
func (fi FileInfo) RealDir() bool { return fi.IsDir && fi.Type&^fs.ModeDir == 0 }

// File is an open file for random reads.
type File interface {
	io.ReaderAt
	io.Reader
	io.Seeker
	io.Closer
	Size() int64
}

// Writer writes a new file. Close publishes it; Abort discards it. Exactly one of them must be called.
type Writer interface {
	io.Writer
	Close() error
	Abort() error
}

// FileIO is the storage interface every backend implements.
type FileIO interface {
	// Open opens a file for reading.
	Open(ctx context.Context, path string) (File, error)
	// ReadFile reads a whole file.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// Create starts writing a file, replacing any existing file on Close. Parent directories are created.
	Create(ctx context.Context, path string) (Writer, error)
	// WriteIfAbsent atomically creates path with data, or returns an error wrapping ErrExist.
	WriteIfAbsent(ctx context.Context, path string, data []byte) error
	// Stat describes a path.
	Stat(ctx context.Context, path string) (FileInfo, error)
	// List returns the direct children of dir (files and directories), sorted by name. A missing dir lists empty.
	List(ctx context.Context, dir string) ([]FileInfo, error)
	// Delete removes a file or an empty directory; deleting a missing path is not an error.
	Delete(ctx context.Context, path string) error
	// DeleteAll removes a directory tree; a missing path is not an error.
	DeleteAll(ctx context.Context, path string) error
}

// Exists reports whether path exists.
func Exists(ctx context.Context, f FileIO, path string) (bool, error) {
	_, err := f.Stat(ctx, path)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	return false, err
}

// WriteFile creates (or replaces) path with data.
func WriteFile(ctx context.Context, f FileIO, path string, data []byte) error {
	w, err := f.Create(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Abort()
		return err
	}
	return w.Close()
}

// Join joins path elements with "/", keeping a scheme prefix such as s3:// intact.
func Join(base string, elem ...string) string {
	out := base
	for _, e := range elem {
		if e == "" {
			continue
		}
		if len(out) > 0 && out[len(out)-1] != '/' {
			out += "/"
		}
		out += e
	}
	return out
}
