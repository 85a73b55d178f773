// Package local implements fileio.FileIO on a POSIX file system.
//
// Invariants:
//   - A file under its final name is always complete: Create stages bytes in a hidden temp file
//     (".<name>.<uuid>.tmp", same directory) and renames it over the target only on Close, after
//     fsync; WriteIfAbsent publishes with link(2) or renameat2(RENAME_NOREPLACE), which fail if the
//     target exists, so exactly one writer wins even across processes. There is no
//     check-then-rename anywhere.
//   - Every publish fsyncs the file and then its directory; directories created on the way are
//     fsynced into their parents, so a published file survives a crash.
//   - Temp names start with "." so Java Paimon's prefix listing (snapshot-*, schema-*) never sees them.
//   - Paths are absolute OS paths or file:// URIs; errors name the path at fault.
package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lakeload/lakeload/fileio"
)

// FS is the local file system backend. The zero value is ready to use and safe for concurrent use.
type FS struct{}

// New returns a local file system backend.
func New() *FS { return &FS{} }

var _ fileio.FileIO = (*FS)(nil)

// file is an open local file; it adds Size to *os.File.
type file struct {
	*os.File
	size int64
}

// Size returns the file size at open time.
func (f *file) Size() int64 { return f.size }

// Open opens a regular file for reading.
func (*FS) Open(ctx context.Context, path string) (fileio.File, error) {
	p, err := osPath(ctx, path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("fileio/local: open: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("fileio/local: open: %w", err)
	}
	if st.IsDir() {
		_ = f.Close()
		return nil, fmt.Errorf("fileio/local: open %s: is a directory", p)
	}
	return &file{File: f, size: st.Size()}, nil
}

// ReadFile reads a whole file.
func (*FS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	p, err := osPath(ctx, path)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("fileio/local: read: %w", err)
	}
	return b, nil
}

// Stat describes path; FileInfo.Path is path as given (trailing slashes trimmed).
func (*FS) Stat(ctx context.Context, path string) (fileio.FileInfo, error) {
	p, err := osPath(ctx, path)
	if err != nil {
		return fileio.FileInfo{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return fileio.FileInfo{}, fmt.Errorf("fileio/local: stat: %w", err)
	}
	return info(trimSlash(path), st), nil
}

// List returns the direct children of dir sorted by name; a missing dir lists empty. Hidden temp
// files of in-flight writes are listed too (they are real directory entries). IsDir, Size and ModTime
// follow symbolic links; Type is the entry's own type (lstat), so a link is never taken for a
// regular file or directory by listings for deletion.
func (*FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	p, err := osPath(ctx, dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(p) // sorted by name
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fileio/local: list: %w", err)
	}
	out := make([]fileio.FileInfo, 0, len(entries))
	for _, e := range entries {
		st, err := os.Stat(filepath.Join(p, e.Name())) // follows symlinks
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed concurrently, or a dangling link
		}
		if err != nil {
			return nil, fmt.Errorf("fileio/local: list: %w", err)
		}
		fi := info(fileio.Join(trimSlash(dir), e.Name()), st)
		fi.Type = e.Type() // the entry itself (lstat), not its target
		out = append(out, fi)
	}
	return out, nil
}

// Delete removes a file or an empty directory; a missing path is not an error.
func (*FS) Delete(ctx context.Context, path string) error {
	p, err := osPath(ctx, path)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("fileio/local: delete: %w", err)
	}
	return nil
}

// DeleteAll removes a directory tree (or a file); a missing path is not an error.
func (*FS) DeleteAll(ctx context.Context, path string) error {
	p, err := osPath(ctx, path)
	if err != nil {
		return err
	}
	if p == "/" {
		return fmt.Errorf("fileio/local: delete-all %s: refusing to delete the root directory", path)
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("fileio/local: delete-all: %w", err)
	}
	return nil
}

func info(path string, st fs.FileInfo) fileio.FileInfo {
	return fileio.FileInfo{
		Path:    path,
		Name:    st.Name(),
		Size:    st.Size(),
		ModTime: st.ModTime(),
		IsDir:   st.IsDir(),
		Type:    st.Mode().Type(),
	}
}

func trimSlash(p string) string {
	for len(p) > 1 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	return p
}
